import { Context, Effect, Layer, Option } from "effect"
import { now } from "../../platform/clock"
import { AppConfig } from "../../platform/config"
import type { BadRequest, Conflict, Forbidden, NotFound, TooManyRequests, Unauthorized, ValidationFailed } from "../../platform/errors"
import { isUuid } from "../../platform/ids"
import { invalid, issue } from "../../platform/errors"
import { isTimeZone } from "../../platform/time-zones"
import type { Language } from "../../platform/messages"
import { Transactional } from "../../platform/transaction"
import { AuditTrail } from "../../platform/audit/port"
import { Notifications } from "../notifications"
import {
  AccountDeactivated,
  type Actor,
  decideRefresh,
  EmailNotVerified,
  EmailTaken,
  InvalidCredentials,
  TwoFactorChallengeExpired,
  TwoFactorCodeInvalid,
  InvalidToken,
  MissingToken,
  WrongCurrentPassword,
  WrongPassword,
  normalizeEmail,
  type EmailChangeInput,
  type RegistrationInput,
  type SessionClient,
  SessionNotFound,
  type SessionSummary,
  validateEmailChange,
  requireRole,
  requireFields,
  SessionExpired,
  Unauthenticated,
  type User,
  validateNewPassword,
  type NewAccount,
  validateRegistration
} from "./domain"
import { type AccountChangeInput, decideAccountChange, UserNotFound } from "./account-admin"
import { AccountEvents } from "./account-events"
import {
  AccessTokens,
  OneTimeCodes,
  OneTimeTokenStore,
  PasswordHasher,
  RefreshTokenStore,
  Secrets,
  TwoFactorStore,
  UserRepository
} from "./ports"
import { CHALLENGE_TTL_SECONDS, checkSecondFactor, TwoFactorAttempts } from "./two-factor"

export interface Session {
  readonly accessToken: string
  readonly expiresIn: number
  readonly refreshToken: string
  readonly user: User
}

/** The password was right and the account has two-step login: the code is asked with this challenge (valid CHALLENGE_TTL_SECONDS). */
export interface TwoFactorChallenge {
  readonly twoFactorChallenge: string
  readonly expiresIn: number
}
export const isChallenge = (outcome: Session | TwoFactorChallenge): outcome is TwoFactorChallenge => "twoFactorChallenge" in outcome

/** A validated account's stored fields (its password is hashed apart). */
const newAccountFields = (account: NewAccount) => ({
  firstName: account.firstName,
  lastName: account.lastName,
  email: account.email,
  phoneNumber: account.phoneNumber,
  timeZone: account.timeZone
})

const VERIFY_TTL_MS = 24 * 3600_000
const RESET_TTL_MS = 3600_000
const EMAIL_CHANGE_TTL_MS = 24 * 3600_000

export class Identity extends Context.Tag("identity/Identity")<
  Identity,
  {
    /**
     * Registers a new account and mails its verification link; an address that has an account gets a
     * mail to its owner instead, and the caller the same answer (no account is revealed). The password is
     * hashed on both paths: scrypt dominates the request, so its timing tells nothing either.
     */
    readonly register: (input: RegistrationInput, language: Language) => Effect.Effect<void, ValidationFailed>
    /**
     * Opens a session. `timeZone`, the browser's zone, becomes the account's zone when it has none yet
     * (a zone the user chose is never overwritten; an unknown name is ignored: it never blocks a sign-in).
     */
    readonly login: (
      email: string | undefined,
      password: string | undefined,
      timeZone?: string | undefined,
      client?: SessionClient
    ) => Effect.Effect<Session | TwoFactorChallenge, ValidationFailed | Unauthorized>
    /** The second step of a login with two-step on: the challenge and a code (or a recovery code, used once). */
    readonly completeLogin: (
      input: {
        readonly challenge?: string | undefined
        readonly code?: string | undefined
        readonly recoveryCode?: string | undefined
      },
      client?: SessionClient
    ) => Effect.Effect<Session, ValidationFailed | Unauthorized | TooManyRequests>
    /** Rotates the refresh token; `client` is what the renewed session remembers (device, coarse address). */
    readonly refresh: (refreshToken: string | undefined, client?: SessionClient) => Effect.Effect<Session, Unauthorized>
    readonly logout: (refreshToken: string | undefined) => Effect.Effect<void>
    /** Resolves a bearer token to the live account behind it; deactivated accounts are refused. */
    readonly authenticate: (accessToken: string) => Effect.Effect<User, Unauthorized>
    /** As authenticate, with the session the token belongs to (real-time connections join its room). */
    readonly authenticateSession: (
      accessToken: string
    ) => Effect.Effect<{ readonly user: User; readonly sessionId: string | undefined }, Unauthorized>
    readonly verifyEmail: (token: string | undefined) => Effect.Effect<void, Unauthorized | BadRequest>
    readonly resendVerification: (email: string | undefined) => Effect.Effect<void, ValidationFailed>
    readonly forgotPassword: (email: string | undefined) => Effect.Effect<void, ValidationFailed>
    readonly resetPassword: (
      token: string | undefined,
      password: string | undefined,
      confirmation: string | undefined
    ) => Effect.Effect<void, ValidationFailed | Unauthorized | BadRequest>
    /**
     * Changes the password and ends every other session: all the account's refresh families are
     * revoked but the caller's own (`currentRefreshToken`, the cookie sent with the request), which
     * stays signed in.
     */
    readonly updatePassword: (
      actor: Actor,
      input: { currentPassword?: string | undefined; newPassword?: string | undefined; confirmPassword?: string | undefined },
      currentRefreshToken?: string | undefined
    ) => Effect.Effect<void, ValidationFailed | Unauthorized>
    readonly setPreferredLanguage: (actor: Actor, language: Language) => Effect.Effect<User>
    /** Checks the caller's password (a deletion's confirmation): 422 on `password` when absent or wrong. */
    readonly confirmPassword: (actor: Actor, password: string | undefined) => Effect.Effect<void, ValidationFailed>
    /** Announces that every session of a closed account ended (its sockets are disconnected). */
    readonly announceAccountClosed: (userId: string) => Effect.Effect<void>
    /** The caller's open sessions, the most recently used first. */
    readonly listSessions: (actor: Actor) => Effect.Effect<ReadonlyArray<SessionSummary>>
    /** Ends one of the caller's sessions (404 SESSION_NOT_FOUND when it is not one of their open sessions). */
    readonly endSession: (actor: Actor, sessionId: string) => Effect.Effect<void, NotFound>
    /** Ends every session of the caller but `currentSessionId` (all of them when it is undefined). */
    readonly endOtherSessions: (actor: Actor, currentSessionId: string | undefined) => Effect.Effect<void>
    /**
     * Starts an email change: checks the current password and the new address (422; 409 when another
     * account has it) and mails a 24-hour link to the new address. Nothing changes until it is opened.
     */
    readonly requestEmailChange: (actor: Actor, input: EmailChangeInput) => Effect.Effect<void, ValidationFailed | Conflict>
    /**
     * Applies an email change from its link: the address is now the new one (verified), the old one is
     * told, reset links mailed to the old address stop working, and every session ends but the one whose
     * refresh cookie opened the link (when it is this account's).
     */
    readonly confirmEmailChange: (token: string | undefined, currentRefreshToken?: string) => Effect.Effect<User, BadRequest | Conflict>
    /** Accounts created by operators (CLI, seed): verified at once, any role. */
    readonly createAccount: (
      input: RegistrationInput & { role: User["role"]; preferredLanguage?: Language }
    ) => Effect.Effect<User, ValidationFailed | Conflict>
    readonly findByEmail: (email: string) => Effect.Effect<Option.Option<User>>
    /**
     * An administrator activates, deactivates or changes the role of an account (see
     * decideAccountChange); deactivation revokes the account's sessions in the same transaction.
     */
    readonly administerAccount: (
      actor: Actor,
      userId: string,
      input: AccountChangeInput
    ) => Effect.Effect<User, Forbidden | NotFound | Conflict | ValidationFailed>
  }
>() {}

export const IdentityLive = Layer.effect(
  Identity,
  Effect.gen(function* () {
    const users = yield* UserRepository
    const refreshTokens = yield* RefreshTokenStore
    const oneTimeTokens = yield* OneTimeTokenStore
    const hasher = yield* PasswordHasher
    const accessTokens = yield* AccessTokens
    const secrets = yield* Secrets
    const notifications = yield* Notifications
    const tx = yield* Transactional
    const config = yield* AppConfig
    const accountEvents = yield* AccountEvents
    const audit = yield* AuditTrail
    const twoFactor = yield* TwoFactorStore
    const oneTimeCodes = yield* OneTimeCodes
    const twoFactorAttempts = yield* TwoFactorAttempts

    /** The browser's zone becomes the account's when it has none (a zone the user chose is never overwritten). */
    const adoptZone = (account: User, timeZone: string | null | undefined) =>
      Effect.gen(function* () {
        const zone = timeZone?.trim()
        return account.timeZone === null && isTimeZone(zone) && (yield* users.adoptTimeZone(account.id, zone))
          ? { ...account, timeZone: zone }
          : account
      })

    /** The refresh family of `refreshToken` when it is a live token of `userId`: the caller's session, which an account change keeps. */
    const liveFamilyOf = (userId: string, refreshToken: string | undefined, at: Date) =>
      Effect.map(refreshToken ? refreshTokens.find(secrets.digest(refreshToken)) : Effect.succeed(Option.none()), (own) =>
        Option.getOrUndefined(
          Option.map(
            Option.filter(own, (t) => t.userId === userId && !t.revokedAt && !t.rotatedAt && t.expiresAt > at),
            (t) => t.familyId
          )
        )
      )

    const issueOneTimeToken = (user: User, purpose: "VERIFY_EMAIL" | "RESET_PASSWORD") =>
      Effect.gen(function* () {
        const token = yield* secrets.random()
        const at = yield* now
        const ttl = purpose === "VERIFY_EMAIL" ? VERIFY_TTL_MS : RESET_TTL_MS
        yield* oneTimeTokens.insert({ tokenHash: secrets.digest(token), userId: user.id, purpose, expiresAt: new Date(at.getTime() + ttl) })
        const send = purpose === "VERIFY_EMAIL" ? notifications.sendEmailVerification : notifications.sendPasswordReset
        yield* send(user, token)
      })

    const openSession = (user: User, familyId: string, client: SessionClient | undefined) =>
      Effect.gen(function* () {
        const refreshToken = yield* secrets.random()
        const at = yield* now
        yield* refreshTokens.insert({
          tokenHash: secrets.digest(refreshToken),
          userId: user.id,
          familyId,
          expiresAt: new Date(at.getTime() + config.refreshTokenTtlDays * 86_400_000),
          client
        })
        const access = yield* accessTokens.sign({ userId: user.id, role: user.role, sessionId: familyId })
        return { accessToken: access.token, expiresIn: access.expiresIn, refreshToken, user } satisfies Session
      })

    /** Mails the owner of `email`, if it has an account, that someone tried to register with it. */
    const tellOwnerOf = (email: string) =>
      Effect.flatMap(
        users.findByEmail(email),
        Option.match({
          onNone: () => Effect.succeed(false),
          onSome: (owner) => Effect.as(notifications.sendRegistrationAttempt(owner), true)
        })
      )

    const createUser = (input: RegistrationInput, options: { role: User["role"]; isEmailVerified: boolean; preferredLanguage: Language }) =>
      Effect.gen(function* () {
        const account = yield* validateRegistration(input)
        const passwordHash = yield* hasher.hash(account.password)
        return yield* users.insert({ ...newAccountFields(account), passwordHash, ...options })
      })

    /**
     * The account behind an access token, and the session it belongs to. A token names its session
     * (sid): once that session is ended (logout, a password change or reset, a replay) the token stops
     * working at once, not when it expires. One statement either way.
     */
    const sessionOf = (
      accessToken: string
    ): Effect.Effect<{ readonly user: User; readonly sessionId: string | undefined }, Unauthorized> =>
      accessToken === ""
        ? Effect.fail(Unauthenticated)
        : Effect.flatMap(accessTokens.verify(accessToken), (claims) => {
            if (Option.isNone(claims)) return Effect.fail(SessionExpired)
            const { sessionId, userId } = claims.value
            const found =
              sessionId === undefined
                ? Effect.map(
                    users.findById(userId),
                    Option.map((user) => ({ user, sessionEnded: false }))
                  )
                : users.findInSession(userId, sessionId)
            return Effect.flatMap(found, (account) =>
              Option.isNone(account)
                ? Effect.fail(Unauthenticated)
                : !account.value.user.isActive
                  ? Effect.fail(AccountDeactivated)
                  : account.value.sessionEnded
                    ? Effect.fail(SessionExpired)
                    : Effect.succeed({ user: account.value.user, sessionId })
            )
          })

    return {
      register: (input, language) =>
        Effect.flatMap(validateRegistration(input), (account) =>
          Effect.gen(function* () {
            const passwordHash = yield* hasher.hash(account.password)
            const open = Effect.gen(function* () {
              const fields = { ...newAccountFields(account), passwordHash, role: "CLIENT" as const }
              const user = yield* users.insert({ ...fields, isEmailVerified: false, preferredLanguage: language })
              yield* issueOneTimeToken(user, "VERIFY_EMAIL")
            })
            // Its owner is told; a registration of the same address at the same moment ends there too.
            yield* tx
              .run(Effect.flatMap(tellOwnerOf(account.email), (told) => (told ? Effect.void : open)))
              .pipe(Effect.catchTag("Conflict", () => tx.run(Effect.asVoid(tellOwnerOf(account.email)))))
          })
        ),

      createAccount: (input) =>
        createUser(input, { role: input.role, isEmailVerified: true, preferredLanguage: input.preferredLanguage ?? "fr" }),

      login: (email, password, timeZone, client) =>
        Effect.gen(function* () {
          const fields = yield* requireFields({ email, password })
          const found = yield* users.findByEmail(normalizeEmail(fields.email!))
          // Hash anyway when the account is unknown, so timing does not reveal which emails exist.
          const hash = Option.match(found, { onNone: () => hasher.dummyHash, onSome: (u) => u.passwordHash })
          const matches = yield* hasher.verify(fields.password!, hash)
          if (Option.isNone(found) || !matches) return yield* InvalidCredentials
          const user = found.value
          if (!user.isActive) return yield* AccountDeactivated
          if (!user.isEmailVerified) return yield* EmailNotVerified
          const { passwordHash: _, ...account } = user
          if (Option.exists(yield* twoFactor.find(account.id), (r) => r.enabledAt !== null)) {
            // No session yet: the code comes next, with this challenge.
            const challenge = yield* secrets.random()
            const at = yield* now
            yield* twoFactor.insertChallenge({
              tokenHash: secrets.digest(challenge),
              userId: account.id,
              timeZone: timeZone?.trim() || null,
              expiresAt: new Date(at.getTime() + CHALLENGE_TTL_SECONDS * 1000)
            })
            return { twoFactorChallenge: challenge, expiresIn: CHALLENGE_TTL_SECONDS } satisfies TwoFactorChallenge
          }
          return yield* openSession(yield* adoptZone(account, timeZone), yield* secrets.uuid(), client)
        }),

      completeLogin: (input, client) =>
        Effect.gen(function* () {
          const fields = yield* requireFields({ challenge: input.challenge })
          const at = yield* now
          const tokenHash = secrets.digest(fields.challenge!)
          const challenge = yield* twoFactor.findChallenge(tokenHash, at)
          if (Option.isNone(challenge)) return yield* TwoFactorChallengeExpired
          const { userId } = challenge.value
          if ((input.code ?? "").trim() === "" && (input.recoveryCode ?? "").trim() === "") {
            return yield* invalid([issue("code", "twoFactor.codeRequired")])
          }
          // Every attempt counts against the account's budget, whatever the address.
          yield* twoFactorAttempts.consume(userId)
          const record = yield* twoFactor.find(userId)
          if (Option.isNone(record) || record.value.enabledAt === null) return yield* TwoFactorChallengeExpired
          const passed = yield* checkSecondFactor({ store: twoFactor, codes: oneTimeCodes, secrets }, userId, record.value, input, at)
          if (!passed) return yield* TwoFactorCodeInvalid
          if (!(yield* twoFactor.consumeChallenge(tokenHash, at))) return yield* TwoFactorChallengeExpired
          const user = yield* users.findById(userId)
          if (Option.isNone(user)) return yield* TwoFactorChallengeExpired
          if (!user.value.isActive) return yield* AccountDeactivated
          return yield* openSession(yield* adoptZone(user.value, challenge.value.timeZone), yield* secrets.uuid(), client)
        }),

      refresh: (presented, client) =>
        Effect.gen(function* () {
          if (!presented) return yield* SessionExpired
          const tokenHash = secrets.digest(presented)
          const at = yield* now
          const decision = decideRefresh(Option.getOrUndefined(yield* refreshTokens.find(tokenHash)), at)
          switch (decision._tag) {
            case "Refuse":
              return yield* SessionExpired
            case "ReuseDetected":
              yield* refreshTokens.revokeFamily(decision.familyId, at)
              yield* Effect.logWarning("refresh token reuse detected; session family revoked", { familyId: decision.familyId })
              return yield* SessionExpired
            case "Rotate": {
              const user = yield* users.findById(decision.userId)
              if (Option.isNone(user) || !user.value.isActive) return yield* SessionExpired
              const rotated = yield* tx.run(
                Effect.gen(function* () {
                  const won = yield* refreshTokens.markRotated(tokenHash, at)
                  return won ? Option.some(yield* openSession(user.value, decision.familyId, client)) : Option.none()
                })
              )
              if (Option.isNone(rotated)) {
                // Two requests raced with the same token: the loser is treated as a replay. (Revoked
                // outside the transaction: a failing transaction would roll the revocation back.)
                yield* refreshTokens.revokeFamily(decision.familyId, at)
                return yield* SessionExpired
              }
              return rotated.value
            }
          }
        }),

      logout: (presented) =>
        presented
          ? Effect.gen(function* () {
              const found = yield* refreshTokens.find(secrets.digest(presented))
              if (Option.isSome(found)) yield* refreshTokens.revokeFamily(found.value.familyId, yield* now)
            })
          : Effect.void,

      // Runs on every authenticated request: plain flatMaps rather than a generator.
      authenticate: (accessToken) => Effect.map(sessionOf(accessToken), ({ user }) => user),

      authenticateSession: sessionOf,

      verifyEmail: (token) =>
        Effect.gen(function* () {
          if (!token) return yield* MissingToken
          const userId = yield* oneTimeTokens.consume(secrets.digest(token), "VERIFY_EMAIL", yield* now)
          if (Option.isNone(userId)) return yield* InvalidToken
          yield* users.markEmailVerified(userId.value)
        }),

      resendVerification: (email) =>
        Effect.gen(function* () {
          const fields = yield* requireFields({ email })
          const user = yield* users.findByEmail(normalizeEmail(fields.email!))
          // Same answer whatever the address: nothing is revealed about who has an account.
          if (Option.isSome(user) && !user.value.isEmailVerified && user.value.isActive) {
            yield* tx.run(issueOneTimeToken(user.value, "VERIFY_EMAIL"))
          }
        }),

      forgotPassword: (email) =>
        Effect.gen(function* () {
          const fields = yield* requireFields({ email })
          const user = yield* users.findByEmail(normalizeEmail(fields.email!))
          if (Option.isSome(user) && user.value.isActive) yield* tx.run(issueOneTimeToken(user.value, "RESET_PASSWORD"))
        }),

      resetPassword: (token, password, confirmation) =>
        Effect.gen(function* () {
          if (!token) return yield* MissingToken
          const newPassword = yield* validateNewPassword(password, confirmation)
          const passwordHash = yield* hasher.hash(newPassword)
          const userId = yield* tx.run(
            Effect.gen(function* () {
              const at = yield* now
              const userId = yield* oneTimeTokens.consume(secrets.digest(token), "RESET_PASSWORD", at)
              if (Option.isNone(userId)) return yield* InvalidToken
              // Using one reset link kills every other one still outstanding (older or newer).
              yield* oneTimeTokens.retireAll(userId.value, "RESET_PASSWORD", at)
              yield* users.setPasswordHash(userId.value, passwordHash)
              // Receiving the reset link proves the address; every open session is closed.
              yield* users.markEmailVerified(userId.value)
              yield* refreshTokens.revokeAllOfUser(userId.value, at)
              return userId.value
            })
          )
          yield* accountEvents.publish({ type: "sessions_ended", userId, reason: "password_reset" })
        }),

      updatePassword: (actor, input, currentRefreshToken) =>
        Effect.gen(function* () {
          const fields = yield* requireFields({ currentPassword: input.currentPassword })
          const newPassword = yield* validateNewPassword(input.newPassword, input.confirmPassword)
          const current = yield* users.findPasswordHash(actor.id)
          if (Option.isNone(current) || !(yield* hasher.verify(fields.currentPassword!, current.value))) {
            return yield* WrongCurrentPassword
          }
          const passwordHash = yield* hasher.hash(newPassword)
          const at = yield* now
          const keepFamily = yield* liveFamilyOf(actor.id, currentRefreshToken, at)
          yield* tx.run(
            Effect.gen(function* () {
              yield* users.setPasswordHash(actor.id, passwordHash)
              yield* refreshTokens.revokeAllOfUser(actor.id, at, keepFamily)
              // A reset link mailed before the change would undo it.
              yield* oneTimeTokens.retireAll(actor.id, "RESET_PASSWORD", at)
            })
          )
          yield* accountEvents.publish({ type: "sessions_ended", userId: actor.id, reason: "password_changed", keepFamily })
        }),

      setPreferredLanguage: (actor, language) =>
        Effect.gen(function* () {
          yield* users.setPreferredLanguage(actor.id, language)
          return Option.getOrThrow(yield* users.findById(actor.id))
        }),

      confirmPassword: (actor, password) =>
        Effect.gen(function* () {
          const hash = yield* users.findPasswordHash(actor.id)
          const matches = password ? Option.isSome(hash) && (yield* hasher.verify(password, hash.value)) : false
          if (!matches) return yield* WrongPassword
        }),

      announceAccountClosed: (userId) => accountEvents.publish({ type: "sessions_ended", userId, reason: "account_deleted" }),

      listSessions: (actor) => Effect.flatMap(now, (at) => refreshTokens.listSessions(actor.id, at)),

      endSession: (actor, sessionId) =>
        Effect.gen(function* () {
          const ended = isUuid(sessionId) && (yield* refreshTokens.revokeSession(actor.id, sessionId.toLowerCase(), yield* now))
          if (!ended) return yield* SessionNotFound
          yield* accountEvents.publish({ type: "session_ended", userId: actor.id, sessionId: sessionId.toLowerCase() })
        }),

      endOtherSessions: (actor, currentSessionId) =>
        Effect.gen(function* () {
          yield* refreshTokens.revokeAllOfUser(actor.id, yield* now, currentSessionId)
          yield* accountEvents.publish({
            type: "sessions_ended",
            userId: actor.id,
            reason: "logged_out_elsewhere",
            keepFamily: currentSessionId
          })
        }),

      requestEmailChange: (actor, input) =>
        Effect.gen(function* () {
          const account = yield* users.findById(actor.id)
          if (Option.isNone(account)) return yield* WrongCurrentPassword
          const change = yield* validateEmailChange(input, account.value.email)
          const hash = yield* users.findPasswordHash(actor.id)
          if (Option.isNone(hash) || !(yield* hasher.verify(change.currentPassword, hash.value))) return yield* WrongCurrentPassword
          // Told now rather than when the link is opened; the unique index decides again then.
          if (Option.isSome(yield* users.findByEmail(change.newEmail))) return yield* EmailTaken
          const token = yield* secrets.random()
          const at = yield* now
          yield* tx.run(
            Effect.gen(function* () {
              // Only the newest request counts: an older link would move the account to another address.
              yield* oneTimeTokens.retireAll(actor.id, "CHANGE_EMAIL", at)
              yield* oneTimeTokens.insert({
                tokenHash: secrets.digest(token),
                userId: actor.id,
                purpose: "CHANGE_EMAIL",
                expiresAt: new Date(at.getTime() + EMAIL_CHANGE_TTL_MS),
                newEmail: change.newEmail
              })
              yield* notifications.sendEmailChange({ ...account.value, email: change.newEmail }, token)
            })
          )
        }),

      confirmEmailChange: (token, currentRefreshToken) =>
        Effect.gen(function* () {
          if (!token) return yield* MissingToken
          const at = yield* now
          const { user, keepFamily } = yield* tx.run(
            Effect.gen(function* () {
              const change = yield* oneTimeTokens.consumeEmailChange(secrets.digest(token), at)
              if (Option.isNone(change)) return yield* InvalidToken
              const before = yield* users.findById(change.value.userId)
              if (Option.isNone(before) || !before.value.isActive) return yield* InvalidToken
              yield* users.setEmail(before.value.id, change.value.newEmail)
              // Whoever holds the old mailbox must not take the account back with a reset link sent there.
              yield* oneTimeTokens.retireAll(before.value.id, "RESET_PASSWORD", at)
              const keepFamily = yield* liveFamilyOf(before.value.id, currentRefreshToken, at)
              yield* refreshTokens.revokeAllOfUser(before.value.id, at, keepFamily)
              yield* notifications.sendEmailChanged(before.value)
              return { user: { ...before.value, email: change.value.newEmail, isEmailVerified: true }, keepFamily }
            })
          )
          yield* accountEvents.publish({ type: "sessions_ended", userId: user.id, reason: "email_changed", keepFamily })
          return user
        }),

      administerAccount: (actor, userId, input) =>
        Effect.gen(function* () {
          yield* requireRole(actor, "ADMIN")
          // The HTTP path decodes the id; the CLI (users update) passes it as typed.
          const target = isUuid(userId) ? yield* users.findById(userId.toLowerCase()) : Option.none()
          if (Option.isNone(target)) return yield* UserNotFound
          const change = yield* decideAccountChange(actor, target.value, input)
          const at = yield* now
          const before = target.value
          yield* tx.run(
            Effect.gen(function* () {
              if (change.role !== before.role) yield* users.setRole(before.id, change.role)
              if (change.isActive !== before.isActive) yield* users.setActive(before.id, change.isActive)
              if (change.revokeSessions) yield* refreshTokens.revokeAllOfUser(before.id, at)
              // One audit entry per change decided (none when the account already was as asked).
              const subject = { type: "USER", id: before.id } as const
              if (change.isActive !== before.isActive)
                yield* audit.record({
                  actorId: actor.id,
                  action: change.isActive ? "USER_ACTIVATED" : "USER_DEACTIVATED",
                  subject,
                  before: { isActive: before.isActive },
                  after: { isActive: change.isActive, sessionsRevoked: change.revokeSessions }
                })
              if (change.role !== before.role)
                yield* audit.record({
                  actorId: actor.id,
                  action: "USER_ROLE_CHANGED",
                  subject,
                  before: { role: before.role },
                  after: { role: change.role }
                })
            })
          )
          // Committed: the account's open sockets are closed at once (their access tokens already fail).
          if (change.revokeSessions)
            yield* accountEvents.publish({ type: "sessions_ended", userId: target.value.id, reason: "deactivated" })
          return Option.getOrThrow(yield* users.findById(target.value.id))
        }),

      findByEmail: (email) =>
        Effect.map(
          users.findByEmail(normalizeEmail(email)),
          Option.map(({ passwordHash: _, ...user }) => user)
        )
    }
  })
)
