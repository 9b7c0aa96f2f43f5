import { Context, type Effect, type Option } from "effect"
import type { Conflict } from "../../platform/errors"
import type { Language } from "../../platform/messages"
import type { NewAccount, RefreshTokenRecord, Role, SessionClient, SessionSummary, User, UserWithPassword } from "./domain"

export interface UserRepositoryShape {
  readonly findById: (id: string) => Effect.Effect<Option.Option<User>>
  /**
   * The account as one session sees it (every authenticated request, in one statement): the user, and
   * whether that session (its refresh family) was ended: logout, a password change or reset, a replay.
   */
  readonly findInSession: (
    id: string,
    sessionId: string
  ) => Effect.Effect<Option.Option<{ readonly user: User; readonly sessionEnded: boolean }>>
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<UserWithPassword>>
  /** Fails with Conflict (EMAIL_TAKEN) when the email is already registered. */
  readonly insert: (
    account: Omit<NewAccount, "password" | "role" | "timeZone"> & {
      /** Unknown (null) when absent. */
      readonly timeZone?: string | null
      readonly passwordHash: string
      readonly role: Role
      readonly isEmailVerified: boolean
      readonly preferredLanguage: Language
    }
  ) => Effect.Effect<User, Conflict>
  readonly markEmailVerified: (id: string) => Effect.Effect<void>
  readonly setPasswordHash: (id: string, passwordHash: string) => Effect.Effect<void>
  readonly findPasswordHash: (id: string) => Effect.Effect<Option.Option<string>>
  readonly setPreferredLanguage: (id: string, language: Language) => Effect.Effect<void>
  /** Sets the account's time zone only when it has none (a chosen zone is never overwritten); true when set. */
  readonly adoptTimeZone: (id: string, zone: string) => Effect.Effect<boolean>
  readonly setRole: (id: string, role: Role) => Effect.Effect<void>
  /** Moves the account to a new (verified) address; fails with Conflict (EMAIL_TAKEN) when another account has it. */
  readonly setEmail: (id: string, email: string) => Effect.Effect<void, Conflict>
  readonly setActive: (id: string, active: boolean) => Effect.Effect<void>
  /** Changes the names, phone number, language or time zone of an account (profile and settings edits). */
  readonly updateAccount: (
    id: string,
    patch: {
      readonly firstName?: string
      readonly lastName?: string
      readonly phoneNumber?: string
      readonly preferredLanguage?: Language
      readonly timeZone?: string
    }
  ) => Effect.Effect<void>
}
export class UserRepository extends Context.Tag("identity/UserRepository")<UserRepository, UserRepositoryShape>() {}

export interface RefreshTokenStoreShape {
  readonly insert: (token: {
    readonly tokenHash: string
    readonly userId: string
    readonly familyId: string
    readonly expiresAt: Date
    /** What the session remembers of the client that opened or renewed it. */
    readonly client?: SessionClient | undefined
  }) => Effect.Effect<void>
  readonly find: (tokenHash: string) => Effect.Effect<Option.Option<RefreshTokenRecord>>
  /** Marks a live token rotated; false when another request rotated it first (the race loser). */
  readonly markRotated: (tokenHash: string, at: Date) => Effect.Effect<boolean>
  readonly revokeFamily: (familyId: string, at: Date) => Effect.Effect<void>
  /** Revokes every session of the user, but the family `keepFamily` when given (the caller's own). */
  readonly revokeAllOfUser: (userId: string, at: Date, keepFamily?: string) => Effect.Effect<void>
  /** The user's open sessions (families neither revoked nor expired), the most recently used first. */
  readonly listSessions: (userId: string, at: Date) => Effect.Effect<ReadonlyArray<SessionSummary>>
  /** Ends one open session of the user; false when the user has no such open session. */
  readonly revokeSession: (userId: string, familyId: string, at: Date) => Effect.Effect<boolean>
}
export class RefreshTokenStore extends Context.Tag("identity/RefreshTokenStore")<RefreshTokenStore, RefreshTokenStoreShape>() {}

export type OneTimePurpose = "VERIFY_EMAIL" | "RESET_PASSWORD" | "CHANGE_EMAIL"
export interface OneTimeTokenStoreShape {
  readonly insert: (token: {
    readonly tokenHash: string
    readonly userId: string
    readonly purpose: OneTimePurpose
    readonly expiresAt: Date
    /** The address an email change waits on (purpose CHANGE_EMAIL only). */
    readonly newEmail?: string
  }) => Effect.Effect<void>
  /** Uses a live token once and answers its user; None when unknown, used or expired. */
  readonly consume: (tokenHash: string, purpose: OneTimePurpose, at: Date) => Effect.Effect<Option.Option<string>>
  /** Marks every outstanding token of the user for that purpose used (a newer link used kills the older ones). */
  readonly retireAll: (userId: string, purpose: OneTimePurpose, at: Date) => Effect.Effect<void>
  /** Uses a live email-change token once: its user and the new address; None when unknown, used or expired. */
  readonly consumeEmailChange: (
    tokenHash: string,
    at: Date
  ) => Effect.Effect<Option.Option<{ readonly userId: string; readonly newEmail: string }>>
}
export class OneTimeTokenStore extends Context.Tag("identity/OneTimeTokenStore")<OneTimeTokenStore, OneTimeTokenStoreShape>() {}

export interface PasswordHasherShape {
  readonly hash: (password: string) => Effect.Effect<string>
  readonly verify: (password: string, hash: string) => Effect.Effect<boolean>
  /** A valid hash of no one's password, verified against when an email is unknown. */
  readonly dummyHash: string
}
export class PasswordHasher extends Context.Tag("identity/PasswordHasher")<PasswordHasher, PasswordHasherShape>() {}

export interface AccessClaims {
  readonly userId: string
  readonly role: Role
  /** The session (refresh family) the token was issued to: lets sockets of one session outlive the end of the others. */
  readonly sessionId?: string | undefined
}
export interface AccessTokensShape {
  readonly sign: (claims: AccessClaims) => Effect.Effect<{ readonly token: string; readonly expiresIn: number }>
  /** None for a malformed, forged or expired token. */
  readonly verify: (token: string) => Effect.Effect<Option.Option<AccessClaims>>
}
export class AccessTokens extends Context.Tag("identity/AccessTokens")<AccessTokens, AccessTokensShape>() {}

/** Random secrets and their one-way digests (refresh and single-use tokens are stored hashed). */
export interface SecretsShape {
  readonly random: () => Effect.Effect<string>
  readonly digest: (secret: string) => string
  readonly uuid: () => Effect.Effect<string>
}
export class Secrets extends Context.Tag("identity/Secrets")<Secrets, SecretsShape>() {}

// ---- Two-step login (TOTP) ---------------------------------------------------------------------

/** A user's authenticator secret (base32, decrypted) and whether enrolment was confirmed. */
export interface TwoFactorRecord {
  readonly secret: string
  /** Null while enrolment waits for its first code. */
  readonly enabledAt: Date | null
  /** The last time step a code was accepted for: a code works once. */
  readonly lastStep: number | null
}

/** Secrets (stored encrypted by the Postgres adapter), recovery codes (digests) and login challenges (digests). */
export interface TwoFactorStoreShape {
  readonly find: (userId: string) => Effect.Effect<Option.Option<TwoFactorRecord>>
  /** Starts or restarts an enrolment with a new secret; false when two-step login is already on (nothing changed). */
  readonly begin: (userId: string, secret: string) => Effect.Effect<boolean>
  /** Confirms an enrolment at `step` and replaces the recovery codes; false when none was waiting. */
  readonly enable: (userId: string, at: Date, step: number, recoveryCodeDigests: ReadonlyArray<string>) => Effect.Effect<boolean>
  /** Records that a code of `step` was used; false when that step (or a later one) was used already (a replay). */
  readonly useStep: (userId: string, step: number) => Effect.Effect<boolean>
  /** Uses an unused recovery code; false when unknown or used. */
  readonly useRecoveryCode: (userId: string, digest: string, at: Date) => Effect.Effect<boolean>
  readonly recoveryCodesLeft: (userId: string) => Effect.Effect<number>
  /** Turns two-step login off: the secret and the recovery codes go. */
  readonly remove: (userId: string) => Effect.Effect<void>
  readonly insertChallenge: (challenge: {
    readonly tokenHash: string
    readonly userId: string
    readonly timeZone: string | null
    readonly expiresAt: Date
  }) => Effect.Effect<void>
  /** A live (unexpired, unused) challenge. */
  readonly findChallenge: (
    tokenHash: string,
    at: Date
  ) => Effect.Effect<Option.Option<{ readonly userId: string; readonly timeZone: string | null }>>
  /** Uses a live challenge once; false when another request used it first. */
  readonly consumeChallenge: (tokenHash: string, at: Date) => Effect.Effect<boolean>
}
export class TwoFactorStore extends Context.Tag("identity/TwoFactorStore")<TwoFactorStore, TwoFactorStoreShape>() {}

/** Time-based one-time codes (RFC 6238: SHA-1, 6 digits, 30 s), their otpauth:// URI and its QR code. */
export interface OneTimeCodesShape {
  /** A new random secret, base32. */
  readonly newSecret: () => string
  readonly uri: (secret: string, accountName: string) => string
  /** The QR code of a URI, as SVG markup. */
  readonly qrCode: (uri: string) => Effect.Effect<string>
  /** The time step a code matches at `at` (one step of drift either way), if any. */
  readonly check: (secret: string, code: string, at: Date) => Option.Option<number>
  /** The code of a secret at a time (tests and tools). */
  readonly codeAt: (secret: string, at: Date) => string
}
export class OneTimeCodes extends Context.Tag("identity/OneTimeCodes")<OneTimeCodes, OneTimeCodesShape>() {}
