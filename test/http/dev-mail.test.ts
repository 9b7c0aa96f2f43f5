import { Effect, Either, Option, Redacted } from "effect"
import * as os from "node:os"
import { describe, expect, it } from "vitest"
import { MailTransport } from "../../src/modules/notifications"
import { resolveDevMail } from "../../src/platform/config"
import { httpClient, mailsAtLeast } from "../support/http"
import { httpWorld } from "../support/world"

const ADMIN = "admin@marketplace.local"

describe("resolveDevMail: the outbox page is opt-in and local", () => {
  const none = Option.none<unknown>()
  const base = {
    devMail: Option.none<boolean>(),
    nodeEnv: Option.none<string>(),
    smtpUrl: none,
    databaseUrl: none,
    publicUrl: Option.none<string>()
  }
  const resolve = (overrides: Partial<typeof base> = {}) => resolveDevMail({ ...base, ...overrides })

  it("on by default only in the embedded default of make start (no DATABASE_URL, no PUBLIC_URL)", () => {
    expect(resolve()).toEqual(Either.right(true))
    expect(resolve({ databaseUrl: Option.some(Redacted.make("postgres://db/x")) })).toEqual(Either.right(false))
    expect(resolve({ publicUrl: Option.some("https://market.example.com") })).toEqual(Either.right(false))
  })

  it("DEV_MAIL=1 turns it on, DEV_MAIL=0 off; never with SMTP_URL", () => {
    expect(resolve({ devMail: Option.some(true), databaseUrl: Option.some(Redacted.make("postgres://db/x")) })).toEqual(Either.right(true))
    expect(resolve({ devMail: Option.some(false) })).toEqual(Either.right(false))
    expect(resolve({ devMail: Option.some(true), smtpUrl: Option.some(Redacted.make("smtp://mail")) })).toEqual(Either.right(false))
  })

  it("never with NODE_ENV=production; asking for it there is refused at start", () => {
    expect(resolve({ nodeEnv: Option.some("production") })).toEqual(Either.right(false))
    const refused = resolve({ nodeEnv: Option.some("production"), devMail: Option.some(true) })
    expect(Either.isLeft(refused)).toBe(true)
    expect(String(Either.isLeft(refused) ? refused.left : "")).toContain("DEV_MAIL")
  })
})

/** This machine's first non-loopback IPv4 address, if it has one. */
const externalAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address

describe("GET /dev/mail", () => {
  const { server: off } = httpWorld({ config: { devMail: false } })
  const { server: on } = httpWorld({ config: { devMail: true, host: "0.0.0.0" } })

  it("without DEV_MAIL the outbox is nowhere, even though mail goes to it (no SMTP_URL)", async () => {
    const api = httpClient(off)
    expect((await api.post("/api/auth/forgot-password", { email: ADMIN })).status).toBe(200)
    expect((await mailsAtLeast(off, ADMIN, 1)).length).toBe(1)
    const page = await api.get("/dev/mail")
    expect(page.text).not.toContain("reset-password")
    expect(page.text).not.toContain("Local outbox")
  })

  it("with DEV_MAIL it answers requests from the loopback address, never through a proxy", async () => {
    const api = httpClient(on)
    expect((await api.post("/api/auth/forgot-password", { email: ADMIN })).status).toBe(200)
    await mailsAtLeast(on, ADMIN, 1)
    const page = await api.get("/dev/mail")
    expect(page.status).toBe(200)
    expect(page.text).toContain("reset-password")
    expect(page.headers.get("cache-control")).toBe("no-store")
    // A reverse proxy on the same machine relays remote clients from 127.0.0.1: refused.
    for (const header of ["x-forwarded-for", "forwarded", "x-real-ip"]) {
      const relayed = await api.get("/dev/mail", { headers: { [header]: header === "forwarded" ? "for=203.0.113.9" : "203.0.113.9" } })
      expect([relayed.status, relayed.text.includes("reset-password")], header).toEqual([404, false])
    }
  })

  it("names each mail's attachments", async () => {
    await on.run(
      Effect.flatMap(MailTransport, (transport) =>
        transport.send({
          to: "attachments@example.com",
          subject: "With a calendar",
          text: "See the attached file.",
          html: "<p>See the attached file.</p>",
          attachments: [{ filename: "booking<1>.ics", contentType: "text/calendar", content: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n" }]
        })
      )
    )
    const page = await httpClient(on).get("/dev/mail")
    expect(page.text).toContain('Attachments: <span class="attachment">booking&lt;1&gt;.ics</span>')
  })

  it.skipIf(externalAddress === undefined)("with DEV_MAIL a request from another address is answered 404", async () => {
    const reply = await fetch(`http://${externalAddress}:${on.port}/dev/mail`)
    const text = await reply.text()
    expect(reply.status).toBe(404)
    expect(text).not.toContain("reset-password")
  })
})
