import { Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpClient, mailsTo, registration } from "../support/http"
import { startTestServer, type TestServer } from "../support/server"
import { startSmtpSink } from "../support/smtp-sink"

// The SMTP server takes a second to greet: actions must not wait for it.
const GREETING_DELAY_MS = 1_000

let sink: Awaited<ReturnType<typeof startSmtpSink>>
let server: TestServer
let api: ReturnType<typeof httpClient>
beforeAll(async () => {
  sink = await startSmtpSink({ greetingDelayMs: GREETING_DELAY_MS })
  server = await startTestServer({ smtpUrl: Option.some(Redacted.make(sink.url)), mailFrom: "Marketplace <no-reply@test.local>" })
  api = httpClient(server)
}, 60_000)
afterAll(async () => {
  await server?.stop()
  await sink?.stop()
})

const waitFor = async <A>(find: () => A | undefined, timeoutMs = 20_000): Promise<A> => {
  const start = Date.now()
  for (;;) {
    const found = find()
    if (found !== undefined) return found
    if (Date.now() - start > timeoutMs) throw new Error("timed out")
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe("mail through SMTP (SMTP_URL set)", () => {
  it("a registration answers without waiting on the SMTP server; its verification mail is delivered by the background worker", {
    timeout: 30_000
  }, async () => {
    const body = registration()
    const started = Date.now()
    const reply = await api.post("/api/auth/register", body)
    expect(reply.status, reply.text).toBe(201)
    expect(Date.now() - started).toBeLessThan(GREETING_DELAY_MS)

    const mail = await waitFor(() => sink.received.find((m) => m.to.some((to) => to.includes(body.email as string))))
    expect(mail.from).toContain("no-reply@test.local")
    expect(mail.data).toMatch(/^Subject: /m)
    expect(mail.data).toContain("/verify-email/")
    expect(mail.data).toMatch(/Content-Type: text\/html/)
    // Delivered once, and nothing left in the local outbox (which SMTP mode does not use).
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(sink.received.filter((m) => m.to.some((to) => to.includes(body.email as string)))).toHaveLength(1)
    expect(await mailsTo(server, body.email as string)).toHaveLength(0)
  })
})
