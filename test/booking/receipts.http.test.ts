import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Bookings } from "../../src/modules/booking/service"
import { Transactional } from "../../src/platform/transaction"
import { refundBooking, setBookingStatus } from "../../cli/commands/bookings/shared"
import { EARNINGS_CSV_HEADER } from "../../src/modules/booking/statements"
import { formatMoney } from "../../src/platform/money"
import { en, fr } from "../../src/platform/messages"
import { parseCsv } from "../administration/csv"
import { providerWithService, type Session } from "../support/accounts"
import { mailsTo } from "../support/http"
import { pdfInfo, pdfText } from "../support/pdf"
import { httpWorld } from "../support/world"

// Receipts for clients and earnings for providers (issue 13, item 5), over HTTP: who may read them,
// 404 and 409, the PDF and its figures, the mail with the PDF, the earnings' figures, totals and CSV.

/** The brand (SITE_NAME) that issues the receipts: not the default, so nothing can say it by chance. */
const SITE_NAME = "Atelier Test"

// 35 € an hour: a 2-hour booking is 70,00 €.
const { server, api, provider, client, stranger, admin, bookedIn } = httpWorld({
  config: { siteName: SITE_NAME },
  service: { title: "Cours de piano", description: "Cours particuliers à domicile.", price: 35, location: "Québec", categoryId: 9 },
  stranger: true,
  admin: true,
  slots: { fromHours: 24, hours: 2 },
  booking: { address: "2 rue Saint-Jean, Québec" }
})

/** A booking of 2 hours, paid (authorised) in the sandbox. */
const paidBooking = async () => (await bookedIn("paid")).bookingId
/** Confirmed then validated by an admin: the 70,00 € are captured. */
const capture = async (id: string) => {
  await server.run(setBookingStatus(id, "CONFIRMED", undefined))
  expect(await server.run(setBookingStatus(id, "VALIDATED", undefined))).toMatchObject({ paymentStatus: "CAPTURED", capturedMinor: 7000 })
}
/** A binary or text answer, read without the JSON client's envelope checks. */
const raw = async (path: string, token?: string, language = "fr") => {
  const res = await fetch(server.url + path, {
    headers: { "accept-language": language, ...(token ? { authorization: `Bearer ${token}` } : {}) }
  })
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) }
}
/** A user's full name, as the account says. */
const nameOf = async (session: Session) => {
  const me = (await api.get("/api/auth/me", { token: session.token })).body.data.user
  return `${me.firstName} ${me.lastName}`
}
/** Intl writes narrow and plain no-break spaces; the PDF's text has plain ones. */
const spaced = (text: string) => text.replace(/\s/g, " ")
const eur = (language: "fr" | "en", minor: number) => spaced(formatMoney(language === "fr" ? "fr-FR" : "en-CA", minor, "EUR"))

describe("a booking's receipt", () => {
  it("is refused while nothing is captured (409), and hidden from strangers and visitors (404, 401)", async () => {
    const id = await paidBooking()
    for (const [language, messages] of [
      ["fr", fr],
      ["en", en]
    ] as const) {
      const early = await api.get(`/api/bookings/${id}/receipt`, { token: client.token, language })
      expect(early.status).toBe(409)
      expect(early.body).toEqual({ success: false, code: "RECEIPT_NOT_AVAILABLE", message: messages["booking.receiptNotAvailable"] })
    }
    expect((await raw(`/api/bookings/${id}/receipt.pdf`, client.token)).status).toBe(409)
    expect((await api.get(`/api/bookings/${id}/receipt`, { token: provider.token })).status).toBe(409)
    for (const token of [stranger.token]) {
      const hidden = await api.get(`/api/bookings/${id}/receipt`, { token })
      expect(hidden.status).toBe(404)
      expect(hidden.body.code).toBe("BOOKING_NOT_FOUND")
      expect((await raw(`/api/bookings/${id}/receipt.pdf`, token)).status).toBe(404)
    }
    expect((await api.get(`/api/bookings/${id}/receipt`)).status).toBe(401)
    expect((await api.get(`/api/bookings/00000000-0000-4000-8000-000000000000/receipt`, { token: client.token })).status).toBe(404)
  })

  it("after the capture: the figures of the payment records, the PDF with the amount, the mail with the PDF; refunds shown", async () => {
    const id = await paidBooking()
    await capture(id)

    const receipt = (await api.get(`/api/bookings/${id}/receipt`, { token: client.token })).body.data.receipt
    expect(receipt).toMatchObject({
      bookingId: id,
      platform: SITE_NAME,
      service: { title: "Cours de piano" },
      currency: "EUR",
      paidMinor: 7000,
      refunds: [],
      refundedMinor: 0,
      netPaidMinor: 7000,
      pdfPath: `/api/bookings/${id}/receipt.pdf`
    })
    expect(spaced(receipt.formattedPaid)).toBe(eur("fr", 7000))
    // The date of payment is written in the client's zone, named.
    expect(receipt.formattedPaidAt).toMatch(/heure/)
    // An administrator reads it too; in English when asked.
    const english = await api.get(`/api/bookings/${id}/receipt`, { token: admin.token, language: "en" })
    expect(english.status).toBe(200)
    expect(spaced(english.body.data.receipt.formattedPaid)).toBe(eur("en", 7000))
    expect(english.body.data.receipt.formattedPaidAt).toMatch(/time$/)
    expect(english.body.data.receipt.platform).toBe(SITE_NAME)

    const pdf = await raw(`/api/bookings/${id}/receipt.pdf`, client.token)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get("content-type")).toBe("application/pdf")
    expect(pdf.headers.get("content-disposition")).toMatch(/^attachment; filename="recu-/)
    expect(Buffer.from(pdf.bytes.subarray(0, 5)).toString()).toBe("%PDF-")
    const text = pdfText(pdf.bytes).map(spaced)
    expect(text).toContain(eur("fr", 7000))
    expect(text).toContain(SITE_NAME)
    expect(pdfInfo(pdf.bytes, "Title")).toBe(`${fr["receipt.title"]} - ${SITE_NAME}`)
    expect(pdfInfo(pdf.bytes, "Author")).toBe(SITE_NAME)
    expect(pdfInfo(pdf.bytes, "Creator")).toBe(SITE_NAME)
    expect(text.join("\n")).not.toContain("Marketplace")
    expect(text).toContain("Cours de piano")
    expect(text).toContain(fr["receipt.title"])
    expect(text).toContain(await nameOf(provider))

    // The client was mailed the receipt in their language, the PDF attached.
    const mail = (await mailsTo(server, client.email)).find(
      (m) => m.subject === fr["mail.booking.receipt.subject"].replace("{service}", "Cours de piano")
    )
    expect(mail).toBeDefined()
    expect(spaced(mail!.text)).toContain(eur("fr", 7000))
    expect(mail!.text).toContain(`/bookings/${id}/receipt`)
    const attachment = mail!.attachments?.find((a) => a.contentType === "application/pdf")
    expect(attachment?.encoding).toBe("base64")
    const mailed = Buffer.from(attachment!.content, "base64")
    expect(mailed.subarray(0, 5).toString()).toBe("%PDF-")
    expect(pdfText(mailed).map(spaced)).toContain(eur("fr", 7000))
    expect(pdfInfo(mailed, "Author")).toBe(SITE_NAME)
    // The mail is signed with the brand too.
    expect(mail!.text.endsWith(`-- \n${SITE_NAME} — Montréal\n`)).toBe(true)
    // Only the client gets a receipt.
    expect((await mailsTo(server, provider.email)).some((m) => m.subject.startsWith("Votre reçu"))).toBe(false)

    // A partial refund shows on the receipt and its PDF.
    await server.run(refundBooking(id, 2000, "Geste commercial"))
    const refunded = (await api.get(`/api/bookings/${id}/receipt`, { token: client.token, language: "en" })).body.data.receipt
    expect(refunded).toMatchObject({ paidMinor: 7000, refundedMinor: 2000, netPaidMinor: 5000 })
    expect(refunded.refunds.map((r: { amountMinor: number }) => r.amountMinor)).toEqual([2000])
    const after = pdfText((await raw(`/api/bookings/${id}/receipt.pdf`, client.token, "en")).bytes).map(spaced)
    expect(after).toContain(eur("en", 7000))
    expect(after).toContain(eur("en", -2000))
    expect(after).toContain(eur("en", 5000))
    expect(after).toContain(en["receipt.netPaid"])
  })
})

describe("a receipt people can keep (issue 23, item 6)", () => {
  it("names its number, the rate and duration, the date and place, the card and the taxes; the PDF prints every name as written", async () => {
    // A name outside WinAnsi: the PDF's embedded font prints it (the standard fonts printed "Nguy?n").
    const renamed = await api.patch(
      "/api/users/me",
      { lastName: "Nguyễn Thị", address: "12 rue Oberkampf", postalCode: "75011", city: "Paris", country: "France" },
      { token: client.token }
    )
    expect(renamed.status, renamed.text).toBe(200)
    // The provider gives a city and nothing else: the receipt prints what there is.
    expect(
      (await api.patch("/api/users/me", { address: "", postalCode: "", city: "Québec", country: "" }, { token: provider.token })).status
    ).toBe(200)
    const id = await paidBooking()
    await capture(id)
    const receipt = (await api.get(`/api/bookings/${id}/receipt`, { token: client.token })).body.data.receipt
    expect(receipt.number).toMatch(/^R-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/)
    expect(receipt).toMatchObject({
      client: { lastName: "Nguyễn Thị", postalAddress: "12 rue Oberkampf, 75011 Paris, France" },
      provider: { postalAddress: "Québec" },
      address: "2 rue Saint-Jean, Québec",
      paymentMethod: "Visa •••• 4242",
      taxNote: fr["receipt.taxes"],
      platform: SITE_NAME,
      platformEmail: expect.stringContaining("@")
    })
    expect(spaced(receipt.formattedRate)).toBe(`${eur("fr", 3500)} / h × 2 h`)
    expect(receipt.formattedPeriod).toMatch(/heure/)
    const english = (await api.get(`/api/bookings/${id}/receipt`, { token: client.token, language: "en" })).body.data.receipt
    expect(spaced(english.formattedRate)).toBe(`${eur("en", 3500)} / h × 2 hr`)
    expect(english.taxNote).toBe(en["receipt.taxes"])

    const pdf = await raw(`/api/bookings/${id}/receipt.pdf`, client.token)
    expect(pdf.headers.get("content-disposition")).toContain(`recu-${receipt.number}.pdf`)
    const text = pdfText(pdf.bytes).map(spaced).join("\n")
    for (const expected of [
      fr["receipt.number"].replace("{number}", receipt.number),
      "Nguyễn Thị",
      "Visa •••• 4242",
      "2 rue Saint-Jean, Québec",
      `${eur("fr", 3500)} / h × 2 h`,
      fr["receipt.rate"],
      fr["receipt.place"]
    ])
      expect(text).toContain(expected)
    expect(text.replace(/\s+/g, " ")).toContain(fr["receipt.taxes"])
    // Both parties with their postal address (a long line wraps).
    expect(text.replace(/\s+/g, " ")).toContain("Nguyễn Thị, 12 rue Oberkampf, 75011 Paris, France")
    expect(text.replace(/\s+/g, " ")).toContain(`${await nameOf(provider)}, Québec`)
    expect(text).not.toContain("Nguy?n")
    // The client's receipt shows no commission; the provider's shows the platform's 5 % and their net.
    expect(receipt.providerShare).toBeNull()
    expect(text).not.toContain(fr["receipt.providerNet"])
    const asProvider = (await api.get(`/api/bookings/${id}/receipt`, { token: provider.token })).body.data.receipt
    expect(asProvider.providerShare).toMatchObject({ percent: 5, commissionMinor: 350, netMinor: 6650 })
    const providerText = pdfText((await raw(`/api/bookings/${id}/receipt.pdf`, provider.token, "en")).bytes)
      .map(spaced)
      .join("\n")
    expect(providerText).toContain(en["receipt.commission"].replace("{percent}", "5"))
    expect(providerText).toContain(eur("en", -350))
    expect(providerText).toContain(en["receipt.providerNet"])
    expect(providerText).toContain(eur("en", 6650))
    // Only the client is mailed a receipt.
    expect((await mailsTo(server, provider.email)).some((m) => m.subject.startsWith("Votre reçu"))).toBe(false)

    // An administrator finds the booking from the number a client quotes, however it is typed.
    for (const typed of [receipt.number, receipt.number.toLowerCase().replace(/-/g, " "), receipt.number.slice(2)]) {
      const found = await api.get(`/api/admin/bookings?search=${encodeURIComponent(typed)}`, { token: admin.token })
      expect(found.body.data.bookings.map((b: { id: string }) => b.id)).toEqual([id])
    }
  })
})

describe("a booking's payment timeline (GET /api/bookings/{id}/payments)", () => {
  type Event = { event: string; amountMinor: number; feeMinor: number | null; method: string | null }
  const timeline = async (id: string, token?: string) => {
    const reply = await api.get(`/api/bookings/${id}/payments`, token ? { token } : {})
    return { status: reply.status, events: (reply.body.data?.payments ?? []) as ReadonlyArray<Event> }
  }

  it("reads the same events for the client, the provider and an admin: held, charged, refunded, with the card; the commission for the provider only", async () => {
    const id = await paidBooking()
    await capture(id)
    await server.run(refundBooking(id, 2000, "Geste commercial"))
    const asClient = await timeline(id, client.token)
    expect(asClient.status).toBe(200)
    expect(asClient.events.map((e) => [e.event, e.amountMinor, e.feeMinor])).toEqual([
      ["held", 7000, null],
      ["captured", 7000, null],
      ["refunded", 2000, null]
    ])
    // The sandbox's card, carried from the hold to what acted on it.
    expect(new Set(asClient.events.map((e) => e.method))).toEqual(new Set([expect.stringMatching(/^[a-z]+ •••• \d{4}$/)]))
    const asProvider = await timeline(id, provider.token)
    expect(asProvider.events.map((e) => [e.event, e.amountMinor, e.feeMinor])).toEqual([
      ["held", 7000, 0],
      ["captured", 7000, 350],
      ["refunded", 2000, expect.any(Number)]
    ])
    const asAdmin = await timeline(id, admin.token)
    expect(asAdmin.events).toEqual(asProvider.events)
    // The admin's booking page lists the very same events.
    const page = (await api.get(`/api/admin/bookings/${id}`, { token: admin.token })).body.data.booking
    expect(page.payments).toEqual((await api.get(`/api/bookings/${id}/payments`, { token: admin.token })).body.data.payments)
  })

  it("is nobody else's: 404 for a stranger and an unknown or malformed id, 401 for a visitor, in the user's language", async () => {
    const id = await paidBooking()
    expect((await timeline(id)).status).toBe(401)
    for (const [language, messages] of [
      ["fr", fr],
      ["en", en]
    ] as const) {
      const refused = await api.get(`/api/bookings/${id}/payments`, { token: stranger.token, language })
      expect(refused.status).toBe(404)
      expect(refused.body.message).toBe(messages["booking.notFound"])
    }
    expect((await timeline(crypto.randomUUID(), client.token)).status).toBe(404)
    expect((await timeline("nope", client.token)).status).toBe(404)
  })
})

describe("a capture the gateway reports before it is recorded (a webhook racing the settlement)", () => {
  it("is recorded from the event, once, and the receipt is mailed from it", async () => {
    const id = await paidBooking()
    // Validated with its hold still to capture, as the settlement finds it just before the gateway's answer.
    const [row] = await server.run(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql.unsafe<{ paymentIntentId: string }>(
          "UPDATE bookings SET status = 'VALIDATED', rendered_at = now() WHERE id = $1 RETURNING payment_intent_id",
          [id]
        )
      )
    )
    const event = {
      _tag: "PaymentCaptured" as const,
      bookingId: id,
      paymentIntentId: row!.paymentIntentId,
      amountMinor: 7000,
      reference: `evt_capture_${id}`,
      occurredAt: new Date()
    }
    const apply = Effect.flatMap(Effect.all([Bookings, Transactional]), ([bookings, tx]) => tx.run(bookings.applyChargeEvent(event)))
    await server.run(apply)
    await server.run(apply)
    const receipt = (await api.get(`/api/bookings/${id}/receipt`, { token: client.token })).body.data.receipt
    expect(receipt).toMatchObject({ paidMinor: 7000, netPaidMinor: 7000 })
    const mails = (await mailsTo(server, client.email)).filter((m) => m.text.includes(`/bookings/${id}/receipt`))
    expect(mails).toHaveLength(1)
  })
})

describe("a provider's earnings", () => {
  it("per booking gross, 5% commission and net from the payment records; totals per currency and month; held money apart; CSV", async () => {
    const mine = await api.get("/api/providers/me/earnings", { token: provider.token })
    expect(mine.status, mine.text).toBe(200)
    const before = mine.body.data.earnings.length

    const refundedId = await paidBooking()
    await capture(refundedId)
    await server.run(refundBooking(refundedId, 2000, "Geste commercial"))
    const heldId = await paidBooking()

    const page = (await api.get("/api/providers/me/earnings?limit=100", { token: provider.token })).body.data
    expect(page.commissionPercent).toBe(5)
    const line = page.earnings.find((e: { bookingId: string }) => e.bookingId === refundedId)
    // Kept 50,00 € (70 captured, 20 refunded): commission 2,50 €, net 47,50 €.
    expect(line).toMatchObject({
      state: "PARTIALLY_REFUNDED",
      currency: "EUR",
      grossMinor: 5000,
      commissionMinor: 250,
      netMinor: 4750,
      refundedMinor: 2000,
      serviceTitle: "Cours de piano",
      clientName: await nameOf(client)
    })
    expect(spaced(line.formattedNet)).toBe(eur("fr", 4750))
    expect(page.earnings.find((e: { bookingId: string }) => e.bookingId === heldId)).toMatchObject({
      state: "HELD",
      grossMinor: 7000,
      commissionMinor: 350,
      netMinor: 6650
    })
    expect(page.earnings).toHaveLength(before + 2)

    // Totals equal the sums of the lines (this provider's bookings are all in euros), held money apart.
    type Line = { state: string; grossMinor: number; commissionMinor: number; netMinor: number; month: string; currency: string }
    const lines: ReadonlyArray<Line> = page.earnings
    const kept = lines.filter((l) => l.state !== "HELD")
    expect(page.totals.byCurrency).toHaveLength(1)
    expect(page.totals.byCurrency[0]).toMatchObject({
      currency: "EUR",
      grossMinor: kept.reduce((s, l) => s + l.grossMinor, 0),
      commissionMinor: kept.reduce((s, l) => s + l.commissionMinor, 0),
      netMinor: kept.reduce((s, l) => s + l.netMinor, 0),
      heldMinor: lines.filter((l) => l.state === "HELD").reduce((s, l) => s + l.grossMinor, 0),
      bookings: lines.length
    })
    for (const month of page.totals.byMonth) {
      const of = kept.filter((l) => l.month === month.month && l.currency === month.currency)
      expect(month.netMinor).toBe(of.reduce((s, l) => s + l.netMinor, 0))
    }

    // Paged like every list; the totals still cover every line.
    const first = (await api.get("/api/providers/me/earnings?limit=1&page=2", { token: provider.token })).body.data
    expect(first.pagination).toEqual({ total: lines.length, page: 2, limit: 1, pages: lines.length })
    expect(first.earnings).toEqual([page.earnings[1]])
    expect(first.totals).toEqual(page.totals)

    // The CSV: the documented columns, one row per line, amounts in euros as a spreadsheet reads them.
    const file = await raw("/api/providers/me/earnings.csv", provider.token)
    expect(file.status).toBe(200)
    expect(file.headers.get("content-type")).toMatch(/^text\/csv/)
    expect(file.headers.get("content-disposition")).toContain("earnings.csv")
    const [header, ...rows] = parseCsv(Buffer.from(file.bytes).toString("utf8"))
    expect(header).toEqual([...EARNINGS_CSV_HEADER])
    expect(rows).toHaveLength(lines.length)
    const row = rows.find((r) => r[0] === refundedId)!
    const at = (column: (typeof EARNINGS_CSV_HEADER)[number]) => row[EARNINGS_CSV_HEADER.indexOf(column)]
    expect([at("state"), at("currency"), at("gross"), at("commission"), at("net"), at("refunded")]).toEqual([
      "PARTIALLY_REFUNDED",
      "EUR",
      "50.00",
      "2.50",
      "47.50",
      "20.00"
    ])
  })

  it("only providers have earnings (403 for a client, 401 for a visitor), each their own", async () => {
    const refused = await api.get("/api/providers/me/earnings", { token: client.token, language: "en" })
    expect(refused.status).toBe(403)
    expect((await raw("/api/providers/me/earnings.csv", client.token)).status).toBe(403)
    expect((await api.get("/api/providers/me/earnings")).status).toBe(401)
    // Another provider sees none of these bookings.
    const other = await providerWithService(server, api, { title: "Jardinage", description: "Tonte et taille.", price: 30 })
    const theirs = (await api.get("/api/providers/me/earnings", { token: other.provider.token })).body.data
    expect(theirs.earnings).toEqual([])
    expect(theirs.totals).toEqual({ byCurrency: [], byMonth: [] })
  })
})
