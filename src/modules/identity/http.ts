import { HttpApiBuilder, HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Layer, Redacted } from "effect"
import { AppConfig } from "../../platform/config"
import { localized, ok, requestLanguage } from "../../platform/http/envelope"
import { detached } from "../../platform/detached"
import { clientAddress } from "../../platform/http/client-address"
import { RateLimiter } from "../../platform/rate-limit"
import { Authentication, CurrentUser } from "../../platform/http/authentication"
import { MeAnswer } from "./contract"
import { toUserView, toUserViewEncoded } from "./views"
import { coarseAddress, requireEmailAddress, storedUserAgent, type SessionClient, TwoFactorRequired, type User } from "./domain"
import { MarketplaceApi } from "../../app/api"
import { Identity, isChallenge, type Session } from "./service"
import { TwoFactor } from "./two-factor"
import { describeUserAgent } from "./user-agent"

const REFRESH_COOKIE = "refreshToken"
const REFRESH_COOKIE_PATH = "/api/auth"

/** What an admin who must enrol in two-step login may still reach: their session and account, and the enrolment itself. */
const reachableBeforeEnrolment = (url: string) => {
  const path = url.split("?")[0] ?? ""
  return path.startsWith("/api/auth/") || path === "/api/users/me"
}

/**
 * The bearer token's account (Identity.authenticate). With ADMIN_TWO_FACTOR_REQUIRED, an admin
 * without two-step login gets 403 TWO_FACTOR_REQUIRED everywhere but the session and enrolment
 * endpoints (the UI sends them to /settings to enrol); nobody else pays a statement for it.
 */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const identity = yield* Identity
    const twoFactor = yield* TwoFactor
    const guard = (user: User) =>
      Effect.flatMap(twoFactor.mustEnrol(user), (must) =>
        must
          ? Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
              reachableBeforeEnrolment(request.url) ? Effect.succeed(user) : Effect.fail(TwoFactorRequired)
            )
          : Effect.succeed(user)
      )
    return {
      bearer: (token: Redacted.Redacted) =>
        Effect.flatMap(identity.authenticate(Redacted.value(token)), (user) => (user.role === "ADMIN" ? guard(user) : Effect.succeed(user)))
    }
  })
)

/**
 * Rate-limits an action per client address (TRUST_PROXY decides what the address is): every
 * endpoint that checks a credential or reveals something about an account (login, register,
 * forgot-password, resend, reset-password). Refresh is not: its token is 256 random bits, and a
 * limit would sign out users behind one address.
 */
const limit = (action: string) =>
  Effect.gen(function* () {
    const limiter = yield* RateLimiter
    yield* limiter.consume(`${action}:${yield* clientAddress}`)
  })

/** Rate-limits an action per signed-in account (guessing the current password with a stolen token), whatever the address. */
const limitAccount = (action: string, userId: string) =>
  Effect.flatMap(RateLimiter, (limiter) => limiter.consume(`${action}:user:${userId}`))

/**
 * GET /api/auth/me, the hottest authenticated read, answers JSON it encodes itself: the body is typed
 * as the endpoint's declared answer in its encoded form, so it is the same JSON HttpApi's schema
 * encoding would produce, without that pass (one Schema transformation and union per answer).
 */
const meResponse = (user: User) => {
  const body: typeof MeAnswer.Encoded = ok({ user: toUserViewEncoded(user) })
  return HttpServerResponse.unsafeJson(body)
}

const refreshCookie = Effect.map(HttpServerRequest.HttpServerRequest, (request) => request.cookies[REFRESH_COOKIE])

/** What a session remembers of the client opening or renewing it: its user agent and the coarse form of its address. */
const sessionClient: Effect.Effect<SessionClient, never, HttpServerRequest.HttpServerRequest | AppConfig> = Effect.map(
  Effect.zip(HttpServerRequest.HttpServerRequest, clientAddress),
  ([request, address]) => ({ userAgent: storedUserAgent(request.headers["user-agent"]), coarseAddress: coarseAddress(address) })
)

/** The bearer token of the request (the Authentication middleware already accepted it). */
const bearerToken = Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
  (request.headers.authorization ?? "").replace(/^Bearer\s+/i, "")
)

export const AuthHttpLive = HttpApiBuilder.group(MarketplaceApi, "auth", (handlers) =>
  Effect.gen(function* () {
    const identity = yield* Identity
    const twoFactor = yield* TwoFactor
    const config = yield* AppConfig
    const secureCookie = config.publicUrl.startsWith("https://")

    const withRefreshCookie = (session: Session) =>
      HttpApp.appendPreResponseHandler((_request, response) =>
        Effect.succeed(
          HttpServerResponse.unsafeSetCookie(response, REFRESH_COOKIE, session.refreshToken, {
            httpOnly: true,
            sameSite: "strict",
            secure: secureCookie,
            path: REFRESH_COOKIE_PATH,
            maxAge: `${config.refreshTokenTtlDays} days`
          })
        )
      )
    const clearRefreshCookie = HttpApp.appendPreResponseHandler((_request, response) =>
      Effect.succeed(HttpServerResponse.expireCookie(response, REFRESH_COOKIE, { path: REFRESH_COOKIE_PATH }))
    )
    const sessionAnswer = (session: Session) =>
      Effect.as(
        withRefreshCookie(session),
        ok({ token: session.accessToken, expiresIn: session.expiresIn, user: toUserView(session.user) })
      )
    const refresh = () =>
      Effect.flatMap(Effect.zip(refreshCookie, sessionClient), ([cookie, client]) => identity.refresh(cookie, client)).pipe(
        Effect.tapError(() => clearRefreshCookie),
        Effect.flatMap(sessionAnswer)
      )

    return (
      handlers
        .handle("register", ({ payload }) =>
          Effect.gen(function* () {
            yield* limit("register")
            // The same answer whether or not the address has an account (see Identity.register).
            yield* identity.register(payload, yield* requestLanguage)
            return ok({}, yield* localized("auth.registered"))
          })
        )
        .handle("login", ({ payload }) =>
          Effect.gen(function* () {
            yield* limit("login")
            const outcome = yield* identity.login(payload.email, payload.password, payload.timeZone, yield* sessionClient)
            if (isChallenge(outcome)) {
              return ok({ twoFactorRequired: true as const, challenge: outcome.twoFactorChallenge, expiresIn: outcome.expiresIn })
            }
            return yield* sessionAnswer(outcome)
          })
        )
        .handle("loginTwoFactor", ({ payload }) =>
          Effect.gen(function* () {
            yield* limit("login")
            return yield* sessionAnswer(yield* identity.completeLogin(payload, yield* sessionClient))
          })
        )
        .handle("twoFactorStatus", () =>
          Effect.gen(function* () {
            return ok({ twoFactor: yield* twoFactor.status(yield* CurrentUser) })
          })
        )
        .handle("twoFactorSetup", () => Effect.map(Effect.flatMap(CurrentUser, twoFactor.setup), (setup) => ok(setup)))
        .handle("twoFactorEnable", ({ payload }) =>
          Effect.gen(function* () {
            const { sessionId } = yield* identity.authenticateSession(yield* bearerToken)
            const recoveryCodes = yield* twoFactor.enable(yield* CurrentUser, payload.code, sessionId)
            return ok({ recoveryCodes }, yield* localized("twoFactor.enabled"))
          })
        )
        .handle("twoFactorDisable", ({ payload }) =>
          Effect.gen(function* () {
            yield* twoFactor.disable(yield* CurrentUser, payload)
            return ok({}, yield* localized("twoFactor.disabled"))
          })
        )
        .handle("logout", () =>
          Effect.gen(function* () {
            yield* identity.logout(yield* refreshCookie)
            yield* clearRefreshCookie
            return ok({}, yield* localized("auth.loggedOut"))
          })
        )
        .handle("refresh", refresh)
        .handle("refreshToken", refresh)
        .handle("me", () => Effect.map(CurrentUser, meResponse))
        // Forgot-password and resend answer before looking the address up (the lookup, token and mail
        // run after the answer): the same message and the same time whether the account exists.
        .handle("forgotPassword", ({ payload }) =>
          Effect.gen(function* () {
            yield* limit("forgot-password")
            yield* requireEmailAddress(payload.email)
            yield* detached("forgot-password", identity.forgotPassword(payload.email))
            return ok({}, yield* localized("auth.forgotPasswordSent"))
          })
        )
        .handle("resetPassword", ({ path, payload }) =>
          Effect.gen(function* () {
            yield* limit("reset-password")
            yield* identity.resetPassword(path.token, payload.password, payload.confirmPassword)
            return ok({}, yield* localized("auth.passwordReset"))
          })
        )
        .handle("updatePassword", ({ payload }) =>
          Effect.gen(function* () {
            const user = yield* CurrentUser
            yield* limit("update-password")
            yield* limitAccount("update-password", user.id)
            yield* identity.updatePassword(user, payload, yield* refreshCookie)
            return ok({}, yield* localized("auth.passwordUpdated"))
          })
        )
        .handle("sessions", () =>
          Effect.gen(function* () {
            const user = yield* CurrentUser
            const { sessionId } = yield* identity.authenticateSession(yield* bearerToken)
            const sessions = yield* identity.listSessions(user)
            return ok({
              sessions: sessions.map((session) => ({
                id: session.id,
                ...describeUserAgent(session.userAgent),
                address: session.coarseAddress,
                openedAt: session.openedAt,
                lastUsedAt: session.lastUsedAt,
                current: session.id === sessionId
              }))
            })
          })
        )
        .handle("endSession", ({ path }) =>
          Effect.gen(function* () {
            yield* identity.endSession(yield* CurrentUser, path.id)
            return ok({}, yield* localized("auth.sessionEnded"))
          })
        )
        .handle("endOtherSessions", () =>
          Effect.gen(function* () {
            const user = yield* CurrentUser
            const { sessionId } = yield* identity.authenticateSession(yield* bearerToken)
            yield* identity.endOtherSessions(user, sessionId)
            return ok({}, yield* localized("auth.otherSessionsEnded"))
          })
        )
        .handle("changeEmail", ({ payload }) =>
          Effect.gen(function* () {
            const user = yield* CurrentUser
            // It checks the current password: limited as update-password is.
            yield* limit("change-email")
            yield* limitAccount("change-email", user.id)
            yield* identity.requestEmailChange(user, payload)
            return ok({}, yield* localized("auth.emailChangeSent"))
          })
        )
        .handle("confirmEmail", ({ path }) =>
          Effect.gen(function* () {
            const user = yield* identity.confirmEmailChange(path.token, yield* refreshCookie)
            return ok({ user: toUserView(user) }, yield* localized("auth.emailChanged"))
          })
        )
        .handle("verifyEmail", ({ path }) =>
          Effect.gen(function* () {
            yield* identity.verifyEmail(path.token)
            return ok({}, yield* localized("auth.emailVerified"))
          })
        )
        .handle("resendVerification", ({ payload }) =>
          Effect.gen(function* () {
            yield* limit("resend-verification")
            yield* requireEmailAddress(payload.email)
            yield* detached("resend-verification", identity.resendVerification(payload.email))
            return ok({}, yield* localized("auth.verificationResent"))
          })
        )
    )
  })
)

// The /users and /uploads handlers: profile/http.ts (UsersHttpLive, UploadsHttpLive).
