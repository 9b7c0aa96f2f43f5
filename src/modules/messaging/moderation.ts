import { Context, Effect, Layer, Option } from "effect"
import { now } from "../../platform/clock"
import { AppConfig } from "../../platform/config"
import {
  type Conflict,
  type Forbidden,
  invalid,
  issue,
  type NotFound,
  type TooManyRequests,
  type ValidationFailed
} from "../../platform/errors"
import { isUuid } from "../../platform/ids"
import { translate } from "../../platform/messages"
import { pageOf } from "../../platform/paging"
import { Transactional } from "../../platform/transaction"
import { AuditTrail } from "../../platform/audit/port"
import { type Actor, Identity, requireRole, UserRepository } from "../identity"
import { composeMail, Mailer } from "../notifications"
import {
  BlockNotFound,
  decideBlock,
  decideModeration,
  isParticipant,
  MessageNotFound,
  RecipientNotFound,
  type ReportInput,
  ReportAlreadyDecided,
  ReportNotFound,
  statusAfter,
  validateReport
} from "./domain"
import { type BlockRecord, ConversationRepository, ReportRateLimiter, type ReportRecord, SafetyRepository } from "./ports"
import { REPORTS_PAGE_SIZE, type ReportStatus, ReportStatuses } from "./rules"
import type { PageQuery, Paged } from "./service"

/**
 * Safety between strangers (issue 15): blocking (Messaging refuses conversations and messages
 * between a blocked pair, either way), reports of a message or a profile, and the admins'
 * moderation queue: dismiss, warn (a mail to the reported user), hide the message, or deactivate
 * the account through identity's administerAccount (the back-office's own path).
 */
export class Moderation extends Context.Tag("messaging/Moderation")<
  Moderation,
  {
    /** `userId` blocks `otherId`: `created` false when it already did. */
    readonly block: (
      userId: string,
      otherId: string
    ) => Effect.Effect<{ readonly block: BlockRecord; readonly created: boolean }, ValidationFailed | NotFound>
    /** Lifts the block (404 when there was none). */
    readonly unblock: (userId: string, otherId: string) => Effect.Effect<void, NotFound>
    readonly blocks: (userId: string, query: PageQuery) => Effect.Effect<Paged<BlockRecord>>
    /** Whether either of the two blocked the other (the booking module refuses their bookings then). */
    readonly blockedEitherWay: (a: string, b: string) => Effect.Effect<boolean>
    /**
     * Files a report (REPORTS_PER_DAY per user, else 429); the reporter's open report of the same
     * message or profile is answered instead of a second one (`created` false).
     */
    readonly report: (
      userId: string,
      input: ReportInput
    ) => Effect.Effect<{ readonly report: ReportRecord; readonly created: boolean }, ValidationFailed | NotFound | TooManyRequests>
    readonly queue: (
      actor: Actor,
      query: PageQuery & { readonly status?: string | undefined }
    ) => Effect.Effect<Paged<ReportRecord>, Forbidden | ValidationFailed>
    readonly find: (actor: Actor, reportId: string) => Effect.Effect<ReportRecord, Forbidden | NotFound>
    readonly decide: (
      actor: Actor,
      reportId: string,
      input: { readonly action?: string | null | undefined; readonly note?: string | null | undefined }
    ) => Effect.Effect<ReportRecord, Forbidden | NotFound | ValidationFailed | Conflict>
  }
>() {}

export const ModerationLive = Layer.effect(
  Moderation,
  Effect.gen(function* () {
    const safety = yield* SafetyRepository
    const conversations = yield* ConversationRepository
    const users = yield* UserRepository
    const identity = yield* Identity
    const mailer = yield* Mailer
    const limiter = yield* ReportRateLimiter
    const tx = yield* Transactional
    const audit = yield* AuditTrail
    const config = yield* AppConfig

    /** An account by a caller-given id; undefined when malformed or unknown. */
    const userById = (id: string) =>
      isUuid(id.trim()) ? Effect.map(users.findById(id.trim().toLowerCase()), Option.getOrUndefined) : Effect.succeed(undefined)
    const admin = (actor: Actor) => requireRole(actor, "ADMIN")
    const reportOf = (id: string) =>
      Effect.flatMap(
        isUuid(id) ? safety.findReport(id.toLowerCase()) : Effect.succeed(Option.none()),
        Option.match({ onNone: () => Effect.fail(ReportNotFound), onSome: Effect.succeed })
      )

    return {
      block: (userId, otherId) =>
        Effect.gen(function* () {
          const other = yield* userById(otherId)
          yield* decideBlock({ id: userId }, other)
          const { created, createdAt } = yield* safety.block(userId, other!.id, yield* now)
          return { block: { user: { id: other!.id, firstName: other!.firstName, lastName: other!.lastName }, createdAt }, created }
        }),

      blockedEitherWay: safety.blockedEitherWay,

      unblock: (userId, otherId) =>
        Effect.gen(function* () {
          const other = yield* userById(otherId)
          if (other === undefined) return yield* RecipientNotFound
          if (!(yield* safety.unblock(userId, other.id))) return yield* BlockNotFound
        }),

      blocks: (userId, query) =>
        Effect.gen(function* () {
          const { limit, offset, page } = pageOf(query, REPORTS_PAGE_SIZE)
          return { ...(yield* safety.blocksOf(userId, { limit, offset })), page, limit }
        }),

      report: (userId, input) =>
        Effect.gen(function* () {
          const valid = yield* validateReport(input)
          let reportedUserId: string
          let messageId: string | null = null
          if (valid.target.kind === "message") {
            // Only a message of a conversation the reporter takes part in, sent by someone else.
            const id = valid.target.messageId
            const message = isUuid(id) ? Option.getOrUndefined(yield* conversations.findMessage(id.toLowerCase())) : undefined
            const conversation = message ? Option.getOrUndefined(yield* conversations.find(message.conversationId)) : undefined
            if (message === undefined || conversation === undefined || !isParticipant(conversation.participantIds, userId)) {
              return yield* MessageNotFound
            }
            if (message.senderId === userId) return yield* invalid([issue("messageId", "moderation.selfReport")])
            reportedUserId = message.senderId
            messageId = message.id
          } else {
            const other = yield* userById(valid.target.userId)
            if (other === undefined) return yield* RecipientNotFound
            if (other.id === userId) return yield* invalid([issue("userId", "moderation.selfReport")])
            reportedUserId = other.id
          }
          const target = { reporterId: userId, reportedUserId, messageId }
          // Reporting the same thing again while it waits for a decision files nothing new (and costs no report of the day).
          const open = yield* safety.openReportOf(target)
          if (Option.isSome(open)) return { report: open.value, created: false }
          yield* limiter.consume(userId)
          return yield* safety.insertReport({ ...target, reason: valid.reason, details: valid.details, at: yield* now })
        }),

      queue: (actor, query) =>
        Effect.gen(function* () {
          yield* admin(actor)
          const wanted = (query.status ?? "").trim().toUpperCase()
          if (wanted !== "" && wanted !== "ALL" && !(ReportStatuses as ReadonlyArray<string>).includes(wanted)) {
            return yield* invalid([issue("status", "moderation.statusInvalid")])
          }
          const status = wanted === "" || wanted === "ALL" ? undefined : (wanted as ReportStatus)
          const { limit, offset, page } = pageOf(query, REPORTS_PAGE_SIZE)
          return { ...(yield* safety.reports({ status, limit, offset })), page, limit }
        }),

      find: (actor, reportId) => Effect.zipRight(admin(actor), reportOf(reportId)),

      decide: (actor, reportId, input) =>
        Effect.gen(function* () {
          yield* admin(actor)
          const report = yield* reportOf(reportId)
          const { action, note } = yield* decideModeration(report, input)
          const at = yield* now
          // Deactivation goes through the back-office's own path (identity's rules: not oneself; sessions revoked).
          if (action === "DEACTIVATE") yield* identity.administerAccount(actor, report.reportedUser.id, { isActive: false })
          return yield* tx.run(
            Effect.gen(function* () {
              const decided = yield* safety.decide(report.id, { status: statusAfter[action], decidedBy: actor.id, note, at })
              if (Option.isNone(decided)) return yield* ReportAlreadyDecided
              yield* audit.record({
                actorId: actor.id,
                action: "REPORT_MODERATED",
                subject: { type: "REPORT", id: report.id },
                before: {
                  status: report.status,
                  reportedUserId: report.reportedUser.id,
                  messageId: report.messageId,
                  reason: report.reason
                },
                after: { status: statusAfter[action], action, note, reportedUserId: report.reportedUser.id, messageId: report.messageId }
              })
              if (action === "HIDE_MESSAGE" && report.messageId !== null) yield* conversations.hideMessage(report.messageId, at)
              if (action === "WARN") {
                const reported = yield* users.findById(report.reportedUser.id)
                if (Option.isSome(reported)) {
                  const to = reported.value
                  const language = to.preferredLanguage
                  const reason = translate(language, `moderation.reason.${report.reason}`)
                  yield* mailer.send(
                    composeMail(
                      "legal",
                      { email: to.email, firstName: to.firstName, preferredLanguage: language },
                      translate(language, "mail.moderationWarning.subject"),
                      [
                        translate(language, "mail.moderationWarning.body", { reason }),
                        ...(note === "" ? [] : [translate(language, "mail.moderationWarning.note", { note })])
                      ],
                      { label: translate(language, "mail.moderationWarning.action"), link: `${config.publicUrl}/messaging` },
                      config.siteName
                    )
                  )
                }
              }
              // Re-read after the hide so the answer shows it.
              return action === "HIDE_MESSAGE" ? Option.getOrThrow(yield* safety.findReport(report.id)) : decided.value
            })
          )
        })
    }
  })
)
