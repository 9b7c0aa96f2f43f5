import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type TestServer } from "../support/server"

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server?.stop())

describe("smoke", () => {
  it("answers health with the database checked", async () => {
    const res = await fetch(`${server.url}/api/health`)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
    expect((await res.json()).data.database).toBe("ok")
  })
  it("logs a seeded account in", async () => {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "lucas.bernard@marketplace.local", password: "Client1234!" })
    })
    const body = await res.json()
    expect(res.status, JSON.stringify(body)).toBe(200)
    const me = await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${body.data.token}` } })
    expect((await me.json()).data.user.email).toBe("lucas.bernard@marketplace.local")
  })
})
