import { Context, Effect, Either, Layer, Option, Schema } from "effect"
import { requirementsOf } from "./rules"
import { STRIPE_API_VERSION } from "./stripe-version"
import type { BadGateway, BadRequest } from "../../platform/errors"
import { Transactional } from "../../platform/transaction"
import { InvalidWebhookSignature, PaymentGatewayUnavailable, WebhookWrongEndpoint } from "./domain"
import { chargeEventTypes, toChargeEvent } from "./charge-events"
import {
  type ChargeEvent,
  ChargeEventSink,
  ChargeGateway,
  type ChargeGatewayShape,
  ConnectedAccountGateway,
  type GatewayEvent,
  PaymentAccountRepository,
  type PaymentAccountRepositoryShape,
  type PaymentGatewayError,
  WebhookEventStore
} from "./ports"
import { type WebhookEndpoint, webhookEndpointOf } from "./webhook-endpoints"

type ChargeEventSinkShape = ChargeEventSink["Type"]

/**
 * What one event type does, in two steps. The handler itself runs before any transaction (it may ask
 * the gateway: a failure refuses the delivery, which the gateway retries, and the attempts of its
 * calls are not rolled back with it); it answers the effect that runs inside the transaction that
 * records the event id, so an event's effect happens exactly once: a failure there rolls both back
 * and the gateway's next delivery retries it.
 */
export type EventHandler = (event: GatewayEvent) => Effect.Effect<Effect.Effect<void>, PaymentGatewayError>

const AccountObject = Schema.Struct({
  id: Schema.String,
  requirements: Schema.optional(
    Schema.NullOr(
      Schema.Struct({
        past_due: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
        currently_due: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
        disabled_reason: Schema.optional(Schema.NullOr(Schema.String))
      })
    )
  ),
  country: Schema.optional(Schema.NullOr(Schema.String)),
  charges_enabled: Schema.optional(Schema.NullOr(Schema.Boolean)),
  payouts_enabled: Schema.optional(Schema.NullOr(Schema.Boolean)),
  details_submitted: Schema.optional(Schema.NullOr(Schema.Boolean))
})

/** `account.updated`: the account's flags as of the event's creation (older than the stored state: ignored). */
const accountUpdated =
  (accounts: PaymentAccountRepositoryShape): EventHandler =>
  (event) =>
    Effect.succeed(
      Effect.gen(function* () {
        const decoded = Schema.decodeUnknownOption(AccountObject)(event.object)
        if (Option.isNone(decoded))
          return yield* Effect.logWarning(`webhook ${event.id}: account.updated without an account object, ignored`)
        const account = decoded.value
        const stored = yield* accounts.findByAccountId(account.id)
        if (Option.isNone(stored)) return yield* Effect.logInfo(`webhook ${event.id}: account ${account.id} is not ours, ignored`)
        const result = yield* accounts.recordGatewayState(
          account.id,
          {
            country: account.country ?? stored.value.country,
            chargesEnabled: account.charges_enabled === true,
            payoutsEnabled: account.payouts_enabled === true,
            detailsSubmitted: account.details_submitted === true,
            ...requirementsOf(account.requirements)
          },
          event.created
        )
        if (Option.isSome(result) && !result.value.applied) {
          yield* Effect.logInfo(`webhook ${event.id}: account.updated older than the stored state of ${account.id}, ignored`)
        }
      })
    )

/**
 * `account.application.deauthorized`: the provider disconnected their account from the platform, which
 * can no longer charge for them nor pay them out: the stored account takes no charges from now (their
 * bookings are not offered for payment, their services cannot be published) until they connect again.
 */
const accountDeauthorized =
  (accounts: PaymentAccountRepositoryShape): EventHandler =>
  (event) =>
    Effect.succeed(
      Effect.gen(function* () {
        if (event.account === null) return yield* Effect.logWarning(`webhook ${event.id}: a deauthorization naming no account, ignored`)
        const stored = yield* accounts.findByAccountId(event.account)
        if (Option.isNone(stored)) return yield* Effect.logInfo(`webhook ${event.id}: account ${event.account} is not ours, ignored`)
        yield* Effect.logWarning(
          `webhook ${event.id}: account ${event.account} disconnected from the platform (user ${stored.value.userId})`
        )
        yield* accounts.recordGatewayState(
          event.account,
          {
            country: stored.value.country,
            chargesEnabled: false,
            payoutsEnabled: false,
            detailsSubmitted: stored.value.detailsSubmitted,
            requirementsDue: stored.value.requirementsDue,
            disabledReason: stored.value.disabledReason
          },
          event.created
        )
      })
    )

/**
 * A card saved in setup mode counts only once it is attached to the customer it will be charged with
 * off-session (Checkout's setup mode leaves that to the session's customer, which nothing else
 * checks): attached now if attached to nobody; a card that cannot be used is a failed payment (the
 * client is asked to pay again), logged as an error. A gateway failure fails the delivery, retried.
 */
const usableCard = (charges: ChargeGatewayShape, event: Extract<ChargeEvent, { _tag: "CardSaved" }>) =>
  Effect.map(
    charges.ensureCardAttached({
      customerId: event.customerId,
      paymentMethodId: event.paymentMethodId,
      idempotencyKey: `card:${event.paymentMethodId}:attach:${event.customerId}`
    }),
    (check): ChargeEvent => {
      if (check._tag === "Attached") return event
      return {
        _tag: "PaymentFailed",
        bookingId: event.bookingId,
        paymentIntentId: null,
        needsClient: true,
        code: "card_not_attached",
        reference: event.reference,
        occurredAt: event.occurredAt
      }
    }
  ).pipe(
    Effect.tap((applied) =>
      applied._tag === "PaymentFailed"
        ? Effect.logError(
            `webhook ${event.reference}: the card saved for booking ${event.bookingId} cannot be used off-session (${event.paymentMethodId}, customer ${event.customerId})`
          )
        : Effect.void
    )
  )

/**
 * A hold reported by an event, whose charge Stripe sends as an id: the intent retrieved with its charge
 * expanded says until when it can be captured, and with which card. Still unknown after that, the
 * event keeps its fallback (and the booking keeps a known end it has: booking/settlement.ts).
 */
const exactHold = (charges: ChargeGatewayShape, event: Extract<ChargeEvent, { _tag: "PaymentAuthorized" }>) =>
  event.expiryKnown
    ? Effect.succeed(event)
    : Effect.map(
        charges.heldPayment(event.paymentIntentId),
        (held): ChargeEvent =>
          held.captureBefore === null
            ? { ...event, paymentMethod: event.paymentMethod ?? held.paymentMethod }
            : {
                ...event,
                expiresAt: held.captureBefore,
                expiryKnown: true,
                extendedAuthorization: held.extendedAuthorization,
                paymentMethod: event.paymentMethod ?? held.paymentMethod
              }
      )

/**
 * A card payment's event: decoded into a ChargeEvent and applied by the booking module. An event that
 * names no booking, or reports what another event reports, is acknowledged; a stale one is the sink's
 * to refuse (it applies the booking's transition function), never a failed delivery.
 */
const chargeEvent =
  (sink: ChargeEventSinkShape, charges: ChargeGatewayShape): EventHandler =>
  (event) =>
    Either.match(toChargeEvent(event), {
      onLeft: (reason) => Effect.succeed(Effect.logInfo(`webhook ${event.id}: ${reason}, ignored`)),
      onRight: (charge) => {
        switch (charge._tag) {
          case "CardSaved":
            return Effect.map(usableCard(charges, charge), sink.apply)
          case "PaymentAuthorized":
            return Effect.map(exactHold(charges, charge), sink.apply)
          // Which refunds make the total: one made in the gateway's dashboard is recorded like the app's own.
          case "PaymentRefunded":
            return Effect.map(charges.refundsOf(charge.paymentIntentId), (refunds) => sink.apply({ ...charge, refunds }))
          default:
            return Effect.succeed(sink.apply(charge))
        }
      }
    })

/** The event types payments acts on; any other verified event is acknowledged and recorded. */
export const eventHandlers = (deps: {
  readonly accounts: PaymentAccountRepositoryShape
  readonly sink: ChargeEventSinkShape
  readonly charges: ChargeGatewayShape
}): Readonly<Record<string, EventHandler>> => ({
  "account.updated": accountUpdated(deps.accounts),
  "account.application.deauthorized": accountDeauthorized(deps.accounts),
  ...Object.fromEntries(chargeEventTypes.map((type) => [type, chargeEvent(deps.sink, deps.charges)]))
})

export interface WebhookReceipt {
  readonly eventId: string
  readonly type: string
  /** A repeated delivery of an event already processed: nothing was done. */
  readonly duplicate: boolean
  /** The event type has a handler (otherwise it was only acknowledged). */
  readonly handled: boolean
}

export class PaymentWebhooks extends Context.Tag("payments/PaymentWebhooks")<
  PaymentWebhooks,
  {
    /**
     * Verifies the signature over the raw body with the endpoint's secret, then processes the event
     * once. An event the app acts on that belongs to the other endpoint is refused (400): the
     * endpoint was created with the wrong events selected, and Stripe's dashboard shows the failed
     * deliveries. Other event types are acknowledged on either endpoint.
     */
    readonly receive: (
      endpoint: WebhookEndpoint,
      rawBody: Uint8Array | string,
      signatureHeader: string | undefined
    ) => Effect.Effect<WebhookReceipt, BadRequest | BadGateway>
  }
>() {}

export const PaymentWebhooksLive = Layer.effect(
  PaymentWebhooks,
  Effect.gen(function* () {
    const gateway = yield* ConnectedAccountGateway
    const events = yield* WebhookEventStore
    const tx = yield* Transactional
    const handlers = eventHandlers({
      accounts: yield* PaymentAccountRepository,
      sink: yield* ChargeEventSink,
      charges: yield* ChargeGateway
    })
    return {
      receive: (endpoint, rawBody, signatureHeader) =>
        Effect.gen(function* () {
          const event = yield* gateway.parseWebhook(endpoint, rawBody, signatureHeader).pipe(
            Effect.tapError((error) => Effect.logWarning(`webhook (${endpoint}) refused: ${error.reason}`)),
            Effect.mapError(() => InvalidWebhookSignature)
          )
          // Payloads follow the endpoint's version: another than the app's may carry fields it reads differently.
          if (event.apiVersion !== null && event.apiVersion !== STRIPE_API_VERSION) {
            yield* Effect.logWarning(
              `webhook ${event.id} (${endpoint}): API version ${event.apiVersion}, the app reads ${STRIPE_API_VERSION}: recreate the endpoint with it (docs/operations.md)`
            )
          }
          const handler = Object.hasOwn(handlers, event.type) ? handlers[event.type] : undefined
          // An event the app acts on is taken only on its own endpoint (others are acknowledged anywhere).
          if (handler && webhookEndpointOf(event.type) !== endpoint) {
            yield* Effect.logWarning(
              `webhook (${endpoint}) refused: ${event.type} (${event.id}) belongs to the ${webhookEndpointOf(event.type)} endpoint`
            )
            return yield* WebhookWrongEndpoint
          }
          const apply = handler
            ? yield* handler(event).pipe(
                // Nothing was recorded: the gateway's next delivery retries the event.
                Effect.catchTag("PaymentGatewayError", (error) =>
                  Effect.zipRight(
                    Effect.logWarning(`webhook ${event.id}: ${error.operation} failed (${error.detail}), delivery refused`),
                    Effect.fail(PaymentGatewayUnavailable)
                  )
                )
              )
            : Effect.void
          return yield* tx.run(
            Effect.gen(function* () {
              const first = yield* events.markProcessed(event.id, event.type)
              if (first) yield* apply
              return { eventId: event.id, type: event.type, duplicate: !first, handled: handler !== undefined }
            })
          )
        })
    }
  })
)
