// Request and answer shapes of the API, written by hand to match the server (src/modules/*/api.ts).

export type Role = "CLIENT" | "PROVIDER" | "ADMIN"
export type Language = "fr" | "en"

export interface User {
  readonly id: string
  readonly email: string
  readonly firstName: string
  readonly lastName: string
  readonly phoneNumber: string
  readonly role: Role
  readonly isEmailVerified: boolean
  readonly preferredLanguage: Language
  readonly active: boolean
  readonly createdAt: string
}

export interface Ok<T> {
  readonly success: true
  readonly data: T
  readonly message?: string
}

export interface FieldDetail {
  readonly field: string
  readonly message: string
}

export interface Failure {
  readonly success: false
  readonly code: string
  readonly message: string
  readonly details?: ReadonlyArray<FieldDetail>
}

export type Empty = Record<string, never>
export interface UserData {
  readonly user: User
}
export interface Session {
  readonly token: string
  readonly expiresIn: number
  readonly user: User
}

export interface RegisterRequest {
  readonly firstName: string
  readonly lastName: string
  readonly email: string
  readonly phoneNumber: string
  readonly password: string
  readonly confirmPassword: string
}
export interface LoginRequest {
  readonly email: string
  readonly password: string
}
export interface EmailRequest {
  readonly email: string
}
export interface ResetPasswordRequest {
  readonly password: string
  readonly confirmPassword: string
}
export interface UpdatePasswordRequest {
  readonly currentPassword: string
  readonly newPassword: string
  readonly confirmPassword: string
}
export interface UpdateMeRequest {
  readonly preferredLanguage?: Language
}

export const CONTACT_SUBJECTS = ["general", "technical", "account", "payment", "privacy", "bug", "feature", "other"] as const
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number]
export interface ContactRequest {
  readonly name: string
  readonly email: string
  readonly subject: ContactSubject
  readonly message: string
}

/** Error codes the UI branches on. */
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
