import { Context, Effect, Layer, Option } from "effect"
import { now } from "../../platform/clock"
import { AppConfig } from "../../platform/config"
import type { Conflict, TooManyRequests, ValidationFailed } from "../../platform/errors"
import { memoryRateLimiter, type RateLimiterShape } from "../../platform/rate-limit"
import { Notifications } from "../notifications"
import { AccountEvents } from "./account-events"
import {
  requireFields,
  TwoFactorAlreadyEnabled,
  TwoFactorNotEnabled,
  TwoFactorNotStarted,
  type User,
  WrongPassword,
  wrongTwoFactorCode
} from "./domain"
import {
  OneTimeCodes,
  type OneTimeCodesShape,
  PasswordHasher,
  Secrets,
  type SecretsShape,
  type TwoFactorRecord,
  TwoFactorStore,
  type TwoFactorStoreShape,
  RefreshTokenStore,
  UserRepository
} from "./ports"

// Two-step login with an authenticator app (TOTP, RFC 6238): enrolment shows a secret and its QR
// code, confirmed by a first code; ten recovery codes are shown once (stored as digests, each used
// once); login then asks for a code after the password (Identity.login / completeLogin); disabling
// takes the password and a code. Wrong codes are rate-limited per account.

/** Code attempts per account and window (enrolment, disabling and login together). */
export const TWO_FACTOR_ATTEMPTS = 5
export const TWO_FACTOR_WINDOW_SECONDS = 15 * 60
/** How long the step between the password and the code may take. */
export const CHALLENGE_TTL_SECONDS = 5 * 60
export const RECOVERY_CODE_COUNT = 10

/** Counts code attempts per account (the platform's rate limiter, with its own budget). */
export class TwoFactorAttempts extends Context.Tag("identity/TwoFactorAttempts")<TwoFactorAttempts, RateLimiterShape>() {}
export const TwoFactorAttemptsLive = Layer.sync(TwoFactorAttempts, () => memoryRateLimiter(TWO_FACTOR_ATTEMPTS, TWO_FACTOR_WINDOW_SECONDS))

/** A recovery code as typed ("ab12c-3de45", any case, spaces or dashes) in its stored form. */
export const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, "")

/** Ten characters of a random secret, shown as "xxxxx-xxxxx" (lower-case letters and digits). */
const recoveryCodeOf = (random: string) => {
  const chars = random.toLowerCase().replace(/[^a-z0-9]/g, "")
  return `${chars.slice(0, 5)}-${chars.slice(5, 10)}`
}

/**
 * Checks a second factor for an account with two-step login on: an authenticator code not used
 * before (each time step once), or an unused recovery code (then used up).
 */
export const checkSecondFactor = (
  ports: { readonly store: TwoFactorStoreShape; readonly codes: OneTimeCodesShape; readonly secrets: SecretsShape },
  userId: string,
  record: TwoFactorRecord,
  input: { readonly code?: string | undefined; readonly recoveryCode?: string | undefined },
  at: Date
): Effect.Effect<boolean> =>
  Effect.gen(function* () {
    const code = input.code?.trim() ?? ""
    const recovery = normalizeRecoveryCode(input.recoveryCode ?? "")
    if (code !== "") {
      const step = ports.codes.check(record.secret, code, at)
      if (Option.isSome(step)) return yield* ports.store.useStep(userId, step.value)
      // A recovery code typed in the code field works as well.
      return yield* ports.store.useRecoveryCode(userId, ports.secrets.digest(normalizeRecoveryCode(code)), at)
    }
    return recovery === "" ? false : yield* ports.store.useRecoveryCode(userId, ports.secrets.digest(recovery), at)
  })

export interface TwoFactorStatus {
  readonly enabled: boolean
  /** Enrolment started (QR code shown) and not confirmed yet. */
  readonly pending: boolean
  readonly recoveryCodesLeft: number
  /** The server requires it of this account (admins, with ADMIN_TWO_FACTOR_REQUIRED). */
  readonly required: boolean
}

export class TwoFactor extends Context.Tag("identity/TwoFactor")<
  TwoFactor,
  {
    readonly status: (user: User) => Effect.Effect<TwoFactorStatus>
    /** Starts (or restarts) enrolment: a new secret, its otpauth:// URI and QR code. The secret is never answered again. */
    readonly setup: (
      user: User
    ) => Effect.Effect<{ readonly secret: string; readonly otpauthUrl: string; readonly qrCodeSvg: string }, Conflict>
    /**
     * Confirms enrolment with a first code; answers the recovery codes (shown once). Every other session
     * ends (one opened before with the password alone must not outlive the new rule), and the account
     * is told by mail.
     */
    readonly enable: (
      user: User,
      code: string | undefined,
      currentSessionId: string | undefined
    ) => Effect.Effect<ReadonlyArray<string>, Conflict | ValidationFailed | TooManyRequests>
    /** Turns it off with the password and a code (or a recovery code); the account is told by mail. */
    readonly disable: (
      user: User,
      input: { readonly password?: string | undefined; readonly code?: string | undefined }
    ) => Effect.Effect<void, Conflict | ValidationFailed | TooManyRequests>
    /** Whether the server requires an account to enrol before it acts (an admin without it, with the flag on). */
    readonly mustEnrol: (user: User) => Effect.Effect<boolean>
  }
>() {}

export const TwoFactorLive = Layer.effect(
  TwoFactor,
  Effect.gen(function* () {
    const store = yield* TwoFactorStore
    const codes = yield* OneTimeCodes
    const secrets = yield* Secrets
    const hasher = yield* PasswordHasher
    const users = yield* UserRepository
    const attempts = yield* TwoFactorAttempts
    const config = yield* AppConfig
    const refreshTokens = yield* RefreshTokenStore
    const accountEvents = yield* AccountEvents
    const notifications = yield* Notifications

    const enabledOf = (userId: string) =>
      Effect.map(
        store.find(userId),
        Option.exists((r) => r.enabledAt !== null)
      )
    const requiredFor = (user: User) => config.adminTwoFactorRequired && user.role === "ADMIN"

    return {
      status: (user) =>
        Effect.gen(function* () {
          const record = yield* store.find(user.id)
          const enabled = Option.exists(record, (r) => r.enabledAt !== null)
          return {
            enabled,
            pending: Option.exists(record, (r) => r.enabledAt === null),
            recoveryCodesLeft: enabled ? yield* store.recoveryCodesLeft(user.id) : 0,
            required: requiredFor(user)
          }
        }),

      setup: (user) =>
        Effect.gen(function* () {
          const secret = codes.newSecret()
          if (!(yield* store.begin(user.id, secret))) return yield* TwoFactorAlreadyEnabled
          const otpauthUrl = codes.uri(secret, user.email)
          return { secret, otpauthUrl, qrCodeSvg: yield* codes.qrCode(otpauthUrl) }
        }),

      enable: (user, code, currentSessionId) =>
        Effect.gen(function* () {
          const fields = yield* requireFields({ code })
          const record = yield* store.find(user.id)
          if (Option.isNone(record)) return yield* TwoFactorNotStarted
          if (record.value.enabledAt !== null) return yield* TwoFactorAlreadyEnabled
          yield* attempts.consume(user.id)
          const at = yield* now
          const step = codes.check(record.value.secret, fields.code!, at)
          if (Option.isNone(step)) return yield* wrongTwoFactorCode("code")
          const recoveryCodes: Array<string> = []
          while (recoveryCodes.length < RECOVERY_CODE_COUNT) {
            const candidate = recoveryCodeOf(yield* secrets.random())
            if (candidate.length === 11 && !recoveryCodes.includes(candidate)) recoveryCodes.push(candidate)
          }
          const digests = recoveryCodes.map((c) => secrets.digest(normalizeRecoveryCode(c)))
          if (!(yield* store.enable(user.id, at, step.value, digests))) return yield* TwoFactorAlreadyEnabled
          yield* refreshTokens.revokeAllOfUser(user.id, at, currentSessionId)
          yield* accountEvents.publish({
            type: "sessions_ended",
            userId: user.id,
            reason: "two_factor_enabled",
            keepFamily: currentSessionId
          })
          yield* notifications.sendTwoFactorChanged(user, true)
          return recoveryCodes
        }),

      disable: (user, input) =>
        Effect.gen(function* () {
          const fields = yield* requireFields({ password: input.password, code: input.code })
          const record = yield* store.find(user.id)
          if (Option.isNone(record) || record.value.enabledAt === null) return yield* TwoFactorNotEnabled
          yield* attempts.consume(user.id)
          const hash = yield* users.findPasswordHash(user.id)
          if (Option.isNone(hash) || !(yield* hasher.verify(fields.password!, hash.value))) return yield* WrongPassword
          const at = yield* now
          const passed = yield* checkSecondFactor({ store, codes, secrets }, user.id, record.value, { code: fields.code }, at)
          if (!passed) return yield* wrongTwoFactorCode("code")
          yield* store.remove(user.id)
          yield* notifications.sendTwoFactorChanged(user, false)
        }),

      mustEnrol: (user) => (requiredFor(user) ? Effect.map(enabledOf(user.id), (enabled) => !enabled) : Effect.succeed(false))
    }
  })
)
