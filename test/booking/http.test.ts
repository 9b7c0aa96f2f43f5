import { describe, expect, it } from "vitest"
import { en, fr } from "../../src/platform/messages"
import { newClient } from "../support/accounts"
import { mailsTo } from "../support/http"
import { moveIntoPast } from "../support/scenarios"
import { httpWorld } from "../support/world"
import { payInSandbox } from "./support"
import { HOUR } from "../support/durations"

/**
 * A fresh 2-hour slot of the provider's calendar for each booking, 3 hours apart (room for the adjacent
 * one-hour booking of the overlap test), all within the 5 days that authorise at checkout.
 */
const world = httpWorld({
  service: { title: "Réparation de vélos", description: "Révision complète et réparations à domicile.", lat: 45.5, lng: -73.56 },
  stranger: true,
  admin: true,
  slots: { hours: 2 },
  booking: { notes: "Code 1234" }
})
const { server, api, provider, client, stranger, admin, sql, nextSlot, book, requestBooking: request } = world

describe("POST /api/bookings", () => {
  it("creates a PENDING, UNPAID booking whose total the server computes from the hourly price", async () => {
    // A total sent by the client is not a field of the request: refused, never used.
    const priced = await request(client.token, { ...nextSlot(2.5), totalPrice: 1 })
    expect(priced.status, priced.text).toBe(400)
    expect(priced.body.details.map((d: { field: string }) => d.field)).toEqual(["totalPrice"])
    const reply = await request(client.token, nextSlot(2.5))
    expect(reply.status, reply.text).toBe(201)
    const booking = reply.body.data.bookingData
    expect(booking).toMatchObject({
      serviceId: world.serviceId,
      status: "PENDING",
      displayStatus: "PENDING",
      paymentStatus: "UNPAID",
      totalPrice: 100,
      totalMinor: 10000,
      currency: "EUR",
      duration: 150,
      role: "client",
      clientId: client.id,
      providerId: provider.id,
      address: "1200 rue Sainte-Catherine, Montréal"
    })
    expect(booking.actions).toEqual(["cancel", "pay", "reschedule"])
    expect(new Date(booking.holdExpiresAt).getTime()).toBeGreaterThan(Date.now())
    const [row] = await sql<{ total: string }>("SELECT total_minor::text AS total FROM bookings WHERE id = $1", [booking.id])
    expect(row?.total).toBe("10000")
    // Both people are told, each in their language.
    expect((await mailsTo(server, client.email)).some((m) => m.subject === fr["mail.booking.requested.subject"])).toBe(true)
    expect((await mailsTo(server, provider.email)).some((m) => m.subject === fr["mail.booking.requested.subject"])).toBe(true)
  })

  it("answers 422 per field, in the user's language", async () => {
    const start = new Date(Date.now() + 48 * HOUR)
    const reply = await request(
      client.token,
      { startTime: start.toISOString(), endTime: new Date(start.getTime() - HOUR).toISOString(), address: "" },
      "en"
    )
    expect(reply.status).toBe(422)
    expect(reply.body.details).toEqual(
      expect.arrayContaining([
        { field: "endTime", message: en["booking.endBeforeStart"] },
        { field: "address", message: en["validation.required"] }
      ])
    )
    const past = await request(client.token, {
      startTime: new Date(Date.now() - HOUR).toISOString(),
      endTime: new Date(Date.now() + HOUR).toISOString()
    })
    expect(past.status).toBe(422)
    expect(past.body.details).toContainEqual({ field: "startTime", message: fr["booking.startInPast"] })
    const garbage = await request(client.token, { startTime: "demain", endTime: 42 })
    expect(garbage.status).toBe(400)
    const noDates = await request(client.token, { startTime: null, endTime: "" })
    expect(noDates.status).toBe(422)
  })

  it("refuses one's own service (403), unknown or malformed services (404) and anonymous callers (401)", async () => {
    expect((await request(provider.token, {})).body.code).toBe("BOOKING_OWN_SERVICE")
    expect((await request(provider.token, {})).status).toBe(403)
    expect((await request(client.token, { serviceId: "00000000-0000-4000-8000-000000000000" })).status).toBe(404)
    expect((await request(client.token, { serviceId: "not-a-uuid" })).status).toBe(404)
    expect((await api.post("/api/bookings", { serviceId: world.serviceId, ...nextSlot(), address: "12 rue X, Paris" })).status).toBe(401)
  })

  it("never books a provider twice for overlapping times (409), but back-to-back slots are fine", async () => {
    const first = nextSlot(2)
    await book(client.token, first)
    const overlapping = await request(stranger.token, {
      startTime: new Date(new Date(first.startTime).getTime() + HOUR).toISOString(),
      endTime: new Date(new Date(first.endTime).getTime() + HOUR).toISOString()
    })
    expect(overlapping.status).toBe(409)
    expect(overlapping.body.code).toBe("BOOKING_SLOT_TAKEN")
    expect(overlapping.body.message).toBe(fr["booking.slotTaken"])
    const adjacent = await request(stranger.token, {
      startTime: first.endTime,
      endTime: new Date(new Date(first.endTime).getTime() + HOUR).toISOString()
    })
    expect(adjacent.status, adjacent.text).toBe(201)
  })

  it("frees the slot once a booking is cancelled", async () => {
    const times = nextSlot()
    const booking = await book(client.token, times)
    expect((await api.call("DELETE", `/api/bookings/${booking.id}`, { token: client.token })).status).toBe(200)
    expect((await request(stranger.token, times)).status).toBe(201)
  })

  it("refuses an inactive service (409)", async () => {
    const other = await api.post(
      "/api/services",
      { title: "Jardinage", description: "Tonte et taille de haies.", price: 30, duration: 60, location: "Laval", categoryId: 6 },
      { token: provider.token }
    )
    const id = other.body.data.service.id
    expect((await api.post(`/api/services/${id}/deactivate`, {}, { token: provider.token })).status).toBe(200)
    const reply = await request(client.token, { serviceId: id })
    expect(reply.status).toBe(409)
    expect(reply.body.code).toBe("SERVICE_UNAVAILABLE")
  })
})

describe("reading bookings", () => {
  it("lists a user's bookings as client and as provider, with status filters and paging", async () => {
    const mine = await newClient(server, api)
    const a = await book(mine.token)
    const b = await book(mine.token)
    const asClient = await api.get("/api/bookings/me?as=client", { token: mine.token })
    expect(asClient.status).toBe(200)
    expect(asClient.body.data.results).toBe(2)
    expect(asClient.body.data.bookings.map((x: { id: string }) => x.id)).toEqual([b.id, a.id])
    expect(asClient.body.data.pagination).toEqual({ total: 2, page: 1, limit: 20, pages: 1 })
    const paged = await api.get("/api/bookings/me?limit=1&page=2", { token: mine.token })
    expect(paged.body.data.bookings.map((x: { id: string }) => x.id)).toEqual([a.id])
    const asProvider = await api.get("/api/bookings/me?as=provider&limit=100", { token: provider.token })
    expect(asProvider.body.data.bookings.some((x: { id: string; role: string }) => x.id === a.id && x.role === "provider")).toBe(true)
    expect((await api.get("/api/bookings/me?status=CONFIRMED", { token: mine.token })).body.data.results).toBe(0)
    expect((await api.get("/api/bookings/me?status=PENDING", { token: mine.token })).body.data.results).toBe(2)
    expect((await api.get("/api/bookings/me?status=NOPE", { token: mine.token })).status).toBe(422)
  })

  it("shows a booking to its two people and administrators only (404 for anyone else)", async () => {
    const booking = await book()
    expect((await api.get(`/api/bookings/${booking.id}`, { token: client.token })).status).toBe(200)
    const asProvider = await api.get(`/api/bookings/${booking.id}`, { token: provider.token })
    expect(asProvider.body.data.booking.actions).toEqual(["reject", "cancel", "reschedule"])
    expect((await api.get(`/api/bookings/${booking.id}`, { token: admin.token })).body.data.booking.role).toBe("admin")
    expect((await api.get(`/api/bookings/${booking.id}`, { token: stranger.token })).status).toBe(404)
    expect((await api.get("/api/bookings/not-an-id", { token: client.token })).status).toBe(404)
  })

  it("answers the service page's in-progress booking", async () => {
    const mine = await newClient(server, api)
    expect((await api.get(`/api/bookings/me/service/${world.serviceId}`, { token: mine.token })).body.data.booking).toBeNull()
    const booking = await book(mine.token)
    expect((await api.get(`/api/bookings/me/service/${world.serviceId}`, { token: mine.token })).body.data.booking.id).toBe(booking.id)
    expect((await api.get("/api/bookings/me/service/garbage", { token: mine.token })).body.data.booking).toBeNull()
  })
})

describe("the booking journey", () => {
  it("request → pay (sandbox) → confirm → rendered → completion with a review: COMPLETED and CAPTURED, 5% fee", async () => {
    const booking = await book()
    // The provider cannot confirm an unpaid request.
    const early = await api.post(`/api/bookings/${booking.id}/confirm`, {}, { token: provider.token })
    expect(early.status).toBe(409)
    expect(early.body.code).toBe("PAYMENT_NOT_AUTHORIZED")

    await payInSandbox(server, api, client.token, booking.id, "4242424242424242")
    const paid = (await api.get(`/api/bookings/${booking.id}`, { token: client.token })).body.data.booking
    expect(paid).toMatchObject({ status: "PENDING", displayStatus: "PAID", paymentStatus: "AUTHORIZED" })

    // The wrong actor is refused (403), whatever the status.
    expect((await api.post(`/api/bookings/${booking.id}/confirm`, {}, { token: client.token })).status).toBe(403)
    expect((await api.post(`/api/bookings/${booking.id}/confirm`, {}, { token: stranger.token })).status).toBe(404)
    const confirmed = await api.post(`/api/bookings/${booking.id}/confirm`, {}, { token: provider.token })
    expect(confirmed.status, confirmed.text).toBe(200)
    expect(confirmed.body.data.booking.status).toBe("CONFIRMED")
    // An illegal transition is a conflict (409).
    expect((await api.post(`/api/bookings/${booking.id}/confirm`, {}, { token: provider.token })).status).toBe(409)
    expect(
      (await api.post(`/api/bookings/${booking.id}/confirm-completion`, { rating: 5, comment: "Top" }, { token: client.token })).status
    ).toBe(409)

    // "Service rendered" is refused before the start (409, in the user's language), accepted once it started.
    const tooEarly = await api.post(`/api/bookings/${booking.id}/mark-rendered`, {}, { token: provider.token, language: "en" })
    expect(tooEarly.status).toBe(409)
    expect(tooEarly.body).toMatchObject({ success: false, code: "BOOKING_NOT_STARTED", message: en["booking.notStartedYet"] })
    expect((await api.post(`/api/bookings/${booking.id}/mark-rendered`, {}, { token: provider.token })).body.message).toBe(
      fr["booking.notStartedYet"]
    )
    await moveIntoPast(server, booking.id, 1)
    const rendered = await api.post(`/api/bookings/${booking.id}/mark-rendered`, {}, { token: provider.token })
    expect(rendered.body.data.booking.status).toBe("SERVICE_RENDERED")

    const badReview = await api.post(`/api/bookings/${booking.id}/confirm-completion`, { rating: 6, comment: " " }, { token: client.token })
    expect(badReview.status).toBe(422)
    expect(badReview.body.details).toEqual([
      { field: "rating", message: "La note doit être entre 1 et 5 étoiles" },
      { field: "comment", message: "Veuillez laisser un commentaire" }
    ])
    const completed = await api.post(
      `/api/bookings/${booking.id}/confirm-completion`,
      { rating: 4, comment: "Très bon travail, ponctuel." },
      { token: client.token }
    )
    expect(completed.status, completed.text).toBe(200)
    expect(completed.body.data.booking).toMatchObject({
      status: "COMPLETED",
      paymentStatus: "CAPTURED",
      isReviewed: true,
      review: { rating: 4 }
    })

    const [money] = await sql<{ captured: number; kinds: string; fee: number }>(
      `SELECT b.captured_minor::int AS captured,
              (SELECT string_agg(kind, ',' ORDER BY created_at) FROM payment_operations WHERE booking_id = b.id) AS kinds,
              (SELECT fee_minor::int FROM payment_operations WHERE booking_id = b.id AND kind = 'CAPTURE') AS fee
       FROM bookings b WHERE b.id = $1`,
      [booking.id]
    )
    expect(money).toEqual({ captured: 8000, kinds: "AUTHORIZATION,CAPTURE", fee: 400 })
    // One review per booking; the service's rating and the review list show it.
    expect(
      (await api.post(`/api/bookings/${booking.id}/confirm-completion`, { rating: 5, comment: "Encore" }, { token: client.token })).status
    ).toBe(409)
    const service = (await api.get(`/api/services/${world.serviceId}`)).body.data.service
    expect(service.reviewCount).toBeGreaterThanOrEqual(1)
    expect(service.reviews[0]).toMatchObject({ rating: 4, comment: "Très bon travail, ponctuel." })
    const reviews = (await api.get(`/api/services/${world.serviceId}/reviews`)).body.data
    expect(reviews.reviews[0].client.firstName).toBeTruthy()
  })

  it("releases the card hold when the provider rejects, with the reason mailed to the client", async () => {
    const booking = await book()
    await payInSandbox(server, api, client.token, booking.id, "4242424242424242")
    expect((await api.post(`/api/bookings/${booking.id}/reject`, { reason: "" }, { token: provider.token })).status).toBe(422)
    const rejected = await api.post(`/api/bookings/${booking.id}/reject`, { reason: "Indisponible ce jour-là" }, { token: provider.token })
    expect(rejected.status, rejected.text).toBe(200)
    expect(rejected.body.data.booking).toMatchObject({
      status: "REJECTED",
      paymentStatus: "CANCELED",
      rejectionReason: "Indisponible ce jour-là"
    })
    const mail = (await mailsTo(server, client.email)).find((m) => m.subject === fr["mail.booking.rejected.subject"])
    expect(mail?.text).toContain("Indisponible ce jour-là")
  })

  it("lets the client cancel before the start and refuses any action on a closed booking", async () => {
    const booking = await book()
    await payInSandbox(server, api, client.token, booking.id, "4242424242424242")
    const cancelled = await api.call("DELETE", `/api/bookings/${booking.id}`, { token: client.token })
    expect(cancelled.body.data.booking).toMatchObject({ status: "CANCELLED", paymentStatus: "CANCELED", cancelledBy: "CLIENT" })
    for (const action of ["confirm", "mark-rendered"]) {
      expect((await api.post(`/api/bookings/${booking.id}/${action}`, {}, { token: provider.token })).status).toBe(409)
    }
    expect((await api.call("DELETE", `/api/bookings/${booking.id}`, { token: client.token })).status).toBe(409)
  })

  it("checks the checkout payload against the booking", async () => {
    const booking = await book()
    const wrongAmount = await api.post(
      "/api/payments/checkout/session",
      { bookingId: booking.id, amountCents: 1, currency: "EUR", quantity: 1 },
      { token: client.token }
    )
    expect(wrongAmount.status).toBe(422)
    expect(wrongAmount.body.details[0].field).toBe("amountCents")
    const wrongCurrency = await api.post(
      "/api/payments/checkout/session",
      { bookingId: booking.id, currency: "USD" },
      { token: client.token }
    )
    expect(wrongCurrency.status).toBe(422)
    expect((await api.post("/api/payments/checkout/session", { bookingId: booking.id }, { token: provider.token })).status).toBe(403)
    expect((await api.post("/api/payments/checkout/session", { bookingId: booking.id }, { token: stranger.token })).status).toBe(404)
    const ok = await api.post(
      "/api/payments/checkout/session",
      { bookingId: booking.id, amountCents: booking.totalMinor, currency: "EUR", productName: "Vélo", quantity: 1 },
      { token: client.token }
    )
    expect(ok.status, ok.text).toBe(200)
    expect(ok.body.data).toMatchObject({ mode: "authorize", url: expect.stringContaining("/sandbox/checkout/") })
    // The page speaks the client's account language (French here), whatever the browser asks for.
    expect(new URL(ok.body.data.url).searchParams.get("lang")).toBe("fr")
    const page = await fetch(ok.body.data.url, { headers: { "accept-language": "en" } })
    expect((await page.text()).match(/<html lang="(\w+)">/)?.[1]).toBe("fr")
  })

  it("opens a checkout session for 31 minutes (not Stripe's 24 hours), and the slot waits for it, at most 90 minutes after the request", async () => {
    const booking = await book()
    const requestedHold = new Date(booking.holdExpiresAt).getTime()
    const opened = Date.now()
    const ok = await api.post("/api/payments/checkout/session", { bookingId: booking.id }, { token: client.token })
    expect(ok.status, ok.text).toBe(200)
    const [session] = await sql<{ expiresAt: Date }>("SELECT expires_at FROM sandbox_checkout_sessions WHERE id = $1", [
      ok.body.data.sessionId
    ])
    const sessionEnd = new Date(session!.expiresAt).getTime()
    expect(sessionEnd - opened).toBeGreaterThan(30 * 60_000)
    expect(sessionEnd - opened).toBeLessThanOrEqual(31 * 60_000 + 5_000)
    // The slot's hold follows the session (it was 30 minutes from the request).
    const after = (await api.get(`/api/bookings/${booking.id}`, { token: client.token })).body.data.booking
    expect(new Date(after.holdExpiresAt).getTime()).toBe(sessionEnd)
    expect(new Date(after.holdExpiresAt).getTime()).toBeGreaterThan(requestedHold)
  })

  it("refuses blank or malformed billing details field by field, in the user's language", async () => {
    const booking = await book()
    const checkout = (billingDetails: Record<string, unknown>, language?: string) =>
      api.post(
        "/api/payments/checkout/session",
        { bookingId: booking.id, billingDetails },
        { token: client.token, ...(language ? { language } : {}) }
      )
    const blank = { name: " ", email: "", address: { line1: "1 rue de la Paix", city: "", postal_code: "  ", country: "" } }
    const refused = await checkout(blank)
    expect(refused.status, refused.text).toBe(422)
    expect(refused.body.details).toEqual([
      { field: "billingDetails.name", message: "Le nom est requis" },
      { field: "billingDetails.email", message: "L'email est requis" },
      { field: "billingDetails.address.city", message: "La ville est requise" },
      { field: "billingDetails.address.postal_code", message: "Le code postal est requis" },
      { field: "billingDetails.address.country", message: "Le pays est requis" }
    ])
    const noAddress = await checkout({ name: "Ana", email: "ana@example" }, "en")
    expect(noAddress.status).toBe(422)
    expect(noAddress.body.details).toEqual([
      { field: "billingDetails.email", message: "Invalid email address." },
      { field: "billingDetails.address.line1", message: "Address is required" },
      { field: "billingDetails.address.city", message: "City is required" },
      { field: "billingDetails.address.postal_code", message: "Postal code is required" },
      { field: "billingDetails.address.country", message: "Country is required" }
    ])
    const complete = {
      name: "Ana",
      email: "ana@example.com",
      address: { line1: "1 rue de la Paix", city: "Paris", postal_code: "75002", country: "fr" }
    }
    const ok = await checkout(complete)
    expect(ok.status, ok.text).toBe(200)
  })

  it("saves the card instead of authorising for a booking more than 5 days ahead", async () => {
    const booking = await book(client.token, nextSlot(1, 20 * 24))
    const session = await api.post("/api/payments/checkout/session", { bookingId: booking.id }, { token: client.token })
    expect(session.body.data.mode).toBe("save_card")
    await payInSandbox(server, api, client.token, booking.id, "4242424242424242")
    const saved = (await api.get(`/api/bookings/${booking.id}`, { token: client.token })).body.data.booking
    expect(saved).toMatchObject({ paymentStatus: "CARD_SAVED", displayStatus: "PAID" })
    expect((await api.post(`/api/bookings/${booking.id}/confirm`, {}, { token: provider.token })).status).toBe(200)
  })
})

describe("GET /api/bookings/provider/calendar", () => {
  it("shows the provider's paid and confirmed bookings, not unpaid requests, rejected or cancelled ones; other roles are refused", async () => {
    const unpaid = await book()
    const [paid, confirmed, rejected, cancelled] = [await book(), await book(), await book(), await book()]
    for (const booking of [paid, confirmed, rejected, cancelled]) {
      await payInSandbox(server, api, client.token, booking.id, "4242424242424242")
    }
    expect((await api.post(`/api/bookings/${confirmed.id}/confirm`, {}, { token: provider.token })).status).toBe(200)
    expect((await api.post(`/api/bookings/${rejected.id}/reject`, { reason: "Indisponible" }, { token: provider.token })).status).toBe(200)
    expect((await api.call("DELETE", `/api/bookings/${cancelled.id}`, { token: client.token })).status).toBe(200)
    const reply = await api.get(
      `/api/bookings/provider/calendar?from=${new Date().toISOString()}&to=${new Date(Date.now() + 300 * 24 * HOUR).toISOString()}`,
      { token: provider.token }
    )
    expect(reply.status, reply.text).toBe(200)
    const ids = reply.body.data.map((e: { id: string }) => e.id)
    expect(ids).toEqual(expect.arrayContaining([paid.id, confirmed.id]))
    for (const hidden of [unpaid, rejected, cancelled]) expect(ids).not.toContain(hidden.id)
    expect(reply.body.data.find((e: { id: string }) => e.id === paid.id)).toMatchObject({
      displayStatus: "PAID",
      clientFirstName: expect.any(String)
    })
    expect((await api.get("/api/bookings/provider/calendar", { token: client.token })).status).toBe(403)
    expect((await api.get("/api/bookings/provider/calendar?from=yesterday", { token: provider.token })).status).toBe(422)
  })
})
