import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, TestClock } from "effect"
import { Identity, UserRepository } from "../../src/modules/identity"
import type { Actor, RegistrationInput, User } from "../../src/modules/identity/domain"
import { Outbox } from "../../src/modules/notifications"
import {
  asSession,
  failureOf,
  inMemoryDomain,
  latestToken,
  mailsTo,
  registerNow,
  tokenFromMail,
  validRegistration,
  verifiedAccount
} from "../support/domain"
import type { ServicesOf } from "../support/layers"

/** Every test gets its own empty in-memory store. */
const run = <A, E>(effect: Effect.Effect<A, E, ServicesOf<ReturnType<typeof inMemoryDomain>>>) => Effect.provide(effect, inMemoryDomain())

const actorOf = (user: User): Actor => ({
  id: user.id,
  role: user.role,
  preferredLanguage: user.preferredLanguage,
  isEmailVerified: user.isEmailVerified
})

const outboxSize = Effect.map(
  Effect.flatMap(Outbox, (o) => o.latest(10_000)),
  (mails) => mails.length
)

describe("identity domain (in-memory adapters)", () => {
  it.effect("register -> mailed verification link -> verifyEmail -> login -> refresh -> logout", () =>
    run(
      Effect.gen(function* () {
        const identity = yield* Identity
        const input = validRegistration({ email: "  Camille.Roy@Example.COM " })
        const user = yield* registerNow(input, "en")
        expect(user.email).toBe("camille.roy@example.com")
        expect(user.role).toBe("CLIENT")
        expect(user.isEmailVerified).toBe(false)
        expect(user.isActive).toBe(true)
        expect(user.preferredLanguage).toBe("en")

        // Exactly one mail, in the user's language, with a verification link.
        const mails = yield* mailsTo("camille.roy@example.com")
        expect(mails).toHaveLength(1)
        expect(mails[0]!.subject).toBe("Verify your email address")
        expect(mails[0]!.text).toContain("Hello Camille,")
        const token = tokenFromMail(mails[0]!, "verify-email")

        // Not verified yet: login is refused with the verification code.
        const refused = yield* failureOf(identity.login(input.email, input.password))
        expect([refused.code, refused.status]).toEqual(["EMAIL_NOT_VERIFIED", 401])

        yield* identity.verifyEmail(token)
        const session = yield* asSession(identity.login("CAMILLE.ROY@example.com", input.password))
        expect(session.user.id).toBe(user.id)
        expect(session.user.isEmailVerified).toBe(true)
        expect(session.expiresIn).toBeGreaterThan(0)
        expect((yield* identity.authenticate(session.accessToken)).id).toBe(user.id)

        const rotated = yield* identity.refresh(session.refreshToken)
        expect(rotated.refreshToken).not.toBe(session.refreshToken)
        expect(rotated.user.id).toBe(user.id)
        expect((yield* identity.authenticate(rotated.accessToken)).id).toBe(user.id)
        // The rotated token is spent.
        expect((yield* failureOf(identity.refresh(session.refreshToken))).code).toBe("SESSION_EXPIRED")

        yield* identity.logout(rotated.refreshToken)
        const afterLogout = yield* failureOf(identity.refresh(rotated.refreshToken))
        expect([afterLogout.code, afterLogout.status]).toEqual(["SESSION_EXPIRED", 401])
      })
    )
  )

  it.effect("a verification token works once, only for its purpose, and expires after 24 hours", () =>
    run(
      Effect.gen(function* () {
        const identity = yield* Identity
        const first = yield* registerNow(validRegistration(), "fr")
        const token = yield* latestToken(first.email, "verify-email")
        // Not a reset token.
        expect((yield* failureOf(identity.resetPassword(token, "Another123!", "Another123!"))).code).toBe("INVALID_TOKEN")
        yield* identity.verifyEmail(token)
        const reused = yield* failureOf(identity.verifyEmail(token))
        expect([reused.code, reused.status]).toEqual(["INVALID_TOKEN", 400])
        expect((yield* failureOf(identity.verifyEmail("not-a-token"))).code).toBe("INVALID_TOKEN")
        expect((yield* failureOf(identity.verifyEmail(""))).code).toBe("MISSING_TOKEN")

        const late = yield* registerNow(validRegistration(), "fr")
        const lateToken = yield* latestToken(late.email, "verify-email")
        yield* TestClock.adjust("24 hours")
        expect((yield* failureOf(identity.verifyEmail(lateToken))).code).toBe("INVALID_TOKEN")
        const users = yield* UserRepository
        expect(Option.getOrThrow(yield* users.findById(late.id)).isEmailVerified).toBe(false)
      })
    )
  )

  it.effect("login is refused for a wrong password or an unknown email, with the same answer", () =>
    run(
      Effect.gen(function* () {
        const identity = yield* Identity
        const { email } = yield* verifiedAccount()
        const wrong = yield* failureOf(identity.login(email, "Wrong123!"))
        const unknown = yield* failureOf(identity.login("nobody@example.com", "Secret123!"))
        expect([wrong.code, wrong.status]).toEqual(["INVALID_CREDENTIALS", 401])
        expect(unknown.error).toEqual(wrong.error)
        const missing = yield* failureOf(identity.login(email, ""))
        expect([missing.code, missing.status]).toEqual(["VALIDATION_ERROR", 422])
      })
    )
  )

  it.effect("a deactivated account cannot log in, and its access and refresh tokens stop working", () =>
    run(
      Effect.gen(function* () {
        const identity = yield* Identity
        const users = yield* UserRepository
        const { user, email, password } = yield* verifiedAccount()
        const session = yield* asSession(identity.login(email, password))
        expect((yield* identity.authenticate(session.accessToken)).id).toBe(user.id)

        yield* users.setActive(user.id, false)
        const login = yield* failureOf(identity.login(email, password))
        expect([login.code, login.status]).toEqual(["ACCOUNT_DEACTIVATED", 401])
        const auth = yield* failureOf(identity.authenticate(session.accessToken))
        expect([auth.code, auth.status]).toEqual(["ACCOUNT_DEACTIVATED", 401])
        expect((yield* failureOf(identity.refresh(session.refreshToken))).status).toBe(401)
        // A wrong password still says nothing about the account's state.
        expect((yield* failureOf(identity.login(email, "Wrong123!"))).code).toBe("INVALID_CREDENTIALS")
        // Nor does a deactivated account get reset or verification mails.
        const before = yield* outboxSize
        yield* identity.forgotPassword(email)
        expect(yield* outboxSize).toBe(before)

        yield* users.setActive(user.id, true)
        expect((yield* identity.authenticate(session.accessToken)).id).toBe(user.id)
      })
    )
  )

  it.effect("authenticate refuses forged, malformed and empty access tokens", () =>
    run(
      Effect.gen(function* () {
        const identity = yield* Identity
        const { email, password } = yield* verifiedAccount()
        const { accessToken } = yield* asSession(identity.login(email, password))
        const [header, payload, signature] = accessToken.split(".")
        const tampered = `${header}.${Buffer.from(JSON.stringify({ role: "ADMIN", sub: "x" })).toString("base64url")}.${signature}`
        for (const token of ["", "garbage", tampered, `${header}.${payload}.`, `${header}.${payload}.AAAA`]) {
          expect((yield* failureOf(identity.authenticate(token))).status).toBe(401)
        }
      })
    )
  )

  it.effect("registration always creates a CLIENT, even when ADMIN is asked for", () =>
    run(
      Effect.gen(function* () {
        const identity = yield* Identity
        const users = yield* UserRepository
        const input = { ...validRegistration(), role: "ADMIN" } as RegistrationInput
        const user = yield* registerNow(input, "fr")
        expect(user.role).toBe("CLIENT")
        expect(Option.getOrThrow(yield* users.findById(user.id)).role).toBe("CLIENT")
        yield* identity.verifyEmail(yield* latestToken(user.email, "verify-email"))
        expect((yield* asSession(identity.login(user.email, "Secret123!"))).user.role).toBe("CLIENT")
      })
    )
  )

  it.effect("a registration of an address that has an account (whatever its case and spaces) creates nothing and mails its owner", () =>
    run(
      Effect.gen(function* () {
        const owner = yield* registerNow(validRegistration({ email: "dup@example.com" }), "fr")
        const before = yield* outboxSize
        const again = yield* registerNow(validRegistration({ email: "  DUP@Example.com ", firstName: "Intrus" }), "en")
        // No second account and no change to the first: its owner (in the owner's language) is told.
        expect(again).toEqual(owner)
        expect(yield* outboxSize).toBe(before + 1)
        expect((yield* mailsTo("dup@example.com"))[0]!.subject).toBe("Quelqu'un a voulu créer un compte avec votre adresse")
      })
    )
  )

  it.effect("invalid registrations are refused field by field and store nothing", () =>
    run(
      Effect.gen(function* () {
        const identity = yield* Identity
        const failure = yield* failureOf(
          identity.register(
            { firstName: " ", lastName: "Roy", email: "not-an-email", phoneNumber: "514-555", password: "weak", confirmPassword: "other" },
            "fr"
          )
        )
        expect([failure.code, failure.status]).toEqual(["VALIDATION_ERROR", 422])
        if (failure.error._tag !== "ValidationFailed") throw new Error("expected ValidationFailed")
        expect(failure.error.details.map((d) => [d.field, d.key])).toEqual([
          ["firstName", "validation.required"],
          ["email", "validation.email"],
          ["phoneNumber", "validation.phone"],
          ["password", "validation.password"],
          ["confirmPassword", "validation.passwordMismatch"]
        ])
        expect(yield* outboxSize).toBe(0)
        expect(Option.isNone(yield* identity.findByEmail("not-an-email"))).toBe(true)
      })
    )
  )

  it.effect("forgot-password reveals nothing: the same answer for known and unknown emails, mail only for a real account", () =>
    run(
      Effect.gen(function* () {
        const identity = yield* Identity
        const { email } = yield* verifiedAccount()
        const before = yield* outboxSize
        const unknown = yield* Effect.exit(identity.forgotPassword("nobody@example.com"))
        expect(yield* outboxSize).toBe(before)
        const known = yield* Effect.exit(identity.forgotPassword(email.toUpperCase()))
        expect(known).toEqual(unknown)
        expect(yield* outboxSize).toBe(before + 1)
        const mail = (yield* mailsTo(email))[0]!
        expect(mail.text).toContain("/reset-password/")
        expect(mail.subject).toBe("Réinitialisation de votre mot de passe")
        // A missing email is a validation error for everyone alike.
        expect((yield* failureOf(identity.forgotPassword(" "))).status).toBe(422)
      })
    )
  )

  it.effect("resend-verification reveals nothing: same answer for unknown, verified and unverified emails", () =>
    run(
      Effect.gen(function* () {
        const identity = yield* Identity
        const { email: verified } = yield* verifiedAccount()
        const pending = yield* registerNow(validRegistration(), "fr")
        const before = yield* outboxSize

        const unknown = yield* Effect.exit(identity.resendVerification("nobody@example.com"))
        const already = yield* Effect.exit(identity.resendVerification(verified))
        expect(yield* outboxSize).toBe(before)
        const resent = yield* Effect.exit(identity.resendVerification(pending.email))
        expect(already).toEqual(unknown)
        expect(resent).toEqual(unknown)
        expect(yield* outboxSize).toBe(before + 1)
        expect((yield* failureOf(identity.resendVerification(undefined))).status).toBe(422)

        // The resent link verifies the account.
        yield* identity.verifyEmail(yield* latestToken(pending.email, "verify-email"))
        expect((yield* asSession(identity.login(pending.email, "Secret123!"))).user.isEmailVerified).toBe(true)
      })
    )
  )

  it.effect("reset-password consumes its token once, changes the password and revokes every session", () =>
    run(
      Effect.gen(function* () {
        const identity = yield* Identity
        const { user, email, password } = yield* verifiedAccount()
        const phone = yield* asSession(identity.login(email, password))
        const laptop = yield* asSession(identity.login(email, password))
        yield* identity.forgotPassword(email)
        const token = yield* latestToken(email, "reset-password")

        // Bad input does not spend the token.
        const weak = yield* failureOf(identity.resetPassword(token, "short", "short"))
        expect([weak.code, weak.status]).toEqual(["VALIDATION_ERROR", 422])
        if (weak.error._tag !== "ValidationFailed") throw new Error("expected ValidationFailed")
        expect(weak.error.details.map((d) => d.key)).toEqual(["validation.passwordTooShort"])
        const mismatch = yield* failureOf(identity.resetPassword(token, "Renewed123!", "Renewed124!"))
        if (mismatch.error._tag !== "ValidationFailed") throw new Error("expected ValidationFailed")
        expect(mismatch.error.details.map((d) => [d.field, d.key])).toEqual([["confirmPassword", "validation.passwordMismatch"]])
        expect((yield* failureOf(identity.resetPassword(undefined, "Renewed123!", "Renewed123!"))).code).toBe("MISSING_TOKEN")

        yield* identity.resetPassword(token, "Renewed123!", "Renewed123!")
        const again = yield* failureOf(identity.resetPassword(token, "Other1234!", "Other1234!"))
        expect([again.code, again.status]).toEqual(["INVALID_TOKEN", 400])

        expect((yield* failureOf(identity.refresh(phone.refreshToken))).status).toBe(401)
        expect((yield* failureOf(identity.refresh(laptop.refreshToken))).status).toBe(401)
        expect((yield* failureOf(identity.login(email, password))).code).toBe("INVALID_CREDENTIALS")
        expect((yield* asSession(identity.login(email, "Renewed123!"))).user.id).toBe(user.id)
      })
    )
  )

  it.effect("a reset token expires after one hour", () =>
    run(
      Effect.gen(function* () {
        const identity = yield* Identity
        const { email, password } = yield* verifiedAccount()
        yield* identity.forgotPassword(email)
        const token = yield* latestToken(email, "reset-password")
        yield* TestClock.adjust("61 minutes")
        expect((yield* failureOf(identity.resetPassword(token, "Renewed123!", "Renewed123!"))).code).toBe("INVALID_TOKEN")
        expect((yield* asSession(identity.login(email, password))).user.email).toBe(email)
      })
    )
  )

  it.effect("a refresh token expires after refreshTokenTtlDays", () =>
    run(
      Effect.gen(function* () {
        const identity = yield* Identity
        const { email, password } = yield* verifiedAccount()
        const early = yield* asSession(identity.login(email, password))
        const late = yield* asSession(identity.login(email, password))
        yield* TestClock.adjust("29 days")
        yield* identity.refresh(early.refreshToken)
        yield* TestClock.adjust("1 day")
        expect((yield* failureOf(identity.refresh(late.refreshToken))).code).toBe("SESSION_EXPIRED")
      })
    )
  )

  it.effect("update-password checks the current password and the strength of the new one", () =>
    run(
      Effect.gen(function* () {
        const identity = yield* Identity
        const { user, email, password } = yield* verifiedAccount()
        const actor = actorOf(user)

        const wrong = yield* failureOf(
          identity.updatePassword(actor, { currentPassword: "Wrong123!", newPassword: "Changed123!", confirmPassword: "Changed123!" })
        )
        expect([wrong.code, wrong.status]).toEqual(["VALIDATION_ERROR", 422])
        if (wrong.error._tag !== "ValidationFailed") throw new Error("expected ValidationFailed")
        expect(wrong.error.details.map((d) => d.field)).toEqual(["currentPassword"])

        const weak = yield* failureOf(
          identity.updatePassword(actor, { currentPassword: password, newPassword: "alllowercase1!", confirmPassword: "alllowercase1!" })
        )
        if (weak.error._tag !== "ValidationFailed") throw new Error("expected ValidationFailed")
        expect(weak.error.details.map((d) => [d.field, d.key])).toEqual([["password", "validation.password"]])
        expect((yield* failureOf(identity.updatePassword(actor, { newPassword: "Changed123!" }))).status).toBe(422)
        // Nothing changed so far.
        yield* asSession(identity.login(email, password))

        yield* identity.updatePassword(actor, { currentPassword: password, newPassword: "Changed123!", confirmPassword: "Changed123!" })
        expect((yield* failureOf(identity.login(email, password))).code).toBe("INVALID_CREDENTIALS")
        expect((yield* asSession(identity.login(email, "Changed123!"))).user.id).toBe(user.id)
      })
    )
  )

  it.effect("the preferred language is stored and used for later mails", () =>
    run(
      Effect.gen(function* () {
        const identity = yield* Identity
        const { user, email } = yield* verifiedAccount()
        expect(user.preferredLanguage).toBe("fr")
        const updated = yield* identity.setPreferredLanguage(actorOf(user), "en")
        expect(updated.preferredLanguage).toBe("en")
        yield* identity.forgotPassword(email)
        expect((yield* mailsTo(email))[0]!.subject).toBe("Reset your password")
      })
    )
  )

  it.effect("operator-created accounts are verified at once and keep their role", () =>
    run(
      Effect.gen(function* () {
        const identity = yield* Identity
        const admin = yield* identity.createAccount({ ...validRegistration(), role: "ADMIN" })
        expect([admin.role, admin.isEmailVerified]).toEqual(["ADMIN", true])
        expect((yield* asSession(identity.login(admin.email, "Secret123!"))).user.role).toBe("ADMIN")
        expect((yield* failureOf(identity.createAccount({ ...validRegistration({ email: admin.email }), role: "CLIENT" }))).code).toBe(
          "EMAIL_TAKEN"
        )
      })
    )
  )
})
