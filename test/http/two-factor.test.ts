import { Effect } from "effect"
import { Secret, TOTP } from "otpauth"
import { describe, expect, it } from "vitest"
import { UserRepository } from "../../src/modules/identity"
import { en, fr } from "../../src/platform/messages"
import { TWO_FACTOR_ATTEMPTS } from "../../src/modules/identity/two-factor"
import { login, newClient, type Session } from "../support/accounts"
import { httpClient, registration } from "../support/http"
import { adjustableClock } from "../support/clock"
import { startTestServer } from "../support/server"
import { httpWorld } from "../support/world"

// Issue 15, item 5: two-step login with an authenticator app (TOTP).

/** The brand (SITE_NAME), the issuer authenticator apps show: not the default, and with a space to encode. */
const SITE_NAME = "Atelier Test"
const clock = adjustableClock()
const { server, api, sql } = httpWorld({ config: { siteName: SITE_NAME }, clock: clock.clock })

const PASSWORD = registration().password
/** The code an authenticator app shows for `secret` at the server's time (a new 30 s step each call moves time on). */
const codeFor = (secret: string) => {
  clock.advance(31_000)
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({
    timestamp: clock.now().getTime()
  })
}
const as = (session: Session) => ({ token: session.token })

/** A verified client with two-step login on: its secret and recovery codes. */
const enrolled = async () => {
  const user = await newClient(server, api)
  const setup = await api.post("/api/auth/two-factor/setup", {}, as(user))
  expect(setup.status, setup.text).toBe(200)
  const secret = setup.body.data.secret as string
  const enabled = await api.post("/api/auth/two-factor/enable", { code: codeFor(secret) }, as(user))
  expect(enabled.status, enabled.text).toBe(200)
  return { user, secret, recoveryCodes: enabled.body.data.recoveryCodes as ReadonlyArray<string> }
}
const passwordStep = async (email: string) => {
  const reply = await api.post("/api/auth/login", { email, password: PASSWORD })
  expect(reply.status, reply.text).toBe(200)
  expect(reply.body.data).toMatchObject({ twoFactorRequired: true, expiresIn: 300 })
  expect(reply.body.data).not.toHaveProperty("token")
  expect(reply.cookies.refreshToken, "no session before the code").toBeUndefined()
  return reply.body.data.challenge as string
}
const codeStep = (challenge: string, second: { code?: string; recoveryCode?: string }, language?: string) =>
  api.post("/api/auth/login/two-factor", { challenge, ...second }, language ? { language } : {})

describe("enrolment", () => {
  it("shows a secret and its QR code, is confirmed by a first code, answers ten recovery codes once; the secret is stored encrypted", async () => {
    const user = await newClient(server, api)
    const status = async () => (await api.get("/api/auth/two-factor", as(user))).body.data.twoFactor
    expect(await status()).toEqual({ enabled: false, pending: false, recoveryCodesLeft: 0, required: false })
    expectStatus(await api.post("/api/auth/two-factor/enable", { code: "123456" }, as(user)), 409, "TWO_FACTOR_NOT_STARTED")

    const setup = await api.post("/api/auth/two-factor/setup", {}, as(user))
    expect(setup.status, setup.text).toBe(200)
    const { secret, otpauthUrl, qrCodeSvg } = setup.body.data
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    // The label and the issuer parameter name the brand, URL-encoded.
    expect(otpauthUrl.startsWith(`otpauth://totp/${encodeURIComponent(SITE_NAME)}:`)).toBe(true)
    expect(otpauthUrl).toContain(`issuer=${encodeURIComponent(SITE_NAME)}`)
    expect(new URL(otpauthUrl).searchParams.get("issuer")).toBe(SITE_NAME)
    expect(otpauthUrl).toContain(`secret=${secret}`)
    expect(qrCodeSvg).toMatch(/^<svg/)
    expect(await status()).toMatchObject({ enabled: false, pending: true })
    const [stored] = await sql<{ secret: string }>(`SELECT secret_encrypted AS secret FROM two_factor_secrets WHERE user_id = $1`, [
      user.id
    ])
    expect(stored!.secret).not.toContain(secret)

    // A wrong first code: 422 on `code`, in the user's language; nothing enabled.
    const wrong = await api.post("/api/auth/two-factor/enable", { code: "000000" }, { ...as(user), language: "en" })
    expectStatus(wrong, 422, "VALIDATION_ERROR")
    expect(wrong.body.details).toEqual([{ field: "code", message: en["twoFactor.invalidCode"] }])
    expect(await status()).toMatchObject({ enabled: false })

    const enabled = await api.post("/api/auth/two-factor/enable", { code: codeFor(secret) }, as(user))
    expect(enabled.status, enabled.text).toBe(200)
    expect(enabled.body.message).toBe(fr["twoFactor.enabled"])
    const codes = enabled.body.data.recoveryCodes as ReadonlyArray<string>
    expect(codes).toHaveLength(10)
    expect(new Set(codes).size).toBe(10)
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/)
    // Stored as digests only.
    const digests = await sql<{ h: string }>(`SELECT code_hash AS h FROM two_factor_recovery_codes WHERE user_id = $1`, [user.id])
    expect(digests).toHaveLength(10)
    for (const { h } of digests) expect(codes).not.toContain(h)
    expect(await status()).toEqual({ enabled: true, pending: false, recoveryCodesLeft: 10, required: false })
    // Never shown again: a new setup is refused while it is on.
    expectStatus(await api.post("/api/auth/two-factor/setup", {}, as(user)), 409, "TWO_FACTOR_ALREADY_ENABLED")
    expect(JSON.stringify((await api.get("/api/auth/two-factor", as(user))).body)).not.toContain(secret)
  })
})

describe("login with two-step on", () => {
  it("asks for a code after the password; a right code opens the session, a code works once", async () => {
    const { user, secret } = await enrolled()
    const challenge = await passwordStep(user.email)
    const wrong = await codeStep(challenge, { code: "000000" }, "en")
    expectStatus(wrong, 401, "INVALID_TWO_FACTOR_CODE")
    expect(wrong.body.message).toBe(en["twoFactor.invalidCode"])
    const missing = await codeStep(challenge, {})
    expectStatus(missing, 422, "VALIDATION_ERROR")
    const code = codeFor(secret)
    const signedIn = await codeStep(challenge, { code })
    expect(signedIn.status, signedIn.text).toBe(200)
    expect(signedIn.body.data.user.id).toBe(user.id)
    expect(signedIn.cookies.refreshToken).toBeTruthy()
    expect((await api.get("/api/auth/me", { token: signedIn.body.data.token })).status).toBe(200)
    // The challenge is spent; the same code does not open a second session.
    expectStatus(await codeStep(challenge, { code }), 401, "TWO_FACTOR_CHALLENGE_EXPIRED")
    expectStatus(await codeStep(await passwordStep(user.email), { code }), 401, "INVALID_TWO_FACTOR_CODE")
    // A wrong password never reaches the second step.
    expectStatus(await api.post("/api/auth/login", { email: user.email, password: "Wrong123!" }), 401, "INVALID_CREDENTIALS")
    // A challenge expires after five minutes.
    const late = await passwordStep(user.email)
    clock.advance(5 * 60_000 + 1000)
    expectStatus(await codeStep(late, { code: codeFor(secret) }), 401, "TWO_FACTOR_CHALLENGE_EXPIRED")
    expectStatus(await codeStep("not-a-challenge", { code: "123456" }), 401, "TWO_FACTOR_CHALLENGE_EXPIRED")
  })

  it("a recovery code works once", async () => {
    const { user, recoveryCodes } = await enrolled()
    const [first, second] = recoveryCodes as [string, string]
    const once = await codeStep(await passwordStep(user.email), { recoveryCode: first.toUpperCase() })
    expect(once.status, once.text).toBe(200)
    expectStatus(await codeStep(await passwordStep(user.email), { recoveryCode: first }), 401, "INVALID_TWO_FACTOR_CODE")
    // Typed in the code field, it works too.
    expect((await codeStep(await passwordStep(user.email), { code: second.replace("-", " ") })).status).toBe(200)
    expect((await api.get("/api/auth/two-factor", { token: once.body.data.token })).body.data.twoFactor.recoveryCodesLeft).toBe(8)
  })

  it(`wrong codes are rate-limited per account: after ${TWO_FACTOR_ATTEMPTS} attempts, 429 even with the right code`, async () => {
    const { user, secret } = await enrolled()
    const challenge = await passwordStep(user.email)
    // Enrolment's first code counted one attempt.
    for (let i = 1; i < TWO_FACTOR_ATTEMPTS; i++)
      expectStatus(await codeStep(challenge, { code: "000000" }), 401, "INVALID_TWO_FACTOR_CODE")
    const limited = await codeStep(challenge, { code: codeFor(secret) })
    expectStatus(limited, 429, "RATE_LIMITED")
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
    // Per account: another account is not affected.
    const other = await enrolled()
    expect((await codeStep(await passwordStep(other.user.email), { code: codeFor(other.secret) })).status).toBe(200)
  })

  it("disabling takes the password and a code; then the password alone signs in", async () => {
    const { user, secret } = await enrolled()
    const wrongPassword = await api.post("/api/auth/two-factor/disable", { password: "Wrong123!", code: codeFor(secret) }, as(user))
    expectStatus(wrongPassword, 422, "VALIDATION_ERROR")
    expect(wrongPassword.body.details).toEqual([{ field: "password", message: fr["auth.wrongCurrentPassword"] }])
    expectStatus(await api.post("/api/auth/two-factor/disable", { password: PASSWORD, code: "000000" }, as(user)), 422, "VALIDATION_ERROR")
    const off = await api.post("/api/auth/two-factor/disable", { password: PASSWORD, code: codeFor(secret) }, as(user))
    expect(off.status, off.text).toBe(200)
    const plain = await api.post("/api/auth/login", { email: user.email, password: PASSWORD })
    expect(plain.body.data.token).toBeTruthy()
    expect(await sql(`SELECT 1 FROM two_factor_recovery_codes WHERE user_id = $1`, [user.id])).toHaveLength(0)
  })
})

describe("required for admins (ADMIN_TWO_FACTOR_REQUIRED)", () => {
  it("an admin without it gets 403 TWO_FACTOR_REQUIRED on the back-office until enrolled; others are not affected", async () => {
    const strict = await startTestServer({ adminTwoFactorRequired: true }, { clock: clock.clock, databaseUrl: server.databaseUrl! })
    try {
      const strictApi = httpClient(strict)
      const admin = await newClient(server, api)
      await server.run(Effect.flatMap(UserRepository, (users) => users.setRole(admin.id, "ADMIN")))
      const session = await login(strictApi, admin.email, PASSWORD)
      const refused = await strictApi.get("/api/admin/applications", { token: session.token, language: "en" })
      expectStatus(refused, 403, "TWO_FACTOR_REQUIRED")
      expect(refused.body.message).toBe(en["twoFactor.required"])
      expectStatus(await strictApi.get("/api/admin/dashboard", { token: session.token }), 403, "TWO_FACTOR_REQUIRED")
      // Their session and the enrolment stay reachable.
      expect((await strictApi.get("/api/auth/me", { token: session.token })).status).toBe(200)
      const status = await strictApi.get("/api/auth/two-factor", { token: session.token })
      expect(status.body.data.twoFactor).toMatchObject({ enabled: false, required: true })
      const setup = await strictApi.post("/api/auth/two-factor/setup", {}, { token: session.token })
      const code = codeFor(setup.body.data.secret)
      expect((await strictApi.post("/api/auth/two-factor/enable", { code }, { token: session.token })).status).toBe(200)
      expect((await strictApi.get("/api/admin/applications", { token: session.token })).status).toBe(200)
      // A client on the strict server is not affected.
      const client = await newClient(server, api)
      const clientSession = await login(strictApi, client.email, PASSWORD)
      expect((await strictApi.get("/api/bookings/me", { token: clientSession.token })).status).toBe(200)
    } finally {
      await strict.stop()
    }
  })
})

const expectStatus = (reply: { status: number; text: string; body: any }, status: number, code: string) => {
  expect(reply.status, reply.text).toBe(status)
  expect(reply.body.code).toBe(code)
}
