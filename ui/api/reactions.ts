// The global response table of the spec (section 8) as a pure function: which toast and which
// navigation an API failure calls for. Kept free of React and Lingui so it can be unit-tested.

import { ErrorCodes } from "./error-codes"

export type Reaction =
  | "verifyEmail"
  | "sessionExpired"
  | "forbidden"
  | "twoFactorRequired"
  | "paymentSetup"
  | "invalidFields"
  | "notFound"
  | "conflict"
  | "tooManyRequests"
  | "serverError"
  | "network"

export interface ReactionPlan {
  readonly reaction: Reaction
  readonly kind: "info" | "warning" | "error"
  readonly goTo?: string
}

export interface FailureInfo {
  readonly status: number
  readonly code: string
  readonly message: string
}

const mentionsEmailVerification = (message: string) => /verif|vérif/i.test(message) && /e-?mail/i.test(message)

export const planReaction = (failure: FailureInfo): ReactionPlan | undefined => {
  const { status, code, message } = failure
  if (status === 0) return { reaction: "network", kind: "error" }
  if (status === 401) {
    return code === ErrorCodes.emailNotVerified || mentionsEmailVerification(message)
      ? { reaction: "verifyEmail", kind: "warning", goTo: "/email-verification-required" }
      : { reaction: "sessionExpired", kind: "warning", goTo: "/login" }
  }
  // An admin who must turn on two-step login first (ADMIN_TWO_FACTOR_REQUIRED): to the security settings.
  if (status === 403 && code === ErrorCodes.twoFactorRequired) {
    return { reaction: "twoFactorRequired", kind: "warning", goTo: "/settings?twoFactor=required#two-factor" }
  }
  if (status === 403) return { reaction: "forbidden", kind: "error" }
  if (status === 400 && (code === ErrorCodes.paymentAccountRequired || /connect/i.test(message))) {
    return { reaction: "paymentSetup", kind: "warning", goTo: "/provider/payments/required" }
  }
  if (status === 422 || /validation/i.test(message)) return { reaction: "invalidFields", kind: "warning" }
  if (status === 404) return { reaction: "notFound", kind: "info" }
  if (status === 409) return { reaction: "conflict", kind: "warning" }
  if (status === 429) return { reaction: "tooManyRequests", kind: "warning" }
  if (status >= 500) return { reaction: "serverError", kind: "error" }
  return undefined
}

/**
 * A failure that says nothing about the session: the network, a timeout (status 0) or the server's
 * side (5xx, such as the 503 answered while the database restarts). The stored session is kept
 * through it; only the server's refusal of the token (401) ends it.
 */
export const isTransientFailure = (status: number) => status === 0 || status >= 500
