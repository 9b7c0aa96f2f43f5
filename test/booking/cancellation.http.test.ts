import { describe, expect, it } from "vitest"
import { newProvider, type Session } from "../support/accounts"
import { fr } from "../../src/platform/messages"
import { mailsTo } from "../support/http"
import { serviceOf } from "../support/scenarios"
import { httpWorld } from "../support/world"
import { HOUR } from "../support/durations"

/**
 * The cancellation policy through the API and the sandbox gateway (issue 13 item 2): free until 48 hours
 * before the start; later a client's cancellation of a confirmed booking captures half the total from the
 * hold (5% commission on it) and the gateway releases the rest; a provider's cancellation releases
 * everything and counts in their public cancellation rate.
 */

/** Amounts are formatted with no-break spaces (35,00 €). */
const spaced = (text: string) => text.replace(/\s/g, " ")

/** The provider's piano lessons: 35 € an hour. */
const PIANO = { title: "Cours de piano", description: "Cours de piano à domicile, tous niveaux.", price: 35, lat: 45.5, lng: -73.56 }
const { server, api, provider, client, sql, nextSlot, bookedIn } = httpWorld({ service: PIANO })

/**
 * A 2-hour booking of the piano lessons on a fresh slot `hoursAhead` hours ahead (3 hours apart), paid in
 * the sandbox (a hold: within 5 days), confirmed by its provider unless told not to.
 */
const paidBooking = async (hoursAhead: number, options: { confirm?: boolean; service?: string; owner?: Session } = {}) => {
  const built = await bookedIn(options.confirm === false ? "paid" : "confirmed", {
    ...(options.owner ? { provider: options.owner } : {}),
    ...(options.service ? { serviceId: options.service } : {}),
    start: new Date(nextSlot(2, hoursAhead).startTime),
    hours: 2
  })
  return built.bookingId
}

const money = async (id: string) => {
  const [row] = await sql<{
    captured: number
    fee: number
    kinds: string
    commission: number | null
    intent: { status: string; received: number; capturable: number; applicationFee: number }
  }>(
    `SELECT b.captured_minor::int AS captured, b.cancellation_fee_minor::int AS fee,
            (SELECT string_agg(kind, ',' ORDER BY created_at, kind) FROM payment_operations WHERE booking_id = b.id) AS kinds,
            (SELECT fee_minor::int FROM payment_operations WHERE booking_id = b.id AND kind = 'CAPTURE') AS commission,
            (SELECT json_build_object('status', i.status, 'received', i.amount_received, 'capturable', i.amount_capturable,
                                      'applicationFee', i.application_fee_minor)
               FROM sandbox_payment_intents i WHERE i.id = b.payment_intent_id) AS intent
     FROM bookings b WHERE b.id = $1`,
    [id]
  )
  return row!
}

describe("the cancellation policy", () => {
  it("is public: GET /api/cancellation-policy answers the configured figures", async () => {
    const reply = await api.get("/api/cancellation-policy")
    expect(reply.status, reply.text).toBe(200)
    expect(reply.body.data).toEqual({ freeHours: 48, feePercent: 50 })
  })

  it("a client's late cancellation of a confirmed booking captures half the total from the hold (5% commission on it), the rest released", async () => {
    const id = await paidBooking(24)
    // The booking states its terms: the client would pay 35,00 € now (half of 70,00 €); the provider nothing.
    const asClient = (await api.get(`/api/bookings/${id}`, { token: client.token })).body.data.booking
    expect(asClient.totalMinor).toBe(7_000)
    expect(asClient.cancellation).toMatchObject({ feePercent: 50, feeMinor: 3_500, chargedMinor: 0 })
    expect(spaced(asClient.cancellation.formattedFee)).toBe("35,00 €")
    expect(new Date(asClient.cancellation.freeUntil).getTime()).toBe(new Date(asClient.startTime).getTime() - 48 * HOUR)
    const english = (await api.get(`/api/bookings/${id}`, { token: client.token, language: "en" })).body.data.booking
    expect(english.cancellation.formattedFee).toBe("€35.00")
    const asProvider = (await api.get(`/api/bookings/${id}`, { token: provider.token })).body.data.booking
    expect(asProvider.cancellation).toMatchObject({ feeMinor: 0 })

    const cancelled = await api.call("DELETE", `/api/bookings/${id}?reason=${encodeURIComponent("Empêchement")}`, { token: client.token })
    expect(cancelled.status, cancelled.text).toBe(200)
    expect(cancelled.body.data.booking).toMatchObject({
      status: "CANCELLED",
      cancelledBy: "CLIENT",
      paymentStatus: "CAPTURED",
      cancellation: { chargedMinor: 3_500, feeMinor: 0 }
    })
    expect(spaced(cancelled.body.data.booking.cancellation.formattedCharged)).toBe("35,00 €")
    // Both are told, the client of the fee taken.
    const mail = (await mailsTo(server, client.email)).find((m) => m.subject === fr["mail.booking.cancelled.subject"])
    expect(spaced(mail?.text ?? "")).toContain("des frais de 35,00 € sont prélevés")
    // The gateway captured exactly the fee with 5% of it for the platform; nothing is left on hold.
    expect(await money(id)).toEqual({
      captured: 3_500,
      fee: 3_500,
      kinds: "AUTHORIZATION,CAPTURE",
      commission: 175,
      intent: { status: "succeeded", received: 3_500, capturable: 0, applicationFee: 175 }
    })
  })

  it("cancelling before the window is free: the hold is released, nothing captured", async () => {
    const id = await paidBooking(72)
    const before = (await api.get(`/api/bookings/${id}`, { token: client.token })).body.data.booking
    expect(before.paymentStatus).toBe("AUTHORIZED")
    expect(before.cancellation).toMatchObject({ feeMinor: 0, chargedMinor: 0 })
    const cancelled = await api.call("DELETE", `/api/bookings/${id}`, { token: client.token })
    expect(cancelled.status, cancelled.text).toBe(200)
    expect(cancelled.body.data.booking).toMatchObject({ status: "CANCELLED", paymentStatus: "CANCELED", cancellation: { chargedMinor: 0 } })
    expect(await money(id)).toEqual({
      captured: 0,
      fee: 0,
      kinds: "AUTHORIZATION,CANCELLATION",
      commission: null,
      intent: { status: "canceled", received: 0, capturable: 0, applicationFee: 350 }
    })
  })

  it("a request the provider has not confirmed is withdrawn free, even late", async () => {
    const id = await paidBooking(10, { confirm: false })
    expect((await api.get(`/api/bookings/${id}`, { token: client.token })).body.data.booking.cancellation.feeMinor).toBe(0)
    const cancelled = await api.call("DELETE", `/api/bookings/${id}`, { token: client.token })
    expect(cancelled.body.data.booking).toMatchObject({ status: "CANCELLED", paymentStatus: "CANCELED" })
    expect((await money(id)).captured).toBe(0)
  })

  it("a fee the client was not shown is refused, never charged: confirmed meanwhile, 409 with the new fee in the reader's language", async () => {
    const id = await paidBooking(20, { confirm: false })
    // The client's dialog opens on a free withdrawal; the provider confirms before the client clicks.
    const shown = (await api.get(`/api/bookings/${id}`, { token: client.token })).body.data.booking.cancellation.feeMinor
    expect(shown).toBe(0)
    expect((await api.post(`/api/bookings/${id}/confirm`, {}, { token: provider.token })).status).toBe(200)
    const refused = await api.call("DELETE", `/api/bookings/${id}?acceptedFee=${shown}`, { token: client.token })
    expect([refused.status, refused.body.code], refused.text).toEqual([409, "CANCELLATION_FEE_CHANGED"])
    expect(spaced(refused.body.message)).toContain("l'annuler maintenant coûte 35,00 €.")
    const english = await api.call("DELETE", `/api/bookings/${id}?acceptedFee=0`, { token: client.token, language: "en" })
    expect(english.body.message).toContain("cancelling now costs €35.00.")
    // Nothing moved: still confirmed, nothing captured.
    expect((await api.get(`/api/bookings/${id}`, { token: client.token })).body.data.booking.status).toBe("CONFIRMED")
    expect((await money(id)).captured).toBe(0)
    for (const malformed of ["-1", "3.5", "abc"]) {
      const invalid = await api.call("DELETE", `/api/bookings/${id}?acceptedFee=${malformed}`, { token: client.token })
      expect([invalid.status, invalid.body.details?.[0]?.field], malformed).toEqual([422, "acceptedFee"])
    }
    // Accepting the fee shown now cancels and charges it.
    const cancelled = await api.call("DELETE", `/api/bookings/${id}?acceptedFee=3500`, { token: client.token })
    expect(cancelled.status, cancelled.text).toBe(200)
    expect(cancelled.body.data.booking.cancellation.chargedMinor).toBe(3_500)
  })

  it("a provider's late cancellation releases everything", async () => {
    const id = await paidBooking(12)
    const cancelled = await api.call("DELETE", `/api/bookings/${id}`, { token: provider.token })
    expect(cancelled.status, cancelled.text).toBe(200)
    expect(cancelled.body.data.booking).toMatchObject({ status: "CANCELLED", cancelledBy: "PROVIDER", paymentStatus: "CANCELED" })
    expect(await money(id)).toMatchObject({ captured: 0, fee: 0, kinds: "AUTHORIZATION,CANCELLATION", intent: { status: "canceled" } })
  })
})

describe("a provider's public cancellation rate", () => {
  it("counts their cancellations of bookings they had confirmed, shown from 5 confirmed bookings", async () => {
    const other = await newProvider(server, api)
    const otherService = await serviceOf(server, other, PIANO)
    const rate = async () => {
      const reply = await api.get(`/api/users/public/${other.id}`, { token: client.token })
      expect(reply.status, reply.text).toBe(200)
      return reply.body.data.user.cancellationRate
    }
    expect(await rate()).toEqual({ confirmedBookings: 0, providerCancellations: 0, rate: null })
    const ids: Array<string> = []
    for (let i = 0; i < 4; i++) ids.push(await paidBooking(100 + i * 3, { service: otherService, owner: other }))
    // An unconfirmed request cancelled by the provider is not a confirmed booking cancelled.
    const request = await paidBooking(130, { service: otherService, owner: other, confirm: false })
    expect((await api.call("DELETE", `/api/bookings/${request}`, { token: other.token })).status).toBe(200)
    expect((await api.call("DELETE", `/api/bookings/${ids[0]}`, { token: other.token })).status).toBe(200)
    // Not enough bookings yet: 4 confirmed.
    expect(await rate()).toEqual({ confirmedBookings: 4, providerCancellations: 1, rate: null })
    ids.push(await paidBooking(140, { service: otherService, owner: other }))
    expect(await rate()).toEqual({ confirmedBookings: 5, providerCancellations: 1, rate: 0.2 })
    // The client's cancellation is not the provider's.
    expect((await api.call("DELETE", `/api/bookings/${ids[1]}`, { token: client.token })).status).toBe(200)
    expect((await rate()).rate).toBe(0.2)
    // Anonymous visitors see it too.
    expect((await api.get(`/api/users/public/${other.id}`)).body.data.user.cancellationRate.rate).toBe(0.2)
  })
})
