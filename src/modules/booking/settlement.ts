import { Effect, Either, Option } from "effect"
import { newId } from "../../platform/clock"
import type { Conflict, NotFound } from "../../platform/errors"
import { isUuid } from "../../platform/ids"
import { AppConfig } from "../../platform/config"
import { JobQueue } from "../../platform/jobs"
import { Transactional } from "../../platform/transaction"
import { type AuditEntry, AuditTrail } from "../../platform/audit/port"
import {
  type ChargeEvent,
  ChargeGateway,
  chargeRouting,
  countsInFigures,
  EXTENDED_AUTHORIZATION_DETAIL,
  type RefundStatus,
  keptHoldEnd,
  PaymentAccounts,
  type PaymentGatewayError
} from "../payments"
import {
  type Actor,
  amountDue,
  awaitsTopUp,
  captureTarget,
  type Command,
  commissionOf,
  type Decision,
  dueAuthorization,
  dueCommand,
  shortHold,
  RefundExceedsRefundable,
  SystemActor,
  transition,
  type TransitionError,
  wantsCapture
} from "./domain"
import { type BookingDetail, type BookingRecord, BookingRepository, type PaymentReferences } from "./ports"

/**
 * The bookings' money: capture, release, refund and off-session authorisation through the gateway
 * after a decision commits, the timers' sweep, the gateway's charge events and the reconciliation
 * with the gateway. The booking service hands it how a command is decided; it reads its ports itself.
 */

const DAY = 24 * 60 * 60 * 1000
export const SWEEP_BATCH = 200
/** Reconciliation looks at the gateway's holds and completed sessions of this many past days (a hold lasts at most 7). */
export const RECONCILE_LOOKBACK_DAYS = 8
/** A hold younger than this is not released by reconciliation (its webhook or the sweep's renewal may be on the way). */
export const RECONCILE_GRACE_MINUTES = 10
/** Queues of durable work. */
export const Queues = {
  sweep: "booking-timers",
  settle: "payment-settle",
  reconcile: "payment-reconcile",
  reminders: "booking-reminders"
} as const
/** A hold no booking references is released this long after its event (a renewal being recorded is not released). */
const RELEASE_DELAY_SECONDS = 120
/** What became of a charge event (see applyCharge). */
export type ChargeOutcome = "applied" | "ignored" | "stale" | "release"

/** The gateway's refusals of a refund larger than what is left of the payment (Stripe's codes, the sandbox's too). */
const REFUND_EXCEEDED_CODES: ReadonlySet<string> = new Set(["amount_too_large", "charge_already_refunded"])
/** A failed capture or release is retried with backoff: 30 s, 1 min, 2 min... about 2 hours in all. */
const SETTLE_RETRIES = { retryLimit: 8, retryDelaySeconds: 30, retryBackoff: true } as const

/** What a reconciliation run found and did. */
export interface ReconcileReport {
  /** Holds and completed sessions the gateway listed. */
  readonly holdsListed: number
  readonly sessionsListed: number
  /** Holds referenced by their booking (nothing to do). */
  readonly holdsReferenced: number
  /** Missed completions applied: a hold or a saved card the booking had not recorded. */
  readonly applied: ReadonlyArray<{ readonly bookingId: string; readonly kind: "hold" | "card"; readonly reference: string }>
  /** Holds no booking references, released. */
  readonly released: ReadonlyArray<{ readonly bookingId: string | null; readonly paymentIntentId: string }>
  /** Unreferenced holds too recent to release yet (the next run decides), or whose release failed. */
  readonly deferred: ReadonlyArray<{ readonly paymentIntentId: string; readonly reason: string }>
}

type DecideFailure = TransitionError | NotFound | Conflict

/** An administrator's refund: its reason (kept on the refund's operation) and its audit entry, from the booking and the gateway's answer. */
export interface AdminRefund {
  readonly reason: string
  readonly audited: (before: BookingDetail, refunded: { readonly amountMinor: number; readonly totalRefundedMinor: number }) => AuditEntry
}

/** The booking service's steps the settlement builds on. */
export interface SettlementSteps {
  readonly now: Effect.Effect<Date>
  readonly detailOf: (id: string) => Effect.Effect<BookingDetail>
  readonly sendMails: (detail: BookingDetail, decision: Decision) => Effect.Effect<void>
  /** Decides and stores one command under the booking's row lock (see the service's decide). */
  readonly decide: (
    id: string,
    command: Command,
    actor: Actor,
    references?: PaymentReferences
  ) => Effect.Effect<{ readonly detail: BookingDetail; readonly decision: Decision }, DecideFailure>
}

export const makeSettlement = ({ decide, detailOf, now, sendMails }: SettlementSteps) =>
  Effect.gen(function* () {
    const bookings = yield* BookingRepository
    const accounts = yield* PaymentAccounts
    const gateway = yield* ChargeGateway
    const jobs = yield* JobQueue
    const tx = yield* Transactional
    const audit = yield* AuditTrail
    const config = yield* AppConfig

    /** Runs the money movements a decision asks for; a failure is queued for retry, never lost. */
    const runMoneyEffects = (
      bookingId: string,
      decision: Decision,
      refundBy?: AdminRefund
    ): Effect.Effect<void, PaymentGatewayError | Conflict> =>
      Effect.forEach(
        decision.effects,
        (effect) =>
          effect._tag === "Capture" || effect._tag === "ReleaseAuthorization" || effect._tag === "AuthorizeSavedCard"
            ? settle(bookingId).pipe(
                Effect.catchAll((error) =>
                  Effect.zipRight(
                    Effect.logWarning(`booking ${bookingId}: ${effect._tag} failed (${error.detail}), retried in the background`),
                    jobs.send(
                      Queues.settle,
                      { bookingId },
                      { ...SETTLE_RETRIES, singletonKey: `settle:${bookingId}`, startAfterSeconds: 30 }
                    )
                  )
                )
              )
            : effect._tag === "Refund"
              ? refund(bookingId, effect.amountMinor, refundBy)
              : Effect.void,
        { discard: true }
      )

    const applySystem = (id: string, command: Command, references?: PaymentReferences): Effect.Effect<void> =>
      decide(id, command, SystemActor, references).pipe(
        Effect.tap(({ decision }) =>
          runMoneyEffects(id, decision).pipe(
            Effect.catchAll((e) =>
              Effect.logWarning(
                `booking ${id}: ${command._tag} money effect failed (${e._tag === "PaymentGatewayError" ? e.detail : e.code})`
              )
            )
          )
        ),
        Effect.asVoid,
        // A stale or repeated gateway answer, or a timer another process already applied: nothing to do.
        Effect.catchTags({
          Conflict: (e) => Effect.logDebug(`booking ${id}: ${command._tag} not applicable (${e.code})`),
          Forbidden: () => Effect.logWarning(`booking ${id}: ${command._tag} refused to the system`),
          NotFound: () => Effect.logInfo(`booking ${id}: ${command._tag} for an unknown booking`),
          ValidationFailed: () => Effect.void
        })
      )

    const recordOperation = (
      booking: BookingRecord,
      kind: Parameters<typeof bookings.recordOperation>[0]["kind"],
      amountMinor: number,
      reference: string,
      extra: { fee?: number; detail?: string | null; paymentMethod?: string | null; refundStatus?: RefundStatus } = {}
    ) =>
      bookings.recordOperation({
        bookingId: booking.id,
        gateway: gateway.kind,
        kind,
        amountMinor,
        currency: booking.currency,
        feeMinor: extra.fee ?? 0,
        paymentIntentId: booking.paymentIntentId,
        reference,
        paymentMethod: extra.paymentMethod ?? null,
        detail: extra.detail ?? null,
        refundStatus: kind === "REFUND" ? (extra.refundStatus ?? "succeeded") : null
      })

    /** Capture when the booking is done and money is held; release when it is over and money is held. */
    const settle = (bookingId: string, releaseIntent?: string): Effect.Effect<void, PaymentGatewayError> =>
      Effect.gen(function* () {
        const found = isUuid(bookingId) ? yield* bookings.findById(bookingId) : Option.none<BookingDetail>()
        // A hold the booking does not reference (or of no booking at all) is released; one the booking
        // took since is settled as the booking's own below.
        if (releaseIntent !== undefined && !(Option.isSome(found) && found.value.paymentIntentId === releaseIntent)) {
          yield* gateway.cancelAuthorization({
            paymentIntentId: releaseIntent,
            idempotencyKey: `booking:${bookingId}:release:${releaseIntent}`
          })
          if (Option.isSome(found))
            yield* tx.run(
              recordOperation({ ...found.value, paymentIntentId: releaseIntent }, "CANCELLATION", 0, `release:${releaseIntent}`)
            )
          return
        }
        if (Option.isNone(found)) return
        const b = found.value
        // Completed before its saved card was authorised: authorise now (the hold is then captured).
        if (b.paymentStatus === "CARD_SAVED" && wantsCapture(b)) {
          yield* authorizeSaved(b)
          // The new hold is captured now, whoever recorded it first (this call, or its webhook racing it).
          const after = yield* bookings.findById(bookingId)
          if (Option.isSome(after) && after.value.paymentStatus === "AUTHORIZED") yield* settle(bookingId)
          return
        }
        if (b.paymentStatus !== "AUTHORIZED" || b.paymentIntentId === null) return
        // What to capture (domain's captureTarget): the total of a COMPLETED or VALIDATED booking, what a
        // dispute's decision keeps (RESOLVED), or a client's late-cancellation fee (the gateway releases the
        // rest of the hold with the capture); 5% commission on it.
        if (wantsCapture(b)) {
          const amount = Math.min(captureTarget(b), b.authorizedMinor)
          const fee = commissionOf(amount)
          const captured = yield* gateway
            .capture({
              paymentIntentId: b.paymentIntentId,
              amountMinor: amount,
              applicationFeeMinor: fee,
              idempotencyKey: `booking:${b.id}:capture:${b.paymentIntentId}`
            })
            .pipe(
              Effect.map((answer) => Option.some(answer)),
              // The hold lapsed before the capture: nothing is left to capture, the booking is flagged (HOLD_RELEASED).
              Effect.catchIf(
                (error) => error.code === "charge_expired_for_capture",
                () => Effect.succeed(Option.none<{ readonly capturedMinor: number }>())
              )
            )
          if (Option.isNone(captured)) return yield* applySystem(b.id, { _tag: "AuthorizationReleased" })
          const { capturedMinor } = captured.value
          yield* tx.run(recordOperation(b, "CAPTURE", capturedMinor, `capture:${b.paymentIntentId}`, { fee: commissionOf(capturedMinor) }))
          yield* applySystem(b.id, { _tag: "PaymentCaptured", amountMinor: capturedMinor })
        } else if (b.status === "CANCELLED" || b.status === "REJECTED" || b.status === "RESOLVED" || shortHold(b)) {
          // (RESOLVED here: the decision released everything.)
          // (A hold short of the total: a move raised it, the client authorises the new amount at checkout.)
          yield* gateway.cancelAuthorization({
            paymentIntentId: b.paymentIntentId,
            idempotencyKey: `booking:${b.id}:release:${b.paymentIntentId}`
          })
          yield* tx.run(recordOperation(b, "CANCELLATION", b.authorizedMinor, `release:${b.paymentIntentId}`))
          yield* applySystem(b.id, { _tag: "AuthorizationReleased" })
        }
      })

    const refund = (bookingId: string, amountMinor: number, by?: AdminRefund): Effect.Effect<void, PaymentGatewayError | Conflict> =>
      Effect.gen(function* () {
        const b = yield* detailOf(bookingId)
        if (b.paymentIntentId === null) return
        // Each refund asked for is its own request (a key from the amounts would merge two concurrent
        // identical refunds into one, and report the second as done); the gateway keeps the total
        // refunded within what was captured, and refuses the one that would exceed it.
        const result = yield* gateway
          // The refund's metadata names the booking: its later events (a failure) find it by it.
          .refund({
            paymentIntentId: b.paymentIntentId,
            amountMinor,
            bookingId: b.id,
            idempotencyKey: `booking:${b.id}:refund:${yield* newId}`
          })
          .pipe(
            Effect.catchIf(
              (error) => error.code !== undefined && REFUND_EXCEEDED_CODES.has(error.code),
              () => Effect.fail(RefundExceedsRefundable)
            )
          )
        // The operation (with the admin's reason) and the decision's audit entry commit together.
        yield* tx.run(
          Effect.zipRight(
            recordOperation(b, "REFUND", result.amountMinor, `refund:${result.refundId}`, {
              fee: commissionOf(result.amountMinor),
              detail: by?.reason ?? null,
              refundStatus: result.status
            }),
            by === undefined ? Effect.void : audit.record(by.audited(b, result))
          )
        )
        // The gateway's total, not ours plus this refund: a concurrent refund may have landed since the read.
        yield* applySystem(b.id, { _tag: "PaymentRefunded", totalRefundedMinor: result.totalRefundedMinor })
      })

    /** Authorises a saved card off-session, or renews a hold about to lapse. */
    const authorizeSaved = (b: BookingRecord) =>
      Effect.gen(function* () {
        if (b.gatewayCustomerId === null || b.gatewayPaymentMethodId === null) {
          return yield* applySystem(b.id, { _tag: "AuthorizationFailed", needsClient: true })
        }
        const account = yield* accounts.accountOf(b.providerId)
        if (Option.isNone(account)) return yield* applySystem(b.id, { _tag: "AuthorizationFailed", needsClient: false })
        const previous = b.paymentIntentId
        const result = yield* gateway.authorizeOffSession({
          bookingId: b.id,
          amountMinor: b.totalMinor,
          currency: b.currency,
          ...chargeRouting(account.value, config.stripePlatformCountry),
          applicationFeeMinor: commissionOf(b.totalMinor),
          customerId: b.gatewayCustomerId,
          paymentMethodId: b.gatewayPaymentMethodId,
          idempotencyKey: `booking:${b.id}:authorize:${previous ?? "first"}`
        })
        if (result._tag === "Authorized") {
          yield* tx.run(
            recordOperation(b, "AUTHORIZATION", result.amountMinor, `authorization:${result.paymentIntentId}`, {
              detail: result.extendedAuthorization ? EXTENDED_AUTHORIZATION_DETAIL : null
            })
          )
          yield* applySystem(
            b.id,
            { _tag: "PaymentAuthorized", amountMinor: result.amountMinor, expiresAt: result.expiresAt },
            { paymentIntentId: result.paymentIntentId }
          )
          // The renewed hold replaces the old one, which is released.
          if (previous !== null && previous !== result.paymentIntentId) {
            yield* gateway
              .cancelAuthorization({ paymentIntentId: previous, idempotencyKey: `booking:${b.id}:release:${previous}` })
              .pipe(Effect.ignoreLogged)
          }
        } else {
          yield* tx.run(
            recordOperation(b, "FAILURE", 0, `failure:${result.paymentIntentId ?? b.id}:${result.code}`, { detail: result.code })
          )
          yield* applySystem(b.id, { _tag: "AuthorizationFailed", needsClient: result.needsClient })
        }
      }).pipe(
        Effect.catchAll((error) =>
          Effect.logWarning(`booking ${b.id}: off-session authorisation failed (${error.detail}), next sweep retries`)
        )
      )

    const sweep = Effect.gen(function* () {
      const at = yield* now
      const ids = yield* bookings.dueIds(at, SWEEP_BATCH)
      let changed = 0
      for (const id of ids) {
        const found = yield* bookings.findById(id)
        if (Option.isNone(found)) continue
        const command = dueCommand(found.value, at)
        if (command) {
          yield* applySystem(id, command)
          changed++
          continue
        }
        if (dueAuthorization(found.value, at)) {
          yield* authorizeSaved(found.value)
          changed++
        }
      }
      // Captures and releases whose first attempt failed (or whose process stopped mid-way).
      for (const id of yield* bookings.captureDueIds(SWEEP_BATCH)) {
        yield* settle(id).pipe(Effect.catchAll((error) => Effect.logWarning(`booking ${id}: capture retry failed (${error.detail})`)))
      }
      return changed
    })

    /**
     * `b`: the booking the event applies to; a report about the hold it already records keeps a known
     * end rather than a fallback, and the earlier of two (payments/holds.ts).
     */
    const chargeCommand = (event: ChargeEvent, b: BookingRecord): { command: Command; references?: PaymentReferences } | undefined => {
      switch (event._tag) {
        case "CardSaved":
          return {
            command: { _tag: "CardSaved" },
            references: { gatewayCustomerId: event.customerId, gatewayPaymentMethodId: event.paymentMethodId }
          }
        case "PaymentAuthorized":
          return {
            command: {
              _tag: "PaymentAuthorized",
              amountMinor: event.amountMinor,
              expiresAt:
                event.paymentIntentId === b.paymentIntentId
                  ? keptHoldEnd(b.authorizationExpiresAt, { expiresAt: event.expiresAt, known: event.expiryKnown })
                  : event.expiresAt
            },
            references: {
              paymentIntentId: event.paymentIntentId,
              ...(event.customerId ? { gatewayCustomerId: event.customerId } : {}),
              ...(event.paymentMethodId ? { gatewayPaymentMethodId: event.paymentMethodId } : {})
            }
          }
        case "PaymentCaptured":
          return { command: { _tag: "PaymentCaptured", amountMinor: event.amountMinor } }
        case "AuthorizationReleased":
          return { command: { _tag: "AuthorizationReleased" } }
        case "PaymentFailed":
          return { command: { _tag: "AuthorizationFailed", needsClient: event.needsClient } }
        case "PaymentRefunded":
          return { command: { _tag: "PaymentRefunded", totalRefundedMinor: event.totalRefundedMinor } }
      }
    }

    /** Records a refund's new state, then moves the booking's refunded total to what its records count. */
    const refundUpdated = (b: BookingRecord, event: Extract<ChargeEvent, { _tag: "RefundUpdated" }>) =>
      Effect.gen(function* () {
        yield* recordOperation(b, "REFUND", event.amountMinor, `refund:${event.refundId}`, {
          fee: commissionOf(event.amountMinor),
          refundStatus: event.status,
          detail: event.failureReason
        })
        const counted = (yield* bookings.operations(b.id))
          .filter((o) => o.kind === "REFUND" && countsInFigures(o))
          .reduce((sum, o) => sum + o.amountMinor, 0)
        const command: Command | undefined =
          counted < b.refundedMinor
            ? { _tag: "RefundFailed", totalRefundedMinor: counted }
            : counted > b.refundedMinor
              ? { _tag: "PaymentRefunded", totalRefundedMinor: counted }
              : undefined
        if (command === undefined) return "ignored" as const
        if (command._tag === "RefundFailed") {
          yield* Effect.logWarning(
            `booking ${b.id}: refund ${event.refundId} ${event.status} (${event.failureReason ?? "no reason"}), flagged`
          )
        }
        const decision = transition(b, command, SystemActor, yield* now)
        if (Either.isLeft(decision)) return "ignored" as const
        yield* bookings.save(b, decision.right).pipe(Effect.orDie)
        yield* sendMails(yield* detailOf(b.id), decision.right)
        return "applied" as const
      })

    /**
     * Releases a hold nobody needs (a second payment, or one for a booking that is over), once the
     * webhook commits. Delayed a little: a renewal's hold can be reported before the sweep records it,
     * and the job re-checks that the booking still does not reference the intent.
     */
    const releaseLater = (bookingId: string, paymentIntentId: string, delaySeconds = RELEASE_DELAY_SECONDS) =>
      jobs.send(
        Queues.settle,
        { bookingId, releaseIntent: paymentIntentId },
        { ...SETTLE_RETRIES, singletonKey: `release:${paymentIntentId}`, startAfterSeconds: delaySeconds }
      )

    /**
     * Applies a charge event to its booking, under its row lock, and answers what became of it:
     * `applied`, `ignored` (nothing to do), `stale` (older than an event already applied to its payment
     * intent), or `release` (a hold no booking references: the caller releases it). `observed`: the
     * gateway's current state read by reconciliation, not an event (it does not move the intent's clock).
     */
    const applyCharge = (event: ChargeEvent, observed = false): Effect.Effect<ChargeOutcome> =>
      Effect.gen(function* () {
        const hold = event._tag === "PaymentAuthorized" ? event.paymentIntentId : null
        const orphan = (why: string): Effect.Effect<ChargeOutcome> =>
          Effect.as(Effect.logInfo(`charge event ${event.reference}: ${why}`), hold !== null ? "release" : "ignored")
        // Not a booking id of ours (another system's payment on the same account): not ours to release.
        if (!isUuid(event.bookingId))
          return yield* Effect.as(Effect.logInfo(`charge event ${event.reference} names no booking of ours`), "ignored" as const)
        // Under the row lock: a sweep or a user's command may be changing the same booking.
        const locked = yield* bookings.lock(event.bookingId)
        if (Option.isNone(locked)) return yield* orphan(`unknown booking ${event.bookingId}`)
        const b = locked.value
        const eventIntent = "paymentIntentId" in event ? event.paymentIntentId : null
        // Every refund of the booking's payment is a REFUND operation named by its id: the app's own
        // (`refund` records it too: once in all) and any made in the gateway's dashboard, which the
        // figures would miss otherwise. The list is read when the event is handled, so even a stale
        // event's is current.
        if (event._tag === "PaymentRefunded" && eventIntent === b.paymentIntentId) {
          for (const r of event.refunds) {
            yield* recordOperation(b, "REFUND", r.amountMinor, `refund:${r.refundId}`, {
              fee: commissionOf(r.amountMinor),
              refundStatus: r.status
            })
          }
        }
        // A refund's new state is recorded whatever its order; the booking's refunded total then follows
        // what the records count (a failed refund gave nothing back: flagged for an administrator).
        if (event._tag === "RefundUpdated") {
          if (event.paymentIntentId !== b.paymentIntentId)
            return yield* orphan(`refund of ${event.paymentIntentId}, not the booking's payment`)
          return yield* refundUpdated(b, event)
        }
        // Events of one payment intent apply in the order the gateway created them: an older one is ignored.
        if (eventIntent !== null && !observed && !(yield* bookings.advanceChargeClock(eventIntent, event.occurredAt))) {
          yield* Effect.logInfo(`charge event ${event.reference}: older than the last event applied to ${eventIntent}, ignored`)
          return "stale"
        }
        // A held intent cannot fail any more: a failure of the booking's current hold is an old event (same second).
        if (event._tag === "PaymentFailed" && eventIntent === b.paymentIntentId && b.paymentStatus === "AUTHORIZED") {
          yield* Effect.logInfo(`charge event ${event.reference}: failure of ${eventIntent}, which is held, ignored`)
          return "stale"
        }
        const otherIntent = eventIntent !== null && b.paymentIntentId !== null && eventIntent !== b.paymentIntentId
        // The client's authorisation of the raised total of an accepted move: a second hold the booking adopts.
        const topUp = event._tag === "PaymentAuthorized" && awaitsTopUp(b) && event.amountMinor >= amountDue(b)
        // News about an intent that is not the booking's current one changes nothing; a hold is adopted
        // only by a booking still waiting for one (paying again after a failure, or a move's new total), otherwise released.
        if (otherIntent && (event._tag !== "PaymentAuthorized" || (b.paymentStatus === "AUTHORIZED" && !topUp))) {
          return yield* orphan(`intent ${eventIntent} is not the booking's current one`)
        }
        const mapped = chargeCommand(event, b)
        if (!mapped) return "ignored"
        const at = yield* now
        const decision = transition(b, mapped.command, SystemActor, at)
        if (Either.isLeft(decision)) {
          yield* Effect.logDebug(`charge event ${event.reference}: ${mapped.command._tag} not applicable to ${b.status}/${b.paymentStatus}`)
          return hold !== null && b.paymentIntentId !== hold ? "release" : "ignored"
        }
        if (event._tag === "PaymentAuthorized" && decision.right.next.paymentStatus !== "AUTHORIZED") {
          // A hold for a booking that is over: release that very intent, change nothing else.
          return "release"
        }
        if (event._tag === "PaymentAuthorized") {
          yield* recordOperation(
            { ...b, paymentIntentId: event.paymentIntentId },
            "AUTHORIZATION",
            event.amountMinor,
            `authorization:${event.paymentIntentId}`,
            { paymentMethod: event.paymentMethod, detail: event.extendedAuthorization ? EXTENDED_AUTHORIZATION_DETAIL : null }
          )
        } else if (event._tag === "CardSaved") {
          yield* recordOperation(b, "CARD_SAVED", 0, `card:${event.reference}`)
        } else if (event._tag === "PaymentCaptured") {
          // A capture the gateway reported before settle recorded it (same reference: recorded once), so
          // that the payment records hold it when the receipt is mailed in this very transaction.
          yield* recordOperation(b, "CAPTURE", event.amountMinor, `capture:${event.paymentIntentId}`, {
            fee: commissionOf(event.amountMinor)
          })
        }
        // A charge event moves a booking only when it is the raised total of an accepted move: the slot is
        // checked again then (the exclusion constraint, in a savepoint). Taken meanwhile, the proposal closes
        // and this new hold is released; the booking keeps its time and its hold.
        const stored = yield* tx.run(bookings.save(b, decision.right, mapped.references)).pipe(
          Effect.map(() => decision.right),
          Effect.catchTag("Conflict", () =>
            Effect.gen(function* () {
              const lost = transition(b, { _tag: "RescheduleUnavailable" }, SystemActor, at)
              if (Either.isLeft(lost)) return yield* Effect.dieMessage(`booking ${b.id}: a move refused outside a reschedule`)
              yield* bookings.save(b, lost.right).pipe(Effect.orDie)
              return lost.right
            })
          )
        )
        yield* sendMails(yield* detailOf(b.id), stored)
        // (Released at once: this hold is the move's own, no renewal of the booking's can be racing it.)
        if (stored !== decision.right) {
          if (hold !== null) yield* releaseLater(b.id, hold, 0)
          return "ignored"
        }
        // The hold the move's new total replaced is released now that the new one is recorded.
        if (stored.effects.some((e) => e._tag === "ReleaseReplacedAuthorization") && b.paymentIntentId !== null) {
          yield* releaseLater(b.id, b.paymentIntentId, 0)
        }
        // Money effects run as durable jobs once the webhook commits (never inside the gateway's call).
        if (
          decision.right.effects.some((e) => e._tag === "ReleaseAuthorization" || e._tag === "Capture" || e._tag === "AuthorizeSavedCard")
        ) {
          yield* jobs.send(Queues.settle, { bookingId: b.id }, { ...SETTLE_RETRIES, singletonKey: `settle:${b.id}` })
        }
        return "applied"
      })

    const applyChargeEvent = (event: ChargeEvent) =>
      Effect.flatMap(applyCharge(event), (outcome) =>
        outcome === "release" && event._tag === "PaymentAuthorized" ? releaseLater(event.bookingId, event.paymentIntentId) : Effect.void
      )

    const reconcile: Effect.Effect<ReconcileReport, PaymentGatewayError> = Effect.gen(function* () {
      const at = yield* now
      const since = new Date(at.getTime() - RECONCILE_LOOKBACK_DAYS * DAY)
      const applied: Array<ReconcileReport["applied"][number]> = []
      const released: Array<ReconcileReport["released"][number]> = []
      const deferred: Array<ReconcileReport["deferred"][number]> = []
      let holdsReferenced = 0

      // Cards saved by a completed setup session the booking did not record (a lost delivery).
      // A payment session's hold, while it is held, is among the holds below.
      const sessions = yield* gateway.listCompletedCheckouts(since)
      for (const c of sessions) {
        if (c.mode !== "setup" || c.bookingId === null || c.customerId === null || c.paymentMethodId === null) continue
        const reference = `reconcile:${c.sessionId}`
        const event: ChargeEvent = {
          _tag: "CardSaved",
          bookingId: c.bookingId,
          customerId: c.customerId,
          paymentMethodId: c.paymentMethodId,
          reference,
          occurredAt: at
        }
        if ((yield* tx.run(applyCharge(event, true))) === "applied") applied.push({ bookingId: c.bookingId, kind: "card", reference })
      }

      const holds = yield* gateway.listOpenHolds(since)
      for (const h of holds) {
        // Not a booking's payment: not the marketplace's to release.
        if (h.bookingId === null || !isUuid(h.bookingId)) continue
        const booking = yield* bookings.findById(h.bookingId)
        if (Option.isSome(booking) && booking.value.paymentIntentId === h.paymentIntentId) {
          holdsReferenced++
          continue
        }
        const reference = `reconcile:${h.paymentIntentId}`
        const event: ChargeEvent = {
          _tag: "PaymentAuthorized",
          bookingId: h.bookingId,
          paymentIntentId: h.paymentIntentId,
          amountMinor: h.amountMinor,
          expiresAt: h.expiresAt,
          expiryKnown: h.expiryKnown,
          extendedAuthorization: false,
          customerId: h.customerId,
          paymentMethodId: h.paymentMethodId,
          paymentMethod: null,
          reference,
          occurredAt: at
        }
        const outcome = yield* tx.run(applyCharge(event, true))
        if (outcome === "applied") {
          applied.push({ bookingId: h.bookingId, kind: "hold", reference })
          continue
        }
        if (at.getTime() - h.createdAt.getTime() < RECONCILE_GRACE_MINUTES * 60_000) {
          deferred.push({ paymentIntentId: h.paymentIntentId, reason: "recent" })
          continue
        }
        yield* settle(h.bookingId, h.paymentIntentId).pipe(
          Effect.matchEffect({
            onFailure: (error) =>
              Effect.sync(() => deferred.push({ paymentIntentId: h.paymentIntentId, reason: `release failed: ${error.detail}` })),
            onSuccess: () =>
              Effect.sync(() =>
                released.push({ bookingId: Option.isSome(booking) ? h.bookingId : null, paymentIntentId: h.paymentIntentId })
              )
          })
        )
      }
      // The money movements the applied completions asked for (a capture of a finished booking...).
      for (const { bookingId } of applied) {
        yield* settle(bookingId).pipe(
          Effect.catchAll((error) => Effect.logWarning(`booking ${bookingId}: settle after reconciliation failed (${error.detail})`))
        )
      }
      return { holdsListed: holds.length, sessionsListed: sessions.length, holdsReferenced, applied, released, deferred }
    })

    return { runMoneyEffects, sweep, settle, applyChargeEvent, reconcile }
  })
