import { describe, expect, it } from "vitest"
import { mailedToken, type Reply, registration } from "../support/http"
import { httpWorld } from "../support/world"

// A server of its own: three attempts per window on the sensitive endpoints.
const { api } = httpWorld({ config: { authRateLimit: 3, authRateWindowSeconds: 600 } })

const expectRetryAfter = (reply: Reply) => {
  const header = reply.headers.get("retry-after")
  expect(header, "Retry-After").toMatch(/^[1-9]\d*$/)
  expect(reply.body.message).toContain(` ${header} `)
}

const limited: ReadonlyArray<readonly [string, () => unknown]> = [
  ["/api/auth/login", () => ({ email: "lucas.bernard@marketplace.local", password: "Wrong1234!" })],
  ["/api/auth/register", () => registration()],
  ["/api/auth/forgot-password", () => ({ email: "nobody@example.com" })],
  ["/api/auth/resend-verification-public", () => ({ email: "nobody@example.com" })],
  ["/api/contact/send-message", () => ({ name: "A", email: "a@example.com", subject: "general", message: "Hello" })]
]

describe("rate limits (authRateLimit: 3)", () => {
  it("the 4th login within the window is refused with 429 RATE_LIMITED, even with the right password", async () => {
    for (let i = 0; i < 3; i++) expect((await api.post("/api/auth/login", limited[0]![1]())).status).toBe(401)
    const refused = await api.post("/api/auth/login", { email: "lucas.bernard@marketplace.local", password: "Client1234!" })
    expect(refused.status).toBe(429)
    expect(refused.body.code).toBe("RATE_LIMITED")
    expect(refused.body.message).toMatch(/^Trop de tentatives\. Réessayez dans \d+ secondes?\.$/)
    expect(refused.cookies.refreshToken).toBeUndefined()
    const english = await api.post("/api/auth/login", limited[0]![1](), { language: "en" })
    expect(english.status).toBe(429)
    expect(english.body.message).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/)
  })

  for (const [path, payload] of limited.slice(1)) {
    it(`${path} is limited on its own counter`, async () => {
      for (let i = 0; i < 3; i++) expect((await api.post(path, payload())).status).toBeLessThan(300)
      const refused = await api.post(path, payload())
      expect([refused.status, refused.body.code]).toEqual([429, "RATE_LIMITED"])
      expectRetryAfter(refused)
    })
  }

  it("every 429 carries Retry-After, the seconds its message names", async () => {
    const refused = await api.post("/api/auth/login", limited[0]![1]())
    expect(refused.status).toBe(429)
    expectRetryAfter(refused)
  })

  it("reset-password is limited (guessing tokens)", async () => {
    for (let i = 0; i < 3; i++)
      expect((await api.post("/api/auth/reset-password/guess", { password: "NewPass1!", confirmPassword: "NewPass1!" })).status).toBe(400)
    const refused = await api.post("/api/auth/reset-password/guess", { password: "NewPass1!", confirmPassword: "NewPass1!" })
    expect([refused.status, refused.body.code]).toEqual([429, "RATE_LIMITED"])
    expectRetryAfter(refused)
  })

  it("a forged X-Forwarded-For does not escape the limit when no proxy is trusted", async () => {
    const refused = await api.post("/api/auth/login", limited[0]![1](), { headers: { "x-forwarded-for": "203.0.113.77" } })
    expect(refused.status).toBe(429)
  })

  it("other endpoints are not limited", async () => {
    for (let i = 0; i < 6; i++) {
      expect((await api.get("/api/health")).status).toBe(200)
      expect((await api.get("/api/auth/me")).status).toBe(401)
      expect((await api.post("/api/auth/refresh")).status).toBe(401)
    }
  })
})

describe("behind a trusted proxy (TRUST_PROXY=1)", () => {
  const { server: proxied, api: client } = httpWorld({
    config: { authRateLimit: 3, authRateWindowSeconds: 600, trustProxy: { _tag: "Hops", hops: 1 } }
  })
  const from = (address: string) => ({ headers: { "x-forwarded-for": `198.51.100.1, ${address}` } })
  const wrongLogin = { email: "lucas.bernard@marketplace.local", password: "Wrong1234!" }

  it("each client behind the load balancer has its own counter (the address the proxy appended)", async () => {
    for (let i = 0; i < 3; i++) expect((await client.post("/api/auth/login", wrongLogin, from("203.0.113.1"))).status).toBe(401)
    expect((await client.post("/api/auth/login", wrongLogin, from("203.0.113.1"))).status).toBe(429)
    expect((await client.post("/api/auth/login", wrongLogin, from("203.0.113.2"))).status).toBe(401)
  })

  it("update-password is limited per account, whatever the address", async () => {
    const input = registration()
    expect((await client.post("/api/auth/register", input, from("203.0.113.10"))).status).toBe(201)
    expect((await client.get(`/api/auth/verify-email/${await mailedToken(proxied, input.email, "verify-email")}`)).status).toBe(200)
    const login = await client.post("/api/auth/login", { email: input.email, password: input.password }, from("203.0.113.11"))
    const token = login.body.data.token as string
    const attempt = (i: number) =>
      client.patch(
        "/api/auth/update-password",
        { currentPassword: `Guess${i}234!`, newPassword: "Changed1!", confirmPassword: "Changed1!" },
        { token, ...from(`203.0.113.${20 + i}`) }
      )
    for (let i = 0; i < 3; i++) expect((await attempt(i)).status).toBe(422)
    const refused = await attempt(3)
    expect([refused.status, refused.body.code]).toEqual([429, "RATE_LIMITED"])
    expectRetryAfter(refused)
  })
})
