import { Context, Effect, Layer, Option } from "effect"
import { now } from "../../platform/clock"
import { type Forbidden, invalid, issue, type NotFound, type TooManyRequests, type ValidationFailed } from "../../platform/errors"
import { isUuid } from "../../platform/ids"
import { pageOf } from "../../platform/paging"
import { Transactional } from "../../platform/transaction"
import { type User, UserRepository } from "../identity"
import {
  ConversationNotFound,
  CONVERSATIONS_PAGE_SIZE,
  decideStart,
  decideWrite,
  isParticipant,
  type MessageRecord,
  MESSAGES_PAGE_SIZE,
  PairBlocked,
  type Participant,
  TopicNotFound,
  validateContent
} from "./domain"
import {
  type ConversationRecord,
  ConversationEvents,
  ConversationRepository,
  type ConversationSummary,
  MessageRateLimiter,
  PairBookings,
  SafetyRepository,
  ServiceTopics,
  type UnreadTotals
} from "./ports"
import { type BlockState, blockStateOf } from "./rules"

export interface PageQuery {
  readonly page?: number | string | undefined
  readonly limit?: number | string | undefined
}
export interface Paged<A> {
  readonly rows: ReadonlyArray<A>
  readonly total: number
  readonly page: number
  readonly limit: number
}

/**
 * A conversation as its reader gets it: `isPrivate` while its two members have no booking agreed
 * between them (contact details are then masked for the reader of the other's messages: masking.ts).
 */
export interface ConversationReading extends ConversationSummary {
  readonly isPrivate: boolean
  readonly blocked: BlockState
}

const othersOf = (participantIds: ReadonlyArray<string>, userId: string) => participantIds.filter((p) => p !== userId)

/** Ids a client names in mark_as_read: at most this many are looked at. */
const MAX_MARKED_IDS = 1000

export class Messaging extends Context.Tag("messaging/Messaging")<
  Messaging,
  {
    /** The caller's conversations, last activity first. */
    readonly list: (userId: string, query: PageQuery) => Effect.Effect<Paged<ConversationReading>>
    readonly get: (userId: string, conversationId: string) => Effect.Effect<ConversationReading, NotFound>
    /** Finds the conversation of the pair (about the service if given) or creates it. */
    readonly start: (
      userId: string,
      input: { readonly participantId?: string | null | undefined; readonly serviceId?: string | null | undefined }
    ) => Effect.Effect<{ readonly conversation: ConversationReading; readonly created: boolean }, ValidationFailed | NotFound | Forbidden>
    /** Stores the message, then announces it to every participant (message_received). Refused when one of the pair blocked the other (403). */
    readonly send: (
      userId: string,
      conversationId: string,
      content: string | null | undefined
    ) => Effect.Effect<
      { readonly message: MessageRecord; readonly sender: Participant; readonly isPrivate: boolean },
      NotFound | Forbidden | ValidationFailed | TooManyRequests
    >
    /** Marks what the others sent the caller as read (only `messageIds` when given), then announces it (messages_read). */
    readonly markRead: (
      userId: string,
      conversationId: string,
      messageIds?: ReadonlyArray<unknown>
    ) => Effect.Effect<{ readonly messageIds: ReadonlyArray<string>; readonly readAt: Date }, NotFound | Forbidden>
    /** A page of messages, newest first. */
    readonly messages: (
      userId: string,
      conversationId: string,
      query: PageQuery
    ) => Effect.Effect<Paged<MessageRecord> & { readonly isPrivate: boolean }, NotFound>
    /** The participants of a conversation the caller is part of (joining its real-time room). */
    readonly participantsOf: (userId: string, conversationId: string) => Effect.Effect<ReadonlyArray<string>, NotFound>
    /** What the user has not read, over all their conversations (the navigation's badge). */
    readonly unread: (userId: string) => Effect.Effect<UnreadTotals>
    /** Everyone who shares a conversation with the user (presence). */
    readonly partnersOf: (userId: string) => Effect.Effect<ReadonlyArray<string>>
  }
>() {}

const participantOf = (user: User): Participant => ({ id: user.id, firstName: user.firstName, lastName: user.lastName })

export const MessagingLive = Layer.effect(
  Messaging,
  Effect.gen(function* () {
    const conversations = yield* ConversationRepository
    const users = yield* UserRepository
    const topics = yield* ServiceTopics
    const events = yield* ConversationEvents
    const limiter = yield* MessageRateLimiter
    const tx = yield* Transactional
    const safety = yield* SafetyRepository
    const pairBookings = yield* PairBookings

    /** Whether `userId` and the others of a conversation have no booking agreed between them yet. */
    const privacyOf = (userId: string, participantIds: ReadonlyArray<string>) => {
      const others = othersOf(participantIds, userId)
      return Effect.map(pairBookings.bookedWith(userId, others), (booked) => others.some((o) => !booked.has(o)))
    }
    const reading = (userId: string, summary: ConversationSummary): Effect.Effect<ConversationReading> => {
      const others = othersOf(summary.participantIds, userId)
      return Effect.zipWith(privacyOf(userId, summary.participantIds), safety.blocksAround(userId, others), (isPrivate, around) => ({
        ...summary,
        isPrivate,
        blocked: blockStateOf(others, around)
      }))
    }
    /** Refuses (403) when one of the two blocked the other. */
    const notBlocked = (userId: string, otherIds: ReadonlyArray<string>) =>
      Effect.forEach(otherIds, (other) =>
        Effect.flatMap(safety.blockedEitherWay(userId, other), (blocked) => (blocked ? Effect.fail(PairBlocked) : Effect.void))
      )

    const userOf = (id: string) =>
      Effect.flatMap(
        users.findById(id),
        Option.match({ onNone: () => Effect.dieMessage(`authenticated user ${id} not found`), onSome: Effect.succeed })
      )
    /** The conversation if `userId` takes part in it; the same 404 otherwise, revealing nothing. */
    // The HTTP paths decode the id; socket events (adapters/socket.ts) carry it as the client sent it.
    const visible = (userId: string, conversationId: string): Effect.Effect<ConversationRecord, NotFound> =>
      isUuid(conversationId)
        ? Effect.flatMap(conversations.find(conversationId.toLowerCase()), (found) =>
            Option.isSome(found) && isParticipant(found.value.participantIds, userId)
              ? Effect.succeed(found.value)
              : Effect.fail(ConversationNotFound)
          )
        : Effect.fail(ConversationNotFound)
    const summaryOf = (conversationId: string, userId: string) =>
      Effect.flatMap(
        conversations.summary(conversationId, userId),
        Option.match({ onNone: () => Effect.fail(ConversationNotFound), onSome: Effect.succeed })
      )

    return {
      list: (userId, query) =>
        Effect.gen(function* () {
          const { page, limit, offset } = pageOf(query, CONVERSATIONS_PAGE_SIZE)
          const found = yield* conversations.listFor(userId, { limit, offset })
          // One question for the whole page: which partners the caller has a booking with.
          const partners = [...new Set(found.rows.flatMap((c) => othersOf(c.participantIds, userId)))]
          const booked = yield* pairBookings.bookedWith(userId, partners)
          const around = yield* safety.blocksAround(userId, partners)
          const rows = found.rows.map((c) => {
            const others = othersOf(c.participantIds, userId)
            return { ...c, isPrivate: others.some((p) => !booked.has(p)), blocked: blockStateOf(others, around) }
          })
          return { rows, total: found.total, page, limit }
        }),

      get: (userId, conversationId) =>
        visible(userId, conversationId).pipe(
          Effect.flatMap((c) => summaryOf(c.id, userId)),
          Effect.flatMap((c) => reading(userId, c))
        ),

      start: (userId, input) =>
        Effect.gen(function* () {
          const me = yield* userOf(userId)
          const participantId = input.participantId?.trim() ?? ""
          if (participantId === "") return yield* invalid([issue("participantId", "validation.required")])
          const other = isUuid(participantId) ? Option.getOrUndefined(yield* users.findById(participantId.toLowerCase())) : undefined
          yield* decideStart(me, other)
          yield* notBlocked(me.id, [other!.id])
          const serviceId = input.serviceId?.trim() || null
          let title: string | null = null
          if (serviceId !== null) {
            const topic = isUuid(serviceId) ? yield* topics.find(serviceId.toLowerCase(), me.id) : Option.none()
            if (Option.isNone(topic)) return yield* TopicNotFound
            // A conversation about a service is with its provider.
            if (topic.value.ownerId !== me.id && topic.value.ownerId !== other!.id) {
              return yield* invalid([issue("serviceId", "messaging.serviceNotOfParticipant")])
            }
            title = topic.value.title
          }
          const topicId = serviceId?.toLowerCase() ?? null
          const existing = yield* conversations.findPair(me.id, other!.id, topicId)
          const { conversation, created } = Option.isSome(existing)
            ? { conversation: existing.value, created: false }
            : yield* tx.run(conversations.create({ participantIds: [me.id, other!.id], serviceId: topicId, title, at: yield* now }))
          return { conversation: yield* reading(me.id, yield* summaryOf(conversation.id, me.id)), created }
        }),

      send: (userId, conversationId, content) =>
        Effect.gen(function* () {
          const conversation = yield* visible(userId, conversationId)
          const sender = yield* userOf(userId)
          yield* decideWrite(sender, conversation.participantIds)
          yield* notBlocked(
            sender.id,
            conversation.participantIds.filter((p) => p !== sender.id)
          )
          const text = yield* validateContent(content)
          yield* limiter.consume(sender.id)
          const at = yield* now
          const message = yield* tx.run(
            conversations.addMessage({ conversationId: conversation.id, senderId: sender.id, content: text, at })
          )
          const author = participantOf(sender)
          const isPrivate = yield* privacyOf(sender.id, conversation.participantIds)
          yield* events.publish({ type: "message_received", recipientIds: conversation.participantIds, message, sender: author, isPrivate })
          return { message, sender: author, isPrivate }
        }),

      markRead: (userId, conversationId, messageIds) =>
        Effect.gen(function* () {
          const conversation = yield* visible(userId, conversationId)
          yield* decideWrite(yield* userOf(userId), conversation.participantIds)
          const only =
            messageIds === undefined
              ? undefined
              : messageIds
                  .slice(0, MAX_MARKED_IDS)
                  .filter(isUuid)
                  .map((id) => id.toLowerCase())
          const readAt = yield* now
          const marked = only !== undefined && only.length === 0 ? [] : yield* conversations.markRead(conversation.id, userId, readAt, only)
          if (marked.length > 0) {
            yield* events.publish({
              type: "messages_read",
              recipientIds: conversation.participantIds,
              conversationId: conversation.id,
              readerId: userId,
              messageIds: marked,
              readAt
            })
          }
          return { messageIds: marked, readAt }
        }),

      messages: (userId, conversationId, query) =>
        Effect.gen(function* () {
          const conversation = yield* visible(userId, conversationId)
          const { page, limit, offset } = pageOf(query, MESSAGES_PAGE_SIZE)
          const found = yield* conversations.messages(conversation.id, { limit, offset })
          return { ...found, page, limit, isPrivate: yield* privacyOf(userId, conversation.participantIds) }
        }),

      participantsOf: (userId, conversationId) => Effect.map(visible(userId, conversationId), (c) => c.participantIds),

      unread: (userId) => conversations.unreadTotals(userId),
      partnersOf: (userId) => conversations.partnersOf(userId)
    }
  })
)
