// Pure rules of the messaging screen: titles, relative times, message lists and the list's live updates.

import { MAX_CONTENT_LENGTH as MAX_MESSAGE_LENGTH } from "../../src/modules/messaging/rules"
import type { Conversation, Message, MessageReceived, MessagesRead } from "../api/contract"
import { formatDate } from "../format"

// The server's own limits (src/modules/messaging/rules.ts imports nothing).
export { CONVERSATIONS_PAGE_SIZE, MAX_CONTENT_LENGTH as MAX_MESSAGE_LENGTH, MESSAGES_PAGE_SIZE } from "../../src/modules/messaging/rules"
/** Spec section 9: typing stops after 1 s; fallback poll 30 s; reconnect 2 s. */
export const TYPING_IDLE_MS = 1000
export const FALLBACK_POLL_MS = 30_000
export const RECONNECT_DELAY_MS = 2000
/** How long the connection banner stays green after the link came back. */
export const RECOVERED_BANNER_MS = 5000

// ---- Titles ----

export type ConversationTitle =
  | { readonly kind: "title"; readonly text: string }
  | { readonly kind: "name"; readonly text: string }
  | { readonly kind: "count"; readonly count: number }

/** The conversation's own title, else the other participant's full name, else how many take part. */
export const conversationTitle = (conversation: Pick<Conversation, "title" | "participants">, viewerId: string): ConversationTitle => {
  const own = conversation.title?.trim()
  if (own) return { kind: "title", text: own }
  const others = conversation.participants.filter((p) => p.id !== viewerId)
  const other = others[0]
  if (others.length === 1 && other) {
    const name = `${other.firstName} ${other.lastName}`.trim()
    if (name !== "") return { kind: "name", text: name }
  }
  return { kind: "count", count: conversation.participants.length }
}

/** The participant the viewer talks to (the first other one). */
export const otherParticipant = (conversation: Pick<Conversation, "participants">, viewerId: string) =>
  conversation.participants.find((p) => p.id !== viewerId)

// ---- Content ----

/** Characters as the server counts them (code points), so the counter and the 2000 limit agree. */
export const characterCount = (text: string) => {
  let n = 0
  for (const _ of text) n++
  return n
}

/** Why a draft cannot be sent, if it cannot: blank, or longer than 2000 characters once trimmed. */
export const draftProblem = (draft: string): "empty" | "tooLong" | null => {
  const trimmed = draft.trim()
  if (trimmed === "") return "empty"
  return characterCount(trimmed) > MAX_MESSAGE_LENGTH ? "tooLong" : null
}

// ---- Relative time ----

export type RelativeTime = { readonly unit: "second" | "minute" | "hour" | "day"; readonly value: number } | { readonly unit: "date" }

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** How long ago `then` was, in the unit a person would use: now, minutes, hours, days, else the date. */
export const relativeTime = (then: number, now: number): RelativeTime => {
  const elapsed = Math.max(0, now - then)
  if (elapsed < MINUTE) return { unit: "second", value: 0 }
  if (elapsed < HOUR) return { unit: "minute", value: -Math.floor(elapsed / MINUTE) }
  if (elapsed < DAY) return { unit: "hour", value: -Math.floor(elapsed / HOUR) }
  if (elapsed < 7 * DAY) return { unit: "day", value: -Math.floor(elapsed / DAY) }
  return { unit: "date" }
}

/** `relativeTime` in words of `locale` ("à l'instant", "il y a 3 heures", "yesterday", a date). */
export const formatRelative = (iso: string, now: number, locale: string) => {
  const then = Date.parse(iso)
  const relative = relativeTime(then, now)
  if (relative.unit === "date") return formatDate(locale, then)
  return new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(relative.value, relative.unit)
}

// ---- Messages ----

/** One list oldest first, each message once (a newer copy replaces an older one: read marks). */
export const mergeMessages = (current: ReadonlyArray<Message>, incoming: ReadonlyArray<Message>): ReadonlyArray<Message> => {
  const byId = new Map(current.map((m) => [m.id, m]))
  for (const m of incoming) byId.set(m.id, m)
  // A stable sort: messages of one millisecond keep the order they came in.
  return [...byId.values()].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt))
}

/** Read marks applied to the messages they name. */
export const applyRead = (messages: ReadonlyArray<Message>, event: Pick<MessagesRead, "messageIds" | "readAt">): ReadonlyArray<Message> => {
  const ids = new Set(event.messageIds)
  return messages.map((m) => (ids.has(m.id) && !m.isRead ? { ...m, isRead: true, readAt: event.readAt } : m))
}

export type DeliveryState = "sending" | "sent" | "delivered" | "read" | "failed"

/**
 * The state of a message the viewer sent: read once the other side read it; delivered once the other
 * side was connected after it was stored (this screen saw them online); sent otherwise.
 */
export const deliveryState = (message: Pick<Message, "id" | "isRead">, delivered: ReadonlySet<string>): DeliveryState =>
  message.isRead ? "read" : delivered.has(message.id) ? "delivered" : "sent"

// ---- The conversation list, live ----

/**
 * The list after a message arrived: its conversation moves to the top with the new last message and,
 * when someone else sent it, one more unread (an open dialog marks it read at once, and that read
 * mark lowers the count again). "reload" when the conversation is not on this page (a new one, or
 * further down): the list is read again.
 */
export const withMessage = (
  list: ReadonlyArray<Conversation>,
  event: MessageReceived,
  viewerId: string
): ReadonlyArray<Conversation> | "reload" => {
  const index = list.findIndex((c) => c.id === event.conversationId)
  if (index < 0) return "reload"
  const current = list[index]!
  if (current.lastMessage?.id === event.message.id) return list
  const updated: Conversation = {
    ...current,
    lastMessage: { ...event.message, sender: { id: event.sender.id, firstName: event.sender.firstName } },
    lastMessageAt: event.message.createdAt,
    unreadCount: current.unreadCount + (event.message.senderId !== viewerId ? 1 : 0)
  }
  return [updated, ...list.slice(0, index), ...list.slice(index + 1)]
}

/** The list after read marks: the viewer's own marks lower their unread count; anyone's mark the last message read. */
export const withRead = (list: ReadonlyArray<Conversation>, event: MessagesRead, viewerId: string): ReadonlyArray<Conversation> =>
  list.map((c) => {
    if (c.id !== event.conversationId) return c
    const lastRead = c.lastMessage !== null && event.messageIds.includes(c.lastMessage.id)
    return {
      ...c,
      unreadCount: event.readerId === viewerId ? Math.max(0, c.unreadCount - event.messageIds.length) : c.unreadCount,
      lastMessage: lastRead && c.lastMessage ? { ...c.lastMessage, isRead: true, readAt: event.readAt } : c.lastMessage
    }
  })

// ---- The navigation's unread badge, live ----

/**
 * The badge's count: read once after login, then moved by the socket events. `counted` holds the
 * messages it added, so that an event delivered twice (two processes, a replay) counts once.
 */
export interface UnreadTally {
  readonly count: number
  readonly counted: ReadonlySet<string>
}

export const unreadTally = (count: number): UnreadTally => ({ count, counted: new Set() })

/** A message someone else sent is one more unread; the viewer's own (from another tab) is not. */
export const tallyReceived = (tally: UnreadTally, event: MessageReceived, viewerId: string): UnreadTally =>
  event.message.senderId === viewerId || tally.counted.has(event.message.id)
    ? tally
    : { count: tally.count + 1, counted: new Set(tally.counted).add(event.message.id) }

/** The viewer's read marks (any tab, any device) lower the count by the messages they marked; others' do not. */
export const tallyRead = (tally: UnreadTally, event: MessagesRead, viewerId: string): UnreadTally =>
  event.readerId !== viewerId ? tally : { count: Math.max(0, tally.count - event.messageIds.length), counted: tally.counted }
