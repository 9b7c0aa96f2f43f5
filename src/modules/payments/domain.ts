import { Either } from "effect"
import { BadGateway, BadRequest, Conflict, issue, NotFound, ValidationFailed } from "../../platform/errors"
import type { MessageKey } from "../../platform/messages"
import { ALLOWED_COUNTRIES, type Country, needsOnBehalfOf } from "./rules"

/** A provider's connected (payout) account as the product sees it. */
export interface PaymentAccount extends AccountState {
  readonly userId: string
  readonly gateway: "stripe" | "sandbox"
  readonly accountId: string
}

export type GatewayKind = PaymentAccount["gateway"]

/** A provider can publish services and be paid once the gateway lets the account take charges. */
export const canTakeCharges = (account: PaymentAccount | undefined) => account?.chargesEnabled === true

/** What the gateway says of an account (the source of truth for its flags). */
export interface AccountState {
  readonly country: string
  readonly chargesEnabled: boolean
  readonly payoutsEnabled: boolean
  readonly detailsSubmitted: boolean
  /** What the gateway still needs from the provider (Stripe's `requirements.past_due` then `currently_due`), by its codes. */
  readonly requirementsDue: ReadonlyArray<string>
  /** Why the gateway restricted the account (Stripe's `requirements.disabled_reason`), or null. */
  readonly disabledReason: string | null
}

/** An account the gateway asks nothing of. */
export const NO_REQUIREMENTS = { requirementsDue: [], disabledReason: null } as const satisfies Pick<
  AccountState,
  "requirementsDue" | "disabledReason"
>

// ---- Payout setup: the country (spec admin-and-onboarding section 5) --------------------------

export { ALLOWED_COUNTRIES, type Country } from "./rules"

const countryIssue = (key: MessageKey) => new ValidationFailed({ code: "VALIDATION_ERROR", key, details: [issue("country", key)] })
export const CountryRequired = countryIssue("payments.countryRequired")
export const CountryInvalid = countryIssue("payments.countryInvalid")

/** Trimmed and uppercased, exactly two letters, and in the allowed list. */
export const validateCountry = (input: string | undefined): Either.Either<Country, ValidationFailed> => {
  const code = (input ?? "").trim().toUpperCase()
  if (code === "") return Either.left(CountryRequired)
  if (!/^[A-Z]{2}$/.test(code) || !(ALLOWED_COUNTRIES as ReadonlyArray<string>).includes(code)) return Either.left(CountryInvalid)
  return Either.right(code as Country)
}

// ---- Status view (spec section 3, "connected payment account status") -------------------------

export interface ConnectStatus {
  readonly hasAccount: boolean
  readonly accountId: string | null
  readonly country: string | null
  readonly chargesEnabled: boolean
  readonly payoutsEnabled: boolean
  readonly detailsSubmitted: boolean
  readonly requirementsDue: ReadonlyArray<string>
  readonly disabledReason: string | null
}

export const statusOf = (account: PaymentAccount | undefined): ConnectStatus =>
  account
    ? {
        hasAccount: true,
        accountId: account.accountId,
        country: account.country,
        chargesEnabled: account.chargesEnabled,
        payoutsEnabled: account.payoutsEnabled,
        detailsSubmitted: account.detailsSubmitted,
        requirementsDue: account.requirementsDue,
        disabledReason: account.disabledReason
      }
    : {
        hasAccount: false,
        accountId: null,
        country: null,
        chargesEnabled: false,
        payoutsEnabled: false,
        detailsSubmitted: false,
        ...NO_REQUIREMENTS
      }

// ---- Ordering of gateway states ----------------------------------------------------------------

/**
 * Whether a gateway state observed at `observedAt` may replace the stored one, observed at `storedAsOf`.
 * Webhook events arrive in any order and carry their creation time in whole seconds: an event from an
 * earlier second than the stored state is stale and ignored; within the same second the newer
 * arrival wins (nothing finer is known). The PostgreSQL adapter applies the same rule in its UPDATE.
 */
export const supersedes = (observedAt: Date, storedAsOf: Date | null) =>
  storedAsOf === null || Math.floor(storedAsOf.getTime() / 1000) * 1000 <= observedAt.getTime()

// ---- Errors ----------------------------------------------------------------------------------

export const PaymentAccountNotFound = new NotFound({ code: "PAYMENT_ACCOUNT_NOT_FOUND", key: "payments.accountNotFound" })
/** Stripe only opens the Express dashboard of an account whose onboarding details were submitted. */
export const PaymentAccountIncomplete = new Conflict({ code: "PAYMENT_ACCOUNT_INCOMPLETE", key: "payments.accountIncomplete" })
/** The gateway failed or could not be reached (answered 502). */
export const PaymentGatewayUnavailable = new BadGateway({ code: "PAYMENT_GATEWAY_ERROR", key: "payments.gatewayError" })
export const InvalidWebhookSignature = new BadRequest({ code: "INVALID_WEBHOOK_SIGNATURE", key: "payments.webhookSignature" })
/** A platform event sent to the connected-accounts endpoint, or the other way round. */
export const WebhookWrongEndpoint = new BadRequest({ code: "WEBHOOK_WRONG_ENDPOINT", key: "payments.webhookWrongEndpoint" })

// ---- Return addresses of onboarding --------------------------------------------------------

const trimSlash = (url: string) => url.replace(/\/+$/, "")
export const onboardingReturnUrls = (publicUrl: string) => ({
  returnUrl: `${trimSlash(publicUrl)}/provider/payments/setup?onboarding=complete`,
  refreshUrl: `${trimSlash(publicUrl)}/provider/payments/setup?onboarding=refresh`
})

/** Idempotency keys of gateway calls: the creation of an account is replayed for the same user and country. */
export const idempotencyKeys = {
  // A replacement (the gateway lost the first account) needs its own key: the first one would replay the lost account.
  createAccount: (userId: string, country: string, replaces?: string) =>
    `connect-account:${userId}:${country}${replaces ? `:replaces:${replaces}` : ""}`,
  // A link is single-use and short-lived: replaying an old one would hand out a spent link, so each
  // attempt has its own key (still making the library's network retries of that attempt safe).
  onboardingLink: (accountId: string, attempt: string) => `connect-onboarding-link:${accountId}:${attempt}`,
  dashboardLink: (accountId: string, attempt: string) => `connect-login-link:${accountId}:${attempt}`
}

/**
 * Where a provider's charge goes: the funds to their connected account, settled on it as well when it
 * is outside the platform's region (Stripe refuses a cross-region destination charge otherwise).
 */
export const chargeRouting = (account: PaymentAccount, platformCountry: string) => ({
  destinationAccountId: account.accountId,
  ...(needsOnBehalfOf(platformCountry, account.country) ? { onBehalfOf: account.accountId } : {})
})
