import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { ConversationId, ReportId, UserId } from "../../platform/ids"
import { Ok, PageParams, Pagination, Payload, PayloadLongText, PayloadText, PathId } from "../../platform/http/schemas"
// The contract file, not the index: identity's index loads its handlers, which load the app's HttpApi (a cycle).
import { Authentication } from "../../platform/http/authentication"
import { BlockStates, ReportReasons, ReportStatuses } from "./rules"

/** A conversation's `:id`: a malformed one answers 404 CONVERSATION_NOT_FOUND, as an unknown one (domain.ts's ConversationNotFound). */
const ConversationIdParam = PathId(ConversationId, { code: "CONVERSATION_NOT_FOUND", key: "messaging.conversationNotFound" })
const UserIdParam = PathId(UserId, { code: "USER_NOT_FOUND", key: "messaging.userNotFound" })
const ReportIdParam = PathId(ReportId, { code: "REPORT_NOT_FOUND", key: "moderation.reportNotFound" })

// The module's HTTP contract: schemas, endpoints, groups. Pure (no server code): the UI imports its
// types. The views are built in views.ts.

// ---- Views -----------------------------------------------------------------------------------

export const ParticipantView = Schema.Struct({
  id: Schema.String,
  firstName: Schema.String,
  lastName: Schema.String
})

export const MessageView = Schema.Struct({
  id: Schema.String,
  conversationId: Schema.String,
  senderId: Schema.String,
  content: Schema.String,
  createdAt: Schema.Date,
  isRead: Schema.Boolean,
  readAt: Schema.NullOr(Schema.Date),
  /** Contact details were masked from this reader: the pair has no booking yet (issue 15, masking.ts). */
  masked: Schema.Boolean,
  /** The text holds contact details the other participant gets masked (told to the sender and admins). */
  maskedForRecipient: Schema.Boolean,
  /** A moderator hid it: others get an empty content, admins the original. */
  hidden: Schema.Boolean
})

export const ConversationView = Schema.Struct({
  id: Schema.String,
  /** The service's title for a conversation about a service; null otherwise (the UI names it after the other participant). */
  title: Schema.NullOr(Schema.String),
  serviceId: Schema.NullOr(Schema.String),
  participants: Schema.Array(ParticipantView),
  /** Messages the others sent that the caller has not read. */
  unreadCount: Schema.Number,
  lastMessage: Schema.NullOr(
    Schema.Struct({
      ...MessageView.fields,
      sender: Schema.Struct({ id: Schema.String, firstName: Schema.String })
    })
  ),
  lastMessageAt: Schema.Date,
  createdAt: Schema.Date,
  /** The two have no booking agreed between them: contact details in messages are masked for the reader. */
  privateUntilBooked: Schema.Boolean,
  /** NONE; BY_ME (the reader blocks the other), BY_OTHER (the other blocks the reader): nobody writes, presence is not shown. */
  blocked: Schema.Literal(...BlockStates)
})

// ---- Real-time events (socket.io, adapters/socket.ts) -----------------------------------------

/** `message_received`, to the participants' user rooms. */
export const MessageReceivedEvent = Schema.Struct({
  conversationId: Schema.String,
  message: MessageView,
  sender: Schema.Struct({ id: Schema.String, firstName: Schema.String, lastName: Schema.String })
})
/** `messages_read`, to the participants' user rooms. */
export const MessagesReadEvent = Schema.Struct({
  conversationId: Schema.String,
  readerId: Schema.String,
  messageIds: Schema.Array(Schema.String),
  readAt: Schema.Date
})
/** `user_typing`, to the conversation's room but the typist. */
export const UserTypingEvent = Schema.Struct({ conversationId: Schema.String, userId: Schema.String, isTyping: Schema.Boolean })
/** `user_online` / `user_offline`, to a user's conversation partners. */
export const PresenceEvent = Schema.Struct({ userId: Schema.String })

// ---- Requests --------------------------------------------------------------------------------

const Text = Schema.optional(Schema.NullOr(PayloadText))
const OneConversation = Schema.Struct({ conversation: ConversationView })
export const ConversationPage = Schema.Struct({ conversations: Schema.Array(ConversationView), pagination: Pagination })
/** What the caller has not read over all their conversations: the navigation's badge, kept live by the socket events. */
export const UnreadTotalsView = Schema.Struct({ unreadMessages: Schema.Number, unreadConversations: Schema.Number })
export const MessagePage = Schema.Struct({ messages: Schema.Array(MessageView), pagination: Pagination })

// ---- Group -----------------------------------------------------------------------------------

export class ConversationsApi extends HttpApiGroup.make("conversations")
  .add(HttpApiEndpoint.get("list", "/").setUrlParams(Schema.Struct(PageParams)).addSuccess(Ok(ConversationPage)))
  // Static, so the router takes it before `/:id`.
  .add(HttpApiEndpoint.get("unread", "/unread").addSuccess(Ok(UnreadTotalsView)))
  .add(HttpApiEndpoint.get("get")`/${ConversationIdParam}`.addSuccess(Ok(OneConversation)))
  .add(
    HttpApiEndpoint.post("start", "/")
      .setPayload(Payload({ participantId: Text, serviceId: Text }))
      // 201 when the conversation was created, 200 when the pair already had it.
      .addSuccess(Ok(Schema.Struct({ ...OneConversation.fields, created: Schema.Literal(true) })), { status: 201 })
      .addSuccess(Ok(Schema.Struct({ ...OneConversation.fields, created: Schema.Literal(false) })))
  )
  .add(
    HttpApiEndpoint.post("send")`/${ConversationIdParam}/messages`
      .setPayload(Payload({ content: Schema.optional(Schema.NullOr(PayloadLongText)) }))
      .addSuccess(Ok(Schema.Struct({ message: MessageView })), { status: 201 })
  )
  .add(
    HttpApiEndpoint.patch("markRead")`/${ConversationIdParam}/read`.addSuccess(
      Ok(Schema.Struct({ messageIds: Schema.Array(Schema.String), readAt: Schema.Date }))
    )
  )
  .add(
    HttpApiEndpoint.get("messages")`/${ConversationIdParam}/messages`.setUrlParams(Schema.Struct(PageParams)).addSuccess(Ok(MessagePage))
  )
  .middleware(Authentication)
  .prefix("/conversations") {}

// ---- Safety: blocks, reports, moderation (issue 15) ----------------------------------------------

export const BlockView = Schema.Struct({ user: ParticipantView, createdAt: Schema.Date })

/** A report as its author gets it back. */
export const ReportView = Schema.Struct({
  id: Schema.String,
  reason: Schema.Literal(...ReportReasons),
  details: Schema.String,
  status: Schema.Literal(...ReportStatuses),
  reportedUser: ParticipantView,
  messageId: Schema.NullOr(Schema.String),
  createdAt: Schema.Date
})

/** A report in the moderation queue: both people, the reported message as it was written (admins see hidden text). */
export const AdminReportView = Schema.Struct({
  ...ReportView.fields,
  reporter: ParticipantView,
  reportedUser: Schema.Struct({ ...ParticipantView.fields, isActive: Schema.Boolean }),
  message: Schema.NullOr(MessageView),
  decidedBy: Schema.NullOr(Schema.String),
  decidedAt: Schema.NullOr(Schema.Date),
  decisionNote: Schema.String
})

/** Blocking from a conversation or a profile, and the list on /settings. */
export class BlocksApi extends HttpApiGroup.make("blocks")
  .add(
    HttpApiEndpoint.get("list", "/me/blocks")
      .setUrlParams(Schema.Struct(PageParams))
      .addSuccess(Ok(Schema.Struct({ blocks: Schema.Array(BlockView), pagination: Pagination })))
  )
  .add(
    HttpApiEndpoint.post("block")`/${UserIdParam}/block`
      // 201 when the block is new, 200 when the caller already blocked them.
      .addSuccess(Ok(Schema.Struct({ block: BlockView, created: Schema.Literal(true) })), { status: 201 })
      .addSuccess(Ok(Schema.Struct({ block: BlockView, created: Schema.Literal(false) })))
  )
  .add(HttpApiEndpoint.del("unblock")`/${UserIdParam}/block`.addSuccess(Ok(Schema.Struct({ userId: Schema.String }))))
  .middleware(Authentication)
  .prefix("/users") {}

/** Reporting a message or a profile. */
export class ReportsApi extends HttpApiGroup.make("reports")
  .add(
    HttpApiEndpoint.post("create", "/")
      .setPayload(Payload({ reason: Text, details: Schema.optional(Schema.NullOr(PayloadLongText)), messageId: Text, userId: Text }))
      .addSuccess(Ok(Schema.Struct({ report: ReportView })), { status: 201 })
  )
  .middleware(Authentication)
  .prefix("/reports") {}

/** The moderation queue (ADMIN only: 401 anonymous, 403 others). */
export class ModerationApi extends HttpApiGroup.make("moderation")
  .add(
    HttpApiEndpoint.get("list", "/")
      .setUrlParams(Schema.Struct({ ...PageParams, status: Schema.optional(Schema.String) }))
      .addSuccess(Ok(Schema.Struct({ reports: Schema.Array(AdminReportView), pagination: Pagination })))
  )
  .add(HttpApiEndpoint.get("get")`/${ReportIdParam}`.addSuccess(Ok(Schema.Struct({ report: AdminReportView }))))
  .add(
    HttpApiEndpoint.post("decide")`/${ReportIdParam}/decision`
      .setPayload(Payload({ action: Text, note: Schema.optional(Schema.NullOr(PayloadLongText)) }))
      .addSuccess(Ok(Schema.Struct({ report: AdminReportView })))
  )
  .middleware(Authentication)
  .prefix("/admin/reports") {}
