import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpClient, registration } from "../support/http"
import { startTestServer, type TestServer } from "../support/server"

// A server of its own: three attempts per window on the sensitive endpoints.
let server: TestServer
let api: ReturnType<typeof httpClient>
beforeAll(async () => {
  server = await startTestServer({ authRateLimit: 3, authRateWindowSeconds: 600 })
  api = httpClient(server)
})
afterAll(() => server?.stop())

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
    expect(refused.body.message).toMatch(/^Trop de tentatives\. Réessayez dans \d+ secondes\.$/)
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
    })
  }

  it("other endpoints are not limited", async () => {
    for (let i = 0; i < 6; i++) {
      expect((await api.get("/api/health")).status).toBe(200)
      expect((await api.get("/api/auth/me")).status).toBe(401)
      expect((await api.post("/api/auth/refresh")).status).toBe(401)
    }
  })
})
