import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Bookings } from "../../src/modules/booking"
import { en, fr } from "../../src/platform/messages"
import { mailsTo } from "../support/http"
import { httpWorld } from "../support/world"
import { fileOf, getBinary, pdf, png, sendForm } from "../profiles/support"
import { DAY } from "../support/durations"

/**
 * Disputes before capture over HTTP (issue 13, item 1): the client's report after "service rendered"
 * (POST /api/bookings/{id}/dispute, multipart with photos or PDF), the thread (GET, messages with files),
 * the sweep that neither validates a disputed booking nor lets its hold lapse, and the administrator's
 * decision (POST /api/admin/bookings/{id}/dispute/resolve: capture all, part, or release), with every
 * error status, the mails and the dashboard's list of unresolved disputes.
 */

const world = httpWorld({
  service: { title: "Réparation de vélos", description: "Révision complète et réparations à domicile.", lat: 45.5, lng: -73.56 },
  stranger: true,
  admin: true
})
const { server, api, provider, client, stranger, admin, sql, book, bookedIn } = world

const get = async (token: string, id: string) => (await api.get(`/api/bookings/${id}`, { token })).body.data.booking

/** The test service's booking (40 €/h, 1 hour: 4000 held) in `state` (test/support/scenarios.ts), at the next free slot. */
const booked = async (state: "rendered" | "disputed") => (await bookedIn(state)).bookingId
/** A paid, confirmed booking that started and that the provider marked rendered. */
const rendered = () => booked("rendered")

const reportForm = async (fields: Record<string, string> = {}, files: Record<string, File> = {}) => {
  const form = new FormData()
  for (const [k, v] of Object.entries({ reason: "PARTLY_DONE", description: "La moitié des réparations n'a pas été faite.", ...fields }))
    form.append(k, v)
  for (const [k, f] of Object.entries(files)) form.append(k, f)
  return form
}
const report = (token: string, id: string, form: FormData, language?: string) =>
  sendForm(server, "POST", `/api/bookings/${id}/dispute`, form, { token, ...(language ? { language } : {}) })
const message = (token: string, id: string, body: string, files: Record<string, File> = {}) => {
  const form = new FormData()
  if (body !== "") form.append("body", body)
  for (const [k, f] of Object.entries(files)) form.append(k, f)
  return sendForm(server, "POST", `/api/bookings/${id}/dispute/messages`, form, { token })
}
const resolve = (token: string, id: string, body: Record<string, unknown>, language?: string) =>
  api.post(`/api/admin/bookings/${id}/dispute/resolve`, body, { token, ...(language ? { language } : {}) })
/** Rendered, then reported by the client (PARTLY_DONE). */
const disputed = () => booked("disputed")

describe("the client reports a problem", () => {
  it("after service rendered: DISPUTED with its files, both parties mailed, the thread readable by both and admins only", async () => {
    const id = await rendered()
    expect((await get(client.token, id)).actions).toContain("reportProblem")
    const photo = await png(12, 12)
    const reply = await report(
      client.token,
      id,
      await reportForm({}, { file1: fileOf(photo, "roue voilée.png", "image/png"), file2: fileOf(pdf(), "devis.pdf", "application/pdf") })
    )
    expect(reply.status, reply.text).toBe(201)
    const booking = reply.body.data.booking
    expect(booking).toMatchObject({ status: "DISPUTED", paymentStatus: "AUTHORIZED" })
    expect(booking.dispute).toMatchObject({ reason: "PARTLY_DONE", status: "OPEN", outcome: null, keptMinor: null, note: null })
    // Nothing more to confirm or report: the client waits for the decision.
    expect(booking.actions).not.toContain("confirmCompletion")
    expect(booking.actions).not.toContain("reportProblem")
    // Both parties are mailed, each in their language and side.
    const toClient = (await mailsTo(server, client.email)).find((m) => m.subject === fr["mail.booking.disputeOpened.subject"])
    expect(toClient?.text).toContain("Aucun débit")
    const toProvider = (await mailsTo(server, provider.email)).find((m) => m.subject === fr["mail.booking.disputeOpened.subject"])
    expect(toProvider?.text).toContain("a signalé un problème")

    for (const token of [client.token, provider.token, admin.token]) {
      const thread = await api.get(`/api/bookings/${id}/dispute`, { token })
      expect(thread.status, thread.text).toBe(200)
      expect(thread.body.data.dispute).toMatchObject({
        bookingId: id,
        reason: "PARTLY_DONE",
        description: "La moitié des réparations n'a pas été faite.",
        status: "OPEN",
        messages: [],
        canWrite: true
      })
      expect(thread.body.data.dispute.files.map((f: { fileName: string }) => f.fileName)).toEqual(["roue voilée.png", "devis.pdf"])
    }
    expect((await api.get(`/api/bookings/${id}/dispute`, { token: stranger.token })).status).toBe(404)
    // The files download for the parties (an image re-encoded, still a PNG; the PDF byte for byte), not for strangers.
    const files = (await api.get(`/api/bookings/${id}/dispute`, { token: provider.token })).body.data.dispute.files
    const image = await getBinary(server, files[0].url, provider.token)
    expect(image.status).toBe(200)
    expect(image.headers.get("content-type")).toBe("image/png")
    expect(Array.from(image.bytes.slice(0, 4))).toEqual([0x89, 0x50, 0x4e, 0x47])
    const document = await getBinary(server, files[1].url, client.token)
    expect(Buffer.from(document.bytes).equals(Buffer.from(pdf()))).toBe(true)
    expect((await getBinary(server, files[0].url, stranger.token)).status).toBe(404)
    expect((await getBinary(server, `/api/bookings/${id}/dispute/files/not-a-uuid`, client.token)).body.code).toBe("DISPUTE_FILE_NOT_FOUND")
  })

  it("answers 404 to strangers, 403 to the provider and admins, 409 before rendered, after the window or twice, 422 for a bad report, 415 for a bad file", async () => {
    const id = await rendered()
    expect((await report(stranger.token, id, await reportForm())).status).toBe(404)
    for (const token of [provider.token, admin.token]) {
      const refused = await report(token, id, await reportForm())
      expect(refused.status).toBe(403)
      expect(refused.body.code).toBe("BOOKING_FORBIDDEN")
    }
    const bad = await report(client.token, id, await reportForm({ reason: "ANGRY", description: "   " }), "en")
    expect(bad.status).toBe(422)
    expect(bad.body.details).toEqual([
      { field: "reason", message: en["booking.disputeReasonInvalid"] },
      { field: "description", message: en["validation.required"] }
    ])
    const text = await report(client.token, id, await reportForm({}, { file1: fileOf(new TextEncoder().encode("hello"), "a.txt") }))
    expect(text.status).toBe(415)
    expect(text.body.code).toBe("UNSUPPORTED_FILE_TYPE")
    // A JSON body is not a form.
    const json = await api.post(`/api/bookings/${id}/dispute`, { reason: "OTHER", description: "x" }, { token: client.token })
    expect(json.status).toBe(415)
    // Nothing was stored by the refused reports.
    expect((await get(client.token, id)).status).toBe("SERVICE_RENDERED")
    expect((await report(client.token, id, await reportForm())).status).toBe(201)
    const twice = await report(client.token, id, await reportForm(), "en")
    expect(twice.status).toBe(409)
    expect(twice.body).toMatchObject({ code: "BOOKING_NOT_DISPUTABLE", message: en["booking.notDisputable"] })

    // Before "service rendered" (a confirmed booking) and after the 7-day window: 409.
    const confirmed = await book()
    expect((await report(client.token, confirmed.id, await reportForm())).status).toBe(409)
    const late = await rendered()
    await sql(
      "UPDATE bookings SET rendered_at = now() - interval '8 days', end_time = now() - interval '8 days' + interval '1 hour', start_time = now() - interval '8 days' WHERE id = $1",
      [late]
    )
    const tooLate = await report(client.token, late, await reportForm())
    expect(tooLate.status).toBe(409)
    expect(tooLate.body.message).toBe(fr["booking.notDisputable"])
  })
})

describe("the dispute's thread", () => {
  it("both parties and admins add messages with files; the other side is mailed; empty messages and strangers are refused", async () => {
    const id = await disputed()
    const fromProvider = await message(provider.token, id, "Le travail a été fait, voici la facture.", {
      file1: fileOf(pdf(), "facture.pdf", "application/pdf")
    })
    expect(fromProvider.status, fromProvider.text).toBe(201)
    expect((await mailsTo(server, client.email)).some((m) => m.subject === fr["mail.booking.disputeMessage.subject"])).toBe(true)
    expect((await message(client.token, id, "Les freins ne sont pas réglés.")).status).toBe(201)
    const fromAdmin = await message(admin.token, id, "Nous examinons le dossier.")
    expect(fromAdmin.status).toBe(201)
    const thread = fromAdmin.body.data.dispute
    expect(thread.messages.map((m: { author: string; body: string }) => [m.author, m.body])).toEqual([
      ["provider", "Le travail a été fait, voici la facture."],
      ["client", "Les freins ne sont pas réglés."],
      ["admin", "Nous examinons le dossier."]
    ])
    expect(thread.messages[0].files.map((f: { fileName: string }) => f.fileName)).toEqual(["facture.pdf"])
    expect(thread.messages[0].authorName).toMatch(/\S/)
    const empty = await message(client.token, id, "")
    expect(empty.status).toBe(422)
    expect(empty.body.details).toEqual([{ field: "body", message: fr["validation.required"] }])
    expect((await message(stranger.token, id, "Bonjour")).status).toBe(404)
    // No dispute yet: 409 (a message needs an open dispute).
    const other = await rendered()
    const none = await message(client.token, other, "Bonjour")
    expect(none.status).toBe(409)
    expect(none.body.code).toBe("DISPUTE_NOT_OPEN")
    expect((await api.get(`/api/bookings/${other}/dispute`, { token: client.token })).body.code).toBe("DISPUTE_NOT_FOUND")
  })
})

describe("the sweep and a disputed booking", () => {
  it("never validates it, and renews its hold before it lapses", async () => {
    const id = await disputed()
    // Well past the 7 days after "service rendered", with a hold that lapses within the renewal margin.
    await sql(
      "UPDATE bookings SET rendered_at = now() - interval '9 days', start_time = now() - interval '9 days', end_time = now() - interval '9 days' + interval '1 hour', authorization_expires_at = now() + interval '2 hours' WHERE id = $1",
      [id]
    )
    const [before] = await sql<{ paymentIntentId: string }>("SELECT payment_intent_id FROM bookings WHERE id = $1", [id])
    await server.run(Effect.flatMap(Bookings, (b) => b.sweep))
    const after = await get(client.token, id)
    expect(after).toMatchObject({ status: "DISPUTED", paymentStatus: "AUTHORIZED" })
    const [row] = await sql<{ paymentIntentId: string; authorizationExpiresAt: Date; capturedMinor: number }>(
      "SELECT payment_intent_id, authorization_expires_at, captured_minor FROM bookings WHERE id = $1",
      [id]
    )
    expect(row!.paymentIntentId).not.toBe(before!.paymentIntentId)
    // The renewal is merchant-initiated: on the sandbox's Visa, a hold of 4 days 18 hours, as the gateway said it.
    const window = 4 * DAY + 18 * 3_600_000
    expect(new Date(row!.authorizationExpiresAt).getTime()).toBeGreaterThan(Date.now() + window - 60_000)
    expect(new Date(row!.authorizationExpiresAt).getTime()).toBeLessThanOrEqual(Date.now() + window)
    expect(Number(row!.capturedMinor)).toBe(0)
  })
})

describe("the administrator's decision", () => {
  it("captures part: RESOLVED, the part captured with 5% commission on it, the note shown to both, both mailed", async () => {
    const id = await disputed()
    const dashboard = await api.get("/api/admin/dashboard", { token: admin.token })
    expect(dashboard.body.data.disputes.some((d: { bookingId: string }) => d.bookingId === id)).toBe(true)
    expect(dashboard.body.data.disputes.find((d: { bookingId: string }) => d.bookingId === id)).toMatchObject({
      reason: "PARTLY_DONE",
      serviceTitle: "Réparation de vélos",
      totalMinor: 4000
    })

    const decided = await resolve(admin.token, id, { outcome: "CAPTURE_PART", amountMinor: 2500, note: "La moitié du travail est faite." })
    expect(decided.status, decided.text).toBe(200)
    expect(decided.body.data.booking).toMatchObject({
      status: "RESOLVED",
      paymentStatus: "CAPTURED",
      capturedMinor: 2500,
      dispute: { status: "RESOLVED", outcome: "CAPTURE_PART", keptMinor: 2500, note: "La moitié du travail est faite." }
    })
    const [capture] = await sql<{ amountMinor: number; feeMinor: number }>(
      "SELECT amount_minor, fee_minor FROM payment_operations WHERE booking_id = $1 AND kind = 'CAPTURE'",
      [id]
    )
    expect(Number(capture!.amountMinor)).toBe(2500)
    expect(Number(capture!.feeMinor)).toBe(125)
    for (const token of [client.token, provider.token]) {
      const seen = await get(token, id)
      expect(seen.status).toBe("RESOLVED")
      expect(seen.dispute).toMatchObject({ outcome: "CAPTURE_PART", note: "La moitié du travail est faite.", keptMinor: 2500 })
      expect(seen.dispute.formattedKept).toMatch(/25,00/)
    }
    const mail = (await mailsTo(server, client.email)).find((m) => m.subject === fr["mail.booking.disputeResolved.subject"])
    expect(mail?.text).toContain("La moitié du travail est faite.")
    expect(mail?.text).toMatch(/25,00/)
    expect((await mailsTo(server, provider.email)).some((m) => m.subject === fr["mail.booking.disputeResolved.subject"])).toBe(true)
    // Decided once; no more messages; gone from the dashboard.
    const again = await resolve(admin.token, id, { outcome: "RELEASE", note: "Non" })
    expect(again.status).toBe(409)
    expect(again.body.code).toBe("DISPUTE_NOT_OPEN")
    expect((await message(client.token, id, "Encore une chose")).status).toBe(409)
    const later = await api.get("/api/admin/dashboard", { token: admin.token })
    expect(later.body.data.disputes.some((d: { bookingId: string }) => d.bookingId === id)).toBe(false)
    // A refund after the decision works as after a validation: at most what was captured.
    const refund = await server.run(
      Effect.flatMap(Bookings, (b) =>
        b.act({ id: admin.id, role: "ADMIN" } as never, id, { _tag: "Refund", amountMinor: 3000 }).pipe(Effect.either)
      )
    )
    expect(refund._tag).toBe("Left")
    await server.run(
      Effect.flatMap(Bookings, (b) => b.act({ id: admin.id, role: "ADMIN" } as never, id, { _tag: "Refund", amountMinor: 500 }))
    )
    expect(await get(client.token, id)).toMatchObject({ status: "RESOLVED", paymentStatus: "PARTIALLY_REFUNDED" })
  })

  it("captures all, or releases everything", async () => {
    const all = await disputed()
    const captured = await resolve(admin.token, all, { outcome: "CAPTURE_ALL", note: "Le travail est conforme." })
    expect(captured.status, captured.text).toBe(200)
    expect(captured.body.data.booking).toMatchObject({ status: "RESOLVED", paymentStatus: "CAPTURED", capturedMinor: 4000 })

    const none = await disputed()
    const released = await resolve(admin.token, none, { outcome: "RELEASE", note: "La prestation n'a pas eu lieu." })
    expect(released.status, released.text).toBe(200)
    expect(released.body.data.booking).toMatchObject({
      status: "RESOLVED",
      paymentStatus: "CANCELED",
      capturedMinor: 0,
      authorizedMinor: 0
    })
    expect((await get(client.token, none)).dispute).toMatchObject({ outcome: "RELEASE", keptMinor: 0 })
    const [ops] = await sql<{ captures: number; releases: number }>(
      "SELECT count(*) FILTER (WHERE kind = 'CAPTURE')::int AS captures, count(*) FILTER (WHERE kind = 'CANCELLATION')::int AS releases FROM payment_operations WHERE booking_id = $1",
      [none]
    )
    expect(ops).toEqual({ captures: 0, releases: 1 })
  })

  it("answers 403 to non-admins, 404 to unknown bookings, 409 without an open dispute, 422 for a bad outcome, amount or note", async () => {
    const id = await disputed()
    for (const token of [client.token, provider.token])
      expect((await resolve(token, id, { outcome: "RELEASE", note: "x" })).status).toBe(403)
    expect((await resolve(admin.token, "00000000-0000-4000-8000-000000000000", { outcome: "RELEASE", note: "x" })).status).toBe(404)
    const bad = await resolve(admin.token, id, { outcome: "SPLIT", note: " " }, "en")
    expect(bad.status).toBe(422)
    expect(bad.body.details).toEqual([
      { field: "outcome", message: en["booking.disputeOutcomeInvalid"] },
      { field: "note", message: en["validation.required"] }
    ])
    const noAmount = await resolve(admin.token, id, { outcome: "CAPTURE_PART", note: "Moitié" })
    expect(noAmount.body.details).toEqual([{ field: "amountMinor", message: fr["validation.required"] }])
    for (const amountMinor of [0, -5, 12.5]) {
      const wrong = await resolve(admin.token, id, { outcome: "CAPTURE_PART", amountMinor, note: "Moitié" })
      expect(wrong.status).toBe(422)
      expect(wrong.body.details[0].field).toBe("amountMinor")
    }
    const above = await resolve(admin.token, id, { outcome: "CAPTURE_PART", amountMinor: 4001, note: "Trop" }, "en")
    expect(above.status).toBe(422)
    expect(above.body).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ field: "amountMinor", message: "The amount to capture must be between €0.01 and €40.00, the authorised amount." }]
    })
    // Nothing changed by the refusals.
    expect((await get(client.token, id)).status).toBe("DISPUTED")
    const noDispute = await rendered()
    const conflict = await resolve(admin.token, noDispute, { outcome: "RELEASE", note: "x" })
    expect(conflict.status).toBe(409)
    expect(conflict.body.code).toBe("DISPUTE_NOT_OPEN")
  })
})
