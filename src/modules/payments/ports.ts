import { Context, Data, type Effect, type Option, Schema } from "effect"
import type { RefundStatus } from "./rules"
import type { Language } from "../../platform/languages"
import type { AccountState, GatewayKind, PaymentAccount } from "./domain"
import type { WebhookEndpoint } from "./webhook-endpoints"

/** Where connected accounts are recorded (the gateway remains the source of truth for their flags). */
export interface PaymentAccountRepositoryShape {
  readonly findByUser: (userId: string) => Effect.Effect<Option.Option<PaymentAccount>>
  readonly findByAccountId: (accountId: string) => Effect.Effect<Option.Option<PaymentAccount>>
  /** Records an account as it is now (its flags are taken as observed at the time of the call). */
  readonly upsert: (account: PaymentAccount) => Effect.Effect<void>
  /**
   * Records the gateway's state of an account observed at `observedAt`, unless the stored state is
   * newer (see `supersedes`). Answers the account as stored afterwards; None for an unknown account.
   */
  /** Forgets the user's account; answers the one removed (None when there was none). */
  readonly remove: (userId: string) => Effect.Effect<Option.Option<PaymentAccount>>
  readonly recordGatewayState: (
    accountId: string,
    state: AccountState,
    observedAt: Date
  ) => Effect.Effect<Option.Option<{ readonly account: PaymentAccount; readonly applied: boolean }>>
}
export class PaymentAccountRepository extends Context.Tag("payments/PaymentAccountRepository")<
  PaymentAccountRepository,
  PaymentAccountRepositoryShape
>() {}

/** Gateway events already processed, by id (written in the transaction of the event's effect). */
export interface WebhookEventStoreShape {
  /** True the first time an event id is seen; false for a repeated delivery. */
  readonly markProcessed: (eventId: string, type: string) => Effect.Effect<boolean>
}
export class WebhookEventStore extends Context.Tag("payments/WebhookEventStore")<WebhookEventStore, WebhookEventStoreShape>() {}

// ---- The gateway port ------------------------------------------------------------------------

export interface GatewayAccount extends AccountState {
  readonly accountId: string
}

/** A webhook event whose signature was verified. */
export interface GatewayEvent {
  readonly id: string
  readonly type: string
  /** When the gateway created the event (whole seconds). */
  readonly created: Date
  /** The API version its payload follows (its endpoint's), or null when the event names none. */
  readonly apiVersion: string | null
  /** A connected account's event: that account (Stripe's top-level `account`); null for the platform's own. */
  readonly account: string | null
  /** `data.object` of the event, as sent (decoded by each event's handler). */
  readonly object: unknown
}

/** The gateway could not be reached or refused a call: answered as 502 by the HTTP edge. */
export class PaymentGatewayError extends Schema.TaggedError<PaymentGatewayError>()("PaymentGatewayError", {
  operation: Schema.String,
  detail: Schema.String,
  /** The gateway's error code when it gave one (Stripe's `resource_missing`, `card_declined`...). */
  code: Schema.optional(Schema.String),
  /**
   * No answer came (timeout, network, or the key's first request still running): the gateway may have
   * done the request, so a retry repeats it with the same idempotency key. Otherwise the gateway
   * answered, and stored that answer under the key: a retry is a new attempt with a new key.
   */
  unanswered: Schema.optional(Schema.Boolean)
}) {
  /** The gateway does not know the object (a connected account deleted on its side, say). */
  get isMissing() {
    return this.code === "resource_missing"
  }
}

/** A webhook delivery that is not authentic (no, bad or expired signature) or not an event. */
export class InvalidWebhook extends Data.TaggedError("InvalidWebhook")<{ readonly reason: string }> {}

export interface ConnectedAccountGatewayShape {
  readonly kind: GatewayKind
  readonly createAccount: (input: {
    readonly userId: string
    readonly email: string
    readonly country: string
    /** The account this one replaces, when the gateway no longer has it. */
    readonly replaces?: string | undefined
  }) => Effect.Effect<string, PaymentGatewayError>
  /** A single-use onboarding address; the gateway sends the user back to `returnUrl` or `refreshUrl`. */
  readonly createOnboardingLink: (input: {
    readonly accountId: string
    readonly returnUrl: string
    readonly refreshUrl: string
    /** The provider's account language, for the sandbox's page (Stripe's follows the browser). */
    readonly locale?: Language | undefined
  }) => Effect.Effect<string, PaymentGatewayError>
  readonly createDashboardLink: (accountId: string) => Effect.Effect<string, PaymentGatewayError>
  readonly retrieveAccount: (accountId: string) => Effect.Effect<GatewayAccount, PaymentGatewayError>
  /** Closes the account at the gateway (an administrator's decision); one the gateway no longer has fails with isMissing. */
  readonly deleteAccount: (accountId: string) => Effect.Effect<void, PaymentGatewayError>
  /** Verifies a delivery to one of the two endpoints, with that endpoint's own signing secret. */
  readonly parseWebhook: (
    endpoint: WebhookEndpoint,
    rawBody: Uint8Array | string,
    signatureHeader: string | undefined
  ) => Effect.Effect<GatewayEvent, InvalidWebhook>
}
export class ConnectedAccountGateway extends Context.Tag("payments/ConnectedAccountGateway")<
  ConnectedAccountGateway,
  ConnectedAccountGatewayShape
>() {}

// ---- The sandbox gateway's own storage -------------------------------------------------------

/** The sandbox keeps the flags; what it asks for follows from them (adapters/sandbox.ts sandboxRequirements). */
export interface SandboxAccount extends Omit<GatewayAccount, "requirementsDue" | "disabledReason"> {
  readonly userId: string
  readonly email: string
}

export interface SandboxAccountStoreShape {
  /** Creates an account, or answers the one created earlier with the same idempotency key. */
  readonly create: (
    account: Omit<SandboxAccount, "chargesEnabled" | "payoutsEnabled" | "detailsSubmitted">,
    idempotencyKey: string
  ) => Effect.Effect<SandboxAccount>
  readonly find: (accountId: string) => Effect.Effect<Option.Option<SandboxAccount>>
  readonly setFlags: (
    accountId: string,
    flags: Pick<AccountState, "chargesEnabled" | "payoutsEnabled" | "detailsSubmitted">
  ) => Effect.Effect<Option.Option<SandboxAccount>>
  /** Removes the account; false when there was none. */
  readonly remove: (accountId: string) => Effect.Effect<boolean>
}
export class SandboxAccountStore extends Context.Tag("payments/SandboxAccountStore")<SandboxAccountStore, SandboxAccountStoreShape>() {}

// ---- Charges: card payments of bookings ---------------------------------------------------------

/** Billing details the client gives at the payment step (spec section 3). */
export interface BillingDetails {
  readonly name: string
  readonly email: string
  readonly address: { readonly line1: string; readonly city: string; readonly postal_code: string; readonly country: string }
}

/**
 * A hosted checkout for one booking. `authorize`: a PaymentIntent with manual capture is authorised
 * now (and the card saved for renewals). `save_card`: the card is only saved (setup mode); it is
 * authorised off-session closer to the service.
 */
export interface CheckoutRequest {
  readonly bookingId: string
  readonly mode: "authorize" | "save_card"
  readonly amountMinor: number
  readonly currency: string
  readonly productName: string
  /** The provider's connected account (destination of the funds). */
  readonly destinationAccountId: string
  /** The same account when the charge must settle on it (a provider outside the platform's region: rules.ts needsOnBehalfOf). */
  readonly onBehalfOf?: string | undefined
  readonly applicationFeeMinor: number
  readonly customerEmail: string
  readonly billing?: BillingDetails | undefined
  readonly successUrl: string
  readonly cancelUrl: string
  /** Derived from the booking and the attempt (a new attempt after an expired session gets a new key). */
  readonly idempotencyKey: string
  /** When the session stops accepting payment (Stripe: 30 minutes to 24 hours ahead; default 24 hours). */
  readonly expiresAt?: Date | undefined
  /** The payer's account language: the hosted page speaks it, whatever the browser says (issue 16). */
  readonly locale?: Language | undefined
}

export interface CheckoutSession {
  readonly id: string
  /** Where the browser goes to pay (Stripe's hosted page, or the sandbox's local one). */
  readonly url: string
}

export interface OffSessionRequest {
  readonly bookingId: string
  readonly amountMinor: number
  readonly currency: string
  readonly destinationAccountId: string
  /** As CheckoutRequest's. */
  readonly onBehalfOf?: string | undefined
  readonly applicationFeeMinor: number
  readonly customerId: string
  readonly paymentMethodId: string
  readonly idempotencyKey: string
}

/** A hold as the gateway reports it when asked: until when it can be captured (null when it does not say) and the card. */
export interface HeldPayment {
  readonly captureBefore: Date | null
  /** "visa •••• 4242", or null when the gateway names no card. */
  readonly paymentMethod: string | null
  readonly extendedAuthorization: boolean
}

/** An off-session authorisation: held, or refused (needsClient: the client must act on-session). */
export type OffSessionResult =
  | {
      readonly _tag: "Authorized"
      readonly paymentIntentId: string
      readonly amountMinor: number
      readonly expiresAt: Date
      readonly expiryKnown: boolean
      readonly extendedAuthorization: boolean
    }
  | { readonly _tag: "Refused"; readonly paymentIntentId: string | null; readonly needsClient: boolean; readonly code: string }

export interface ChargeGatewayShape {
  readonly kind: GatewayKind
  readonly createCheckoutSession: (request: CheckoutRequest) => Effect.Effect<CheckoutSession, PaymentGatewayError>
  /**
   * Stripe only: the same payment as a PaymentIntent (authorise) or SetupIntent (save the card) whose
   * client secret lets Stripe Elements confirm the card in the page. Same events follow as for checkout.
   */
  readonly createCardPayment?: (
    request: Omit<CheckoutRequest, "successUrl" | "cancelUrl" | "productName">
  ) => Effect.Effect<{ readonly id: string; readonly clientSecret: string }, PaymentGatewayError>
  /** Captures (part of) an authorisation; the fee is recomputed on the captured amount. */
  readonly capture: (input: {
    readonly paymentIntentId: string
    readonly amountMinor: number
    readonly applicationFeeMinor: number
    readonly idempotencyKey: string
  }) => Effect.Effect<{ readonly capturedMinor: number }, PaymentGatewayError>
  /** Releases an authorisation (a PaymentIntent already canceled counts as released). */
  readonly cancelAuthorization: (input: {
    readonly paymentIntentId: string
    readonly idempotencyKey: string
  }) => Effect.Effect<void, PaymentGatewayError>
  /**
   * Refunds captured money, reversing the transfer and the platform's fee in proportion. Answers the
   * payment's refunded total after this refund as the gateway counts it, so that concurrent refunds
   * of one payment never record less than was given back.
   */
  readonly refund: (input: {
    readonly paymentIntentId: string
    readonly amountMinor: number
    readonly idempotencyKey: string
    /** Recorded in the refund's metadata (the dashboard shows which booking it belongs to). */
    readonly bookingId?: string | undefined
  }) => Effect.Effect<
    { readonly refundId: string; readonly amountMinor: number; readonly totalRefundedMinor: number; readonly status: RefundStatus },
    PaymentGatewayError
  >
  readonly authorizeOffSession: (request: OffSessionRequest) => Effect.Effect<OffSessionResult, PaymentGatewayError>
  /**
   * A card saved in setup mode is used off-session later with its customer, which only works when
   * the card is attached to that customer: checks it, attaches a card attached to nobody, and answers
   * Unusable for a card that belongs to another customer (or that the gateway does not know).
   */
  readonly ensureCardAttached: (input: {
    readonly customerId: string
    readonly paymentMethodId: string
    readonly idempotencyKey: string
  }) => Effect.Effect<SavedCardCheck, PaymentGatewayError>
  /**
   * Closes an open Checkout Session so that it can no longer be paid (a booking has one open session:
   * a new one expires the previous). Answers `complete` when it was paid before it could be expired.
   */
  readonly expireCheckoutSession: (sessionId: string) => Effect.Effect<"expired" | "complete", PaymentGatewayError>
  /** Every hold (a PaymentIntent awaiting capture) created at or after `createdAfter`, for reconciliation. */
  readonly listOpenHolds: (createdAfter: Date) => Effect.Effect<ReadonlyArray<GatewayHold>, PaymentGatewayError>
  /** Every completed Checkout Session created at or after `createdAfter`, for reconciliation. */
  readonly listCompletedCheckouts: (createdAfter: Date) => Effect.Effect<ReadonlyArray<CompletedCheckout>, PaymentGatewayError>
  /**
   * The refunds of a payment that count towards its refunded total (pending or succeeded), whoever
   * made them: the app, or someone in the gateway's own dashboard.
   */
  readonly refundsOf: (paymentIntentId: string) => Effect.Effect<ReadonlyArray<GatewayRefund>, PaymentGatewayError>
  /**
   * A held intent retrieved with its charge expanded: the one way to learn `capture_before` after the
   * request that created the hold (events carry the charge as an id).
   */
  readonly heldPayment: (paymentIntentId: string) => Effect.Effect<HeldPayment, PaymentGatewayError>
}

/** A refund at the gateway: its id names its payment operation, so it is recorded once whoever sees it first. */
export interface GatewayRefund {
  readonly refundId: string
  readonly amountMinor: number
  readonly status: RefundStatus
}

/** A hold at the gateway as it stands when listed. */
export interface GatewayHold {
  readonly paymentIntentId: string
  /** `metadata.bookingId` (null: not a booking's payment). */
  readonly bookingId: string | null
  readonly amountMinor: number
  /** When the authorisation lapses (`capture_before`, or a fallback by initiator after its creation when unknown). */
  readonly expiresAt: Date
  readonly expiryKnown: boolean
  readonly customerId: string | null
  readonly paymentMethodId: string | null
  readonly createdAt: Date
}

/** A completed Checkout Session as it stands when listed. */
export interface CompletedCheckout {
  readonly sessionId: string
  readonly bookingId: string | null
  readonly mode: "payment" | "setup"
  readonly paymentIntentId: string | null
  readonly customerId: string | null
  /** Setup mode: the card saved for later (null in payment mode, or when the gateway does not say). */
  readonly paymentMethodId: string | null
  readonly createdAt: Date
}

export type SavedCardCheck = { readonly _tag: "Attached" } | { readonly _tag: "Unusable"; readonly reason: string }
export class ChargeGateway extends Context.Tag("payments/ChargeGateway")<ChargeGateway, ChargeGatewayShape>() {}

/**
 * The attempt each named gateway write is at (see idempotency.ts): 0 until the gateway answers an
 * attempt with an error, then the next one. Stored, so that retries in other processes or after a
 * restart continue the count.
 */
export interface GatewayAttemptsShape {
  readonly current: (key: string) => Effect.Effect<number>
  /** Moves the write past `attempt` (a no-op when another retry already did). */
  readonly advance: (key: string, attempt: number) => Effect.Effect<void>
}
export class GatewayAttempts extends Context.Tag("payments/GatewayAttempts")<GatewayAttempts, GatewayAttemptsShape>() {}

/**
 * What a verified gateway event says about a booking's payment, in the product's words. Payments
 * decodes Stripe's events (the sandbox sends the same ones) into these; the booking module applies
 * them through ChargeEventSink. `occurredAt` is the event's creation time.
 */
export type ChargeEvent =
  | {
      readonly _tag: "CardSaved"
      readonly bookingId: string
      readonly customerId: string
      readonly paymentMethodId: string
      readonly reference: string
      readonly occurredAt: Date
    }
  | {
      readonly _tag: "PaymentAuthorized"
      readonly bookingId: string
      readonly paymentIntentId: string
      readonly amountMinor: number
      /** Until when the hold can be captured: the card's `capture_before` when `expiryKnown`, else a fallback by initiator (holds.ts). */
      readonly expiresAt: Date
      readonly expiryKnown: boolean
      /** The network granted an extended authorisation (asked for with `request_extended_authorization: if_available`). */
      readonly extendedAuthorization: boolean
      readonly customerId: string | null
      readonly paymentMethodId: string | null
      readonly paymentMethod: string | null
      readonly reference: string
      readonly occurredAt: Date
    }
  | {
      readonly _tag: "PaymentCaptured"
      readonly bookingId: string
      readonly paymentIntentId: string
      readonly amountMinor: number
      readonly reference: string
      readonly occurredAt: Date
    }
  | {
      readonly _tag: "AuthorizationReleased"
      readonly bookingId: string
      readonly paymentIntentId: string
      readonly reference: string
      readonly occurredAt: Date
    }
  | {
      readonly _tag: "PaymentFailed"
      readonly bookingId: string
      readonly paymentIntentId: string | null
      readonly needsClient: boolean
      readonly code: string
      readonly reference: string
      readonly occurredAt: Date
    }
  | {
      readonly _tag: "PaymentRefunded"
      readonly bookingId: string
      readonly paymentIntentId: string
      readonly totalRefundedMinor: number
      /** The payment's refunds as the gateway lists them when the event is handled (the webhook asks). */
      readonly refunds: ReadonlyArray<GatewayRefund>
      readonly reference: string
      readonly occurredAt: Date
    }
  | {
      /** A refund's state changed (`charge.refund.updated`, `refund.failed`): a failed one gave nothing back. */
      readonly _tag: "RefundUpdated"
      readonly bookingId: string
      readonly paymentIntentId: string
      readonly refundId: string
      readonly amountMinor: number
      readonly status: RefundStatus
      /** Stripe's `failure_reason` (`expired_or_canceled_card`, `lost_or_stolen_card`, `unknown`), null unless failed. */
      readonly failureReason: string | null
      readonly reference: string
      readonly occurredAt: Date
    }

/** Implemented by the booking module: applies a charge event to its booking (inside the webhook's transaction). */
export class ChargeEventSink extends Context.Tag("payments/ChargeEventSink")<
  ChargeEventSink,
  { readonly apply: (event: ChargeEvent) => Effect.Effect<void> }
>() {}

// ---- The sandbox gateway's charges (its own storage, playing Stripe's objects) ----------------------

/** Stripe's PaymentIntent states the sandbox plays (manual capture only). */
export type SandboxIntentStatus = "requires_payment_method" | "requires_action" | "requires_capture" | "succeeded" | "canceled"

/** What a sandbox test card does when used (decided by its number, see charges-sandbox.ts). */
/** `refund_fails`: holds and captures as `succeeds`, but its refunds fail afterwards (Stripe's 4000 0000 0000 5126). */
export type SandboxCardBehaviour = "succeeds" | "declines" | "authenticates" | "refund_fails"

export interface SandboxPaymentMethod {
  readonly id: string
  /** The customer it is attached to (saved for later, off-session use); null until then. */
  readonly customerId: string | null
  readonly brand: string
  readonly last4: string
  readonly expMonth: number
  readonly expYear: number
  readonly behaviour: SandboxCardBehaviour
}

export interface SandboxPaymentIntent {
  readonly id: string
  readonly bookingId: string
  readonly amountMinor: number
  /** Lowercase, as Stripe writes it. */
  readonly currency: string
  readonly status: SandboxIntentStatus
  readonly amountCapturable: number
  readonly amountReceived: number
  readonly amountRefunded: number
  readonly applicationFeeMinor: number
  readonly destinationAccountId: string
  readonly customerId: string | null
  readonly paymentMethodId: string | null
  /** The charge of the authorisation (null before one). */
  readonly chargeId: string | null
  /** The authorisation lapses at this instant (Stripe's `capture_before`). */
  readonly captureBefore: Date | null
  /** Confirmed off-session by the platform (merchant-initiated: a shorter window on Visa). */
  readonly offSession: boolean
  /** Whether the network extended the hold (asked for on every hold, as the Stripe adapter does); null before a hold. */
  readonly extendedAuthorization: "enabled" | "disabled" | null
  readonly lastErrorCode: string | null
  readonly lastDeclineCode: string | null
  readonly createdAt: Date
}

export interface SandboxSetupIntent {
  readonly id: string
  readonly bookingId: string
  readonly status: Exclude<SandboxIntentStatus, "requires_capture">
  readonly customerId: string | null
  readonly paymentMethodId: string | null
  readonly lastErrorCode: string | null
  readonly createdAt: Date
}

export interface SandboxCheckoutSession {
  readonly id: string
  readonly mode: "payment" | "setup"
  readonly bookingId: string
  readonly amountMinor: number
  /** Uppercase ISO code, as the marketplace writes it. */
  readonly currency: string
  readonly productName: string
  readonly destinationAccountId: string
  readonly applicationFeeMinor: number
  readonly customerEmail: string
  /** Prefills the cardholder field (from the billing details given at the payment step). */
  readonly cardholderName: string | null
  readonly successUrl: string
  readonly cancelUrl: string
  readonly status: "open" | "complete"
  readonly expiresAt: Date
  readonly customerId: string | null
  readonly paymentIntentId: string | null
  readonly setupIntentId: string | null
  readonly createdAt: Date
}

export interface SandboxRefund {
  readonly id: string
  readonly paymentIntentId: string
  readonly amountMinor: number
  readonly status: RefundStatus
  readonly failureReason: string | null
  readonly createdAt: Date
}

/** A use of an idempotency key: the first (the caller does the work), or a replay of the stored response. */
export type IdempotencyClaim =
  | { readonly _tag: "First" }
  | { readonly _tag: "Replay"; readonly fingerprint: string; readonly response: unknown }
  /** Another request with the same key has not finished (Stripe answers 409). */
  | { readonly _tag: "InFlight" }

/**
 * The sandbox's objects. `save*` inserts or replaces by id; `find*` locks the row until the end of the
 * surrounding transaction (the sandbox runs each operation in one), so concurrent operations on one
 * object are serialised as at Stripe.
 */
export interface SandboxChargeStoreShape {
  /** Takes an idempotency key for a request (`fingerprint`: its operation and parameters). */
  readonly claimKey: (key: string, fingerprint: string) => Effect.Effect<IdempotencyClaim>
  /** The response replayed for later requests with the key (JSON). */
  readonly saveResponse: (key: string, response: unknown) => Effect.Effect<void>
  readonly saveSession: (session: SandboxCheckoutSession) => Effect.Effect<void>
  readonly findSession: (id: string) => Effect.Effect<Option.Option<SandboxCheckoutSession>>
  readonly saveIntent: (intent: SandboxPaymentIntent) => Effect.Effect<void>
  readonly findIntent: (id: string) => Effect.Effect<Option.Option<SandboxPaymentIntent>>
  readonly saveSetupIntent: (intent: SandboxSetupIntent) => Effect.Effect<void>
  readonly findSetupIntent: (id: string) => Effect.Effect<Option.Option<SandboxSetupIntent>>
  readonly saveCustomer: (customer: { readonly id: string; readonly email: string }) => Effect.Effect<void>
  readonly customerExists: (id: string) => Effect.Effect<boolean>
  readonly savePaymentMethod: (method: SandboxPaymentMethod) => Effect.Effect<void>
  readonly findPaymentMethod: (id: string) => Effect.Effect<Option.Option<SandboxPaymentMethod>>
  readonly saveRefund: (refund: SandboxRefund) => Effect.Effect<void>
  /** A refund, locked until the end of the caller's transaction. */
  readonly findRefund: (id: string) => Effect.Effect<Option.Option<SandboxRefund>>
  /** A payment's refunds, oldest first (no locks: a listing). */
  readonly listRefunds: (paymentIntentId: string) => Effect.Effect<ReadonlyArray<SandboxRefund>>
  /** Intents in the given status created at or after `createdAfter` (no locks: a listing). */
  readonly listIntents: (status: SandboxIntentStatus, createdAfter: Date) => Effect.Effect<ReadonlyArray<SandboxPaymentIntent>>
  /** Completed sessions created at or after `createdAfter`, with the card of their setup intent when saved. */
  readonly listCompletedSessions: (
    createdAfter: Date
  ) => Effect.Effect<ReadonlyArray<SandboxCheckoutSession & { readonly setupPaymentMethodId: string | null }>>
}
export class SandboxChargeStore extends Context.Tag("payments/SandboxChargeStore")<SandboxChargeStore, SandboxChargeStoreShape>() {}
