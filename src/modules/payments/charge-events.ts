import { Either, Option, Schema } from "effect"
import { fallbackHoldEnd, heldCardOf, initiatorOf } from "./holds"
import type { ChargeEvent, GatewayEvent } from "./ports"
import { refundStatusOf } from "./rules"

/**
 * Stripe's events about card payments, read as ChargeEvents (the sandbox sends the same payloads).
 * Only the fields used are declared; extra fields are ignored, and an expandable field may be an id or
 * the expanded object. Decoding is pure: an event that says nothing to a booking answers the reason.
 */

const optionalNullable = <S extends Schema.Schema.Any>(schema: S) => Schema.optional(Schema.NullOr(schema))
/** An expandable reference: the id, or the object with its id. */
const Ref = Schema.Union(Schema.String, Schema.Struct({ id: Schema.String }))
const Metadata = optionalNullable(Schema.Record({ key: Schema.String, value: Schema.String }))

const Charge = Schema.Struct({
  id: Schema.String,
  payment_intent: optionalNullable(Ref),
  amount_refunded: Schema.optional(Schema.Number),
  metadata: Metadata,
  payment_method_details: optionalNullable(
    Schema.Struct({
      card: optionalNullable(
        Schema.Struct({
          brand: optionalNullable(Schema.String),
          last4: optionalNullable(Schema.String),
          /** Seconds since the epoch. */
          capture_before: optionalNullable(Schema.Number),
          extended_authorization: optionalNullable(Schema.Struct({ status: optionalNullable(Schema.String) }))
        })
      )
    })
  )
})

const PaymentIntent = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  amount_capturable: Schema.optional(Schema.Number),
  amount_received: Schema.optional(Schema.Number),
  customer: optionalNullable(Ref),
  payment_method: optionalNullable(Ref),
  latest_charge: optionalNullable(Schema.Union(Schema.String, Charge)),
  last_payment_error: optionalNullable(
    Schema.Struct({
      type: optionalNullable(Schema.String),
      code: optionalNullable(Schema.String),
      decline_code: optionalNullable(Schema.String)
    })
  ),
  metadata: Metadata
})

const SetupIntent = Schema.Struct({
  id: Schema.String,
  status: Schema.optional(Schema.String),
  customer: optionalNullable(Ref),
  payment_method: optionalNullable(Ref),
  metadata: Metadata
})

const CheckoutSession = Schema.Struct({
  id: Schema.String,
  mode: Schema.String,
  customer: optionalNullable(Ref),
  payment_intent: optionalNullable(Schema.Union(Schema.String, PaymentIntent)),
  setup_intent: optionalNullable(Schema.Union(Schema.String, SetupIntent)),
  metadata: Metadata
})

const Refund = Schema.Struct({
  id: Schema.String,
  amount: Schema.Number,
  payment_intent: optionalNullable(Ref),
  status: optionalNullable(Schema.String),
  failure_reason: optionalNullable(Schema.String),
  metadata: Metadata
})

type Ref = typeof Ref.Type
const idOf = (ref: Ref | null | undefined): string | null =>
  ref === null || ref === undefined ? null : typeof ref === "string" ? ref : ref.id

type Decoded<A> = Either.Either<A, string>

const decode = <A, I>(schema: Schema.Schema<A, I>, event: GatewayEvent): Decoded<A> =>
  Either.mapLeft(Schema.decodeUnknownEither(schema)(event.object), () => `${event.type} without a readable object`)

const bookingOf = (metadata: Readonly<Record<string, string>> | null | undefined): Decoded<string> => {
  const bookingId = metadata?.bookingId
  return bookingId ? Either.right(bookingId) : Either.left("no metadata.bookingId (not a booking's payment)")
}

const common = (event: GatewayEvent) => ({ reference: event.id, occurredAt: event.created })

const cardOf = (intent: typeof PaymentIntent.Type) =>
  typeof intent.latest_charge === "object" && intent.latest_charge !== null
    ? Option.fromNullable(intent.latest_charge.payment_method_details?.card)
    : Option.none()

/**
 * A held payment: the amount capturable until `capture_before`. Stripe expands `latest_charge` only in
 * the answer of the request that asked, never in an event: there the end is a fallback by initiator
 * (`expiryKnown` false), which the webhook replaces by retrieving the intent expanded.
 */
const authorized = (
  event: GatewayEvent,
  bookingId: string,
  intent: typeof PaymentIntent.Type,
  fallbackCustomer: string | null
): Decoded<ChargeEvent> => {
  if (intent.status !== "requires_capture") return Either.left(`payment intent ${intent.id} is ${intent.status}, not held`)
  const held = heldCardOf(Option.getOrNull(cardOf(intent)))
  return Either.right({
    _tag: "PaymentAuthorized",
    bookingId,
    paymentIntentId: intent.id,
    amountMinor: intent.amount_capturable ?? 0,
    expiresAt: held.captureBefore ?? fallbackHoldEnd(initiatorOf(intent.metadata), event.created),
    expiryKnown: held.captureBefore !== null,
    extendedAuthorization: held.extendedAuthorization,
    customerId: idOf(intent.customer) ?? fallbackCustomer,
    paymentMethodId: idOf(intent.payment_method),
    paymentMethod: held.paymentMethod,
    ...common(event)
  })
}

const cardSaved = (
  event: GatewayEvent,
  bookingId: string,
  setup: typeof SetupIntent.Type,
  fallbackCustomer: string | null
): Decoded<ChargeEvent> => {
  const customerId = idOf(setup.customer) ?? fallbackCustomer
  const paymentMethodId = idOf(setup.payment_method)
  if (setup.status !== undefined && setup.status !== "succeeded") return Either.left(`setup intent ${setup.id} is ${setup.status}`)
  if (customerId === null || paymentMethodId === null) return Either.left(`setup intent ${setup.id} names no customer or payment method`)
  return Either.right({ _tag: "CardSaved", bookingId, customerId, paymentMethodId, ...common(event) })
}

/** The card codes after which only the client can help: pay again, with another card or after authenticating. */
const CLIENT_CODES = new Set([
  "authentication_required",
  "card_declined",
  "expired_card",
  "incorrect_cvc",
  "incorrect_number",
  "payment_intent_authentication_failure"
])

/**
 * A refund's new state. The app names the booking in every refund's metadata; one made in the
 * gateway's dashboard names none and is acknowledged (its money shows through `charge.refunded`).
 */
const refundUpdated = (event: GatewayEvent): Decoded<ChargeEvent> =>
  Either.gen(function* () {
    const refund = yield* decode(Refund, event)
    const bookingId = yield* bookingOf(refund.metadata)
    const paymentIntentId = idOf(refund.payment_intent)
    if (paymentIntentId === null) return yield* Either.left(`refund ${refund.id} has no payment intent`)
    const status = refundStatusOf(refund.status)
    return {
      _tag: "RefundUpdated",
      bookingId,
      paymentIntentId,
      refundId: refund.id,
      amountMinor: refund.amount,
      status,
      failureReason: status === "failed" ? (refund.failure_reason ?? "unknown") : null,
      ...common(event)
    } as const
  })

const decoders: Readonly<Record<string, (event: GatewayEvent) => Decoded<ChargeEvent>>> = {
  /**
   * Payment mode: the hold itself is reported by `payment_intent.amount_capturable_updated`; the session
   * only says it when its intent is expanded and held. Setup mode: the saved card, when the setup intent
   * is expanded (otherwise `setup_intent.succeeded` reports it).
   */
  "checkout.session.completed": (event) =>
    Either.gen(function* () {
      const session = yield* decode(CheckoutSession, event)
      const bookingId = yield* bookingOf(session.metadata)
      const customer = idOf(session.customer)
      if (session.mode === "setup") {
        if (typeof session.setup_intent !== "object" || session.setup_intent === null)
          return yield* Either.left("setup intent not expanded (setup_intent.succeeded reports the card)")
        return yield* cardSaved(event, bookingId, session.setup_intent, customer)
      }
      if (typeof session.payment_intent !== "object" || session.payment_intent === null)
        return yield* Either.left("payment intent not expanded (amount_capturable_updated reports the hold)")
      return yield* authorized(event, bookingId, session.payment_intent, customer)
    }),
  "setup_intent.succeeded": (event) =>
    Either.gen(function* () {
      const setup = yield* decode(SetupIntent, event)
      return yield* cardSaved(event, yield* bookingOf(setup.metadata), setup, null)
    }),
  "payment_intent.amount_capturable_updated": (event) =>
    Either.gen(function* () {
      const intent = yield* decode(PaymentIntent, event)
      return yield* authorized(event, yield* bookingOf(intent.metadata), intent, null)
    }),
  "payment_intent.succeeded": (event) =>
    Either.gen(function* () {
      const intent = yield* decode(PaymentIntent, event)
      const bookingId = yield* bookingOf(intent.metadata)
      return {
        _tag: "PaymentCaptured",
        bookingId,
        paymentIntentId: intent.id,
        amountMinor: intent.amount_received ?? 0,
        ...common(event)
      } as const
    }),
  "payment_intent.canceled": (event) =>
    Either.gen(function* () {
      const intent = yield* decode(PaymentIntent, event)
      const bookingId = yield* bookingOf(intent.metadata)
      return { _tag: "AuthorizationReleased", bookingId, paymentIntentId: intent.id, ...common(event) } as const
    }),
  "payment_intent.payment_failed": (event) =>
    Either.gen(function* () {
      const intent = yield* decode(PaymentIntent, event)
      const bookingId = yield* bookingOf(intent.metadata)
      const error = intent.last_payment_error
      const code = error?.decline_code || error?.code || "payment_failed"
      const needsClient = error?.type === "card_error" || CLIENT_CODES.has(error?.code ?? "")
      return { _tag: "PaymentFailed", bookingId, paymentIntentId: intent.id, needsClient, code, ...common(event) } as const
    }),
  /** `amount_refunded` is the charge's cumulative total. */
  "charge.refunded": (event) =>
    Either.gen(function* () {
      const charge = yield* decode(Charge, event)
      const bookingId = yield* bookingOf(charge.metadata)
      const paymentIntentId = idOf(charge.payment_intent)
      if (paymentIntentId === null) return yield* Either.left(`charge ${charge.id} has no payment intent`)
      return {
        _tag: "PaymentRefunded",
        bookingId,
        paymentIntentId,
        totalRefundedMinor: charge.amount_refunded ?? 0,
        // The event names no refund (Stripe's charge lists them no more): the webhook asks the gateway.
        refunds: [],
        ...common(event)
      } as const
    }),
  // A refund's state: its update (Stripe sends charge.refund.updated for refunds of charges, refund.updated
  // on newer API versions) and its failure.
  "charge.refund.updated": refundUpdated,
  "refund.updated": refundUpdated,
  "refund.failed": refundUpdated
}

/** The event types that may carry a ChargeEvent (each gets a webhook handler). */
export const chargeEventTypes: ReadonlyArray<string> = Object.keys(decoders)

/**
 * The ChargeEvent a verified event carries, or why it carries none (another type, no booking id, a
 * state that is reported by another event). `reference` is the event id; `occurredAt` its creation.
 */
export const toChargeEvent = (event: GatewayEvent): Either.Either<ChargeEvent, string> =>
  Object.hasOwn(decoders, event.type) ? decoders[event.type]!(event) : Either.left(`${event.type} is not a charge event`)
