import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { Authentication } from "../../platform/http/authentication"
import { Ok, PathId, Payload, PayloadText } from "../../platform/http/schemas"
import { SessionId } from "../../platform/ids"
import { Languages } from "../../platform/languages"
import { Roles } from "./rules"

// The module's HTTP contract: schemas, endpoints, groups. Pure (effect, @effect/platform's HttpApi
// modules, platform schemas, other modules' contracts); the views are built in views.ts.

export const Role = Schema.Literal(...Roles)
export const LanguageSchema = Schema.Literal(...Languages)

export const UserView = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  firstName: Schema.String,
  lastName: Schema.String,
  phoneNumber: Schema.String,
  role: Role,
  isEmailVerified: Schema.Boolean,
  preferredLanguage: LanguageSchema,
  /** The account's IANA time zone; null until known (the UI then uses the browser's). */
  timeZone: Schema.NullOr(Schema.String),
  active: Schema.Boolean,
  createdAt: Schema.Date
})
export type UserView = typeof UserView.Encoded

// Payload fields are typed loosely on purpose: business validation (with per-field messages in the
// user's language, answered as 422) belongs to the domain; only a wrong JSON shape is a 400 here.
const Text = Schema.optional(PayloadText)

export const SessionView = Schema.Struct({ token: Schema.String, expiresIn: Schema.Number, user: UserView })
/** The password was right and the account has two-step login: POST /auth/login/two-factor with this challenge and a code. */
export const TwoFactorChallengeView = Schema.Struct({
  twoFactorRequired: Schema.Literal(true),
  challenge: Schema.String,
  /** Seconds the challenge stays valid. */
  expiresIn: Schema.Number
})
/** A login's answer: a session, or the second step. */
export const LoginAnswer = Schema.Union(SessionView, TwoFactorChallengeView)
export const TwoFactorStatusView = Schema.Struct({
  enabled: Schema.Boolean,
  /** Enrolment started and not yet confirmed by a first code. */
  pending: Schema.Boolean,
  recoveryCodesLeft: Schema.Number,
  /** The server requires it of this account before anything else (admins, ADMIN_TWO_FACTOR_REQUIRED). */
  required: Schema.Boolean
})
/** Shown once, at enrolment: the secret is never answered again. */
export const TwoFactorSetupView = Schema.Struct({ secret: Schema.String, otpauthUrl: Schema.String, qrCodeSvg: Schema.String })
export const UserData = Schema.Struct({ user: UserView })
/** The answer of GET /api/auth/me (its encoded form types the pre-encoded body, see http.ts). */
export const MeAnswer = Ok(UserData)
const Empty = Schema.Struct({})

export const RegisterPayload = Payload({
  firstName: Text,
  lastName: Text,
  email: Text,
  phoneNumber: Text,
  password: Text,
  confirmPassword: Text,
  role: Schema.optional(Schema.Unknown),
  /** The browser's IANA zone (422 when it is no such zone). */
  timeZone: Text
})
/** `timeZone`: the browser's zone, adopted by an account that has none yet. */
export const LoginPayload = Payload({ email: Text, password: Text, timeZone: Text })
export const EmailPayload = Payload({ email: Text })
export const ResetPasswordPayload = Payload({ password: Text, confirmPassword: Text })
export const UpdatePasswordPayload = Payload({ currentPassword: Text, newPassword: Text, confirmPassword: Text })
export const ChangeEmailPayload = Payload({ newEmail: Text, currentPassword: Text })

/**
 * One open session of the caller (a login, renewed by its refresh token): the browser and system its
 * user agent names (null when not recognised), the coarse form of its address (an IPv4 /24 or IPv6
 * /48; no place is inferred: there is no geo-IP database), and whether it is the caller's own.
 */
export const SessionItemView = Schema.Struct({
  id: Schema.String,
  browser: Schema.NullOr(Schema.String),
  os: Schema.NullOr(Schema.String),
  address: Schema.NullOr(Schema.String),
  openedAt: Schema.Date,
  lastUsedAt: Schema.Date,
  current: Schema.Boolean
})
const SessionIdParam = PathId(SessionId, { code: "SESSION_NOT_FOUND", key: "auth.sessionNotFound" })
export const SessionsData = Schema.Struct({ sessions: Schema.Array(SessionItemView) })

export class AuthApi extends HttpApiGroup.make("auth")
  .add(HttpApiEndpoint.post("register", "/register").setPayload(RegisterPayload).addSuccess(Ok(Empty), { status: 201 }))
  .add(HttpApiEndpoint.post("login", "/login").setPayload(LoginPayload).addSuccess(Ok(LoginAnswer)))
  .add(
    HttpApiEndpoint.post("loginTwoFactor", "/login/two-factor")
      .setPayload(Payload({ challenge: Text, code: Text, recoveryCode: Text }))
      .addSuccess(Ok(SessionView))
  )
  .add(
    HttpApiEndpoint.get("twoFactorStatus", "/two-factor")
      .addSuccess(Ok(Schema.Struct({ twoFactor: TwoFactorStatusView })))
      .middleware(Authentication)
  )
  .add(HttpApiEndpoint.post("twoFactorSetup", "/two-factor/setup").addSuccess(Ok(TwoFactorSetupView)).middleware(Authentication))
  .add(
    HttpApiEndpoint.post("twoFactorEnable", "/two-factor/enable")
      .setPayload(Payload({ code: Text }))
      .addSuccess(Ok(Schema.Struct({ recoveryCodes: Schema.Array(Schema.String) })))
      .middleware(Authentication)
  )
  .add(
    HttpApiEndpoint.post("twoFactorDisable", "/two-factor/disable")
      .setPayload(Payload({ password: Text, code: Text }))
      .addSuccess(Ok(Empty))
      .middleware(Authentication)
  )
  .add(HttpApiEndpoint.post("logout", "/logout").addSuccess(Ok(Empty)))
  .add(HttpApiEndpoint.post("refresh", "/refresh").addSuccess(Ok(SessionView)))
  .add(HttpApiEndpoint.post("refreshToken", "/refresh-token").addSuccess(Ok(SessionView)))
  .add(HttpApiEndpoint.get("me", "/me").addSuccess(MeAnswer).middleware(Authentication))
  .add(HttpApiEndpoint.post("forgotPassword", "/forgot-password").setPayload(EmailPayload).addSuccess(Ok(Empty)))
  .add(
    HttpApiEndpoint.post("resetPassword")`/reset-password/${HttpApiSchema.param("token", Schema.String)}`
      .setPayload(ResetPasswordPayload)
      .addSuccess(Ok(Empty))
  )
  .add(
    HttpApiEndpoint.patch("updatePassword", "/update-password")
      .setPayload(UpdatePasswordPayload)
      .addSuccess(Ok(Empty))
      .middleware(Authentication)
  )
  .add(HttpApiEndpoint.get("sessions", "/sessions").addSuccess(Ok(SessionsData)).middleware(Authentication))
  .add(HttpApiEndpoint.post("endOtherSessions", "/sessions/end-others").addSuccess(Ok(Empty)).middleware(Authentication))
  .add(HttpApiEndpoint.del("endSession")`/sessions/${SessionIdParam}`.addSuccess(Ok(Empty)).middleware(Authentication))
  .add(HttpApiEndpoint.post("changeEmail", "/change-email").setPayload(ChangeEmailPayload).addSuccess(Ok(Empty)).middleware(Authentication))
  .add(HttpApiEndpoint.get("confirmEmail")`/confirm-email/${HttpApiSchema.param("token", Schema.String)}`.addSuccess(Ok(UserData)))
  .add(HttpApiEndpoint.get("verifyEmail")`/verify-email/${HttpApiSchema.param("token", Schema.String)}`.addSuccess(Ok(Empty)))
  .add(HttpApiEndpoint.post("resendVerification", "/resend-verification-public").setPayload(EmailPayload).addSuccess(Ok(Empty)))
  .prefix("/auth") {}

// GET/PATCH /users/me and the other /users and /uploads endpoints: profile/contract.ts (UsersApi, UploadsApi).
