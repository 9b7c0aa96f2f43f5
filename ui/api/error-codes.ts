// The error codes (the error envelope's `code`) the UI branches on.

export const ErrorCodes = {
  emailNotVerified: "EMAIL_NOT_VERIFIED",
  invalidCredentials: "INVALID_CREDENTIALS",
  invalidToken: "INVALID_TOKEN",
  sessionExpired: "SESSION_EXPIRED",
  paymentAccountRequired: "PAYMENT_ACCOUNT_REQUIRED",
  twoFactorChallengeExpired: "TWO_FACTOR_CHALLENGE_EXPIRED",
  twoFactorRequired: "TWO_FACTOR_REQUIRED",
  network: "NETWORK_ERROR",
  timeout: "TIMEOUT"
} as const
