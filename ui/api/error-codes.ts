// The error codes (the error envelope's `code`) the UI branches on.

export const ErrorCodes = {
  emailNotVerified: "EMAIL_NOT_VERIFIED",
  invalidCredentials: "INVALID_CREDENTIALS",
  emailTaken: "EMAIL_TAKEN",
  invalidToken: "INVALID_TOKEN",
  sessionExpired: "SESSION_EXPIRED",
  paymentAccountRequired: "PAYMENT_ACCOUNT_REQUIRED",
  network: "NETWORK_ERROR",
  timeout: "TIMEOUT"
} as const
