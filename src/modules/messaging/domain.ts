import { Either } from "effect"
import { Conflict, Forbidden, invalid, issue, NotFound, type ValidationFailed } from "../../platform/errors"
import {
  CONVERSATIONS_PAGE_SIZE,
  MAX_CONTENT_LENGTH,
  MESSAGES_PAGE_SIZE,
  type ModerationAction,
  ModerationActions,
  REPORT_DETAILS_MAX,
  type ReportReason,
  ReportReasons,
  type ReportStatus
} from "./rules"

/**
 * Messaging (spec client-and-provider sections 2, 3, 5, 7 and 9): conversations between two users,
 * optionally about a service, and their messages. Pure rules only; the service applies them.
 */

export { CONVERSATIONS_PAGE_SIZE, MAX_CONTENT_LENGTH, MESSAGES_PAGE_SIZE } from "./rules"

/** A participant as the other participants see them: never their email or phone (spec: not shown to other users). */
export interface Participant {
  readonly id: string
  readonly firstName: string
  readonly lastName: string
}

export interface MessageRecord {
  readonly id: string
  readonly conversationId: string
  readonly senderId: string
  readonly content: string
  readonly createdAt: Date
  readonly readAt: Date | null
  /** When a moderator hid it (hidden for everyone but admins). */
  readonly hiddenAt: Date | null
}

// ---- Errors ----------------------------------------------------------------------------------

/** The same answer for a conversation that does not exist and one the caller is not part of. */
export const ConversationNotFound = new NotFound({ code: "CONVERSATION_NOT_FOUND", key: "messaging.conversationNotFound" })
export const RecipientNotFound = new NotFound({ code: "USER_NOT_FOUND", key: "messaging.userNotFound" })
export const TopicNotFound = new NotFound({ code: "SERVICE_NOT_FOUND", key: "messaging.serviceNotFound" })
export const AccountInactive = new Forbidden({ code: "ACCOUNT_DEACTIVATED", key: "auth.accountDeactivated" })
/** One of the pair blocked the other: no new conversation nor message, either way. */
export const PairBlocked = new Forbidden({ code: "USER_BLOCKED", key: "messaging.blocked" })
export const BlockNotFound = new NotFound({ code: "BLOCK_NOT_FOUND", key: "messaging.blockNotFound" })
export const MessageNotFound = new NotFound({ code: "MESSAGE_NOT_FOUND", key: "messaging.messageNotFound" })
export const ReportNotFound = new NotFound({ code: "REPORT_NOT_FOUND", key: "moderation.reportNotFound" })
export const ReportAlreadyDecided = new Conflict({ code: "REPORT_ALREADY_DECIDED", key: "moderation.alreadyDecided" })

// ---- Content ---------------------------------------------------------------------------------

/** Length as PostgreSQL's char_length counts it (code points), so the rule and the column agree. */
export const contentLength = (text: string) => {
  let n = 0
  for (const _ of text) n++
  return n
}

/** A message's text: trimmed, not blank, at most 2000 characters (422 on `content`). */
export const validateContent = (content: string | undefined | null): Either.Either<string, ValidationFailed> => {
  const trimmed = (content ?? "").trim()
  if (trimmed === "") return Either.left(invalid([issue("content", "messaging.contentRequired")]))
  if (contentLength(trimmed) > MAX_CONTENT_LENGTH) return Either.left(invalid([issue("content", "messaging.contentTooLong")]))
  return Either.right(trimmed)
}

// ---- Who may do what -------------------------------------------------------------------------

/** Only participants see a conversation or write in it; anyone else gets the not-found answer. */
export const isParticipant = (participantIds: ReadonlyArray<string>, userId: string) => participantIds.includes(userId)

/**
 * Starting (or finding) a conversation with `other`: never with oneself (422), only with an
 * existing, active account (404 otherwise, whether it never existed or was deactivated).
 */
export const decideStart = (
  me: { readonly id: string; readonly isActive: boolean },
  other: { readonly id: string; readonly isActive: boolean } | undefined
): Either.Either<void, ValidationFailed | NotFound | Forbidden> => {
  if (!me.isActive) return Either.left(AccountInactive)
  if (other !== undefined && other.id === me.id) return Either.left(invalid([issue("participantId", "messaging.selfConversation")]))
  if (other === undefined || !other.isActive) return Either.left(RecipientNotFound)
  return Either.void
}

/** Writing or reading marks: a participant with an active account. Non-participants learn nothing (404). */
export const decideWrite = (
  writer: { readonly id: string; readonly isActive: boolean },
  participantIds: ReadonlyArray<string>
): Either.Either<void, NotFound | Forbidden> => {
  if (!isParticipant(participantIds, writer.id)) return Either.left(ConversationNotFound)
  if (!writer.isActive) return Either.left(AccountInactive)
  return Either.void
}

/** The one key of a pair of users, whatever the order they are given in. */
export const pairKey = (a: string, b: string) => (a < b ? `${a}:${b}` : `${b}:${a}`)

// ---- Read marks ------------------------------------------------------------------------------

/** Messages `viewerId` has not read: sent by someone else, without a read mark. */
export const unreadCount = (messages: ReadonlyArray<Pick<MessageRecord, "senderId" | "readAt">>, viewerId: string) =>
  messages.reduce((n, m) => (m.senderId !== viewerId && m.readAt === null ? n + 1 : n), 0)

/**
 * Which messages a read mark by `readerId` changes: those of the conversation sent by others and
 * still unread; restricted to `onlyIds` when given (mark_as_read names them).
 */
export const toMarkRead = (
  messages: ReadonlyArray<Pick<MessageRecord, "id" | "senderId" | "readAt">>,
  readerId: string,
  onlyIds?: ReadonlyArray<string>
): ReadonlyArray<string> => {
  const wanted = onlyIds === undefined ? undefined : new Set(onlyIds)
  return messages.filter((m) => m.senderId !== readerId && m.readAt === null && (wanted === undefined || wanted.has(m.id))).map((m) => m.id)
}

// ---- Blocks and reports (issue 15) -------------------------------------------------------------

/** Blocking: never oneself (422), only an existing account (404, as messaging's other lookups). */
export const decideBlock = (
  me: { readonly id: string },
  other: { readonly id: string } | undefined
): Either.Either<void, ValidationFailed | NotFound> => {
  if (other !== undefined && other.id === me.id) return Either.left(invalid([issue("userId", "messaging.selfBlock")]))
  if (other === undefined) return Either.left(RecipientNotFound)
  return Either.void
}

export interface ReportInput {
  readonly reason?: string | null | undefined
  readonly details?: string | null | undefined
  readonly messageId?: string | null | undefined
  readonly userId?: string | null | undefined
}
export interface ValidReport {
  readonly reason: ReportReason
  readonly details: string
  readonly target: { readonly kind: "message"; readonly messageId: string } | { readonly kind: "profile"; readonly userId: string }
}

/** A report names a reason of the list, at most 1000 characters of details, and exactly one of a message or a profile. */
export const validateReport = (input: ReportInput): Either.Either<ValidReport, ValidationFailed> => {
  const issues = []
  const reason = (input.reason ?? "").trim().toUpperCase()
  if (reason === "") issues.push(issue("reason", "validation.required"))
  else if (!(ReportReasons as ReadonlyArray<string>).includes(reason)) issues.push(issue("reason", "moderation.reasonInvalid"))
  const details = (input.details ?? "").trim()
  if (contentLength(details) > REPORT_DETAILS_MAX) issues.push(issue("details", "validation.tooLong"))
  const messageId = input.messageId?.trim() || undefined
  const userId = input.userId?.trim() || undefined
  if ((messageId === undefined) === (userId === undefined))
    issues.push(issue(messageId ? "userId" : "messageId", "moderation.targetRequired"))
  if (issues.length > 0) return Either.left(invalid(issues))
  return Either.right({
    reason: reason as ReportReason,
    details,
    target: messageId !== undefined ? { kind: "message", messageId } : { kind: "profile", userId: userId! }
  })
}

/** The status a moderation action leaves a report in. */
export const statusAfter: Record<ModerationAction, ReportStatus> = {
  DISMISS: "DISMISSED",
  WARN: "WARNED",
  HIDE_MESSAGE: "MESSAGE_HIDDEN",
  DEACTIVATE: "ACCOUNT_DEACTIVATED"
}

/**
 * An admin's decision on a report: an action of the list (422), on an open report only (409), and
 * hiding a message only for a report of a message (422).
 */
export const decideModeration = (
  report: { readonly status: ReportStatus; readonly messageId: string | null },
  input: { readonly action?: string | null | undefined; readonly note?: string | null | undefined }
): Either.Either<{ readonly action: ModerationAction; readonly note: string }, ValidationFailed | Conflict> => {
  const action = (input.action ?? "").trim().toUpperCase()
  const note = (input.note ?? "").trim()
  const issues = []
  if (action === "") issues.push(issue("action", "validation.required"))
  else if (!(ModerationActions as ReadonlyArray<string>).includes(action)) issues.push(issue("action", "moderation.actionInvalid"))
  else if (action === "HIDE_MESSAGE" && report.messageId === null) issues.push(issue("action", "moderation.noMessage"))
  if (contentLength(note) > REPORT_DETAILS_MAX) issues.push(issue("note", "validation.tooLong"))
  if (issues.length > 0) return Either.left(invalid(issues))
  if (report.status !== "OPEN") return Either.left(ReportAlreadyDecided)
  return Either.right({ action: action as ModerationAction, note })
}
