import { Context, Data, type Effect, type Option, Schema } from "effect"
import type { AccountState, GatewayKind, PaymentAccount } from "./domain"

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
  /** `data.object` of the event, as sent (decoded by each event's handler). */
  readonly object: unknown
}

/** The gateway could not be reached or refused a call: answered as 502 by the HTTP edge. */
export class PaymentGatewayError extends Schema.TaggedError<PaymentGatewayError>()("PaymentGatewayError", {
  operation: Schema.String,
  detail: Schema.String
}) {}

/** A webhook delivery that is not authentic (no, bad or expired signature) or not an event. */
export class InvalidWebhook extends Data.TaggedError("InvalidWebhook")<{ readonly reason: string }> {}

export interface ConnectedAccountGatewayShape {
  readonly kind: GatewayKind
  readonly createAccount: (input: {
    readonly userId: string
    readonly email: string
    readonly country: string
  }) => Effect.Effect<string, PaymentGatewayError>
  /** A single-use onboarding address; the gateway sends the user back to `returnUrl` or `refreshUrl`. */
  readonly createOnboardingLink: (input: {
    readonly accountId: string
    readonly returnUrl: string
    readonly refreshUrl: string
  }) => Effect.Effect<string, PaymentGatewayError>
  readonly createDashboardLink: (accountId: string) => Effect.Effect<string, PaymentGatewayError>
  readonly retrieveAccount: (accountId: string) => Effect.Effect<GatewayAccount, PaymentGatewayError>
  readonly parseWebhook: (
    rawBody: Uint8Array | string,
    signatureHeader: string | undefined
  ) => Effect.Effect<GatewayEvent, InvalidWebhook>
}
export class ConnectedAccountGateway extends Context.Tag("payments/ConnectedAccountGateway")<
  ConnectedAccountGateway,
  ConnectedAccountGatewayShape
>() {}

// ---- The sandbox gateway's own storage -------------------------------------------------------

export interface SandboxAccount extends GatewayAccount {
  readonly userId: string
  readonly email: string
}

export interface SandboxAccountStoreShape {
  /** Creates an account, or answers the one created earlier with the same idempotency key. */
  readonly create: (account: Omit<SandboxAccount, "chargesEnabled" | "payoutsEnabled" | "detailsSubmitted">, idempotencyKey: string) => Effect.Effect<SandboxAccount>
  readonly find: (accountId: string) => Effect.Effect<Option.Option<SandboxAccount>>
  readonly setFlags: (
    accountId: string,
    flags: Pick<AccountState, "chargesEnabled" | "payoutsEnabled" | "detailsSubmitted">
  ) => Effect.Effect<Option.Option<SandboxAccount>>
}
export class SandboxAccountStore extends Context.Tag("payments/SandboxAccountStore")<SandboxAccountStore, SandboxAccountStoreShape>() {}
