import { Context, type Effect, type Option } from "effect"
import type { TooManyRequests } from "../../platform/errors"
import type { MessageRecord, Participant } from "./domain"
import type { EventFeed, EventPublisher } from "../../platform/events"

export interface ConversationRecord {
  readonly id: string
  readonly title: string | null
  readonly serviceId: string | null
  readonly participantIds: ReadonlyArray<string>
  readonly lastMessageAt: Date
  readonly createdAt: Date
}

/** A conversation as one participant sees it in the list: who is in it, what they have not read, the last message. */
export interface ConversationSummary extends ConversationRecord {
  readonly participants: ReadonlyArray<Participant>
  readonly unreadCount: number
  readonly lastMessage: (MessageRecord & { readonly senderFirstName: string }) | null
}

export interface Page {
  readonly limit: number
  readonly offset: number
}

export interface ConversationRepositoryShape {
  readonly find: (id: string) => Effect.Effect<Option.Option<ConversationRecord>>
  /** The conversation of a pair of users about `serviceId` (null: about nothing in particular). */
  readonly findPair: (a: string, b: string, serviceId: string | null) => Effect.Effect<Option.Option<ConversationRecord>>
  /**
   * Creates the conversation of the pair (for that service) with both participants; when a
   * concurrent request created it first, answers that one with `created: false`.
   */
  readonly create: (conversation: {
    readonly participantIds: readonly [string, string]
    readonly serviceId: string | null
    readonly title: string | null
    readonly at: Date
  }) => Effect.Effect<{ readonly conversation: ConversationRecord; readonly created: boolean }>
  /** The conversation as `viewerId` sees it (unread count from their side). */
  readonly summary: (id: string, viewerId: string) => Effect.Effect<Option.Option<ConversationSummary>>
  /** `userId`'s conversations, last activity first. */
  readonly listFor: (
    userId: string,
    page: Page
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<ConversationSummary>; readonly total: number }>
  /** Stores a message and moves the conversation's last activity to it (run inside a transaction). */
  readonly addMessage: (message: {
    readonly conversationId: string
    readonly senderId: string
    readonly content: string
    readonly at: Date
  }) => Effect.Effect<MessageRecord>
  /** A page of a conversation's messages, newest first. */
  readonly messages: (
    conversationId: string,
    page: Page
  ) => Effect.Effect<{ readonly rows: ReadonlyArray<MessageRecord>; readonly total: number }>
  /**
   * Marks as read, at `at`, the unread messages of the conversation that others sent to `readerId`
   * (only those of `onlyIds` when given); answers the ids it changed.
   */
  readonly markRead: (
    conversationId: string,
    readerId: string,
    at: Date,
    onlyIds?: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<string>>
  /** Everyone who shares a conversation with `userId` (presence goes to them). */
  readonly partnersOf: (userId: string) => Effect.Effect<ReadonlyArray<string>>
}
export class ConversationRepository extends Context.Tag("messaging/ConversationRepository")<
  ConversationRepository,
  ConversationRepositoryShape
>() {}

/** What messaging needs to know of a service a conversation is about (the catalogue answers). */
export interface ConversationTopic {
  readonly id: string
  readonly title: string
  readonly ownerId: string
}
export class ServiceTopics extends Context.Tag("messaging/ServiceTopics")<
  ServiceTopics,
  {
    /** The service if `viewerId` may see it (public, or their own and not deleted). */
    readonly find: (serviceId: string, viewerId: string) => Effect.Effect<Option.Option<ConversationTopic>>
  }
>() {}

// ---- Events ----------------------------------------------------------------------------------

/** What happened in a conversation, for whoever should hear of it at once (the real-time link). */
export type ConversationEvent =
  | {
      readonly type: "message_received"
      readonly recipientIds: ReadonlyArray<string>
      readonly message: MessageRecord
      readonly sender: Participant
    }
  | {
      readonly type: "messages_read"
      readonly recipientIds: ReadonlyArray<string>
      readonly conversationId: string
      readonly readerId: string
      readonly messageIds: ReadonlyArray<string>
      readonly readAt: Date
    }

/**
 * Where the service announces events, after they are stored. Announcing never fails: a listener
 * that is not there (the CLI, a test) loses nothing, clients read the conversation back over REST.
 */
export class ConversationEvents extends Context.Tag("messaging/ConversationEvents")<
  ConversationEvents,
  EventPublisher<ConversationEvent>
>() {}

/** The listening side of ConversationEvents (the socket.io adapter subscribes once its server exists). */
export class ConversationEventFeed extends Context.Tag("messaging/ConversationEventFeed")<
  ConversationEventFeed,
  EventFeed<ConversationEvent>
>() {}

/** Counts messages sent per user and refuses past the configured rate (MESSAGE_RATE_LIMIT). */
export class MessageRateLimiter extends Context.Tag("messaging/MessageRateLimiter")<
  MessageRateLimiter,
  { readonly consume: (userId: string) => Effect.Effect<void, TooManyRequests> }
>() {}
