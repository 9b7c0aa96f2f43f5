import { Effect, Layer, Option } from "effect"
import * as crypto from "node:crypto"
import { UserRepository } from "../../identity"
import { type MessageRecord, pairKey, type Participant, toMarkRead, unreadCount } from "../domain"
import { type ConversationRecord, ConversationRepository, type ConversationSummary } from "../ports"

/** In-memory conversations with the contracts of the Postgres adapter (needs an in-memory UserRepository for names). */
export const ConversationRepositoryMemory = Layer.effect(
  ConversationRepository,
  Effect.gen(function* () {
    const users = yield* UserRepository
    const conversations = new Map<string, ConversationRecord & { readonly pair: string }>()
    /** In sending order (the Postgres sequence). */
    const messages: Array<MessageRecord> = []

    const participant = (id: string) =>
      Effect.map(users.findById(id), (u): Participant => {
        const user = Option.getOrThrow(u)
        return { id: user.id, firstName: user.firstName, lastName: user.lastName }
      })
    const messagesOf = (conversationId: string) => messages.filter((m) => m.conversationId === conversationId)
    const strip = ({ pair: _, ...record }: ConversationRecord & { readonly pair: string }): ConversationRecord => record
    const summaryOf = (c: ConversationRecord, viewerId: string): Effect.Effect<ConversationSummary> =>
      Effect.gen(function* () {
        const own = messagesOf(c.id)
        const last = own[own.length - 1]
        return {
          ...c,
          participants: yield* Effect.forEach(c.participantIds, participant),
          unreadCount: unreadCount(own, viewerId),
          lastMessage: last ? { ...last, senderFirstName: (yield* participant(last.senderId)).firstName } : null
        }
      })
    const byActivity = (a: ConversationRecord, b: ConversationRecord) =>
      b.lastMessageAt.getTime() - a.lastMessageAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
    const findPair = (a: string, b: string, serviceId: string | null) =>
      Option.map(Option.fromNullable([...conversations.values()].find((c) => c.pair === pairKey(a, b) && c.serviceId === serviceId)), strip)

    return {
      find: (id) => Effect.sync(() => Option.map(Option.fromNullable(conversations.get(id)), strip)),
      findPair: (a, b, serviceId) => Effect.sync(() => findPair(a, b, serviceId)),
      create: ({ at, participantIds, serviceId, title }) =>
        Effect.sync(() => {
          const existing = findPair(participantIds[0], participantIds[1], serviceId)
          if (Option.isSome(existing)) return { conversation: existing.value, created: false }
          const record = {
            id: crypto.randomUUID(),
            title,
            serviceId,
            participantIds: [...participantIds],
            lastMessageAt: at,
            createdAt: at,
            pair: pairKey(participantIds[0], participantIds[1])
          }
          conversations.set(record.id, record)
          return { conversation: strip(record), created: true }
        }),
      summary: (id, viewerId) => {
        const c = conversations.get(id)
        return c && c.participantIds.includes(viewerId)
          ? Effect.map(summaryOf(strip(c), viewerId), Option.some)
          : Effect.succeed(Option.none())
      },
      listFor: (userId, page) => {
        const mine = [...conversations.values()].filter((c) => c.participantIds.includes(userId)).sort(byActivity)
        return Effect.map(
          Effect.forEach(mine.slice(page.offset, page.offset + page.limit), (c) => summaryOf(strip(c), userId)),
          (rows) => ({ rows, total: mine.length })
        )
      },
      addMessage: ({ at, content, conversationId, senderId }) =>
        Effect.sync(() => {
          const message: MessageRecord = {
            id: crypto.randomUUID(),
            conversationId,
            senderId,
            content,
            createdAt: at,
            readAt: null,
            hiddenAt: null
          }
          messages.push(message)
          const c = conversations.get(conversationId)!
          if (at > c.lastMessageAt) conversations.set(c.id, { ...c, lastMessageAt: at })
          return message
        }),
      messages: (conversationId, page) =>
        Effect.sync(() => {
          const newestFirst = messagesOf(conversationId).reverse()
          return { rows: newestFirst.slice(page.offset, page.offset + page.limit), total: newestFirst.length }
        }),
      markRead: (conversationId, readerId, at, onlyIds) =>
        Effect.sync(() => {
          const ids = new Set(toMarkRead(messagesOf(conversationId), readerId, onlyIds))
          for (let i = 0; i < messages.length; i++) if (ids.has(messages[i]!.id)) messages[i] = { ...messages[i]!, readAt: at }
          return [...ids]
        }),
      findMessage: (id) => Effect.sync(() => Option.fromNullable(messages.find((m) => m.id === id))),
      hideMessage: (id, at) =>
        Effect.sync(() => {
          const i = messages.findIndex((m) => m.id === id)
          if (i >= 0 && messages[i]!.hiddenAt === null) messages[i] = { ...messages[i]!, hiddenAt: at }
        }),
      unreadTotals: (userId) =>
        Effect.sync(() => {
          const counts = [...conversations.values()]
            .filter((c) => c.participantIds.includes(userId))
            .map((c) => unreadCount(messagesOf(c.id), userId))
          return { messages: counts.reduce((a, b) => a + b, 0), conversations: counts.filter((n) => n > 0).length }
        }),
      partnersOf: (userId) =>
        Effect.sync(() => [
          ...new Set(
            [...conversations.values()]
              .filter((c) => c.participantIds.includes(userId))
              .flatMap((c) => c.participantIds.filter((id) => id !== userId))
          )
        ])
    }
  })
)
