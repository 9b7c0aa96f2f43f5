import { Context, Effect, Either, Layer, Option, Schema } from "effect"
import * as crypto from "node:crypto"
import { now } from "../../../platform/clock"
import { AppConfig } from "../../../platform/config"
import { JobQueue } from "../../../platform/jobs"
import { Transactional } from "../../../platform/transaction"
import {
  ChargeGateway,
  type ChargeGatewayShape,
  type CheckoutRequest,
  PaymentGatewayError,
  type SandboxCardBehaviour,
  SandboxAccountStore,
  SandboxChargeStore,
  type SandboxCheckoutSession,
  type SandboxPaymentIntent,
  type SandboxPaymentMethod,
  type SandboxRefund,
  type SandboxSetupIntent
} from "../ports"
import { keyCoveringParameters } from "../idempotency"
import { needsOnBehalfOf, RefundStatuses } from "../rules"
import { fallbackHoldEnd, grantsExtendedAuthorization, heldCardOf, holdWindowMs, type Initiator, INITIATOR_METADATA_KEY } from "../holds"
import { onOrigin, sandboxPaths } from "./sandbox"
import { type SandboxEvent, sandboxEventSender, stamp, type StampedEvent } from "./sandbox-events"

/**
 * The offline card gateway (PAYMENTS_MODE=sandbox): Stripe's objects and states, kept in the sandbox's
 * own tables so they survive restarts and are shared by processes. Checkout happens on local pages
 * (adapters/sandbox/checkout-page.ts); the outcome of a card is decided by its number, as with Stripe's test
 * cards; every change is reported by a signed Stripe-shaped event to the app's own webhook.
 */

const MINUTE_MS = 60 * 1000
const DAY_MS = 24 * 60 * MINUTE_MS
/** Stripe's bounds for a Checkout Session's life (default 24 hours). */
const SESSION_MIN_MS = 30 * MINUTE_MS
const SESSION_MAX_MS = DAY_MS

/** How long after it is made a refund of the 5126 card fails (Stripe: "some time afterward"). */
export const REFUND_FAILS_AFTER_SECONDS = 3
/** The queue of the sandbox's refunds that fail afterwards. */
export const SANDBOX_REFUND_FAILURE_QUEUE = "sandbox-refund-failure"

/** Retries of an event delivered in the background (see deliverLater). */
const BACKGROUND_RETRIES = 6

const newId = (prefix: string) => `${prefix}_sandbox_${crypto.randomBytes(12).toString("hex")}`
const seconds = (date: Date) => Math.floor(date.getTime() / 1000)
const trimSlash = (url: string) => url.replace(/\/+$/, "")

// ---- Test cards --------------------------------------------------------------------------------

/**
 * Stripe's test cards the sandbox knows; any other valid number is declined, as Stripe's test mode does
 * with real cards. The page advertises 4000 0025 0000 3184 for authentication (it fails the Luhn check,
 * so it is recognised before that check); Stripe's own 4000 0027 6000 3184 does the same.
 */
export const TEST_CARDS: Readonly<Record<string, SandboxCardBehaviour>> = {
  "4242424242424242": "succeeds",
  // Mastercard: its network extends a hold to 30 days (holds.ts); Visa's 4242 does not.
  "5555555555554444": "succeeds",
  "4000000000000002": "declines",
  "4000002500003184": "authenticates",
  // Holds and captures; a refund succeeds, then fails a few seconds later (as Stripe's 5126 does).
  "4000000000005126": "refund_fails",
  "4000002760003184": "authenticates"
}

/** A card that is held (or saved) without the client's help: 4242, 5555 and 5126 (whose refunds fail later). */
const holdsAtOnce = (method: { readonly behaviour: SandboxCardBehaviour }) =>
  method.behaviour === "succeeds" || method.behaviour === "refund_fails"

export interface CardInput {
  readonly number: string
  /** `MM/YY` (or `MM/YYYY`). */
  readonly expiry: string
  readonly cvc: string
}
export type CardProblem = "invalidNumber" | "invalidExpiry" | "invalidCvc"
export type Card = Omit<SandboxPaymentMethod, "id" | "customerId">

const luhn = (digits: string) => {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return sum % 10 === 0
}

const brandOf = (digits: string) =>
  digits.startsWith("4") ? "visa" : /^(5[1-5]|2[2-7])/.test(digits) ? "mastercard" : /^3[47]/.test(digits) ? "amex" : "unknown"

/** A card as the checkout form gives it: the number (spaces allowed), an expiry not past at `now`, a CVC. */
export const readCard = (input: CardInput, now: Date): Either.Either<Card, CardProblem> => {
  const digits = input.number.replace(/[\s-]/g, "")
  const known = TEST_CARDS[digits]
  if (!known && (!/^\d{12,19}$/.test(digits) || !luhn(digits))) return Either.left("invalidNumber")
  const expiry = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(input.expiry.trim())
  const month = Number(expiry?.[1])
  const year = expiry?.[2]?.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry?.[2])
  // A card is valid until the end of its expiry month (UTC).
  if (!expiry || month < 1 || month > 12 || Date.UTC(year, month, 1) <= now.getTime()) return Either.left("invalidExpiry")
  if (!/^\d{3,4}$/.test(input.cvc.trim())) return Either.left("invalidCvc")
  return Either.right({ brand: brandOf(digits), last4: digits.slice(-4), expMonth: month, expYear: year, behaviour: known ?? "declines" })
}

// ---- Stripe-shaped objects (event payloads) ----------------------------------------------------

const DECLINE_MESSAGES: Readonly<Record<string, string>> = {
  card_declined: "Your card was declined.",
  authentication_required: "Your card was declined. This transaction requires authentication.",
  payment_intent_authentication_failure: "We are unable to authenticate your payment method."
}

const lastError = (code: string | null, declineCode: string | null) =>
  code === null
    ? null
    : {
        type: code === "payment_intent_authentication_failure" ? "invalid_request_error" : "card_error",
        code,
        decline_code: declineCode,
        message: DECLINE_MESSAGES[code] ?? code
      }

const chargeObject = (intent: SandboxPaymentIntent, method: Option.Option<SandboxPaymentMethod>) => ({
  id: intent.chargeId,
  object: "charge",
  amount: intent.amountMinor,
  amount_captured: intent.amountReceived,
  amount_refunded: intent.amountRefunded,
  captured: intent.status === "succeeded",
  refunded: intent.amountReceived > 0 && intent.amountRefunded >= intent.amountReceived,
  currency: intent.currency,
  customer: intent.customerId,
  payment_intent: intent.id,
  payment_method: intent.paymentMethodId,
  application_fee_amount: intent.applicationFeeMinor,
  transfer_data: { destination: intent.destinationAccountId },
  status: "succeeded",
  // Stripe copies the intent's metadata to its charges.
  metadata: metadataOf(intent),
  payment_method_details: {
    type: "card",
    card: Option.getOrNull(
      Option.map(method, (m) => ({
        brand: m.brand,
        last4: m.last4,
        exp_month: m.expMonth,
        exp_year: m.expYear,
        capture_before: intent.captureBefore ? seconds(intent.captureBefore) : null,
        extended_authorization: intent.extendedAuthorization === null ? null : { status: intent.extendedAuthorization }
      }))
    )
  },
  created: seconds(intent.createdAt),
  livemode: false
})

/** Who started an intent: the platform when it confirmed it off-session, else the client. */
const initiatorOfIntent = (intent: SandboxPaymentIntent): Initiator => (intent.offSession ? "merchant" : "customer")

/** The metadata the app gives an intent (the Stripe adapter names an off-session one's initiator). */
const metadataOf = (intent: SandboxPaymentIntent): Record<string, string> => ({
  bookingId: intent.bookingId,
  ...(intent.offSession ? { [INITIATOR_METADATA_KEY]: "merchant" } : {})
})

/**
 * A PaymentIntent. As Stripe: `latest_charge` is an id, expanded (with the hold's `capture_before`)
 * only for a request that asks (`expand`): never in an event.
 */
const intentObject = (intent: SandboxPaymentIntent, method: Option.Option<SandboxPaymentMethod>, expand = false) => ({
  id: intent.id,
  object: "payment_intent",
  amount: intent.amountMinor,
  amount_capturable: intent.amountCapturable,
  amount_received: intent.amountReceived,
  currency: intent.currency,
  status: intent.status,
  capture_method: "manual",
  customer: intent.customerId,
  payment_method: intent.paymentMethodId,
  application_fee_amount: intent.applicationFeeMinor,
  transfer_data: { destination: intent.destinationAccountId },
  latest_charge: intent.chargeId === null ? null : expand ? chargeObject(intent, method) : intent.chargeId,
  last_payment_error: lastError(intent.lastErrorCode, intent.lastDeclineCode),
  metadata: metadataOf(intent),
  created: seconds(intent.createdAt),
  livemode: false
})

const setupIntentObject = (setup: SandboxSetupIntent) => ({
  id: setup.id,
  object: "setup_intent",
  status: setup.status,
  usage: "off_session",
  customer: setup.customerId,
  payment_method: setup.paymentMethodId,
  last_setup_error: lastError(setup.lastErrorCode, null),
  metadata: { bookingId: setup.bookingId },
  created: seconds(setup.createdAt),
  livemode: false
})

/** As Stripe sends it: intents as ids (the intents' own events carry their details). */
const sessionObject = (session: SandboxCheckoutSession) => ({
  id: session.id,
  object: "checkout.session",
  mode: session.mode,
  status: session.status,
  // A manual-capture payment is only authorised: Checkout says "unpaid" until it is captured.
  payment_status: session.mode === "setup" ? "no_payment_required" : "unpaid",
  amount_total: session.mode === "setup" ? null : session.amountMinor,
  currency: session.currency.toLowerCase(),
  customer: session.customerId,
  customer_email: session.customerEmail,
  client_reference_id: session.bookingId,
  payment_intent: session.paymentIntentId,
  setup_intent: session.setupIntentId,
  metadata: { bookingId: session.bookingId },
  success_url: session.successUrl,
  cancel_url: session.cancelUrl,
  expires_at: seconds(session.expiresAt),
  created: seconds(session.createdAt),
  livemode: false
})

/** A Refund, as Stripe's refund events carry it (the booking's id in its metadata, as the app sends it). */
const refundObject = (refund: SandboxRefund, intent: SandboxPaymentIntent) => ({
  id: refund.id,
  object: "refund",
  amount: refund.amountMinor,
  currency: intent.currency,
  charge: intent.chargeId,
  payment_intent: intent.id,
  status: refund.status,
  failure_reason: refund.failureReason,
  metadata: { bookingId: intent.bookingId },
  created: seconds(refund.createdAt)
})

const paymentIntentEvent = (type: string, intent: SandboxPaymentIntent, method: Option.Option<SandboxPaymentMethod>): SandboxEvent => ({
  type,
  object: intentObject(intent, method)
})

// ---- Errors, as Stripe words them --------------------------------------------------------------

const refusal = (operation: string, code: string, message: string, type = "invalid_request_error") =>
  new PaymentGatewayError({ operation, detail: `${type} ${code} ${message}`, code })

const checkAmount = (operation: string, name: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  Number.isSafeInteger(value) && value >= min && value <= max
    ? Effect.void
    : Effect.fail(refusal(operation, "parameter_invalid_integer", `Invalid ${name}: ${value} (must be an integer from ${min} to ${max}).`))

/**
 * Stripe's refusal of a destination charge across regions without `on_behalf_of`: the funds would
 * settle on a platform outside the connected account's region.
 */
const crossRegionRefusal = (operation: string, country: string) =>
  new PaymentGatewayError({
    operation,
    detail: `invalid_request_error Cannot create a destination charge for connected accounts in ${country} because funds would be settled on the platform and the connected account is outside the platform's region. You may use the on_behalf_of parameter to have the connected account settle the charge.`
  })

const checkUrl = (operation: string, name: string, url: string) => {
  try {
    if (["http:", "https:"].includes(new URL(url).protocol)) return Effect.void
  } catch {
    // refused below
  }
  return Effect.fail(refusal(operation, "url_invalid", `Invalid ${name}: ${url}`))
}

// ---- The hosted checkout's side ----------------------------------------------------------------

export type CheckoutState = "open" | "complete" | "expired"

export type PayOutcome =
  | { readonly _tag: "Completed"; readonly successUrl: string }
  | { readonly _tag: "Declined"; readonly code: string }
  | { readonly _tag: "InvalidCard"; readonly problem: CardProblem }
  | { readonly _tag: "AuthenticationRequired" }
  | { readonly _tag: "AuthenticationFailed" }
  /** The session is complete or expired. */
  | { readonly _tag: "Closed" }
  /** Nothing waits for authentication (the page shows the card form again). */
  | { readonly _tag: "NothingToAuthenticate" }
  | { readonly _tag: "NotFound" }

/** What the local checkout pages do (the sandbox's stand-in for Stripe's hosted Checkout). */
export class SandboxCheckout extends Context.Tag("payments/SandboxCheckout")<
  SandboxCheckout,
  {
    readonly find: (
      sessionId: string
    ) => Effect.Effect<Option.Option<{ readonly session: SandboxCheckoutSession; readonly state: CheckoutState }>>
    /** Pays (or saves the card) with a test card; the events are delivered before this answers. */
    readonly pay: (sessionId: string, card: CardInput) => Effect.Effect<PayOutcome>
    /** The bank's authentication step of a card that asks for it: approved, or failed. */
    readonly authenticate: (sessionId: string, approve: boolean) => Effect.Effect<PayOutcome>
    /** Return addresses must lead back to the marketplace (no open redirect). */
    readonly isOwnUrl: (url: string) => boolean
  }
>() {}

// ---- The engine shared by the gateway and the pages --------------------------------------------

type Step<A> = Effect.Effect<readonly [A, ReadonlyArray<SandboxEvent>], PaymentGatewayError>
interface Settled<A, E extends SandboxEvent = SandboxEvent> {
  readonly outcome: A
  readonly events: ReadonlyArray<E>
}

const CheckoutSessionAnswer = Schema.Struct({ id: Schema.String, url: Schema.String })
const CaptureAnswer = Schema.Struct({ capturedMinor: Schema.Number })
const RefundAnswer = Schema.Struct({
  refundId: Schema.String,
  amountMinor: Schema.Number,
  totalRefundedMinor: Schema.Number,
  status: Schema.Literal(...RefundStatuses)
})
const OffSessionAnswer = Schema.Union(
  Schema.Struct({
    _tag: Schema.Literal("Authorized"),
    paymentIntentId: Schema.String,
    amountMinor: Schema.Number,
    expiresAt: Schema.Date,
    expiryKnown: Schema.Boolean,
    extendedAuthorization: Schema.Boolean
  }),
  Schema.Struct({
    _tag: Schema.Literal("Refused"),
    paymentIntentId: Schema.NullOr(Schema.String),
    needsClient: Schema.Boolean,
    code: Schema.String
  })
)

const makeSandboxCharges = Effect.gen(function* () {
  const config = yield* AppConfig
  const store = yield* SandboxChargeStore
  const accounts = yield* SandboxAccountStore
  const tx = yield* Transactional
  const scope = yield* Effect.scope
  const events = sandboxEventSender(config)
  const jobs = yield* JobQueue
  const base = trimSlash(config.publicUrl)

  /**
   * Events of API calls are delivered in the background, as Stripe does: the caller never waits for its
   * own webhook (and cannot deadlock with it when it calls from inside a transaction). An event the app
   * does not accept is sent again for about a minute (1, 2, 4, 8, 16, 32 s).
   */
  const deliverLater = (list: ReadonlyArray<StampedEvent>) =>
    list.length === 0 ? Effect.void : Effect.asVoid(Effect.forkIn(events.deliverAll(list, BACKGROUND_RETRIES), scope))

  /**
   * Gives a step's events their identity and queues their durable redelivery, inside the step's
   * transaction: an event exists exactly when its change does, and is delivered in the end even if
   * the process dies or the app's database is away when it is first sent.
   */
  const durable = (list: ReadonlyArray<SandboxEvent>) =>
    Effect.gen(function* () {
      const stamped = yield* Effect.forEach(list, stamp)
      yield* events.redeliverLater(jobs, stamped)
      return stamped
    })

  /**
   * Stripe's idempotency: the first request with a key does the work, in one transaction with the
   * stored answer (success or refusal); a later one with the same key and parameters gets that answer
   * again and changes nothing; different parameters or a request still running are refused.
   */
  const idempotent = <A, I>(
    operation: string,
    callerKey: string,
    params: unknown,
    answer: Schema.Schema<A, I>,
    step: Step<A>
  ): Effect.Effect<A, PaymentGatewayError> => {
    const codec = Schema.Either({ right: answer, left: PaymentGatewayError })
    const fingerprint = `${operation} ${JSON.stringify(params)}`
    // As the Stripe adapter sends it: the key covers the parameters (idempotency.ts).
    const key = keyCoveringParameters(callerKey, { operation, params })
    return Effect.gen(function* () {
      const settled: Settled<Either.Either<A, PaymentGatewayError>, StampedEvent> = yield* tx.run(
        Effect.gen(function* () {
          const claim = yield* store.claimKey(key, fingerprint)
          if (claim._tag === "InFlight") {
            const inUse = refusal(
              operation,
              "idempotency_key_in_use",
              "A request with this idempotency key is still being processed.",
              "idempotency_error"
            )
            // Stripe answers 409 and stores nothing: the caller retries with the same key.
            return { outcome: Either.left(new PaymentGatewayError({ ...inUse, unanswered: true })), events: [] }
          }
          if (claim._tag === "Replay") {
            if (claim.fingerprint !== fingerprint) {
              return {
                outcome: Either.left(
                  refusal(
                    operation,
                    "idempotency_key_reused",
                    "Keys for idempotent requests can only be used with the same parameters.",
                    "idempotency_error"
                  )
                ),
                events: []
              }
            }
            return { outcome: yield* Effect.orDie(Schema.decodeUnknown(codec)(claim.response)), events: [] }
          }
          const attempt = yield* Effect.either(step)
          const outcome = Either.map(attempt, ([value]) => value)
          yield* store.saveResponse(key, yield* Effect.orDie(Schema.encode(codec)(outcome)))
          return { outcome, events: yield* durable(Either.match(attempt, { onLeft: () => [], onRight: ([, list]) => list })) }
        })
      )
      yield* deliverLater(settled.events)
      return yield* settled.outcome
    })
  }

  const existingIntent = (operation: string, id: string) =>
    Effect.flatMap(
      store.findIntent(id),
      Option.match({
        onNone: () => Effect.fail(refusal(operation, "resource_missing", `No such payment_intent: '${id}'`)),
        onSome: Effect.succeed
      })
    )

  /** As Stripe: a charge for an account outside the platform's region must settle on that account. */
  const checkRegion = (operation: string, destinationAccountId: string, onBehalfOf: string | undefined) =>
    Effect.flatMap(accounts.find(destinationAccountId), (found) =>
      Option.isSome(found) && needsOnBehalfOf(config.stripePlatformCountry, found.value.country) && onBehalfOf !== destinationAccountId
        ? Effect.fail(crossRegionRefusal(operation, found.value.country))
        : Effect.void
    )

  const methodOf = (intent: SandboxPaymentIntent) =>
    intent.paymentMethodId ? store.findPaymentMethod(intent.paymentMethodId) : Effect.succeed(Option.none())

  // ---- The gateway port ----

  const createCheckoutSession = (r: CheckoutRequest) => {
    const operation = "checkout.sessions.create"
    return idempotent(
      operation,
      r.idempotencyKey,
      r,
      CheckoutSessionAnswer,
      Effect.gen(function* () {
        const at = yield* now
        if (r.mode === "authorize") yield* checkAmount(operation, "unit_amount", r.amountMinor, 1)
        yield* checkAmount(operation, "application_fee_amount", r.applicationFeeMinor, 0, Math.max(r.amountMinor, 0))
        if (!/^[A-Za-z]{3}$/.test(r.currency)) return yield* refusal(operation, "parameter_invalid", `Invalid currency: ${r.currency}`)
        yield* checkRegion(operation, r.destinationAccountId, r.onBehalfOf)
        yield* checkUrl(operation, "success_url", r.successUrl)
        yield* checkUrl(operation, "cancel_url", r.cancelUrl)
        const expiresAt = r.expiresAt ?? new Date(at.getTime() + SESSION_MAX_MS)
        const life = expiresAt.getTime() - at.getTime()
        if (life < SESSION_MIN_MS || life > SESSION_MAX_MS) {
          return yield* refusal(operation, "parameter_invalid", "expires_at must be between 30 minutes and 24 hours from now.")
        }
        const session: SandboxCheckoutSession = {
          id: newId("cs"),
          mode: r.mode === "authorize" ? "payment" : "setup",
          bookingId: r.bookingId,
          amountMinor: r.amountMinor,
          currency: r.currency.toUpperCase(),
          productName: r.productName,
          destinationAccountId: r.destinationAccountId,
          applicationFeeMinor: r.applicationFeeMinor,
          customerEmail: r.customerEmail,
          cardholderName: r.billing?.name || null,
          successUrl: r.successUrl,
          cancelUrl: r.cancelUrl,
          status: "open",
          expiresAt,
          customerId: null,
          paymentIntentId: null,
          setupIntentId: null,
          createdAt: at
        }
        yield* store.saveSession(session)
        // The payer's language rides on the address, as Stripe's `locale` would (the page reads `lang`).
        const lang = r.locale ? `?${new URLSearchParams({ lang: r.locale })}` : ""
        return [{ id: session.id, url: `${base}${sandboxPaths.checkout(session.id)}${lang}` }, []] as const
      })
    )
  }

  const capture: ChargeGatewayShape["capture"] = ({ amountMinor, applicationFeeMinor, idempotencyKey, paymentIntentId }) => {
    const operation = "paymentIntents.capture"
    return idempotent(
      operation,
      idempotencyKey,
      { paymentIntentId, amountMinor, applicationFeeMinor },
      CaptureAnswer,
      Effect.gen(function* () {
        const at = yield* now
        const intent = yield* existingIntent(operation, paymentIntentId)
        if (intent.status !== "requires_capture") {
          return yield* refusal(
            operation,
            "payment_intent_unexpected_state",
            `This PaymentIntent could not be captured because it has a status of ${intent.status}.`
          )
        }
        if (intent.captureBefore === null || at.getTime() >= intent.captureBefore.getTime()) {
          return yield* refusal(operation, "charge_expired_for_capture", "This charge has expired for capture: its authorisation lapsed.")
        }
        yield* checkAmount(operation, "amount_to_capture", amountMinor, 1, intent.amountCapturable)
        yield* checkAmount(operation, "application_fee_amount", applicationFeeMinor, 0, amountMinor)
        // A partial capture releases the rest of the hold.
        const captured: SandboxPaymentIntent = {
          ...intent,
          status: "succeeded",
          amountReceived: amountMinor,
          amountCapturable: 0,
          applicationFeeMinor
        }
        yield* store.saveIntent(captured)
        return [
          { capturedMinor: amountMinor },
          [paymentIntentEvent("payment_intent.succeeded", captured, yield* methodOf(captured))]
        ] as const
      })
    )
  }

  const cancelAuthorization: ChargeGatewayShape["cancelAuthorization"] = ({ idempotencyKey, paymentIntentId }) => {
    const operation = "paymentIntents.cancel"
    return idempotent(
      operation,
      idempotencyKey,
      { paymentIntentId },
      Schema.Null,
      Effect.gen(function* () {
        const intent = yield* existingIntent(operation, paymentIntentId)
        if (intent.status === "canceled") return [null, []] as const
        if (intent.status === "succeeded") {
          return yield* refusal(
            operation,
            "payment_intent_unexpected_state",
            "You cannot cancel this PaymentIntent because it has a status of succeeded."
          )
        }
        const canceled: SandboxPaymentIntent = { ...intent, status: "canceled", amountCapturable: 0 }
        yield* store.saveIntent(canceled)
        return [null, [paymentIntentEvent("payment_intent.canceled", canceled, yield* methodOf(canceled))]] as const
      })
    ).pipe(Effect.asVoid)
  }

  const refund: ChargeGatewayShape["refund"] = ({ amountMinor, idempotencyKey, paymentIntentId }) => {
    const operation = "refunds.create"
    return idempotent(
      operation,
      idempotencyKey,
      { paymentIntentId, amountMinor },
      RefundAnswer,
      Effect.gen(function* () {
        const at = yield* now
        const intent = yield* existingIntent(operation, paymentIntentId)
        if (intent.status !== "succeeded") {
          return yield* refusal(
            operation,
            "payment_intent_unexpected_state",
            `This PaymentIntent has no captured charge to refund (status ${intent.status}).`
          )
        }
        const left = intent.amountReceived - intent.amountRefunded
        if (left === 0) return yield* refusal(operation, "charge_already_refunded", `Charge ${intent.chargeId} has already been refunded.`)
        yield* checkAmount(operation, "amount", amountMinor, 1)
        if (amountMinor > left) {
          return yield* refusal(
            operation,
            "amount_too_large",
            `Refund amount (${amountMinor}) is greater than unrefunded amount on charge (${left}).`
          )
        }
        const created: SandboxRefund = {
          id: newId("re"),
          paymentIntentId,
          amountMinor,
          status: "succeeded",
          failureReason: null,
          createdAt: at
        }
        const refunded: SandboxPaymentIntent = { ...intent, amountRefunded: intent.amountRefunded + amountMinor }
        yield* store.saveRefund(created)
        yield* store.saveIntent(refunded)
        const method = yield* methodOf(refunded)
        // The 5126 card's refund starts as succeeded and fails afterwards (a job in this transaction).
        if (Option.exists(method, (m) => m.behaviour === "refund_fails")) {
          yield* jobs.send(SANDBOX_REFUND_FAILURE_QUEUE, { refundId: created.id }, { startAfterSeconds: REFUND_FAILS_AFTER_SECONDS })
        }
        // `amount_refunded` of the charge is the cumulative total.
        return [
          { refundId: created.id, amountMinor, totalRefundedMinor: refunded.amountRefunded, status: created.status },
          [{ type: "charge.refunded", object: chargeObject(refunded, method) }]
        ] as const
      })
    )
  }

  /** The card decides, as Stripe's test cards do: 4242 holds, 3184 wants the client (authentication), others decline. */
  const authorizeOffSession: ChargeGatewayShape["authorizeOffSession"] = (r) => {
    const operation = "paymentIntents.create"
    return idempotent(
      operation,
      r.idempotencyKey,
      r,
      OffSessionAnswer,
      Effect.gen(function* () {
        const at = yield* now
        yield* checkAmount(operation, "amount", r.amountMinor, 1)
        yield* checkAmount(operation, "application_fee_amount", r.applicationFeeMinor, 0, r.amountMinor)
        yield* checkRegion(operation, r.destinationAccountId, r.onBehalfOf)
        const found = yield* store.findPaymentMethod(r.paymentMethodId)
        if (Option.isNone(found)) return yield* refusal(operation, "resource_missing", `No such PaymentMethod: '${r.paymentMethodId}'`)
        const method = found.value
        if (method.customerId !== r.customerId) {
          return yield* refusal(
            operation,
            "payment_method_invalid_parameter",
            `The PaymentMethod ${method.id} does not belong to the Customer ${r.customerId}.`
          )
        }
        const intent: SandboxPaymentIntent = {
          id: newId("pi"),
          bookingId: r.bookingId,
          amountMinor: r.amountMinor,
          currency: r.currency.toLowerCase(),
          status: "requires_payment_method",
          amountCapturable: 0,
          amountReceived: 0,
          amountRefunded: 0,
          applicationFeeMinor: r.applicationFeeMinor,
          destinationAccountId: r.destinationAccountId,
          customerId: r.customerId,
          paymentMethodId: method.id,
          chargeId: null,
          captureBefore: null,
          offSession: true,
          extendedAuthorization: null,
          lastErrorCode: null,
          lastDeclineCode: null,
          createdAt: at
        }
        if (holdsAtOnce(method)) {
          const held = hold(intent, method, at)
          yield* store.saveIntent(held)
          // The answer of the creating request expands the charge: the hold's real end is known here.
          return [
            {
              _tag: "Authorized",
              paymentIntentId: held.id,
              amountMinor: held.amountCapturable,
              expiresAt: held.captureBefore!,
              expiryKnown: true,
              extendedAuthorization: held.extendedAuthorization === "enabled"
            },
            [paymentIntentEvent("payment_intent.amount_capturable_updated", held, found)]
          ] as const
        }
        // Off-session, a card that wants authentication cannot get it: declined with authentication_required.
        const [code, declineCode] =
          method.behaviour === "authenticates"
            ? ["authentication_required", "authentication_required"]
            : ["card_declined", "generic_decline"]
        const failed: SandboxPaymentIntent = { ...intent, lastErrorCode: code, lastDeclineCode: declineCode }
        yield* store.saveIntent(failed)
        return [
          { _tag: "Refused", paymentIntentId: failed.id, needsClient: true, code: code === "authentication_required" ? code : declineCode },
          [paymentIntentEvent("payment_intent.payment_failed", failed, found)]
        ] as const
      })
    )
  }

  /** Stripe's rule, played on the sandbox's cards: attached to the customer, or attached now when attached to nobody. */
  const ensureCardAttached: ChargeGatewayShape["ensureCardAttached"] = ({ customerId, paymentMethodId }) =>
    tx.run(
      Effect.gen(function* () {
        const found = yield* store.findPaymentMethod(paymentMethodId)
        if (Option.isNone(found)) return { _tag: "Unusable", reason: `no such payment method ${paymentMethodId}` } as const
        const owner = found.value.customerId
        if (owner === customerId) return { _tag: "Attached" } as const
        if (owner !== null)
          return { _tag: "Unusable", reason: `payment method ${paymentMethodId} belongs to customer ${owner}, not ${customerId}` } as const
        if (!(yield* store.customerExists(customerId))) return { _tag: "Unusable", reason: `no such customer ${customerId}` } as const
        yield* store.savePaymentMethod({ ...found.value, customerId })
        return { _tag: "Attached" } as const
      })
    )

  // ---- The hosted checkout ----

  const stateOf = (session: SandboxCheckoutSession, at: Date): CheckoutState =>
    session.status === "complete" ? "complete" : at.getTime() >= session.expiresAt.getTime() ? "expired" : "open"

  /**
   * Authorised: the amount is held until `capture_before`, the window the card's network gives
   * (extended where it grants it, shorter for Visa off-session: holds.ts).
   */
  const hold = (intent: SandboxPaymentIntent, method: SandboxPaymentMethod, at: Date): SandboxPaymentIntent => {
    const window = holdWindowMs(method.brand, initiatorOfIntent(intent), true)
    return {
      ...intent,
      status: "requires_capture",
      amountCapturable: intent.amountMinor,
      chargeId: intent.chargeId ?? newId("ch"),
      captureBefore: new Date(at.getTime() + window),
      extendedAuthorization: grantsExtendedAuthorization(method.brand) ? "enabled" : "disabled",
      lastErrorCode: null,
      lastDeclineCode: null
    }
  }

  /** The session's intent: the one an earlier attempt created, or a new one. */
  const sessionIntent = (session: SandboxCheckoutSession, at: Date) =>
    Effect.map(session.paymentIntentId ? store.findIntent(session.paymentIntentId) : Effect.succeed(Option.none()), (found) =>
      Option.getOrElse(
        found,
        (): SandboxPaymentIntent => ({
          id: newId("pi"),
          bookingId: session.bookingId,
          amountMinor: session.amountMinor,
          currency: session.currency.toLowerCase(),
          status: "requires_payment_method",
          amountCapturable: 0,
          amountReceived: 0,
          amountRefunded: 0,
          applicationFeeMinor: session.applicationFeeMinor,
          destinationAccountId: session.destinationAccountId,
          customerId: null,
          paymentMethodId: null,
          chargeId: null,
          captureBefore: null,
          offSession: false,
          extendedAuthorization: null,
          lastErrorCode: null,
          lastDeclineCode: null,
          createdAt: at
        })
      )
    )

  const sessionSetupIntent = (session: SandboxCheckoutSession, at: Date) =>
    Effect.map(session.setupIntentId ? store.findSetupIntent(session.setupIntentId) : Effect.succeed(Option.none()), (found) =>
      Option.getOrElse(
        found,
        (): SandboxSetupIntent => ({
          id: newId("seti"),
          bookingId: session.bookingId,
          status: "requires_payment_method",
          customerId: null,
          paymentMethodId: null,
          lastErrorCode: null,
          createdAt: at
        })
      )
    )

  /** Checkout creates the customer (`customer_creation: always`) and saves the card to it for later use. */
  const attachToCustomer = (session: SandboxCheckoutSession, method: SandboxPaymentMethod) =>
    Effect.gen(function* () {
      const customerId = session.customerId ?? newId("cus")
      yield* store.saveCustomer({ id: customerId, email: session.customerEmail })
      const attached = { ...method, customerId }
      yield* store.savePaymentMethod(attached)
      return attached
    })

  const completePayment = (session: SandboxCheckoutSession, intent: SandboxPaymentIntent, method: SandboxPaymentMethod, at: Date) =>
    Effect.gen(function* () {
      const attached = yield* attachToCustomer(session, method)
      const held = hold({ ...intent, customerId: attached.customerId, paymentMethodId: method.id }, attached, at)
      const done: SandboxCheckoutSession = { ...session, status: "complete", customerId: attached.customerId, paymentIntentId: held.id }
      yield* store.saveIntent(held)
      yield* store.saveSession(done)
      return {
        outcome: { _tag: "Completed", successUrl: done.successUrl },
        events: [
          paymentIntentEvent("payment_intent.amount_capturable_updated", held, Option.some(attached)),
          { type: "checkout.session.completed", object: sessionObject(done) }
        ]
      } satisfies Settled<PayOutcome>
    })

  const completeSetup = (session: SandboxCheckoutSession, setup: SandboxSetupIntent, method: SandboxPaymentMethod) =>
    Effect.gen(function* () {
      const attached = yield* attachToCustomer(session, method)
      const succeeded: SandboxSetupIntent = {
        ...setup,
        status: "succeeded",
        customerId: attached.customerId,
        paymentMethodId: method.id,
        lastErrorCode: null
      }
      const done: SandboxCheckoutSession = { ...session, status: "complete", customerId: attached.customerId, setupIntentId: setup.id }
      yield* store.saveSetupIntent(succeeded)
      yield* store.saveSession(done)
      return {
        outcome: { _tag: "Completed", successUrl: done.successUrl },
        events: [
          { type: "setup_intent.succeeded", object: setupIntentObject(succeeded) },
          { type: "checkout.session.completed", object: sessionObject(done) }
        ]
      } satisfies Settled<PayOutcome>
    })

  /** A card tried on the session's intent: held, declined, or waiting for the bank's authentication. */
  const tryPayment = (session: SandboxCheckoutSession, method: SandboxPaymentMethod, at: Date) =>
    Effect.gen(function* () {
      const intent = { ...(yield* sessionIntent(session, at)), paymentMethodId: method.id }
      if (holdsAtOnce(method)) return yield* completePayment(session, intent, method, at)
      const declined = method.behaviour === "declines"
      const next: SandboxPaymentIntent = declined
        ? { ...intent, status: "requires_payment_method", lastErrorCode: "card_declined", lastDeclineCode: "generic_decline" }
        : { ...intent, status: "requires_action", lastErrorCode: null, lastDeclineCode: null }
      yield* store.saveIntent(next)
      yield* store.saveSession({ ...session, paymentIntentId: next.id })
      return declined
        ? ({
            outcome: { _tag: "Declined", code: "generic_decline" },
            events: [paymentIntentEvent("payment_intent.payment_failed", next, Option.some(method))]
          } satisfies Settled<PayOutcome>)
        : ({ outcome: { _tag: "AuthenticationRequired" }, events: [] } satisfies Settled<PayOutcome>)
    })

  const trySetup = (session: SandboxCheckoutSession, method: SandboxPaymentMethod, at: Date) =>
    Effect.gen(function* () {
      const setup = { ...(yield* sessionSetupIntent(session, at)), paymentMethodId: method.id }
      if (holdsAtOnce(method)) return yield* completeSetup(session, setup, method)
      const declined = method.behaviour === "declines"
      const next: SandboxSetupIntent = declined
        ? { ...setup, status: "requires_payment_method", lastErrorCode: "card_declined" }
        : { ...setup, status: "requires_action", lastErrorCode: null }
      yield* store.saveSetupIntent(next)
      yield* store.saveSession({ ...session, setupIntentId: next.id })
      return {
        outcome: declined ? { _tag: "Declined", code: "generic_decline" } : { _tag: "AuthenticationRequired" },
        events: []
      } satisfies Settled<PayOutcome>
    })

  /**
   * One step of the checkout on an open session, in a transaction holding the session's row; its events
   * are delivered before answering, so the booking is up to date when the browser lands back.
   */
  const onOpenSession = (sessionId: string, step: (session: SandboxCheckoutSession, at: Date) => Effect.Effect<Settled<PayOutcome>>) =>
    Effect.gen(function* () {
      const settled = yield* tx.run(
        Effect.gen(function* () {
          const at = yield* now
          const found = yield* store.findSession(sessionId)
          if (Option.isNone(found)) return { outcome: { _tag: "NotFound" }, events: [] } satisfies Settled<PayOutcome>
          if (stateOf(found.value, at) !== "open") return { outcome: { _tag: "Closed" }, events: [] } satisfies Settled<PayOutcome>
          const { events: list, outcome } = yield* step(found.value, at)
          return { outcome, events: yield* durable(list) }
        })
      )
      yield* events.deliverAll(settled.events)
      return settled.outcome
    })

  const pay = (sessionId: string, input: CardInput) =>
    onOpenSession(sessionId, (session, at) =>
      Either.match(readCard(input, at), {
        onLeft: (problem) => Effect.succeed({ outcome: { _tag: "InvalidCard", problem }, events: [] } satisfies Settled<PayOutcome>),
        onRight: (card) =>
          Effect.gen(function* () {
            const method: SandboxPaymentMethod = { id: newId("pm"), customerId: null, ...card }
            yield* store.savePaymentMethod(method)
            return yield* session.mode === "payment" ? tryPayment(session, method, at) : trySetup(session, method, at)
          })
      })
    )

  const nothingToAuthenticate: Settled<PayOutcome> = { outcome: { _tag: "NothingToAuthenticate" }, events: [] }

  const authenticate = (sessionId: string, approve: boolean) =>
    onOpenSession(sessionId, (session, at) =>
      Effect.gen(function* () {
        if (session.mode === "payment") {
          const intent = yield* sessionIntent(session, at)
          const method = intent.paymentMethodId ? yield* store.findPaymentMethod(intent.paymentMethodId) : Option.none()
          if (intent.status !== "requires_action" || Option.isNone(method)) return nothingToAuthenticate
          if (approve) return yield* completePayment(session, intent, method.value, at)
          const failed: SandboxPaymentIntent = {
            ...intent,
            status: "requires_payment_method",
            lastErrorCode: "payment_intent_authentication_failure",
            lastDeclineCode: null
          }
          yield* store.saveIntent(failed)
          return {
            outcome: { _tag: "AuthenticationFailed" },
            events: [paymentIntentEvent("payment_intent.payment_failed", failed, method)]
          } satisfies Settled<PayOutcome>
        }
        const setup = yield* sessionSetupIntent(session, at)
        const method = setup.paymentMethodId ? yield* store.findPaymentMethod(setup.paymentMethodId) : Option.none()
        if (setup.status !== "requires_action" || Option.isNone(method)) return nothingToAuthenticate
        if (approve) return yield* completeSetup(session, setup, method.value)
        yield* store.saveSetupIntent({ ...setup, status: "requires_payment_method", lastErrorCode: "setup_intent_authentication_failure" })
        return { outcome: { _tag: "AuthenticationFailed" }, events: [] } satisfies Settled<PayOutcome>
      })
    )

  /** As Stripe's checkout.sessions.expire: an open session closes at once; a complete one cannot be expired. */
  const expireCheckoutSession: ChargeGatewayShape["expireCheckoutSession"] = (sessionId) =>
    tx.run(
      Effect.gen(function* () {
        const at = yield* now
        const found = yield* store.findSession(sessionId)
        if (Option.isNone(found))
          return yield* refusal("checkout.sessions.expire", "resource_missing", `No such checkout.session: '${sessionId}'`)
        const state = stateOf(found.value, at)
        if (state === "complete") return "complete" as const
        if (state === "open") yield* store.saveSession({ ...found.value, expiresAt: at })
        return "expired" as const
      })
    )

  // As Stripe: an authorisation not captured by its deadline is released by the gateway, so it is
  // no open hold any more (the sandbox keeps the row's status as it was; the deadline decides).
  const listOpenHolds: ChargeGatewayShape["listOpenHolds"] = (createdAfter) =>
    Effect.zipWith(store.listIntents("requires_capture", createdAfter), now, (intents, at) =>
      intents
        .map((i) => ({
          paymentIntentId: i.id,
          bookingId: i.bookingId,
          amountMinor: i.amountCapturable,
          expiresAt: i.captureBefore ?? fallbackHoldEnd(initiatorOfIntent(i), i.createdAt),
          expiryKnown: i.captureBefore !== null,
          customerId: i.customerId,
          paymentMethodId: i.paymentMethodId,
          createdAt: i.createdAt
        }))
        .filter((hold) => hold.expiresAt.getTime() > at.getTime())
    )

  const listCompletedCheckouts: ChargeGatewayShape["listCompletedCheckouts"] = (createdAfter) =>
    Effect.map(store.listCompletedSessions(createdAfter), (sessions) =>
      sessions.map((c) => ({
        sessionId: c.id,
        bookingId: c.bookingId,
        mode: c.mode,
        paymentIntentId: c.paymentIntentId,
        customerId: c.customerId,
        paymentMethodId: c.mode === "setup" ? c.setupPaymentMethodId : null,
        createdAt: c.createdAt
      }))
    )

  const refundsOf: ChargeGatewayShape["refundsOf"] = (paymentIntentId) =>
    Effect.map(store.listRefunds(paymentIntentId), (refunds) =>
      refunds.map((r) => ({ refundId: r.id, amountMinor: r.amountMinor, status: r.status }))
    )

  /**
   * A refund that fails afterwards (the 5126 card): its money comes back to the charge's balance
   * (`amount_refunded` drops) and Stripe reports it with `charge.refund.updated` and `refund.failed`.
   */
  const failRefund = (refundId: string) =>
    Effect.gen(function* () {
      const settled = yield* tx.run(
        Effect.gen(function* () {
          const found = yield* store.findRefund(refundId)
          if (Option.isNone(found) || found.value.status !== "succeeded") return []
          const failed: SandboxRefund = { ...found.value, status: "failed", failureReason: "expired_or_canceled_card" }
          const intent = yield* existingIntent("refunds.fail", failed.paymentIntentId)
          yield* store.saveRefund(failed)
          yield* store.saveIntent({ ...intent, amountRefunded: intent.amountRefunded - failed.amountMinor })
          const object = refundObject(failed, intent)
          return yield* durable([
            { type: "charge.refund.updated", object },
            { type: "refund.failed", object }
          ])
        })
      )
      yield* events.deliverAll(settled)
    })

  /** As `paymentIntents.retrieve(id, { expand: ["latest_charge"] })`: the hold's end and card from the expanded charge. */
  const heldPayment: ChargeGatewayShape["heldPayment"] = (paymentIntentId) =>
    Effect.gen(function* () {
      const intent = yield* existingIntent("paymentIntents.retrieve", paymentIntentId)
      const object = intentObject(intent, yield* methodOf(intent), true)
      return heldCardOf(typeof object.latest_charge === "object" ? object.latest_charge?.payment_method_details.card : null)
    })

  const gateway: ChargeGatewayShape = {
    kind: "sandbox",
    createCheckoutSession,
    capture,
    cancelAuthorization,
    refund,
    authorizeOffSession,
    ensureCardAttached,
    expireCheckoutSession,
    listOpenHolds,
    listCompletedCheckouts,
    refundsOf,
    heldPayment
  }
  const checkout: SandboxCheckout["Type"] = {
    find: (sessionId) =>
      Effect.gen(function* () {
        const at = yield* now
        return Option.map(yield* store.findSession(sessionId), (session) => ({ session, state: stateOf(session, at) }))
      }),
    pay,
    authenticate,
    isOwnUrl: onOrigin(new URL(config.publicUrl).origin)
  }
  return { gateway, checkout, failRefund }
})

/** The sandbox's card gateway (PAYMENTS_MODE=sandbox, the default without STRIPE_SECRET_KEY). */
export const SandboxChargeGatewayLive = Layer.scoped(
  ChargeGateway,
  Effect.map(makeSandboxCharges, ({ gateway }) => gateway)
)

/** The worker that fails the 5126 card's refunds afterwards (sandbox mode only), while the scope is open. */
export const SandboxRefundJobsLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    if (config.paymentsMode !== "sandbox") return
    const { failRefund } = yield* makeSandboxCharges
    const jobs = yield* JobQueue
    yield* jobs.work(SANDBOX_REFUND_FAILURE_QUEUE, (data) =>
      typeof data.refundId === "string" ? Effect.orDie(failRefund(data.refundId)) : Effect.void
    )
  })
)

/** The sandbox's hosted checkout, for its local pages. */
export const SandboxCheckoutLive = Layer.scoped(
  SandboxCheckout,
  Effect.map(makeSandboxCharges, ({ checkout }) => checkout)
)
