import { Effect, Option, Redacted } from "effect"
import { bookingMail } from "../../src/modules/booking/mails"
import type { BookingDetail, Participant } from "../../src/modules/booking/ports"
import { Mailer } from "../../src/modules/notifications"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { mailsTo, registration } from "../support/http"
import { startSmtpSink } from "../support/smtp-sink"
import { httpWorld } from "../support/world"

// The SMTP server takes a second to greet: actions must not wait for it.
const GREETING_DELAY_MS = 1_000

let sink: Awaited<ReturnType<typeof startSmtpSink>>
// The sink is up before the world's server (hooks run in order) and stops after it.
beforeAll(async () => {
  sink = await startSmtpSink({ greetingDelayMs: GREETING_DELAY_MS })
})
afterAll(() => sink?.stop())
const { server, api } = httpWorld({
  config: () => ({ smtpUrl: Option.some(Redacted.make(sink.url)), mailFrom: "Marketplace <no-reply@test.local>" })
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

describe("attachments through SMTP", () => {
  const person = (id: string, email: string): Participant => ({
    id,
    firstName: "Ada",
    lastName: "Lovelace",
    email,
    phoneNumber: "",
    preferredLanguage: "en",
    timeZone: "America/Toronto"
  })
  const start = new Date("2027-03-12T14:00:00Z")
  const booking = (to: Participant): BookingDetail => ({
    id: "00000000-0000-4000-8000-0000000000b1",
    serviceId: "00000000-0000-4000-8000-0000000000c1",
    clientId: to.id,
    providerId: "00000000-0000-4000-8000-0000000000d1",
    status: "CONFIRMED",
    paymentStatus: "AUTHORIZED",
    startTime: start,
    endTime: new Date(start.getTime() + 90 * 60_000),
    address: "1 Infinite Loop, Montréal",
    notes: "",
    hourlyPriceMinor: 5000,
    currency: "EUR",
    totalMinor: 7500,
    authorizedMinor: 7500,
    capturedMinor: 0,
    refundedMinor: 0,
    holdExpiresAt: null,
    authorizationExpiresAt: null,
    renderedAt: null,
    paymentIssue: null,
    cancellationFeeMinor: 0,
    rejectionReason: null,
    cancelledBy: null,
    cancellationReason: null,
    checkoutSessionId: null,
    paymentIntentId: null,
    gatewayCustomerId: null,
    gatewayPaymentMethodId: null,
    version: 3,
    createdAt: start,
    updatedAt: start,
    service: { id: "00000000-0000-4000-8000-0000000000c1", title: "Piano lesson", description: "", categoryNameFr: "", categoryNameEn: "" },
    client: to,
    provider: person("00000000-0000-4000-8000-0000000000d1", "provider@test.local"),
    review: null,
    reschedules: [],
    dispute: null,
    resolvedCaptureMinor: null
  })

  it("the confirmation mail's .ics goes out as a text/calendar attachment", { timeout: 30_000 }, async () => {
    const to = person("00000000-0000-4000-8000-0000000000a1", `ics-${Date.now()}@test.local`)
    await server.run(
      Effect.flatMap(Mailer, (mailer) =>
        mailer.send(bookingMail("confirmed", to, "client", booking(to), { publicUrl: "http://x.test", siteName: "Atelier Test" }))
      )
    )
    const mail = await waitFor(() => sink.received.find((m) => m.to.some((address) => address.includes(to.email))))
    expect(mail.data).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=PUBLISH;\s+name=booking\.ics/)
    expect(mail.data).toMatch(/Content-Disposition: attachment; filename=booking\.ics/)
    // The part's body (nodemailer picks the encoding) decodes to the booking's calendar.
    const part = mail.data.split(/Content-Disposition: attachment; filename=booking\.ics\r\n\r\n/)[1] ?? ""
    // The sink drops "=\r\n" (quoted-printable soft breaks), which can eat base64 padding: read up to the boundary.
    const body = /^[A-Za-z0-9+/=\s]*/.exec(part)![0]
    const decoded = Buffer.from(body.replace(/[\s=]+/g, ""), "base64").toString("utf8")
    expect(decoded).toContain("UID:booking-00000000-0000-4000-8000-0000000000b1@marketplace")
    expect(decoded).toContain("DTSTART:20270312T140000Z")
    expect(decoded).toContain("DTEND:20270312T153000Z")
    expect(decoded).toContain("SUMMARY:Piano lesson")
  })
})
