import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { SignJWT } from "jose"
import * as crypto from "node:crypto"
import { describe, expect, it } from "vitest"
import { UserRepository } from "../../src/modules/identity"
import { MeAnswer } from "../../src/modules/identity/contract"
import { en, fr } from "../../src/platform/messages"
import { loginWithCookie, registeredThroughApi } from "../support/accounts"
import { expectError, mailedToken, mailsAtLeast, mailsTo, registration } from "../support/http"
import { httpWorld } from "../support/world"

const { server, api } = httpWorld()

const CLIENT = { email: "lucas.bernard@marketplace.local", password: "Client1234!" }

/** Registers through the API and follows the mailed link; answers the credentials. */
const verifiedUser = async (fields: Record<string, unknown> = {}) => (await registeredThroughApi(server, api, fields)).credentials
const login = (credentials: { email: string; password: string }) => loginWithCookie(api, credentials)

describe("POST /api/auth/register", () => {
  /** The account stored for `email` (registration makes it after its answer: waits for its mail first). */
  const accountOf = async (email: string) => {
    await mailsAtLeast(server, email, 1)
    return server.run(
      Effect.flatMap(UserRepository, (users) => users.findByEmail(email)).pipe(
        Effect.map((found) => (found._tag === "Some" ? found.value : undefined))
      )
    )
  }

  it("201: creates an unverified CLIENT (even when ADMIN is asked for) and mails a verification link", async () => {
    const input = registration({ role: "ADMIN", email: "  Role.Test@Example.com " })
    const reply = await api.post("/api/auth/register", input)
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual({ success: true, message: fr["auth.registered"], data: {} })
    const mails = await mailsAtLeast(server, "role.test@example.com", 1)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.subject).toBe(fr["mail.verify.subject"])
    expect(mails[0]!.text).toMatch(/\/verify-email\/[A-Za-z0-9_-]{20,}/)
    expect(await accountOf("role.test@example.com")).toMatchObject({
      email: "role.test@example.com",
      firstName: "Nadia",
      lastName: "Gagnon",
      phoneNumber: "4385550123",
      role: "CLIENT",
      isEmailVerified: false,
      preferredLanguage: "fr",
      isActive: true
    })
  })

  it("201 in English: the account's language follows Accept-Language, and so does the mail", async () => {
    const input = registration()
    const reply = await api.post("/api/auth/register", input, { language: "en-CA,en;q=0.9" })
    expect(reply.status).toBe(201)
    expect(reply.body.message).toBe(en["auth.registered"])
    expect((await mailsAtLeast(server, input.email, 1))[0]!.subject).toBe("Verify your email address")
    expect((await accountOf(input.email))?.preferredLanguage).toBe("en")
  })

  it("an address that has an account answers as a new one does, whatever its case: its owner is mailed, nothing else changes", async () => {
    const owner = await verifiedUser()
    const first = await api.post("/api/auth/register", registration())
    const again = await api.post("/api/auth/register", {
      ...registration(),
      email: owner.email.toUpperCase(),
      password: "Attempt9!x",
      confirmPassword: "Attempt9!x"
    })
    expect([again.status, again.body]).toEqual([first.status, first.body])
    const mails = await mailsAtLeast(server, owner.email, 2)
    expect(mails.map((mail) => mail.subject)).toContain(fr["mail.registrationAttempt.subject"])
    expect(mails.find((mail) => mail.subject === fr["mail.registrationAttempt.subject"])!.text).toContain("/forgot-password")
    // The owner's password still opens the account; the attempt's does not.
    expect((await api.post("/api/auth/login", owner)).status).toBe(200)
    expect((await api.post("/api/auth/login", { email: owner.email, password: "Attempt9!x" })).status).toBe(401)
    // The demo client's address too, in English for an English owner's mail language.
    expect((await api.post("/api/auth/register", { ...registration(), email: CLIENT.email })).status).toBe(201)
    expect(
      (await mailsAtLeast(server, CLIENT.email, 1)).some((mail) => mail.subject.includes("compte") || mail.subject.includes("account"))
    ).toBe(true)
  })

  it("422 with one message per invalid field, in French by default", async () => {
    const reply = await api.post("/api/auth/register", {
      firstName: "",
      lastName: "Gagnon",
      email: "nadia@",
      phoneNumber: "514-555-01",
      password: "password",
      confirmPassword: "different"
    })
    expect(reply.status).toBe(422)
    expect(reply.body.code).toBe("VALIDATION_ERROR")
    expect(reply.body.message).toBe("Certains champs sont invalides.")
    expect(reply.body.details).toEqual([
      { field: "firstName", message: "Ce champ est requis." },
      { field: "email", message: fr["validation.email"] },
      { field: "phoneNumber", message: fr["validation.phone"] },
      { field: "password", message: fr["validation.password"] },
      { field: "confirmPassword", message: fr["validation.passwordMismatch"] }
    ])
  })

  it("422 in English with Accept-Language: en", async () => {
    const reply = await api.post("/api/auth/register", { email: "x@example.com" }, { language: "en" })
    expect(reply.status).toBe(422)
    expect(reply.body.message).toBe("Some fields are invalid.")
    expect(reply.body.details).toEqual([
      { field: "firstName", message: "This field is required." },
      { field: "lastName", message: "This field is required." },
      { field: "phoneNumber", message: "This field is required." },
      { field: "password", message: "This field is required." }
    ])
  })

  it("400 MALFORMED_REQUEST for a field of the wrong type or a body that is not JSON", async () => {
    const wrongType = await api.post("/api/auth/register", { ...registration(), phoneNumber: 4385550123 })
    expect(wrongType.status).toBe(400)
    expect(wrongType.body.code).toBe("MALFORMED_REQUEST")
    expect(wrongType.body.details.map((d: { field: string }) => d.field)).toContain("phoneNumber")
    const notJson = await api.call("POST", "/api/auth/register", { raw: '{"firstName": "Nadia",' })
    expect([notJson.status, notJson.body.code]).toEqual([400, "MALFORMED_REQUEST"])
  })
})

describe("email verification", () => {
  it("401 EMAIL_NOT_VERIFIED before verification, with a message about email verification in fr and en", async () => {
    const input = registration()
    await api.post("/api/auth/register", input)
    const frReply = await api.post("/api/auth/login", { email: input.email, password: input.password })
    expect([frReply.status, frReply.body.code]).toEqual([401, "EMAIL_NOT_VERIFIED"])
    // French only (issue 16: it once said "(email verification)" in English).
    expect(frReply.body.message).toContain("vérifier votre adresse email")
    expect(frReply.body.message).not.toMatch(/verification/i)
    const enReply = await api.post("/api/auth/login", { email: input.email, password: input.password }, { language: "en" })
    expect([enReply.status, enReply.body.code]).toEqual([401, "EMAIL_NOT_VERIFIED"])
    expect(enReply.body.message).toContain("verify your email")
    expect(frReply.cookies.refreshToken).toBeUndefined()
  })

  it("the link shown at /dev/mail verifies the email once; the account can then log in", async () => {
    const input = registration()
    await api.post("/api/auth/register", input)
    const page = await api.get("/dev/mail")
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toMatch(/^text\/html/)
    const article = page.text.split("<article").find((a) => a.includes(`<span class="to">${input.email}</span>`))
    const token = /\/verify-email\/([A-Za-z0-9_-]+)/.exec(article ?? "")?.[1]
    expect(token, "a verification link for the new account at /dev/mail").toBeDefined()

    const verified = await api.get(`/api/auth/verify-email/${token}`)
    expect(verified.status).toBe(200)
    expect(verified.body).toEqual({ success: true, data: {}, message: fr["auth.emailVerified"] })
    const again = await api.get(`/api/auth/verify-email/${token}`, { language: "en" })
    expect(again.status).toBe(400)
    expect(again.body).toEqual({ success: false, code: "INVALID_TOKEN", message: "Invalid or expired token." })

    const session = await login(input)
    expect(session.user.isEmailVerified).toBe(true)
  })

  it("400 INVALID_TOKEN for an unknown token", async () => {
    const reply = await api.get(`/api/auth/verify-email/${crypto.randomBytes(32).toString("base64url")}`)
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({ success: false, code: "INVALID_TOKEN", message: "Jeton invalide ou expiré." })
  })

  it("resend-verification-public answers the same for unknown, verified and unverified emails; mails only the unverified", async () => {
    const pending = registration()
    await api.post("/api/auth/register", pending)
    const verified = await verifiedUser()
    const mailsBefore = (await mailsTo(server, pending.email)).length

    const replies = await Promise.all(
      ["nobody@example.com", verified.email, pending.email].map((email) => api.post("/api/auth/resend-verification-public", { email }))
    )
    for (const reply of replies) {
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({ success: true, data: {}, message: fr["auth.verificationResent"] })
    }
    expect(await mailsTo(server, "nobody@example.com")).toHaveLength(0)
    expect((await mailsTo(server, verified.email)).filter((m) => m.text.includes("/verify-email/"))).toHaveLength(1)
    expect(await mailsAtLeast(server, pending.email, mailsBefore + 1)).toHaveLength(mailsBefore + 1)

    // The resent link works.
    const token = await mailedToken(server, pending.email, "verify-email")
    expect((await api.get(`/api/auth/verify-email/${token}`)).status).toBe(200)
    expect((await api.post("/api/auth/resend-verification-public", {})).status).toBe(422)
  })

  it("a malformed address is a 422 naming the field, in the caller's language, for a new link or a reset (issue 23)", async () => {
    for (const path of ["/api/auth/resend-verification-public", "/api/auth/forgot-password"])
      for (const [language, messages] of [
        ["fr", fr],
        ["en", en]
      ] as const) {
        const reply = await api.post(path, { email: "marie.dubois@" }, { language })
        expectError(reply, 422, "VALIDATION_ERROR", path)
        expect(reply.body.details, path).toEqual([expect.objectContaining({ field: "email", message: messages["validation.email"] })])
      }
  })
})

describe("POST /api/auth/login", () => {
  it("200 with an access token, the user, and the refresh token in an httpOnly SameSite=Strict cookie on /api/auth", async () => {
    const reply = await api.post("/api/auth/login", { email: "Lucas.Bernard@marketplace.local", password: CLIENT.password })
    expect(reply.status).toBe(200)
    expect(reply.body.data.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(reply.body.data.expiresIn).toBe(900)
    expect(reply.body.data.user).toMatchObject({ email: CLIENT.email, role: "CLIENT", isEmailVerified: true })
    expect(reply.body.data).not.toHaveProperty("refreshToken")
    const cookie = reply.cookies.refreshToken!
    expect(cookie.value.length).toBeGreaterThanOrEqual(32)
    expect(cookie.attributes).toHaveProperty("httponly")
    expect(cookie.attributes.samesite).toBe("Strict")
    expect(cookie.attributes.path).toBe("/api/auth")
    expect(cookie.attributes["max-age"]).toBe(String(30 * 86_400))
  })

  it("401 INVALID_CREDENTIALS 'Email ou mot de passe incorrect', the same for a wrong password and an unknown email", async () => {
    const wrong = await api.post("/api/auth/login", { email: CLIENT.email, password: "Client1234?" })
    const unknown = await api.post("/api/auth/login", { email: "nobody@marketplace.local", password: CLIENT.password })
    for (const reply of [wrong, unknown]) {
      expect(reply.status).toBe(401)
      expect(reply.body).toEqual({ success: false, code: "INVALID_CREDENTIALS", message: "Email ou mot de passe incorrect" })
      expect(reply.cookies.refreshToken).toBeUndefined()
    }
    const english = await api.post("/api/auth/login", { email: CLIENT.email, password: "nope" }, { language: "en" })
    expect(english.body.message).toBe("Incorrect email or password")
  })

  it("422 when a field is missing, 400 when a field has the wrong type", async () => {
    const missing = await api.post("/api/auth/login", { email: CLIENT.email })
    expect(missing.status).toBe(422)
    expect(missing.body.details).toEqual([{ field: "password", message: "Ce champ est requis." }])
    const wrongType = await api.post("/api/auth/login", { email: CLIENT.email, password: 1234 })
    expect([wrongType.status, wrongType.body.code]).toEqual([400, "MALFORMED_REQUEST"])
  })
})

describe("GET /api/auth/me and /api/users/me", () => {
  it("200 with the current user for a valid bearer token", async () => {
    const session = await login(CLIENT)
    for (const path of ["/api/auth/me", "/api/users/me"]) {
      const reply = await api.get(path, { token: session.token })
      expect(reply.status).toBe(200)
      expect(reply.body.data.user).toMatchObject({ id: session.user.id, email: CLIENT.email, role: "CLIENT" })
    }
  })

  it("/api/auth/me (encoded by hand, without HttpApi's schema pass) answers exactly what its schema encodes", async () => {
    const session = await login(CLIENT)
    const reply = await api.get("/api/auth/me", { token: session.token })
    expect(reply.headers.get("content-type")).toBe("application/json")
    expect(reply.text).toBe(JSON.stringify(Schema.encodeSync(MeAnswer)(Schema.decodeUnknownSync(MeAnswer)(reply.body))))
  })

  it("401 without a token, with a malformed or forged token, or with another scheme", async () => {
    const session = await login(CLIENT)
    const forged = await new SignJWT({ role: "ADMIN" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(session.user.id)
      .setIssuedAt()
      .setExpirationTime("15m")
      .sign(crypto.randomBytes(32))
    const [header, , signature] = session.token.split(".")
    const tampered = `${header}.${Buffer.from(JSON.stringify({ role: "ADMIN", sub: session.user.id })).toString("base64url")}.${signature}`
    const unsigned = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${session.token.split(".")[1]}.`
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: "Bearer not-a-jwt" },
      { authorization: `Bearer ${forged}` },
      { authorization: `Bearer ${tampered}` },
      { authorization: `Bearer ${unsigned}` },
      { authorization: `Basic ${Buffer.from("a:b").toString("base64")}` },
      { authorization: session.token }
    ]
    for (const headers of attempts) {
      for (const path of ["/api/auth/me", "/api/users/me"]) {
        const reply = await api.get(path, { headers })
        expect(reply.status, JSON.stringify(headers)).toBe(401)
        expect(["SESSION_EXPIRED", "UNAUTHENTICATED"]).toContain(reply.body.code)
      }
    }
  })
})

describe("PATCH /api/users/me", () => {
  it("changes preferredLanguage; later answers show it", async () => {
    const { token } = await login(await verifiedUser())
    const reply = await api.patch("/api/users/me", { preferredLanguage: "en" }, { token })
    expect(reply.status).toBe(200)
    expect(reply.body.data.user.preferredLanguage).toBe("en")
    expect(reply.body.message).toBe(fr["profile.updated"])
    expect((await api.get("/api/auth/me", { token })).body.data.user.preferredLanguage).toBe("en")
    expect((await api.patch("/api/users/me", {}, { token })).body.data.user.preferredLanguage).toBe("en")
  })

  it("422 for an unsupported language, 400 for a wrong type, 401 without a token", async () => {
    const { token } = await login(await verifiedUser())
    const unsupported = await api.patch("/api/users/me", { preferredLanguage: "de" }, { token, language: "en" })
    expect(unsupported.status).toBe(422)
    expect(unsupported.body.details).toEqual([{ field: "preferredLanguage", message: en["validation.language"] }])
    const wrongType = await api.patch("/api/users/me", { preferredLanguage: 1 }, { token })
    expect([wrongType.status, wrongType.body.code]).toEqual([400, "MALFORMED_REQUEST"])
    expect((await api.patch("/api/users/me", { preferredLanguage: "en" })).status).toBe(401)
    for (const path of ["/api/users/me", "/api/auth/update-password"]) {
      const notJson = await api.call("PATCH", path, { raw: "{oops", token })
      expect([notJson.status, notJson.body.code]).toEqual([400, "MALFORMED_REQUEST"])
    }
    const wrongPasswordType = await api.patch("/api/auth/update-password", { currentPassword: 1, newPassword: true }, { token })
    expect([wrongPasswordType.status, wrongPasswordType.body.code]).toEqual([400, "MALFORMED_REQUEST"])
    expect((await api.get("/api/auth/me", { token })).body.data.user.preferredLanguage).toBe("fr")
  })
})

describe("refresh-token rotation", () => {
  it("POST /auth/refresh rotates the cookie; the old value is refused afterwards (and the cookie cleared)", async () => {
    const session = await login(CLIENT)
    const refreshed = await api.post("/api/auth/refresh", {}, { refreshCookie: session.cookie })
    expect(refreshed.status).toBe(200)
    const next = refreshed.cookies.refreshToken!
    expect(next.value).not.toBe(session.cookie)
    expect(next.attributes).toHaveProperty("httponly")
    expect(next.attributes.samesite).toBe("Strict")
    expect(next.attributes.path).toBe("/api/auth")
    expect(refreshed.body.data.user.email).toBe(CLIENT.email)
    expect((await api.get("/api/auth/me", { token: refreshed.body.data.token })).status).toBe(200)

    const replay = await api.post("/api/auth/refresh", undefined, { refreshCookie: session.cookie })
    expect(replay.status).toBe(401)
    expect(replay.body.code).toBe("SESSION_EXPIRED")
    expect(replay.cookies.refreshToken?.value).toBe("")
    expect(replay.cookies.refreshToken?.attributes["max-age"]).toBe("0")
    expect(replay.cookies.refreshToken?.attributes.path).toBe("/api/auth")
  })

  it("reusing a rotated token revokes the whole family: the newest token stops working too; other sessions live on", async () => {
    const other = await login(CLIENT)
    const session = await login(CLIENT)
    const second = (await api.post("/api/auth/refresh-token", {}, { refreshCookie: session.cookie })).cookies.refreshToken!.value
    const third = await api.post("/api/auth/refresh-token", {}, { refreshCookie: second })
    expect(third.status).toBe(200)
    expect(typeof third.body.data.token).toBe("string")
    const newest = third.cookies.refreshToken!.value

    // An attacker replays the first token.
    expect((await api.post("/api/auth/refresh", {}, { refreshCookie: session.cookie })).status).toBe(401)
    expect((await api.post("/api/auth/refresh-token", {}, { refreshCookie: newest })).status).toBe(401)
    expect((await api.post("/api/auth/refresh", {}, { refreshCookie: second })).status).toBe(401)

    expect((await api.post("/api/auth/refresh", {}, { refreshCookie: other.cookie })).status).toBe(200)
  })

  it("concurrent use of one token: at most one request wins, and the family is revoked (the winner's new token too)", async () => {
    // Several rounds: which request wins, and how the losers lose, varies from run to run.
    for (let round = 0; round < 6; round++) {
      const session = await login(CLIENT)
      const replies = await Promise.all(
        Array.from({ length: 4 }, () => api.post("/api/auth/refresh", {}, { refreshCookie: session.cookie }))
      )
      const winners = replies.filter((r) => r.status === 200)
      expect(winners.length).toBeLessThanOrEqual(1)
      for (const r of replies) expect([200, 401]).toContain(r.status)
      for (const winner of winners) {
        expect((await api.post("/api/auth/refresh", {}, { refreshCookie: winner.cookies.refreshToken!.value })).status).toBe(401)
      }
    }
  })

  it("401 without a cookie or with an unknown one", async () => {
    for (const path of ["/api/auth/refresh", "/api/auth/refresh-token"]) {
      expect((await api.post(path)).status).toBe(401)
      expect((await api.post(path, {}, { refreshCookie: "made-up" })).status).toBe(401)
    }
  })
})

describe("POST /api/auth/logout", () => {
  it("revokes the session and clears the cookie; the access token expires on its own", async () => {
    const session = await login(CLIENT)
    const rotated = (await api.post("/api/auth/refresh", {}, { refreshCookie: session.cookie })).cookies.refreshToken!.value
    const reply = await api.post("/api/auth/logout", undefined, { refreshCookie: rotated })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ success: true, data: {}, message: fr["auth.loggedOut"] })
    expect(reply.cookies.refreshToken?.value).toBe("")
    expect(reply.cookies.refreshToken?.attributes["max-age"]).toBe("0")
    expect((await api.post("/api/auth/refresh", {}, { refreshCookie: rotated })).status).toBe(401)
  })

  it("200 without a cookie too", async () => {
    expect((await api.post("/api/auth/logout")).status).toBe(200)
  })
})

describe("password reset", () => {
  it("forgot-password answers the same for known and unknown emails and mails only a real account", async () => {
    const user = await verifiedUser()
    const known = await api.post("/api/auth/forgot-password", { email: user.email })
    const unknown = await api.post("/api/auth/forgot-password", { email: "ghost@example.com" })
    for (const reply of [known, unknown]) {
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({
        success: true,
        data: {},
        message: "Si un compte existe pour cet email, un lien de réinitialisation a été envoyé."
      })
    }
    expect((await mailsAtLeast(server, user.email, 2))[0]!.subject).toBe(fr["mail.reset.subject"])
    expect(await mailsTo(server, "ghost@example.com")).toHaveLength(0)
    expect((await api.post("/api/auth/forgot-password", {})).status).toBe(422)
  })

  it("reset-password/{token} sets the new password once and closes every session", async () => {
    const user = await verifiedUser()
    const session = await login(user)
    await api.post("/api/auth/forgot-password", { email: user.email })
    const token = await mailedToken(server, user.email, "reset-password")

    const short = await api.post(`/api/auth/reset-password/${token}`, { password: "Ab1!", confirmPassword: "Ab1!" })
    expect(short.status).toBe(422)
    expect(short.body.details).toEqual([{ field: "password", message: fr["validation.passwordTooShort"] }])
    const mismatch = await api.post(
      `/api/auth/reset-password/${token}`,
      { password: "NewPass1!", confirmPassword: "NewPass2!" },
      { language: "en" }
    )
    expect(mismatch.status).toBe(422)
    expect(mismatch.body.details).toEqual([{ field: "confirmPassword", message: "Passwords do not match." }])

    const done = await api.post(`/api/auth/reset-password/${token}`, { password: "NewPass1!", confirmPassword: "NewPass1!" })
    expect(done.status).toBe(200)
    expect(done.body.message).toBe(fr["auth.passwordReset"])
    const reused = await api.post(`/api/auth/reset-password/${token}`, { password: "Other123!", confirmPassword: "Other123!" })
    expect([reused.status, reused.body.code]).toEqual([400, "INVALID_TOKEN"])

    expect((await api.post("/api/auth/refresh", {}, { refreshCookie: session.cookie })).status).toBe(401)
    expect((await api.post("/api/auth/login", user)).status).toBe(401)
    expect((await api.post("/api/auth/login", { email: user.email, password: "NewPass1!" })).status).toBe(200)
  })

  it("400 INVALID_TOKEN for an unknown reset token", async () => {
    const reply = await api.post("/api/auth/reset-password/unknown-token", { password: "NewPass1!", confirmPassword: "NewPass1!" })
    expect([reply.status, reply.body.code]).toEqual([400, "INVALID_TOKEN"])
  })
})

describe("PATCH /api/auth/update-password", () => {
  it("checks the current password and the new one's strength, then changes it", async () => {
    const user = await verifiedUser()
    const { token } = await login(user)
    expect((await api.patch("/api/auth/update-password", { currentPassword: user.password, newPassword: "Changed1!" })).status).toBe(401)

    const wrong = await api.patch(
      "/api/auth/update-password",
      { currentPassword: "Wrong123!", newPassword: "Changed1!", confirmPassword: "Changed1!" },
      { token }
    )
    expect(wrong.status).toBe(422)
    expect(wrong.body.details).toEqual([{ field: "currentPassword", message: "Le mot de passe actuel est incorrect." }])
    const weak = await api.patch(
      "/api/auth/update-password",
      { currentPassword: user.password, newPassword: "changed1!", confirmPassword: "changed1!" },
      { token }
    )
    expect(weak.status).toBe(422)
    expect(weak.body.details).toEqual([{ field: "password", message: fr["validation.password"] }])

    const done = await api.patch(
      "/api/auth/update-password",
      { currentPassword: user.password, newPassword: "Changed1!", confirmPassword: "Changed1!" },
      { token }
    )
    expect(done.status).toBe(200)
    expect(done.body.message).toBe(fr["auth.passwordUpdated"])
    expect((await api.post("/api/auth/login", user)).status).toBe(401)
    expect((await api.post("/api/auth/login", { email: user.email, password: "Changed1!" })).status).toBe(200)
  })
})

describe("deactivated accounts", () => {
  it("a deactivated user's access token stops working, and they can neither log in nor refresh", async () => {
    const user = await verifiedUser()
    const session = await login(user)
    expect((await api.get("/api/auth/me", { token: session.token })).status).toBe(200)
    await server.run(Effect.flatMap(UserRepository, (users) => users.setActive(session.user.id, false)))

    const me = await api.get("/api/auth/me", { token: session.token })
    expect([me.status, me.body.code]).toEqual([401, "ACCOUNT_DEACTIVATED"])
    expect((await api.get("/api/users/me", { token: session.token })).status).toBe(401)
    const again = await api.post("/api/auth/login", user)
    expect([again.status, again.body.code]).toEqual([401, "ACCOUNT_DEACTIVATED"])
    expect((await api.post("/api/auth/refresh", {}, { refreshCookie: session.cookie })).status).toBe(401)
  })
})

describe("POST /api/contact/send-message", () => {
  it("201: stores the message and mails support", async () => {
    const email = `visitor.${crypto.randomBytes(4).toString("hex")}@example.com`
    const reply = await api.post("/api/contact/send-message", { name: "Visiteur", email, subject: "payment", message: "Une question" })
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual({ success: true, data: {}, message: fr["contact.sent"] })
    const rows = await server.run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ subject: string; message: string }>`SELECT subject, message FROM contact_messages WHERE email = ${email}`
      )
    )
    expect(rows).toEqual([{ subject: "payment", message: "Une question" }])
    const support = await mailsTo(server, "support@marketplace.local")
    expect(support.some((m) => m.text.includes(email) && m.text.includes("Une question"))).toBe(true)
  })

  it("422 with per-field details, in the request's language", async () => {
    const reply = await api.post(
      "/api/contact/send-message",
      { name: " ", email: "nope", subject: "spam", message: "" },
      { language: "en" }
    )
    expect(reply.status).toBe(422)
    expect(reply.body.details).toEqual([
      { field: "name", message: "This field is required." },
      { field: "message", message: "This field is required." },
      { field: "email", message: "Invalid email address." },
      { field: "subject", message: "Unknown subject." }
    ])
  })
})
