import { Context, type Effect, type Option } from "effect"
import type { TooManyRequests } from "../../platform/errors"
import type { MessageRecord, Participant } from "./domain"
import type { BlocksAround, ReportReason, ReportStatus } from "./rules"
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

/** Messages others sent that the user has not read, and in how many conversations. */
export interface UnreadTotals {
  readonly messages: number
  readonly conversations: number
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
  /** What `userId` has not read, over all their conversations (the navigation's badge). */
  readonly unreadTotals: (userId: string) => Effect.Effect<UnreadTotals>
  /** Everyone who shares a conversation with `userId` (presence goes to them). */
  readonly partnersOf: (userId: string) => Effect.Effect<ReadonlyArray<string>>
  /** One message, hidden or not (reports name it). */
  readonly findMessage: (id: string) => Effect.Effect<Option.Option<MessageRecord>>
  /** Hides a message for everyone but admins (a moderator's decision); a hidden one stays as it was. */
  readonly hideMessage: (id: string, at: Date) => Effect.Effect<void>
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
      /** The pair has no booking yet: the recipient reads the message masked (masking.ts). */
      readonly isPrivate: boolean
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

// ---- Private until booked (issue 15) -----------------------------------------------------------

/** Which of `partnerIds` have a booking with `userId` in one of contact-details/rules.ts's BOOKED_STATUSES (either side). */
export class PairBookings extends Context.Tag("messaging/PairBookings")<
  PairBookings,
  { readonly bookedWith: (userId: string, partnerIds: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>> }
>() {}

// ---- Blocks and reports (issue 15) ---------------------------------------------------------------

export interface BlockRecord {
  readonly user: Participant
  readonly createdAt: Date
}

export interface ReportRecord {
  readonly id: string
  readonly reason: ReportReason
  readonly details: string
  readonly status: ReportStatus
  readonly reporter: Participant
  readonly reportedUser: Participant & { readonly isActive: boolean }
  /** The reported message (null for a report of a profile, or once the message is gone). */
  readonly message: MessageRecord | null
  readonly messageId: string | null
  readonly decidedBy: string | null
  readonly decidedAt: Date | null
  readonly decisionNote: string
  readonly createdAt: Date
}

/** What a report is about: who files it, whom it reports, and which of their messages (none for a profile). */
export interface ReportTarget {
  readonly reporterId: string
  readonly reportedUserId: string
  readonly messageId: string | null
}

export interface SafetyRepositoryShape {
  /** Records that `blockerId` blocks `blockedId` (`created` false when it already did, since `createdAt`). */
  readonly block: (blockerId: string, blockedId: string, at: Date) => Effect.Effect<{ readonly created: boolean; readonly createdAt: Date }>
  /** Lifts the block; false when there was none. */
  readonly unblock: (blockerId: string, blockedId: string) => Effect.Effect<boolean>
  /** Whether either of the two blocked the other. */
  readonly blockedEitherWay: (a: string, b: string) => Effect.Effect<boolean>
  /** Of `others`, those `userId` blocks and those who block `userId` (one question for a page of conversations). */
  readonly blocksAround: (userId: string, others: ReadonlyArray<string>) => Effect.Effect<BlocksAround>
  /** Those `blockerId` blocks, last blocked first. */
  readonly blocksOf: (blockerId: string, page: Page) => Effect.Effect<{ readonly rows: ReadonlyArray<BlockRecord>; readonly total: number }>
  /** The reporter's report of this target (a message, or a profile when `messageId` is null) still waiting for a decision. */
  readonly openReportOf: (target: ReportTarget) => Effect.Effect<Option.Option<ReportRecord>>
  /**
   * Files a report, unless the reporter already has an open one of the same target (two requests at
   * once included): then that one is answered, with `created` false.
   */
  readonly insertReport: (
    report: ReportTarget & { readonly reason: ReportReason; readonly details: string; readonly at: Date }
  ) => Effect.Effect<{ readonly report: ReportRecord; readonly created: boolean }>
  readonly findReport: (id: string) => Effect.Effect<Option.Option<ReportRecord>>
  /** The queue, newest first, optionally of one status. */
  readonly reports: (query: {
    readonly status: ReportStatus | undefined
    readonly limit: number
    readonly offset: number
  }) => Effect.Effect<{ readonly rows: ReadonlyArray<ReportRecord>; readonly total: number }>
  /** Records a decision on a report still OPEN; none when another admin decided first. */
  readonly decide: (
    id: string,
    decision: { readonly status: ReportStatus; readonly decidedBy: string; readonly note: string; readonly at: Date }
  ) => Effect.Effect<Option.Option<ReportRecord>>
}
export class SafetyRepository extends Context.Tag("messaging/SafetyRepository")<SafetyRepository, SafetyRepositoryShape>() {}

/** Counts reports filed per user and refuses past REPORTS_PER_DAY. */
export class ReportRateLimiter extends Context.Tag("messaging/ReportRateLimiter")<
  ReportRateLimiter,
  { readonly consume: (userId: string) => Effect.Effect<void, TooManyRequests> }
>() {}
