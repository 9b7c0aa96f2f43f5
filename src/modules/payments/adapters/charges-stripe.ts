import { Clock, Effect, Layer, Option, Redacted } from "effect"
import type Stripe from "stripe"
import { AppConfig } from "../../../platform/config"
import { ChargeGateway, type CheckoutRequest, type OffSessionResult, PaymentGatewayError, type SavedCardCheck } from "../ports"
import { keyCoveringParameters } from "../idempotency"
import { fallbackHoldEnd, heldCardOf, INITIATOR_METADATA_KEY, initiatorOf } from "../holds"
import { refundStatusOf } from "../rules"
import { call, makeStripeClient } from "./stripe"

/** The request options of a write: its key covers the parameters sent (idempotency.ts). */
const keyed = (idempotencyKey: string, params: unknown): Stripe.RequestOptions => ({
  idempotencyKey: keyCoveringParameters(idempotencyKey, params)
})

/**
 * Every hold asks for an extended authorisation where the network grants one (Stripe's "Place an
 * extended hold"); the charge's `extended_authorization.status` says whether it was.
 */
const EXTENDED_HOLD = { card: { request_extended_authorization: "if_available" as const } }

/** The part of a Stripe error the charges read (the library's StripeError carries these fields). */
interface StripeErrorFields {
  readonly type?: string
  readonly code?: string
  readonly decline_code?: string
  readonly payment_intent?: { readonly id?: string; readonly status?: string }
}
const fieldsOf = (error: unknown): StripeErrorFields => (typeof error === "object" && error !== null ? error : {})

/**
 * An off-session authorisation the card refused (Stripe answers 402, a StripeCardError): only the
 * client can fix it, by paying again on-session (authenticating, or with another card).
 */
const refusalOf = (error: unknown): Option.Option<OffSessionResult> => {
  const e = fieldsOf(error)
  if (e.type !== "StripeCardError") return Option.none()
  const code = e.code === "authentication_required" ? e.code : e.decline_code || e.code || "card_declined"
  return Option.some({ _tag: "Refused", paymentIntentId: e.payment_intent?.id ?? null, needsClient: true, code })
}

/** Cancelling an intent Stripe already canceled (by us earlier, or at expiry) is the release we wanted. */
const alreadyCanceled = (error: unknown) => {
  const e = fieldsOf(error)
  return e.code === "payment_intent_unexpected_state" && e.payment_intent?.status === "canceled"
}

/** Turns a recognised failure into an answer; any other failure stays a failure (and `call` maps it). */
const recover = <A>(promise: Promise<A>, answer: (error: unknown) => Option.Option<A>): Promise<A> =>
  promise.catch((error: unknown) =>
    Option.match(answer(error), {
      onNone: () => Promise.reject(error),
      onSome: (value) => Promise.resolve(value)
    })
  )

/** A charge for a provider outside the platform's region settles on their account (Stripe refuses it otherwise). */
const onBehalfOf = (r: { readonly onBehalfOf?: string | undefined }) => (r.onBehalfOf ? { on_behalf_of: r.onBehalfOf } : {})

const checkoutParams = (r: CheckoutRequest): Stripe.Checkout.SessionCreateParams => {
  const common = {
    customer_creation: "always" as const,
    customer_email: r.customerEmail,
    metadata: { bookingId: r.bookingId },
    client_reference_id: r.bookingId,
    success_url: r.successUrl,
    cancel_url: r.cancelUrl,
    ...(r.expiresAt ? { expires_at: Math.floor(r.expiresAt.getTime() / 1000) } : {}),
    ...(r.locale ? { locale: r.locale } : {})
  }
  if (r.mode === "save_card") {
    // Setup mode takes no amount; cards only, since the booking is later authorised off-session with
    // manual capture (the currency is the one the card will be charged in).
    return {
      mode: "setup",
      currency: r.currency.toLowerCase(),
      allowed_payment_method_types: ["card"],
      setup_intent_data: { metadata: { bookingId: r.bookingId }, ...onBehalfOf(r) },
      ...common
    }
  }
  return {
    mode: "payment",
    line_items: [
      { price_data: { currency: r.currency.toLowerCase(), unit_amount: r.amountMinor, product_data: { name: r.productName } }, quantity: 1 }
    ],
    payment_intent_data: {
      capture_method: "manual",
      transfer_data: { destination: r.destinationAccountId },
      ...onBehalfOf(r),
      application_fee_amount: r.applicationFeeMinor,
      // Keeps the card for a new hold if this one lapses before the service.
      setup_future_usage: "off_session",
      metadata: { bookingId: r.bookingId }
    },
    payment_method_options: EXTENDED_HOLD,
    ...common
  }
}

/**
 * STRIPE_PLATFORM_COUNTRY decides which charges settle on the provider's account: checked against the
 * platform's own account (`GET /v1/account`) at start. A different country stops the start (charges
 * would be routed for the wrong region); Stripe unreachable leaves it to the configuration, with a warning.
 */
const checkPlatformCountry = (stripe: Stripe, configured: string) =>
  call("accounts.retrieve", () => stripe.accounts.retrieveCurrent()).pipe(
    Effect.flatMap((account) => {
      const country = (account.country ?? "").toUpperCase()
      return country === "" || country === configured
        ? Effect.void
        : Effect.dieMessage(
            `STRIPE_PLATFORM_COUNTRY is ${configured} but the Stripe account ${account.id} is in ${country}: set STRIPE_PLATFORM_COUNTRY=${country}`
          )
    }),
    Effect.catchTag("PaymentGatewayError", (error) =>
      Effect.logWarning(
        `the platform's Stripe account could not be read (${error.detail}): STRIPE_PLATFORM_COUNTRY=${configured} is assumed`
      )
    )
  )

/** Card payments through Stripe: destination charges with manual capture (see architecture.md section 4). */
export const StripeChargeGatewayLive = Layer.effect(
  ChargeGateway,
  Effect.gen(function* () {
    const config = yield* AppConfig
    if (Option.isNone(config.stripeSecretKey)) {
      return yield* Effect.dieMessage("PAYMENTS_MODE=stripe needs STRIPE_SECRET_KEY")
    }
    const stripe = makeStripeClient(Redacted.value(config.stripeSecretKey.value), config.stripeApiBase)
    yield* checkPlatformCountry(stripe, config.stripePlatformCountry)

    /** The card of a held intent's expanded charge (undefined when the charge is an id or names no card). */
    const cardOf = (intent: Stripe.PaymentIntent) => {
      const charge = intent.latest_charge
      return typeof charge === "object" && charge !== null ? (charge.payment_method_details?.card ?? undefined) : undefined
    }
    /** The hold of a held intent lapses at the card's `capture_before`, or at the initiator's fallback after `heldAt` when Stripe does not say. */
    const holdExpiry = (intent: Stripe.PaymentIntent, heldAt: number) => {
      const { captureBefore } = heldCardOf(cardOf(intent))
      return captureBefore
        ? { expiresAt: captureBefore, expiryKnown: true }
        : { expiresAt: fallbackHoldEnd(initiatorOf(intent.metadata), new Date(heldAt)), expiryKnown: false }
    }

    const idOf = (ref: string | { readonly id: string } | null | undefined) =>
      ref === null || ref === undefined ? null : typeof ref === "string" ? ref : ref.id
    const seconds = (date: Date) => Math.floor(date.getTime() / 1000)
    /** Reconciliation reads at most this many objects per listing (far beyond a week of bookings). */
    const LIST_LIMIT = 10_000

    return {
      kind: "stripe" as const,
      expireCheckoutSession: (sessionId) =>
        Effect.gen(function* () {
          // Stripe refuses to expire a session that is not open: its status says why.
          const session = yield* call("checkout.sessions.retrieve", () => stripe.checkout.sessions.retrieve(sessionId))
          if (session.status === "complete") return "complete" as const
          if (session.status === "open") {
            const expired = yield* call("checkout.sessions.expire", () => stripe.checkout.sessions.expire(sessionId))
            if (expired.status === "complete") return "complete" as const
          }
          return "expired" as const
        }),
      listOpenHolds: (createdAfter) =>
        // The list cannot filter by status: held intents (requires_capture) are picked from the recent ones.
        call("paymentIntents.list", () =>
          stripe.paymentIntents
            .list({ created: { gte: seconds(createdAfter) }, limit: 100, expand: ["data.latest_charge"] })
            .autoPagingToArray({ limit: LIST_LIMIT })
        ).pipe(
          Effect.map((intents) =>
            intents
              .filter((intent) => intent.status === "requires_capture")
              .map((intent) => ({
                paymentIntentId: intent.id,
                bookingId: intent.metadata?.bookingId || null,
                amountMinor: intent.amount_capturable,
                ...holdExpiry(intent, intent.created * 1000),
                customerId: idOf(intent.customer),
                paymentMethodId: idOf(intent.payment_method),
                createdAt: new Date(intent.created * 1000)
              }))
          )
        ),
      refundsOf: (paymentIntentId) =>
        call("refunds.list", () =>
          stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 }).autoPagingToArray({ limit: LIST_LIMIT })
        ).pipe(
          // Each with its state: a failed or canceled one gave nothing back (the charge's amount_refunded leaves it out too).
          Effect.map((refunds) =>
            refunds.map((refund) => ({ refundId: refund.id, amountMinor: refund.amount, status: refundStatusOf(refund.status) }))
          )
        ),
      listCompletedCheckouts: (createdAfter) =>
        call("checkout.sessions.list", () =>
          stripe.checkout.sessions
            .list({ status: "complete", created: { gte: seconds(createdAfter) }, limit: 100, expand: ["data.setup_intent"] })
            .autoPagingToArray({ limit: LIST_LIMIT })
        ).pipe(
          Effect.map((sessions) =>
            sessions.map((session) => ({
              sessionId: session.id,
              bookingId: session.metadata?.bookingId || null,
              mode: session.mode === "setup" ? ("setup" as const) : ("payment" as const),
              paymentIntentId: idOf(session.payment_intent),
              customerId: idOf(session.customer),
              paymentMethodId:
                typeof session.setup_intent === "object" && session.setup_intent !== null
                  ? idOf(session.setup_intent.payment_method)
                  : null,
              createdAt: new Date(session.created * 1000)
            }))
          )
        ),
      heldPayment: (paymentIntentId) =>
        call("paymentIntents.retrieve", () => stripe.paymentIntents.retrieve(paymentIntentId, { expand: ["latest_charge"] })).pipe(
          Effect.map((intent) => heldCardOf(cardOf(intent)))
        ),
      createCheckoutSession: (request) =>
        Effect.sync(() => checkoutParams(request)).pipe(
          Effect.flatMap((params) =>
            call("checkout.sessions.create", () => stripe.checkout.sessions.create(params, keyed(request.idempotencyKey, params)))
          ),
          Effect.flatMap((session) =>
            session.url
              ? Effect.succeed({ id: session.id, url: session.url })
              : Effect.fail(new PaymentGatewayError({ operation: "checkout.sessions.create", detail: `session ${session.id} has no url` }))
          )
        ),
      createCardPayment: (r) =>
        Effect.gen(function* () {
          // A customer keeps the card for off-session holds later (renewals, bookings far ahead).
          const customerParams: Stripe.CustomerCreateParams = { email: r.customerEmail, metadata: { bookingId: r.bookingId } }
          const customer = yield* call("customers.create", () =>
            stripe.customers.create(customerParams, keyed(`${r.idempotencyKey}:customer`, customerParams))
          )
          if (r.mode === "save_card") {
            const setupParams: Stripe.SetupIntentCreateParams = {
              customer: customer.id,
              usage: "off_session",
              allowed_payment_method_types: ["card"],
              ...onBehalfOf(r),
              metadata: { bookingId: r.bookingId }
            }
            const intent = yield* call("setupIntents.create", () =>
              stripe.setupIntents.create(setupParams, keyed(`${r.idempotencyKey}:setup`, setupParams))
            )
            return { id: intent.id, clientSecret: intent.client_secret ?? "" }
          }
          const intentParams: Stripe.PaymentIntentCreateParams = {
            amount: r.amountMinor,
            currency: r.currency.toLowerCase(),
            customer: customer.id,
            capture_method: "manual",
            setup_future_usage: "off_session",
            allowed_payment_method_types: ["card"],
            transfer_data: { destination: r.destinationAccountId },
            ...onBehalfOf(r),
            application_fee_amount: r.applicationFeeMinor,
            payment_method_options: EXTENDED_HOLD,
            metadata: { bookingId: r.bookingId }
          }
          const intent = yield* call("paymentIntents.create", () =>
            stripe.paymentIntents.create(intentParams, keyed(`${r.idempotencyKey}:intent`, intentParams))
          )
          return { id: intent.id, clientSecret: intent.client_secret ?? "" }
        }).pipe(
          Effect.filterOrFail(
            (payment) => payment.clientSecret !== "",
            (payment) => new PaymentGatewayError({ operation: "createCardPayment", detail: `${payment.id} has no client secret` })
          )
        ),
      capture: ({ amountMinor, applicationFeeMinor, idempotencyKey, paymentIntentId }) => {
        const params = { amount_to_capture: amountMinor, application_fee_amount: applicationFeeMinor }
        return call("paymentIntents.capture", () =>
          stripe.paymentIntents.capture(paymentIntentId, params, keyed(idempotencyKey, { paymentIntentId, ...params }))
        ).pipe(Effect.map((intent) => ({ capturedMinor: intent.amount_received })))
      },
      cancelAuthorization: ({ idempotencyKey, paymentIntentId }) =>
        call("paymentIntents.cancel", () =>
          recover(
            stripe.paymentIntents.cancel(paymentIntentId, {}, keyed(idempotencyKey, { paymentIntentId })).then(() => undefined),
            (error) => (alreadyCanceled(error) ? Option.some(undefined) : Option.none())
          )
        ),
      refund: ({ amountMinor, bookingId, idempotencyKey, paymentIntentId }) => {
        const params: Stripe.RefundCreateParams = {
          payment_intent: paymentIntentId,
          amount: amountMinor,
          // Destination charge: take the money back from the provider and the commission from the platform, in proportion.
          reverse_transfer: true,
          refund_application_fee: true,
          ...(bookingId ? { metadata: { bookingId } } : {}),
          // The charge's amount_refunded is the payment's refunded total, this refund included.
          expand: ["charge"]
        }
        return call("refunds.create", () => stripe.refunds.create(params, keyed(idempotencyKey, params))).pipe(
          Effect.map((refund) => ({
            refundId: refund.id,
            amountMinor: refund.amount,
            totalRefundedMinor: typeof refund.charge === "object" && refund.charge !== null ? refund.charge.amount_refunded : refund.amount,
            status: refundStatusOf(refund.status)
          }))
        )
      },
      ensureCardAttached: ({ customerId, idempotencyKey, paymentMethodId }) =>
        call("paymentMethods.retrieve", () => stripe.paymentMethods.retrieve(paymentMethodId)).pipe(
          Effect.flatMap((method): Effect.Effect<SavedCardCheck, PaymentGatewayError> => {
            const owner = typeof method.customer === "string" ? method.customer : (method.customer?.id ?? null)
            if (owner === customerId) return Effect.succeed({ _tag: "Attached" } as const)
            if (owner !== null)
              return Effect.succeed({
                _tag: "Unusable",
                reason: `payment method ${paymentMethodId} belongs to customer ${owner}, not ${customerId}`
              } as const)
            const params: Stripe.PaymentMethodAttachParams = { customer: customerId }
            return call("paymentMethods.attach", () =>
              stripe.paymentMethods.attach(paymentMethodId, params, keyed(idempotencyKey, { paymentMethodId, ...params }))
            ).pipe(Effect.as({ _tag: "Attached" } as const))
          }),
          // A card or customer Stripe does not know (anymore) cannot be used off-session: no retry helps.
          Effect.catchIf(
            (error) => error.isMissing,
            (error) => Effect.succeed({ _tag: "Unusable", reason: error.detail } as const)
          )
        ),
      authorizeOffSession: (r) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const params: Stripe.PaymentIntentCreateParams = {
            amount: r.amountMinor,
            currency: r.currency.toLowerCase(),
            customer: r.customerId,
            payment_method: r.paymentMethodId,
            off_session: true,
            confirm: true,
            capture_method: "manual",
            transfer_data: { destination: r.destinationAccountId },
            ...onBehalfOf(r),
            application_fee_amount: r.applicationFeeMinor,
            payment_method_options: EXTENDED_HOLD,
            // Stripe's objects do not say an intent was confirmed off-session: its hold's fallback window depends on it.
            metadata: { bookingId: r.bookingId, [INITIATOR_METADATA_KEY]: "merchant" },
            // The charge says until when the hold lasts (capture_before): only this answer expands it.
            expand: ["latest_charge"]
          }
          return yield* call("paymentIntents.create", () =>
            recover(
              stripe.paymentIntents.create(params, keyed(r.idempotencyKey, params)).then(
                (intent): OffSessionResult =>
                  intent.status === "requires_capture"
                    ? {
                        _tag: "Authorized",
                        paymentIntentId: intent.id,
                        amountMinor: intent.amount_capturable,
                        ...holdExpiry(intent, now),
                        extendedAuthorization: heldCardOf(cardOf(intent)).extendedAuthorization
                      }
                    : // Any other state (e.g. requires_action) needs the client on-session.
                      {
                        _tag: "Refused",
                        paymentIntentId: intent.id,
                        needsClient: true,
                        code: intent.last_payment_error?.code ?? intent.status
                      }
              ),
              refusalOf
            )
          )
        })
    }
  })
)
