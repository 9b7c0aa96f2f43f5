import { describe, expect, it } from "vitest"
import { securityHeadersFor } from "../../src/platform/http/middleware"
import { httpClient } from "../support/http"
import { httpWorld } from "../support/world"

const directive = (csp: string, name: string) => csp.split("; ").find((d) => d.startsWith(`${name} `)) ?? ""

describe("securityHeadersFor", () => {
  it("HSTS only with an https public origin", () => {
    expect(securityHeadersFor({ publicUrl: "https://market.example.com", stripe: false })["strict-transport-security"]).toBe(
      "max-age=31536000"
    )
    expect(securityHeadersFor({ publicUrl: "http://localhost:3000", stripe: false })).not.toHaveProperty("strict-transport-security")
  })

  it("connect-src: the app's own origin and its socket URL, never any host; Stripe's origins only with Stripe", () => {
    const sandbox = securityHeadersFor({ publicUrl: "https://market.example.com", stripe: false })["content-security-policy"]!
    expect(directive(sandbox, "connect-src")).toBe("connect-src 'self' wss://market.example.com")
    expect(sandbox).not.toContain("stripe")
    const local = securityHeadersFor({ publicUrl: "http://localhost:3000/", stripe: false })["content-security-policy"]!
    expect(directive(local, "connect-src")).toBe("connect-src 'self' ws://localhost:3000")
    const stripe = securityHeadersFor({ publicUrl: "https://market.example.com", stripe: true })["content-security-policy"]!
    expect(directive(stripe, "connect-src")).toBe("connect-src 'self' wss://market.example.com https://api.stripe.com")
    expect(directive(stripe, "script-src")).toBe("script-src 'self' https://js.stripe.com")
    expect(directive(stripe, "form-action")).toBe("form-action 'self' https://checkout.stripe.com")
    expect(directive(sandbox, "script-src")).toBe("script-src 'self'")
  })
})

describe("answers", () => {
  const { server } = httpWorld()
  const { server: secure } = httpWorld({ config: { publicUrl: "https://market.example.com" } })

  it("every /api answer is no-store (tokens, personal data, errors alike); UI pages keep their own caching", async () => {
    const api = httpClient(server)
    const login = await api.post("/api/auth/login", { email: "lucas.bernard@marketplace.local", password: "Client1234!" })
    expect(login.status).toBe(200)
    const token = login.body.data.token as string
    const answers = [
      login,
      await api.get("/api/auth/me", { token }),
      await api.get("/api/users/me", { token }),
      await api.get("/api/bookings/me", { token }),
      await api.get("/api/health"),
      await api.post("/api/auth/login", { email: "x@example.com", password: "nope" }),
      await api.get("/api/nope")
    ]
    for (const reply of answers) expect(reply.headers.get("cache-control"), reply.text.slice(0, 80)).toBe("no-store")
    expect((await api.get("/login")).headers.get("cache-control")).not.toBe("no-store")
    const csp = login.headers.get("content-security-policy")!
    expect(directive(csp, "connect-src")).toBe(`connect-src 'self' ws://localhost:${server.port}`)
    expect(login.headers.get("strict-transport-security")).toBeNull()
  })

  it("HSTS on every answer when PUBLIC_URL is https", async () => {
    const api = httpClient(secure)
    for (const path of ["/", "/api/health", "/api/nope"]) {
      expect((await api.get(path)).headers.get("strict-transport-security"), path).toBe("max-age=31536000")
    }
    expect(directive((await api.get("/")).headers.get("content-security-policy")!, "connect-src")).toBe(
      "connect-src 'self' wss://market.example.com"
    )
  })
})
