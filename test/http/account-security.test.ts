import { Secret, TOTP } from "otpauth"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { en, fr } from "../../src/platform/messages"
import { adjustableClock } from "../support/clock"
import { login } from "../support/accounts"
import { httpClient, mailedToken, mailsAtLeast, mailsTo, registration } from "../support/http"
import { startTestServer, type TestServer } from "../support/server"

// Account takeover and session gaps (issue 23, item 10): a reset link mailed to the old address kept
// working after an email change, and confirming an email change or turning two-step login on left
// the other sessions signed in, with no mail about two-step login either way.

const clock = adjustableClock()
let server: TestServer
let api: ReturnType<typeof httpClient>
beforeAll(async () => {
  server = await startTestServer({}, { clock: clock.clock })
  api = httpClient(server)
})
afterAll(() => server?.stop())

interface OpenSession {
  readonly token: string
  readonly cookie: string
}

/** A verified account in `language`, and two sessions of it (two browsers). */
const accountWithTwoSessions = async (language: "fr" | "en") => {
  const input = registration()
  // The account takes the language it registered in.
  expect((await api.post("/api/auth/register", input, { language })).status).toBe(201)
  expect((await api.get(`/api/auth/verify-email/${await mailedToken(server, input.email, "verify-email")}`)).status).toBe(200)
  const open = async (): Promise<OpenSession> => {
    const reply = await api.post("/api/auth/login", { email: input.email, password: input.password })
    expect(reply.status, reply.text).toBe(200)
    return { token: reply.body.data.token, cookie: reply.cookies.refreshToken!.value }
  }
  return { email: input.email as string, password: input.password as string, here: await open(), elsewhere: await open() }
}
const refreshes = async (session: OpenSession) => (await api.post("/api/auth/refresh", {}, { refreshCookie: session.cookie })).status

describe("confirming an email change", () => {
  it("retires reset links mailed to the old address and ends every session but the one that opened the link", async () => {
    const account = await accountWithTwoSessions("fr")
    expect((await api.post("/api/auth/forgot-password", { email: account.email })).status).toBe(200)
    const oldReset = await mailedToken(server, account.email, "reset-password")
    const newEmail = registration().email as string
    const asked = await api.post("/api/auth/change-email", { newEmail, currentPassword: account.password }, { token: account.here.token })
    expect(asked.status, asked.text).toBe(200)
    const link = /\/confirm-email\/([A-Za-z0-9_-]+)/.exec((await mailsAtLeast(server, newEmail, 1))[0]!.text)![1]
    const confirmed = await api.get(`/api/auth/confirm-email/${link}`, { refreshCookie: account.here.cookie })
    expect(confirmed.status, confirmed.text).toBe(200)

    const reset = await api.post(`/api/auth/reset-password/${oldReset}`, { password: "Nouveau1234!", confirmPassword: "Nouveau1234!" })
    expect(reset.status, reset.text).toBe(400)
    expect(await refreshes(account.elsewhere)).toBe(401)
    expect(await refreshes(account.here)).toBe(200)
    // The old password still opens the account, at its new address only.
    expect((await api.post("/api/auth/login", { email: newEmail, password: account.password })).status).toBe(200)
  })
})

describe("two-step login", () => {
  for (const [language, catalog] of [
    ["fr", fr],
    ["en", en]
  ] as const)
    it(`turned on ends the other sessions and mails the account, turned off mails it too (${language})`, async () => {
      const account = await accountWithTwoSessions(language)
      const as = { token: account.here.token }
      const setup = await api.post("/api/auth/two-factor/setup", {}, as)
      expect(setup.status, setup.text).toBe(200)
      const totp = new TOTP({ secret: Secret.fromBase32(setup.body.data.secret), digits: 6, period: 30, algorithm: "SHA1" })
      const code = () => {
        clock.advance(31_000)
        return totp.generate({ timestamp: clock.now().getTime() })
      }
      const before = (await mailsTo(server, account.email)).length
      expect((await api.post("/api/auth/two-factor/enable", { code: code() }, as)).status).toBe(200)
      expect(await refreshes(account.elsewhere)).toBe(401)
      expect(await refreshes(account.here)).toBe(200)
      const on = (await mailsAtLeast(server, account.email, before + 1))[0]!
      expect(on.subject).toBe(catalog["mail.twoFactorOn.subject"])
      expect(on.text).toContain(catalog["mail.twoFactorOn.body"])

      const off = await api.post("/api/auth/two-factor/disable", { password: account.password, code: code() }, as)
      expect(off.status, off.text).toBe(200)
      const offMail = (await mailsAtLeast(server, account.email, before + 2))[0]!
      expect(offMail.subject).toBe(catalog["mail.twoFactorOff.subject"])
    })
})

describe("a data-export link", () => {
  /** Asks for an export and answers its link's path, once the job has mailed it. */
  const exportLink = async (account: { readonly email: string; readonly here: OpenSession }) => {
    const before = (await mailsTo(server, account.email)).length
    expect((await api.post("/api/account/export", {}, { token: account.here.token })).status).toBe(202)
    const mail = (await mailsAtLeast(server, account.email, before + 1))[0]!
    return /\/account\/export\/[A-Za-z0-9_-]+/.exec(mail.text)![0]
  }
  /** The page's download: a POST, once. */
  const downloads = async (link: string) => (await fetch(`${server.url}/api${link}`, { method: "POST" })).status

  it("stops opening once the password changes", async () => {
    const account = await accountWithTwoSessions("fr")
    // One export opens before the change; another, made before it too, no longer after.
    expect(await downloads(await exportLink(account))).toBe(200)
    const link = await exportLink(account)
    const changed = await api.patch(
      "/api/auth/update-password",
      { currentPassword: account.password, newPassword: "Nouveau1234!", confirmPassword: "Nouveau1234!" },
      { token: account.here.token, refreshCookie: account.here.cookie }
    )
    expect(changed.status, changed.text).toBe(200)
    expect(await downloads(link)).toBe(404)
  })

  it("stops opening once the account is deactivated", async () => {
    const account = await accountWithTwoSessions("en")
    const link = await exportLink(account)
    const me = await api.get("/api/auth/me", { token: account.here.token })
    const admin = await login(api, "admin@marketplace.local", "Admin1234!")
    const off = await api.patch(`/api/admin/users/${me.body.data.user.id}/status`, { isActive: false }, { token: admin.token })
    expect(off.status, off.text).toBe(200)
    expect(await downloads(link)).toBe(404)
  })
})
