import { Context, Effect, Either, Layer, Option } from "effect"
import { newId, now } from "../../platform/clock"
import { AppConfig, type AppConfigShape } from "../../platform/config"
import {
  type BadGateway,
  type BadRequest,
  Conflict,
  type Forbidden,
  invalid,
  issue,
  NotFound,
  type PayloadTooLarge,
  type UnsupportedMediaType,
  ValidationFailed
} from "../../platform/errors"
import { isUuid } from "../../platform/ids"
import { amountParam, type MessageKey } from "../../platform/messages"
import { pageOf } from "../../platform/paging"
import { JobQueue } from "../../platform/jobs"
import { newStorageKey, removeAll, Storage } from "../../platform/storage"
import {
  checkFile,
  displayName,
  extensionOf,
  type FileType,
  type IncomingFile,
  isAbsent,
  normalizeFile,
  type DecodeFailure
} from "../../platform/uploads"
import { Transactional } from "../../platform/transaction"
import { type AuditEntry, AuditTrail } from "../../platform/audit/port"
import { isPublic, ServiceRepository } from "../catalogue"
import { type Actor as UserActor, requireRole } from "../identity"
import { Mailer } from "../notifications"
import {
  type ChargeEvent,
  ChargeGateway,
  chargeRouting,
  PaymentAccounts,
  type PaymentGatewayError,
  PaymentGatewayUnavailable
} from "../payments"
import {
  type Actor,
  BookingNotFound,
  type BookingStatus,
  type CancellationPolicy,
  checkoutModeFor,
  type Command,
  commissionOf,
  type Decision,
  newBooking,
  OwnService,
  BookingPairBlocked,
  ServiceUnavailable,
  SlotTaken,
  transition,
  type TransitionError,
  validateBookingRequest,
  type BookingRequestInput,
  validateReason,
  validateReview,
  BookingStatuses,
  NotYourBooking,
  adminCommandFor,
  amountDue,
  awaitsTopUp,
  priceable,
  TooCheapToPay,
  RescheduleNotFound,
  validateProposedTime,
  NothingToRefund,
  refundAboveRefundable,
  refundableOf,
  validateRefund,
  type BookingState,
  DisputeFileNotFound,
  DisputeNotFound,
  validateDisputeMessage,
  validateDisputeReport,
  validateResolution,
  CHECKOUT_SESSION_MINUTES,
  holdAfterCheckout
} from "./domain"
import { makeSlotClaims } from "./claims"
import { Availability, type SlotQuery, type SlotsAnswer } from "./availability/service"
import { makeSettlement, type ReconcileReport } from "./settlement"
import { bookingMail, receiptMail } from "./mails"
import { receiptPdf } from "./receipt-pdf"
import { ReceiptReader, receiptDocument } from "./receipts"
import { billingProblems, DisputeFileFields } from "./rules"
import {
  type BookingDetail,
  type BookingRecord,
  BookingRepository,
  PairBlocks,
  type DisputeFileRecord,
  DisputeRepository,
  type DisputeThread,
  type OpenDispute,
  type PaymentOperation,
  type PaymentReferences,
  type RescheduleRecord,
  ReviewRepository,
  type ReviewRecord
} from "./ports"

const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR
export const DEFAULT_PAGE_SIZE = 20
/** A service's reviews, when the request names no size. */
export const REVIEWS_PAGE_SIZE = 20
/** Timers are checked this often (a pg-boss cron tick) and after each restart. */
export const SWEEP_CRON = "* * * * *"
/** Reconciliation with the gateway runs this often (a pg-boss cron tick). */
export const RECONCILE_CRON = "*/10 * * * *"
export {
  type ChargeOutcome,
  Queues,
  RECONCILE_GRACE_MINUTES,
  RECONCILE_LOOKBACK_DAYS,
  type ReconcileReport,
  SWEEP_BATCH
} from "./settlement"

export type UserCommand =
  | { readonly _tag: "Confirm" }
  | { readonly _tag: "Reject"; readonly reason: unknown }
  /** `acceptedFee`: the fee the client was shown (minor units, the view's `cancellation.feeMinor`). */
  | { readonly _tag: "Cancel"; readonly reason?: unknown; readonly acceptedFee?: unknown }
  | { readonly _tag: "MarkRendered" }
  | { readonly _tag: "ConfirmCompletion"; readonly rating: unknown; readonly comment: unknown }
  | { readonly _tag: "Validate" }
  | { readonly _tag: "Refund"; readonly amountMinor?: number | undefined }

/** The cancellation policy in force: configuration (CANCELLATION_FREE_HOURS, CANCELLATION_FEE_PERCENT). */
export const cancellationPolicyOf = (
  config: Pick<AppConfigShape, "cancellationFreeHours" | "cancellationFeePercent">
): CancellationPolicy => ({ freeHours: config.cancellationFreeHours, feePercent: config.cancellationFeePercent })

export interface CheckoutInput {
  readonly bookingId?: unknown
  readonly amountCents?: unknown
  readonly connectedAccountId?: unknown
  readonly currency?: unknown
  readonly productName?: unknown
  readonly quantity?: unknown
  readonly billingDetails?:
    | {
        readonly name?: unknown
        readonly email?: unknown
        readonly address?:
          | { readonly line1?: unknown; readonly city?: unknown; readonly postal_code?: unknown; readonly country?: unknown }
          | null
          | undefined
      }
    | null
    | undefined
}

export interface BookingPage {
  readonly items: ReadonlyArray<BookingDetail>
  readonly total: number
  readonly page: number
  readonly limit: number
}

type Failure = TransitionError | NotFound | BadRequest | BadGateway
/** Files sent with a dispute report or message, by multipart field (file1..file3). */
export type DisputeFiles = Readonly<Record<string, IncomingFile>>
type FileFailure = DecodeFailure | ValidationFailed

export class Bookings extends Context.Tag("booking/Bookings")<
  Bookings,
  {
    /** The cancellation policy in force (the views state it; a client's Cancel applies it). */
    readonly cancellationPolicy: CancellationPolicy
    readonly request: (
      actor: UserActor,
      input: BookingRequestInput
    ) => Effect.Effect<BookingDetail, NotFound | Forbidden | Conflict | ValidationFailed>
    readonly mine: (
      actor: UserActor,
      query: {
        readonly as?: string | undefined
        readonly status?: string | undefined
        readonly page?: string | undefined
        readonly limit?: string | undefined
      }
    ) => Effect.Effect<BookingPage, ValidationFailed>
    readonly get: (actor: UserActor, id: string) => Effect.Effect<BookingDetail, NotFound>
    readonly activeForService: (actor: UserActor, serviceId: string) => Effect.Effect<Option.Option<BookingDetail>>
    readonly calendar: (
      actor: UserActor,
      from: string | undefined,
      to: string | undefined
    ) => Effect.Effect<ReadonlyArray<BookingDetail>, Forbidden | ValidationFailed>
    /** Every booking, for administrators (CLI and back-office): status filter and paging. */
    readonly adminList: (
      actor: UserActor,
      query: { readonly status?: string | undefined; readonly page?: number | undefined; readonly limit?: number | undefined }
    ) => Effect.Effect<BookingPage, Forbidden | ValidationFailed>
    /** An administrator's "set status" (see adminCommandFor). */
    readonly adminSetStatus: (
      actor: UserActor,
      id: string,
      status: string,
      reason?: string
    ) => Effect.Effect<BookingDetail, Failure | ValidationFailed>
    readonly operations: (
      actor: UserActor,
      id: string
    ) => Effect.Effect<ReadonlyArray<PaymentOperation & { readonly createdAt: Date }>, NotFound | Forbidden>
    /**
     * Either party proposes a new time for the booking (issue 12): 403 to anyone else, 409 when the
     * booking cannot be moved, a proposal is already open or the slot is taken, 422 for a time the
     * booking rules refuse (checkProposedTime).
     */
    readonly proposeReschedule: (
      actor: UserActor,
      id: string,
      input: { readonly startTime?: unknown; readonly endTime?: unknown }
    ) => Effect.Effect<{ readonly proposal: RescheduleRecord; readonly booking: BookingDetail }, Failure | ValidationFailed>
    /**
     * The free times the booking can move to (the reschedule dialog's slot picker): its service's
     * free slots with the booking itself left out. 403 and 409 as a proposal would be.
     */
    readonly rescheduleSlots: (actor: UserActor, id: string, query: SlotQuery) => Effect.Effect<SlotsAnswer, Failure | ValidationFailed>
    /** The other party accepts (the booking moves) or declines the open proposal. */
    readonly answerReschedule: (
      actor: UserActor,
      id: string,
      proposalId: string,
      answer: "accept" | "decline"
    ) => Effect.Effect<BookingDetail, Failure | ValidationFailed>
    /**
     * An administrator's refund of a booking's captured money, in full (no amount) or in part, with a
     * reason (issue 13 item 3): the one use case behind `POST /api/admin/bookings/{id}/refund` and
     * `bin/run payments:refund`. 422 without a reason or with an amount that is not a positive whole
     * number (REFUND_TOO_LARGE above what is left), 409 NOTHING_TO_REFUND, 404, 502 when the gateway
     * fails. The refund's operation and its audit entry are written in one transaction.
     */
    readonly refund: (
      actor: UserActor,
      id: string,
      input: { readonly amountMinor?: unknown; readonly reason?: unknown }
    ) => Effect.Effect<BookingDetail, Failure | ValidationFailed>
    /**
     * The client reports a problem between "service rendered" and the automatic validation (issue 13):
     * the booking becomes DISPUTED, its hold kept. 404 to strangers, 403 to anyone but the client, 409
     * in another status or after the window, 422 for a reason or description refused, 413/415 for files.
     */
    readonly reportProblem: (
      actor: UserActor,
      id: string,
      input: { readonly reason?: unknown; readonly description?: unknown },
      files: DisputeFiles
    ) => Effect.Effect<BookingDetail, Failure | FileFailure>
    /** A party or an administrator adds a message (and files) to the booking's open dispute. */
    readonly addDisputeMessage: (
      actor: UserActor,
      id: string,
      input: { readonly body?: unknown },
      files: DisputeFiles
    ) => Effect.Effect<DisputeThread, Failure | FileFailure>
    /** The booking's dispute with its thread and files, for its parties and administrators (404 when none). */
    readonly dispute: (
      actor: UserActor,
      id: string
    ) => Effect.Effect<{ readonly booking: BookingDetail; readonly thread: DisputeThread }, NotFound>
    /** One file of the booking's dispute, with its bytes. */
    readonly disputeFile: (
      actor: UserActor,
      id: string,
      fileId: string
    ) => Effect.Effect<{ readonly file: DisputeFileRecord; readonly bytes: Uint8Array }, NotFound>
    /**
     * An administrator decides an open dispute: capture all, part (1..authorised), or release
     * everything, with a note both parties see. The booking becomes RESOLVED; the money follows.
     */
    readonly resolveDispute: (
      actor: UserActor,
      id: string,
      input: { readonly outcome?: unknown; readonly amountMinor?: unknown; readonly note?: unknown }
    ) => Effect.Effect<BookingDetail, Failure | Forbidden | ValidationFailed>
    /** Disputes awaiting a decision, oldest first (administrators: the dashboard). */
    readonly unresolvedDisputes: (actor: UserActor) => Effect.Effect<ReadonlyArray<OpenDispute>, Forbidden>
    /** A user's (or an admin's) command on a booking. */
    readonly act: (actor: UserActor, id: string, command: UserCommand) => Effect.Effect<BookingDetail, Failure>
    readonly checkout: (
      actor: UserActor,
      input: CheckoutInput
    ) => Effect.Effect<
      {
        readonly url: string
        readonly sessionId: string
        readonly mode: "authorize" | "save_card"
        readonly clientSecret?: string
        readonly publishableKey?: string
      },
      Failure
    >
    readonly reviewsOf: (
      serviceId: string,
      page: number,
      limit: number
    ) => Effect.Effect<{ readonly items: ReadonlyArray<ReviewRecord>; readonly total: number; readonly average: number }>
    /** Applies every timer due at the clock's now; answers how many bookings changed. */
    readonly sweep: Effect.Effect<number>
    /**
     * Performs the money movement a booking's state asks for (capture or release), or releases the
     * given intent (a hold that arrived for a booking that is over); fails to be retried.
     */
    readonly settle: (bookingId: string, releaseIntent?: string) => Effect.Effect<void, PaymentGatewayError>
    /** Applies a verified gateway event (the webhook's transaction is the caller's). */
    readonly applyChargeEvent: (event: ChargeEvent) => Effect.Effect<void>
    /**
     * Compares the gateway's recent holds and completed sessions with the bookings: applies the
     * completions the bookings missed and releases every hold no booking references.
     */
    readonly reconcile: Effect.Effect<ReconcileReport, PaymentGatewayError>
  }
>() {}

const actorOf = (user: UserActor): Actor => ({ _tag: "User", id: user.id, role: user.role })

/** "CONFIRMED,PAID" → the statuses; "all" or nothing → no filter. */
const parseStatuses = (text: string | undefined): Either.Either<ReadonlyArray<BookingStatus | "PAID">, ValidationFailed> => {
  const statuses = (text ?? "")
    .split(",")
    .map((s) => s.trim().toUpperCase())
    .filter((s) => s !== "" && s !== "ALL")
  return statuses.every((s) => s === "PAID" || (BookingStatuses as ReadonlyArray<string>).includes(s))
    ? Either.right(statuses as ReadonlyArray<BookingStatus | "PAID">)
    : Either.left(invalid([issue("status", "booking.invalidStatus")]))
}

/** A booking's statuses as its audit entries keep them. */
const statusFacts = (b: Pick<BookingState, "status" | "paymentStatus">) => ({ status: b.status, paymentStatus: b.paymentStatus })

const trimmed = (value: unknown) => (typeof value === "string" ? value.trim() : "")

/** The fee a client accepted by cancelling: absent (whatever it is, as before), or whole minor units. */
const validateAcceptedFee = (value: unknown): Effect.Effect<number | undefined, ValidationFailed> => {
  if (value === undefined || value === "") return Effect.succeed(undefined)
  const minor =
    typeof value === "number" ? value : typeof value === "string" && /^\d{1,12}$/.test(value.trim()) ? Number(value) : Number.NaN
  return Number.isSafeInteger(minor) && minor >= 0 ? Effect.succeed(minor) : invalid([issue("acceptedFee", "booking.invalidAcceptedFee")])
}

export const BookingsLive = Layer.effect(
  Bookings,
  Effect.gen(function* () {
    const bookings = yield* BookingRepository
    const readReceipt = yield* ReceiptReader
    const pairBlocks = yield* PairBlocks
    const reviews = yield* ReviewRepository
    const services = yield* ServiceRepository
    const accounts = yield* PaymentAccounts
    const gateway = yield* ChargeGateway
    const mailer = yield* Mailer
    const jobs = yield* JobQueue
    const tx = yield* Transactional
    const config = yield* AppConfig
    const availability = yield* Availability
    const audit = yield* AuditTrail
    const disputes = yield* DisputeRepository
    const storage = yield* Storage
    const claims = makeSlotClaims()
    const cancellationPolicy = cancellationPolicyOf(config)

    const detailOf = (id: string) => Effect.map(bookings.findById(id), Option.getOrThrow)

    /** Parties and admins see a booking; anyone else is told it does not exist. */
    const visible = (actor: UserActor, id: string) =>
      Effect.gen(function* () {
        // The HTTP paths decode the id; the CLI (bookings set-status, refund) passes it as typed.
        if (!isUuid(id)) return yield* BookingNotFound
        const found = yield* bookings.findById(id)
        if (Option.isNone(found)) return yield* BookingNotFound
        const b = found.value
        if (actor.role !== "ADMIN" && actor.id !== b.clientId && actor.id !== b.providerId) return yield* BookingNotFound
        return b
      })

    /** The client's receipt with its PDF, from the payment records (the capture is recorded before its event applies). */
    const sendReceipt = (detail: BookingDetail) =>
      Effect.gen(function* () {
        const receipt = yield* readReceipt(detail, "client")
        if (receipt === undefined)
          return yield* Effect.logWarning(`booking ${detail.id}: captured with no capture recorded, no receipt mailed`)
        const pdf = yield* receiptPdf(
          receiptDocument(detail.client.preferredLanguage, receipt, { name: config.siteName, email: config.supportEmail })
        )
        yield* mailer.send(receiptMail(detail, receipt.figures, pdf, config))
      })

    const sendMails = (detail: BookingDetail, decision: Decision) =>
      Effect.forEach(
        decision.effects,
        (effect) =>
          effect._tag === "Notify" && effect.event === "receipt"
            ? sendReceipt(detail)
            : effect._tag === "Notify"
              ? mailer.sendAll(
                  (effect.to === "client"
                    ? [detail.client]
                    : effect.to === "provider"
                      ? [detail.provider]
                      : [detail.client, detail.provider]
                  ).map((to) => bookingMail(effect.event, to, to.id === detail.clientId ? "client" : "provider", detail, config))
                )
              : Effect.void,
        { discard: true }
      )

    /**
     * Decides and stores one command under the booking's row lock, with its review and mails, in one
     * transaction; money movements run after the commit (they call the gateway).
     */
    const decide = (
      id: string,
      command: Command,
      actor: Actor,
      references?: PaymentReferences,
      /** An administrator's decision: its audit entry, from the booking before and after, written in the same transaction. */
      audited?: (before: BookingRecord, after: BookingDetail) => AuditEntry
    ) =>
      Effect.gen(function* () {
        const at = yield* now
        const result = yield* tx.run(
          Effect.gen(function* () {
            const locked = yield* bookings.lock(id)
            if (Option.isNone(locked)) return yield* BookingNotFound
            const before = locked.value
            const decision = yield* transition(before, command, actor, at)
            const saved = yield* bookings.save(before, decision, references)
            for (const effect of decision.effects) {
              if (effect._tag === "RecordReview") {
                const inserted = yield* reviews.insert({
                  bookingId: before.id,
                  serviceId: before.serviceId,
                  clientId: before.clientId,
                  providerId: before.providerId,
                  rating: effect.rating,
                  comment: effect.comment
                })
                if (Option.isNone(inserted))
                  return yield* new Conflict({ code: "BOOKING_ALREADY_REVIEWED", key: "booking.alreadyReviewed" })
                // The catalogue shows and sorts by the service's average; the provider's figures derive from it.
                yield* services.recordRating(before.serviceId, effect.rating)
              }
            }
            const detail = yield* detailOf(saved.id)
            if (audited !== undefined) yield* audit.record(audited(before, detail))
            yield* sendMails(detail, decision)
            return { detail, decision }
          })
        )
        return result
      })

    // Capture, release, refund, the timers' sweep, charge events and reconciliation.
    const { applyChargeEvent, reconcile, runMoneyEffects, settle, sweep } = yield* makeSettlement({ decide, detailOf, now, sendMails })

    /**
     * The rules a proposed time must meet, refused with 422: the booking request's time rules (valid,
     * in the future, within the horizon, at most a week, whole minutes, a payable total) and a time
     * other than the booked one. Answers the times and the total at the proposed duration.
     * The provider's availability (ensureBookable, OUTSIDE_AVAILABILITY) is checked here too.
     */
    const checkProposedTime = (booking: BookingDetail, input: { readonly startTime?: unknown; readonly endTime?: unknown }, at: Date) =>
      Effect.gen(function* () {
        const proposed = yield* validateProposedTime(input, booking, booking.hourlyPriceMinor, at)
        // Inside the provider's plan, after their notice, clear of their other bookings by the buffer (not of this one).
        yield* availability.ensureBookable({
          providerId: booking.providerId,
          startTime: proposed.startTime,
          endTime: proposed.endTime,
          now: at,
          ignoreBookingId: booking.id
        })
        return proposed
      })

    /** 403 and 409 before the times are read: the command as it would be decided now, with a time that passes. */
    const probe = (b: BookingDetail, command: Command, user: UserActor, at: Date) => {
      const result = transition(b, command, actorOf(user), at)
      return Either.isLeft(result) ? Either.left(result.left) : Either.void
    }

    /** 403 and 409 of a proposal to move `b`, before any time is read (a time that passes stands in). */
    const mayPropose = (b: BookingDetail, user: UserActor, at: Date, proposalId: string) => {
      const later = new Date(at.getTime() + DAY)
      return probe(
        b,
        { _tag: "ProposeReschedule", proposalId, startTime: later, endTime: new Date(later.getTime() + HOUR), totalMinor: 1 },
        user,
        at
      )
    }

    /** The author's side of a booking, as a dispute message records it. */
    const roleIn = (b: BookingDetail, user: UserActor) =>
      user.id === b.clientId ? ("CLIENT" as const) : user.id === b.providerId ? ("PROVIDER" as const) : ("ADMIN" as const)

    /**
     * Checks every file sent (empty 422, over 5 MB 413, not a photo or a PDF 415; the platform's upload
     * rules) and re-encodes images: nothing is stored before every file of the request passed.
     */
    const prepareDisputeFiles = (files: DisputeFiles) =>
      Effect.forEach(
        DisputeFileFields.filter((field) => !isAbsent(files[field])),
        (field) =>
          Effect.gen(function* () {
            const file = files[field]!
            const type: FileType = yield* checkFile(field, file, {
              allowed: ["image/jpeg", "image/png", "application/pdf"],
              unsupported: "upload.unsupportedDocument"
            })
            const bytes = yield* normalizeFile(field, type, file.bytes, "upload.unsupportedDocument")
            return { fileName: displayName(file.name, `${field}.${extensionOf(type)}`), contentType: type, bytes }
          })
      )

    /** Stores prepared files under new keys, then runs `write` with their records; any failure removes them again. */
    const storeDisputeFiles = <A, E>(
      prepared: ReadonlyArray<{ readonly fileName: string; readonly contentType: FileType; readonly bytes: Uint8Array }>,
      uploadedBy: string,
      messageId: string | null,
      write: (records: ReadonlyArray<Omit<DisputeFileRecord, "createdAt">>) => Effect.Effect<A, E>
    ) =>
      Effect.gen(function* () {
        const records: Array<Omit<DisputeFileRecord, "createdAt">> = []
        for (const p of prepared)
          records.push({
            id: yield* newId,
            messageId,
            uploadedBy,
            fileName: p.fileName,
            contentType: p.contentType as DisputeFileRecord["contentType"],
            size: p.bytes.length,
            storageKey: newStorageKey("disputes")
          })
        return yield* Effect.forEach(prepared, (p, i) => storage.put(records[i]!.storageKey, p.bytes), { discard: true }).pipe(
          Effect.zipRight(write(records)),
          Effect.onError(() =>
            removeAll(
              storage,
              records.map((r) => r.storageKey)
            )
          )
        )
      })

    const threadOf = (bookingId: string) =>
      Effect.flatMap(disputes.thread(bookingId), Option.match({ onNone: () => Effect.fail(DisputeNotFound), onSome: Effect.succeed }))

    return {
      reconcile,
      cancellationPolicy,
      reportProblem: (user, id, input, files) =>
        Effect.gen(function* () {
          const b = yield* visible(user, id)
          const at = yield* now
          // 403 and 409 before the input is read (the reason is checked next).
          yield* probe(b, { _tag: "ReportProblem", reason: "OTHER" }, user, at)
          const report = yield* validateDisputeReport(input.reason, input.description)
          const command: Command = { _tag: "ReportProblem", reason: report.reason }
          const prepared = yield* prepareDisputeFiles(files)
          const disputeId = yield* newId
          yield* storeDisputeFiles(prepared, user.id, null, (records) =>
            tx.run(
              Effect.gen(function* () {
                yield* decide(id, command, actorOf(user))
                yield* disputes.open({
                  id: disputeId,
                  bookingId: id,
                  reason: report.reason,
                  description: report.description,
                  openedBy: user.id,
                  openedAt: at
                })
                yield* disputes.addFiles(disputeId, records, at)
              })
            )
          )
          return yield* detailOf(id)
        }),

      addDisputeMessage: (user, id, input, files) =>
        Effect.gen(function* () {
          const b = yield* visible(user, id)
          const at = yield* now
          const present = DisputeFileFields.some((field) => !isAbsent(files[field]))
          const body = yield* validateDisputeMessage(input.body, present)
          yield* probe(b, { _tag: "AddDisputeMessage" }, user, at)
          const thread = yield* threadOf(id)
          const prepared = yield* prepareDisputeFiles(files)
          const messageId = yield* newId
          yield* storeDisputeFiles(prepared, user.id, messageId, (records) =>
            tx.run(
              Effect.gen(function* () {
                yield* decide(id, { _tag: "AddDisputeMessage" }, actorOf(user))
                yield* disputes.addMessage({
                  id: messageId,
                  disputeId: thread.id,
                  authorId: user.id,
                  authorRole: roleIn(b, user),
                  body,
                  createdAt: at
                })
                yield* disputes.addFiles(thread.id, records, at)
              })
            )
          )
          return yield* threadOf(id)
        }),

      dispute: (user, id) =>
        Effect.gen(function* () {
          const booking = yield* visible(user, id)
          return { booking, thread: yield* threadOf(id) }
        }),

      disputeFile: (user, id, fileId) =>
        Effect.gen(function* () {
          yield* visible(user, id)
          const thread = yield* threadOf(id)
          const file = isUuid(fileId) ? thread.files.find((f) => f.id === fileId) : undefined
          if (file === undefined) return yield* DisputeFileNotFound
          const bytes = yield* storage.get(file.storageKey)
          if (Option.isNone(bytes)) return yield* Effect.dieMessage(`dispute file ${file.id}: ${file.storageKey} is missing`)
          return { file, bytes: bytes.value }
        }),

      resolveDispute: (user, id, input) =>
        Effect.gen(function* () {
          yield* requireRole(user, "ADMIN")
          const b = yield* visible(user, id)
          const at = yield* now
          // 409 before the input is read; the amount against the hold is the transition's (422).
          yield* probe(b, { _tag: "ResolveDispute", outcome: "RELEASE" }, user, at)
          const decision = yield* validateResolution(input)
          const command: Command = { _tag: "ResolveDispute", outcome: decision.outcome, amountMinor: decision.amountMinor }
          const result = yield* tx.run(
            Effect.gen(function* () {
              // The dispute's row first: the decision's mails (sent by decide) carry its note. A concurrent
              // decision waits on that row, then finds the booking RESOLVED (409) and rolls back.
              yield* disputes.resolve(id, { outcome: decision.outcome, note: decision.note, resolvedBy: user.id, resolvedAt: at })
              // The decision's audit entry is written in the same transaction (platform AuditTrail).
              return yield* decide(id, command, actorOf(user), undefined, (before, after) => ({
                actorId: user.id,
                action: "DISPUTE_RESOLVED",
                subject: { type: "BOOKING", id: before.id },
                before: statusFacts(before),
                after: { ...statusFacts(after), outcome: decision.outcome, amountMinor: decision.amountMinor ?? null, note: decision.note }
              }))
            })
          )
          yield* runMoneyEffects(id, result.decision).pipe(
            Effect.catchTag("PaymentGatewayError", () => Effect.fail(PaymentGatewayUnavailable))
          )
          return yield* detailOf(id)
        }),

      unresolvedDisputes: (user) => Effect.zipRight(requireRole(user, "ADMIN"), disputes.unresolved(100)),

      request: (actor, input) =>
        Effect.gen(function* () {
          const at = yield* now
          const request = yield* validateBookingRequest(input, at)
          if (!isUuid(request.serviceId)) return yield* new NotFound({ code: "SERVICE_NOT_FOUND", key: "catalogue.serviceNotFound" })
          // One read for the service, its provider and the client: the new booking's detail is built
          // here rather than read back after the insert, and both mails go in one statement.
          const found = yield* bookings.bookable(request.serviceId, actor.id, { start: request.startTime, end: request.endTime })
          if (Option.isNone(found) || found.value.service.archivedAt !== null)
            return yield* new NotFound({ code: "SERVICE_NOT_FOUND", key: "catalogue.serviceNotFound" })
          const { service, provider, client, providerActive, slotTaken } = found.value
          if (service.userId === actor.id) return yield* OwnService
          if (!isPublic({ ...service, provider: { isActive: providerActive } })) return yield* ServiceUnavailable
          if (yield* pairBlocks.blockedEitherWay(actor.id, service.userId)) return yield* BookingPairBlocked
          if (!priceable(service.priceMinor, request.minutes)) return yield* TooCheapToPay
          // Taken before this request: refused without a transaction (a race is settled by the insert).
          if (slotTaken) return yield* SlotTaken
          // Inside the provider's plan, after their notice, clear of their other bookings by the buffer (422 OUTSIDE_AVAILABILITY).
          yield* availability.ensureBookable({
            providerId: service.userId,
            startTime: request.startTime,
            endTime: request.endTime,
            now: at
          })
          const state = newBooking(
            {
              id: yield* newId,
              clientId: actor.id,
              providerId: service.userId,
              hourlyPriceMinor: service.priceMinor,
              currency: service.currency
            },
            request,
            at
          )
          const inserted = yield* claims.claim(
            state.providerId,
            state.startTime,
            state.endTime,
            tx.run(
              Effect.gen(function* () {
                const row = yield* bookings.insert({
                  ...state,
                  serviceId: service.id,
                  address: request.address,
                  notes: request.notes,
                  hourlyPriceMinor: service.priceMinor,
                  currency: service.currency
                })
                if (Option.isNone(row)) return Option.none<BookingDetail>()
                const detail: BookingDetail = {
                  ...row.value,
                  service: {
                    id: service.id,
                    title: service.title,
                    description: service.description,
                    categoryNameFr: service.categoryNameFr,
                    categoryNameEn: service.categoryNameEn
                  },
                  client,
                  provider,
                  review: null,
                  reschedules: [],
                  dispute: null
                }
                yield* mailer.sendAll([
                  bookingMail("requested", client, "client", detail, config),
                  bookingMail("requested", provider, "provider", detail, config)
                ])
                return Option.some(detail)
              })
            )
          )
          if (Option.isNone(inserted)) return yield* SlotTaken
          return inserted.value
        }),

      mine: (actor, query) =>
        Effect.gen(function* () {
          const as = query.as === "client" || query.as === "provider" ? query.as : "all"
          const statuses = parseStatuses(query.status)
          if (Either.isLeft(statuses)) return yield* statuses.left
          const { page, limit, offset } = pageOf(query, DEFAULT_PAGE_SIZE)
          const result = yield* bookings.list({ userId: actor.id, as, statuses: statuses.right, limit, offset })
          return { items: result.items, total: result.total, page, limit }
        }),

      get: (actor, id) => visible(actor, id),

      adminList: (actor, query) =>
        Effect.gen(function* () {
          yield* requireRole(actor, "ADMIN")
          const statuses = parseStatuses(query.status)
          if (Either.isLeft(statuses)) return yield* statuses.left
          const { page, limit, offset } = pageOf(query, DEFAULT_PAGE_SIZE)
          const result = yield* bookings.list({ userId: undefined, as: "all", statuses: statuses.right, limit, offset })
          return { items: result.items, total: result.total, page, limit }
        }),

      adminSetStatus: (actor, id, status, reason) =>
        Effect.gen(function* () {
          yield* requireRole(actor, "ADMIN")
          const command = yield* adminCommandFor(status, reason)
          yield* visible(actor, id)
          const { detail, decision } = yield* decide(id, command, actorOf(actor), undefined, (before, after) => ({
            actorId: actor.id,
            action: "BOOKING_STATUS_CHANGED",
            subject: { type: "BOOKING", id: before.id },
            before: statusFacts(before),
            after: { ...statusFacts(after), ...(reason?.trim() ? { reason: reason.trim() } : {}) }
          }))
          yield* runMoneyEffects(id, decision).pipe(Effect.catchTag("PaymentGatewayError", () => Effect.fail(PaymentGatewayUnavailable)))
          return yield* detailOf(detail.id)
        }),

      refund: (actor, id, input) =>
        Effect.gen(function* () {
          yield* requireRole(actor, "ADMIN")
          const request = yield* validateRefund(input)
          const b = yield* visible(actor, id)
          const refundable = refundableOf(b)
          if (refundable === 0) return yield* NothingToRefund
          if (request.amountMinor !== undefined && request.amountMinor > refundable)
            return yield* refundAboveRefundable(amountParam(refundable, b.currency))
          // Decided under the row lock (a refund made meanwhile is refused there); the money moves after the commit.
          const { decision } = yield* decide(id, { _tag: "Refund", amountMinor: request.amountMinor }, actorOf(actor))
          yield* runMoneyEffects(id, decision, {
            reason: request.reason,
            audited: (before, refunded) => ({
              actorId: actor.id,
              action: "BOOKING_REFUNDED",
              subject: { type: "BOOKING", id: before.id },
              before: { ...statusFacts(before), capturedMinor: before.capturedMinor, refundedMinor: before.refundedMinor },
              after: {
                paymentStatus: refunded.totalRefundedMinor >= before.capturedMinor ? "REFUNDED" : "PARTIALLY_REFUNDED",
                capturedMinor: before.capturedMinor,
                refundedMinor: refunded.totalRefundedMinor,
                amountMinor: refunded.amountMinor,
                currency: before.currency,
                reason: request.reason
              }
            })
          }).pipe(Effect.catchTag("PaymentGatewayError", () => Effect.fail(PaymentGatewayUnavailable)))
          return yield* detailOf(id)
        }),

      operations: (actor, id) =>
        Effect.gen(function* () {
          yield* requireRole(actor, "ADMIN")
          yield* visible(actor, id)
          return yield* bookings.operations(id)
        }),

      activeForService: (actor, serviceId) =>
        isUuid(serviceId) ? bookings.activeForService(serviceId, actor.id) : Effect.succeed(Option.none()),

      calendar: (actor, fromText, toText) =>
        Effect.gen(function* () {
          yield* requireRole(actor, "PROVIDER", "ADMIN")
          const at = yield* now
          const from = fromText ? new Date(fromText) : new Date(at.getTime() - 40 * DAY)
          const to = toText ? new Date(toText) : new Date(at.getTime() + 40 * DAY)
          if (Number.isNaN(from.getTime())) return yield* invalid([issue("from", "booking.invalidDate")])
          if (Number.isNaN(to.getTime()) || to <= from || to.getTime() - from.getTime() > 400 * DAY)
            return yield* invalid([issue("to", "booking.invalidDate")])
          return yield* bookings.calendar(actor.id, from, to)
        }),

      proposeReschedule: (user, id, input) =>
        Effect.gen(function* () {
          const b = yield* visible(user, id)
          const at = yield* now
          const proposalId = yield* newId
          yield* mayPropose(b, user, at, proposalId)
          const proposed = yield* checkProposedTime(b, input, at)
          // Taken now: refused at once (a slot taken by the time it is accepted is refused then).
          if (yield* bookings.slotTaken(b.providerId, { start: proposed.startTime, end: proposed.endTime }, b.id)) return yield* SlotTaken
          const { detail } = yield* decide(id, { _tag: "ProposeReschedule", proposalId, ...proposed }, actorOf(user))
          const proposal = detail.reschedules.find((r) => r.id === proposalId)
          if (proposal === undefined) return yield* Effect.dieMessage(`proposal ${proposalId} not stored`)
          return { proposal, booking: detail }
        }),

      rescheduleSlots: (user, id, query) =>
        Effect.gen(function* () {
          const b = yield* visible(user, id)
          yield* mayPropose(b, user, yield* now, yield* newId)
          return yield* availability.slots(b.serviceId, query, b.id)
        }),

      answerReschedule: (user, id, proposalId, answer) =>
        Effect.gen(function* () {
          const b = yield* visible(user, id)
          const p = b.reschedules.find((r) => r.id === proposalId)
          if (p === undefined) return yield* RescheduleNotFound
          const at = yield* now
          const command: Command =
            answer === "accept" ? { _tag: "AcceptReschedule", proposalId } : { _tag: "DeclineReschedule", proposalId }
          yield* probe(b, command, user, at)
          // The time is checked again when it takes effect (the rules or the provider's plan may have changed).
          if (answer === "accept")
            yield* checkProposedTime(b, { startTime: p.startTime.toISOString(), endTime: p.endTime.toISOString() }, at)
          const { decision } = yield* decide(id, command, actorOf(user))
          yield* runMoneyEffects(id, decision).pipe(Effect.catchTag("PaymentGatewayError", () => Effect.fail(PaymentGatewayUnavailable)))
          return yield* detailOf(id)
        }),

      act: (user, id, input) =>
        Effect.gen(function* () {
          yield* visible(user, id)
          let command: Command
          switch (input._tag) {
            case "Reject":
              command = { _tag: "Reject", reason: yield* validateReason(input.reason) }
              break
            case "ConfirmCompletion": {
              const review = yield* validateReview(input.rating, input.comment)
              command = { _tag: "ConfirmCompletion", ...review }
              break
            }
            case "Cancel": {
              const accepted = yield* validateAcceptedFee(input.acceptedFee)
              command = {
                _tag: "Cancel",
                reason: trimmed(input.reason).slice(0, 1000),
                policy: cancellationPolicy,
                acceptedFeeMinor: accepted
              }
              break
            }
            default:
              command = input
          }
          const { detail, decision } = yield* decide(id, command, actorOf(user))
          // Only a refund reports a gateway failure to its caller; captures and releases are retried.
          yield* runMoneyEffects(id, decision).pipe(Effect.catchTag("PaymentGatewayError", () => Effect.fail(PaymentGatewayUnavailable)))
          return yield* detailOf(detail.id)
        }),

      checkout: (user, input) =>
        Effect.gen(function* () {
          const bookingId = trimmed(input.bookingId)
          if (bookingId === "") return yield* invalid([issue("bookingId", "validation.required")])
          const b = yield* visible(user, bookingId)
          if (b.clientId !== user.id) return yield* NotYourBooking
          const at = yield* now
          // An accepted move that raised the total of a booking holding money: the client authorises the
          // new total (a second hold; the booking moves when it arrives, and the first hold is released then).
          const topUp = awaitsTopUp(b)
          const due = amountDue(b)
          if (
            !topUp &&
            (b.status === "CANCELLED" ||
              b.status === "REJECTED" ||
              b.status === "COMPLETED" ||
              b.status === "VALIDATED" ||
              b.status === "RESOLVED" ||
              !["UNPAID", "REQUIRES_ACTION"].includes(b.paymentStatus))
          ) {
            return yield* new Conflict({ code: "NOTHING_TO_PAY", key: "payments.nothingToPay" })
          }
          // The client may send the spec's payload: what it says must match the booking.
          const amount = input.amountCents
          if (amount !== undefined && amount !== null && amount !== "" && Number(amount) !== due) {
            return yield* new ValidationFailed({
              code: "VALIDATION_ERROR",
              key: "payments.amountMismatch",
              params: { expected: amountParam(due, b.currency) },
              details: [issue("amountCents", "payments.amountMismatch")]
            })
          }
          const currency = trimmed(input.currency).toUpperCase()
          if (currency !== "" && currency !== b.currency) {
            return yield* new ValidationFailed({
              code: "VALIDATION_ERROR",
              key: "payments.currencyMismatch",
              params: { expected: b.currency },
              details: [issue("currency", "payments.currencyMismatch")]
            })
          }
          const account = yield* accounts.accountOf(b.providerId)
          if (Option.isNone(account) || !account.value.chargesEnabled)
            return yield* new Conflict({ code: "PROVIDER_NOT_PAYABLE", key: "payments.providerNotReady" })
          const connected = trimmed(input.connectedAccountId)
          if (connected !== "" && connected !== account.value.accountId)
            return yield* invalid([issue("connectedAccountId", "payments.accountMismatch")])
          const billing = input.billingDetails
          if (billing) {
            const problems = Object.entries(billingProblems(billing))
            if (problems.length > 0)
              return yield* invalid(
                problems.map(([field, problem]) =>
                  issue(`billingDetails.${field}`, problem === "email" ? "validation.email" : (`payments.billing.${field}` as MessageKey))
                )
              )
          }
          // (A move's new total is held at once: the booking moves only on a hold.)
          const mode = topUp ? "authorize" : checkoutModeFor(b.startTime, at)
          const base = config.publicUrl.replace(/\/+$/, "")
          // A new session per attempt (an abandoned one expires), replay-safe within the attempt.
          const idempotencyKey = `booking:${b.id}:checkout:${b.version}:${Math.floor(at.getTime() / 60_000)}`
          // With Stripe and a publishable key, the page confirms the card itself (Stripe Elements).
          if (gateway.createCardPayment && Option.isSome(config.stripePublishableKey)) {
            const payment = yield* gateway.createCardPayment({
              bookingId: b.id,
              mode,
              amountMinor: due,
              currency: b.currency,
              ...chargeRouting(account.value, config.stripePlatformCountry),
              applicationFeeMinor: commissionOf(due),
              customerEmail: trimmed(billing?.email) || b.client.email,
              idempotencyKey
            })
            // (A move's new hold does not replace the booking's current one until it is authorised.)
            if (mode === "authorize" && !topUp) yield* bookings.setReferences(b.id, { paymentIntentId: payment.id })
            return {
              url: "",
              sessionId: payment.id,
              mode,
              clientSecret: payment.clientSecret,
              publishableKey: config.stripePublishableKey.value
            }
          }
          const sessionEnd = new Date(at.getTime() + CHECKOUT_SESSION_MINUTES * 60_000)
          const session = yield* gateway.createCheckoutSession({
            bookingId: b.id,
            mode,
            amountMinor: due,
            currency: b.currency,
            productName: trimmed(input.productName) || b.service.title,
            ...chargeRouting(account.value, config.stripePlatformCountry),
            applicationFeeMinor: commissionOf(due),
            customerEmail: trimmed(billing?.email) || b.client.email,
            billing: billing
              ? {
                  name: trimmed(billing.name),
                  email: trimmed(billing.email),
                  address: {
                    line1: trimmed(billing.address?.line1),
                    city: trimmed(billing.address?.city),
                    postal_code: trimmed(billing.address?.postal_code),
                    country: trimmed(billing.address?.country).toUpperCase()
                  }
                }
              : undefined,
            successUrl: `${base}/bookings?payment=success&booking=${b.id}`,
            cancelUrl: `${base}/services/${b.serviceId}?payment=cancelled`,
            idempotencyKey,
            locale: b.client.preferredLanguage,
            expiresAt: sessionEnd
          })
          // One open session per booking: the previous one is expired, so that it cannot be paid too.
          const previous = b.checkoutSessionId
          if (previous !== null && previous !== session.id) {
            const state = yield* gateway.expireCheckoutSession(previous)
            // Paid in another tab while this one was being opened: the payment is on its way (its hold
            // is applied, by the webhook or the reconciliation); this new session is closed at once.
            if (state === "complete" && b.paymentStatus === "UNPAID") {
              yield* gateway.expireCheckoutSession(session.id)
              return yield* new Conflict({ code: "PAYMENT_ALREADY_MADE", key: "payments.alreadyPaid" })
            }
          }
          yield* bookings.setReferences(b.id, { checkoutSessionId: session.id })
          // The slot waits as long as the session can be paid (within the request's longest window).
          const hold = holdAfterCheckout(b, sessionEnd)
          if (hold !== undefined) yield* bookings.extendHold(b.id, hold)
          return { url: session.url, sessionId: session.id, mode }
        }).pipe(Effect.catchTag("PaymentGatewayError", () => Effect.fail(PaymentGatewayUnavailable))),

      reviewsOf: (serviceId, page, limit) =>
        isUuid(serviceId) ? reviews.ofService(serviceId, limit, (page - 1) * limit) : Effect.succeed({ items: [], total: 0, average: 0 }),

      sweep,
      settle,
      applyChargeEvent
    }
  })
)
