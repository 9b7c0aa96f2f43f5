import { Either, Schema } from "effect"
import {
  BadRequest,
  Conflict,
  Forbidden,
  type FieldIssue,
  invalid,
  issue,
  NotFound,
  Unauthorized,
  ValidationFailed
} from "../../platform/errors"
import type { Language } from "../../platform/messages"
import { isTimeZone } from "../../platform/time-zones"
import { Roles } from "./rules"

export const Role = Schema.Literal(...Roles)
export type Role = typeof Role.Type

/** An account as the domain sees it (the password hash never leaves the identity module). */
export interface User {
  readonly id: string
  readonly email: string
  readonly firstName: string
  readonly lastName: string
  readonly phoneNumber: string
  readonly role: Role
  readonly isEmailVerified: boolean
  readonly isActive: boolean
  readonly preferredLanguage: Language
  /** The user's IANA time zone; null until known (screens and mails then use DEFAULT_TIME_ZONE). */
  readonly timeZone: string | null
  readonly createdAt: Date
}

export interface UserWithPassword extends User {
  readonly passwordHash: string
}

/** The authenticated caller, as every module receives it. */
export interface Actor {
  readonly id: string
  readonly role: Role
  readonly preferredLanguage: Language
  readonly isEmailVerified: boolean
}

// ---- Pure rules (spec section 5) -------------------------------------------------------------

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/
const SPECIALS = /[@$!%*?&]/
export const PASSWORD_MIN = 8
export const PASSWORD_MAX = 128
export const NAME_MAX = 100

export const normalizeEmail = (email: string) => email.trim().toLowerCase()
export const isValidEmail = (email: string) => email.length <= 254 && EMAIL.test(email)
/** Digits only, at least 10 (and at most 15, the longest international number). */
export const isValidPhone = (phone: string) => /^\d{10,15}$/.test(phone)
export const isStrongPassword = (password: string) =>
  password.length >= PASSWORD_MIN &&
  password.length <= PASSWORD_MAX &&
  /[A-Z]/.test(password) &&
  /[a-z]/.test(password) &&
  /\d/.test(password) &&
  SPECIALS.test(password)

export interface RegistrationInput {
  readonly firstName?: string | undefined
  readonly lastName?: string | undefined
  readonly email?: string | undefined
  readonly phoneNumber?: string | undefined
  readonly password?: string | undefined
  readonly confirmPassword?: string | undefined
  /** The browser's IANA zone (`Intl.DateTimeFormat().resolvedOptions().timeZone`); optional, checked when sent. */
  readonly timeZone?: string | undefined
}

export interface NewAccount {
  readonly firstName: string
  readonly lastName: string
  readonly email: string
  readonly phoneNumber: string
  readonly password: string
  /** Registration always creates a CLIENT, whatever role the caller sent. */
  readonly role: "CLIENT"
  readonly timeZone: string | null
}

/** A time zone a user sends (registration, settings): absent or blank is none; anything but an IANA name is a 422. */
export const checkTimeZone = (value: string | undefined, issues: Array<FieldIssue>, field = "timeZone"): string | null => {
  const zone = (value ?? "").trim()
  if (zone === "") return null
  if (!isTimeZone(zone)) {
    issues.push(issue(field, "validation.timeZone"))
    return null
  }
  return zone
}

const requiredName = (field: string, value: string | undefined, issues: Array<FieldIssue>) => {
  const trimmed = (value ?? "").trim()
  if (trimmed === "") issues.push(issue(field, "validation.required"))
  else if (trimmed.length > NAME_MAX) issues.push(issue(field, "validation.tooLong"))
  return trimmed
}

const checkNewPassword = (
  password: string | undefined,
  confirmation: string | undefined,
  issues: Array<FieldIssue>,
  field = "password"
) => {
  if (!password) issues.push(issue(field, "validation.required"))
  else if (!isStrongPassword(password)) issues.push(issue(field, "validation.password"))
  if (confirmation !== undefined && confirmation !== password) issues.push(issue("confirmPassword", "validation.passwordMismatch"))
}

export const validateRegistration = (input: RegistrationInput): Either.Either<NewAccount, ValidationFailed> => {
  const issues: Array<FieldIssue> = []
  const firstName = requiredName("firstName", input.firstName, issues)
  const lastName = requiredName("lastName", input.lastName, issues)
  const email = normalizeEmail(input.email ?? "")
  if (email === "") issues.push(issue("email", "validation.required"))
  else if (!isValidEmail(email)) issues.push(issue("email", "validation.email"))
  const phoneNumber = (input.phoneNumber ?? "").trim()
  if (phoneNumber === "") issues.push(issue("phoneNumber", "validation.required"))
  else if (!isValidPhone(phoneNumber)) issues.push(issue("phoneNumber", "validation.phone"))
  checkNewPassword(input.password, input.confirmPassword, issues)
  const timeZone = checkTimeZone(input.timeZone, issues)
  return issues.length > 0
    ? Either.left(invalid(issues))
    : Either.right({ firstName, lastName, email, phoneNumber, password: input.password!, role: "CLIENT", timeZone })
}

/** Reset keeps the spec's own rule (at least 8 characters) plus the registration strength rule. */
export const validateNewPassword = (
  password: string | undefined,
  confirmation: string | undefined
): Either.Either<string, ValidationFailed> => {
  const issues: Array<FieldIssue> = []
  if (password !== undefined && password.length > 0 && password.length < PASSWORD_MIN) {
    issues.push(issue("password", "validation.passwordTooShort"))
    if (confirmation !== undefined && confirmation !== password) issues.push(issue("confirmPassword", "validation.passwordMismatch"))
  } else checkNewPassword(password, confirmation, issues)
  return issues.length > 0 ? Either.left(invalid(issues)) : Either.right(password!)
}

export const requireFields = (
  values: Readonly<Record<string, string | undefined>>
): Either.Either<Record<string, string>, ValidationFailed> => {
  const issues = Object.entries(values)
    .filter(([, value]) => value === undefined || value.trim() === "")
    .map(([field]) => issue(field, "validation.required"))
  return issues.length > 0 ? Either.left(invalid(issues)) : Either.right(values as Record<string, string>)
}

/**
 * The address a visitor asks a link for (a new verification mail, a password reset): required and
 * well formed, so that a typo is said at once instead of a mail that never comes.
 */
export const requireEmailAddress = (email: string | undefined): Either.Either<string, ValidationFailed> =>
  Either.flatMap(requireFields({ email }), (fields) => {
    const address = normalizeEmail(fields.email!)
    return isValidEmail(address) ? Either.right(address) : Either.left(invalid([issue("email", "validation.email")]))
  })

// ---- Refresh-token rotation ------------------------------------------------------------------

export interface RefreshTokenRecord {
  readonly userId: string
  readonly familyId: string
  readonly expiresAt: Date
  readonly rotatedAt: Date | null
  readonly revokedAt: Date | null
}

export type RefreshDecision =
  | { readonly _tag: "Rotate"; readonly userId: string; readonly familyId: string }
  /** A token that was already rotated is presented again: it was stolen or replayed. */
  | { readonly _tag: "ReuseDetected"; readonly familyId: string }
  | { readonly _tag: "Refuse" }

export const decideRefresh = (record: RefreshTokenRecord | undefined, now: Date): RefreshDecision => {
  if (!record || record.revokedAt !== null) return { _tag: "Refuse" }
  if (record.rotatedAt !== null) return { _tag: "ReuseDetected", familyId: record.familyId }
  if (record.expiresAt.getTime() <= now.getTime()) return { _tag: "Refuse" }
  return { _tag: "Rotate", userId: record.userId, familyId: record.familyId }
}

// ---- Errors ----------------------------------------------------------------------------------

export const InvalidCredentials = new Unauthorized({ code: "INVALID_CREDENTIALS", key: "auth.invalidCredentials" })
export const EmailNotVerified = new Unauthorized({ code: "EMAIL_NOT_VERIFIED", key: "auth.emailNotVerified" })
export const AccountDeactivated = new Unauthorized({ code: "ACCOUNT_DEACTIVATED", key: "auth.accountDeactivated" })
export const Unauthenticated = new Unauthorized({ code: "UNAUTHENTICATED", key: "auth.unauthenticated" })
export const SessionExpired = new Unauthorized({ code: "SESSION_EXPIRED", key: "auth.sessionExpired" })
export const InvalidToken = new BadRequest({ code: "INVALID_TOKEN", key: "auth.invalidToken" })
export const MissingToken = new BadRequest({ code: "MISSING_TOKEN", key: "auth.missingToken" })
export const EmailTaken = new Conflict({ code: "EMAIL_TAKEN", key: "auth.emailTaken" })
export const WrongCurrentPassword = new ValidationFailed({
  code: "VALIDATION_ERROR",
  key: "auth.wrongCurrentPassword",
  details: [issue("currentPassword", "auth.wrongCurrentPassword")]
})
/** A confirmation by password (deleting the account, turning two-step login off) that is absent or wrong. */
export const WrongPassword = new ValidationFailed({
  code: "VALIDATION_ERROR",
  key: "auth.wrongCurrentPassword",
  details: [issue("password", "auth.wrongCurrentPassword")]
})
export const InsufficientRights = new Forbidden({ code: "FORBIDDEN", key: "auth.forbidden" })

// Two-step login (TOTP): see two-factor.ts.
export const TwoFactorCodeInvalid = new Unauthorized({ code: "INVALID_TWO_FACTOR_CODE", key: "twoFactor.invalidCode" })
export const TwoFactorChallengeExpired = new Unauthorized({ code: "TWO_FACTOR_CHALLENGE_EXPIRED", key: "twoFactor.challengeExpired" })
export const TwoFactorAlreadyEnabled = new Conflict({ code: "TWO_FACTOR_ALREADY_ENABLED", key: "twoFactor.alreadyEnabled" })
export const TwoFactorNotEnabled = new Conflict({ code: "TWO_FACTOR_NOT_ENABLED", key: "twoFactor.notEnabled" })
export const TwoFactorNotStarted = new Conflict({ code: "TWO_FACTOR_NOT_STARTED", key: "twoFactor.notStarted" })
export const TwoFactorRequired = new Forbidden({ code: "TWO_FACTOR_REQUIRED", key: "twoFactor.required" })
export const wrongTwoFactorCode = (field: string) =>
  new ValidationFailed({ code: "VALIDATION_ERROR", key: "twoFactor.invalidCode", details: [issue(field, "twoFactor.invalidCode")] })
/** Role guard shared by every module's use cases. */
export const requireRole = (actor: Actor, ...roles: ReadonlyArray<Role>) =>
  roles.includes(actor.role) ? Either.right(actor) : Either.left(InsufficientRights)

// ---- Sessions and email change (issue 15, account self-service) ---------------------------

/** One open session of an account (a refresh family), as its owner sees it on /settings. */
export interface SessionSummary {
  readonly id: string
  readonly openedAt: Date
  /** When it was opened or last renewed its access token (the newest row of its family). */
  readonly lastUsedAt: Date
  readonly userAgent: string | null
  readonly coarseAddress: string | null
}

/** What a session remembers of the client that opened or renewed it. */
export interface SessionClient {
  readonly userAgent: string | null
  readonly coarseAddress: string | null
}

const USER_AGENT_MAX = 512

/** The user agent as stored: trimmed, bounded, null when absent. */
export const storedUserAgent = (value: string | undefined): string | null => {
  const trimmed = (value ?? "").trim()
  return trimmed === "" ? null : trimmed.slice(0, USER_AGENT_MAX)
}

/**
 * The coarse form of a client address (pure), which is all a session keeps: an IPv4 address's /24 and an
 * IPv6 address's /48, so the owner recognises a network without the platform storing where exactly they
 * were. There is no geo-IP database offline, so no place is inferred from it. Null when it is not an address.
 */
export const coarseAddress = (address: string | undefined): string | null => {
  const raw = (address ?? "").trim().toLowerCase()
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(raw)
  if (v4) {
    const parts = v4.slice(1, 4).map(Number)
    if (parts.some((part) => part > 255) || Number(v4[4]) > 255) return null
    return `${parts.join(".")}.0/24`
  }
  if (!/^[0-9a-f:]+$/.test(raw) || !raw.includes(":")) return null
  const halves = raw.split("::")
  if (halves.length > 2) return null
  const head = halves[0] === "" ? [] : halves[0]!.split(":")
  const tail = halves.length === 2 && halves[1] !== "" ? halves[1]!.split(":") : []
  if ([...head, ...tail].some((group) => group.length === 0 || group.length > 4)) return null
  const missing = 8 - head.length - tail.length
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null
  const groups = [...head, ...Array<string>(missing).fill("0"), ...tail].map((group) => Number.parseInt(group, 16).toString(16))
  return `${groups.slice(0, 3).join(":")}::/48`
}

export interface EmailChangeInput {
  readonly newEmail?: string | undefined
  readonly currentPassword?: string | undefined
}

/** The new address of an email change: required, valid, and not the current one (422 per field). */
export const validateEmailChange = (
  input: EmailChangeInput,
  currentEmail: string
): Either.Either<{ readonly newEmail: string; readonly currentPassword: string }, ValidationFailed> => {
  const issues: Array<FieldIssue> = []
  const newEmail = normalizeEmail(input.newEmail ?? "")
  if (newEmail === "") issues.push(issue("newEmail", "validation.required"))
  else if (!isValidEmail(newEmail)) issues.push(issue("newEmail", "validation.email"))
  else if (newEmail === normalizeEmail(currentEmail)) issues.push(issue("newEmail", "auth.sameEmail"))
  const currentPassword = input.currentPassword ?? ""
  if (currentPassword === "") issues.push(issue("currentPassword", "validation.required"))
  return issues.length > 0 ? Either.left(invalid(issues)) : Either.right({ newEmail, currentPassword })
}

export const SessionNotFound = new NotFound({ code: "SESSION_NOT_FOUND", key: "auth.sessionNotFound" })
