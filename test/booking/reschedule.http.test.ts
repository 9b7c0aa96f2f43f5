import { describe, expect, it } from "vitest"
import { en, fr } from "../../src/platform/messages"
import { mailsTo } from "../support/http"
import { httpWorld } from "../support/world"
import { payInSandbox } from "./support"
import { HOUR } from "../support/durations"

/**
 * Rescheduling over HTTP (issue 12, item 4): POST /api/bookings/{id}/reschedule and
 * /reschedule/{proposalId}/accept|decline, every error status, the views' open proposal and history,
 * and the mails to the other party.
 */

/** Each booking and each proposed time on a fresh slot, 4 hours apart, within the 5 days that authorise at checkout. */
const world = httpWorld({
  service: { title: "Cours de piano", description: "Cours à domicile, tous niveaux.", price: 40, lat: 45.5, lng: -73.56 },
  stranger: true,
  admin: true,
  slots: { apartHours: 4 }
})
const { server, api, provider, client, stranger, admin, sql, nextSlot, book } = world
const propose = (token: string, id: string, body: Record<string, unknown>, language?: string) =>
  api.post(`/api/bookings/${id}/reschedule`, body, { token, ...(language ? { language } : {}) })
const answer = (token: string, id: string, proposalId: string, choice: "accept" | "decline") =>
  api.post(`/api/bookings/${id}/reschedule/${proposalId}/${choice}`, {}, { token })
const get = async (token: string, id: string) => (await api.get(`/api/bookings/${id}`, { token })).body.data.booking

describe("proposing, accepting and declining a new time", () => {
  it("the provider proposes, the client is mailed and accepts: the booking moves and keeps the history", async () => {
    const booking = await book()
    const target = nextSlot()
    const proposed = await propose(provider.token, booking.id, target)
    expect(proposed.status, proposed.text).toBe(201)
    const proposal = proposed.body.data.proposal
    expect(proposal).toMatchObject({
      proposedBy: "provider",
      status: "OPEN",
      startTime: target.startTime,
      endTime: target.endTime,
      previousStartTime: booking.startTime,
      totalMinor: booking.totalMinor,
      canAnswer: false,
      expiresAt: booking.startTime
    })
    expect(proposed.body.data.booking.openProposal.id).toBe(proposal.id)
    // Each side sees the open proposal; only the client may answer it, and nobody proposes another meanwhile.
    const asClient = await get(client.token, booking.id)
    expect(asClient.openProposal).toMatchObject({ id: proposal.id, canAnswer: true })
    expect(asClient.actions).not.toContain("reschedule")
    expect((await get(provider.token, booking.id)).openProposal.canAnswer).toBe(false)
    // The other party is mailed, in their language; the proposer is not.
    const mail = (await mailsTo(server, client.email)).find((m) => m.subject === fr["mail.booking.rescheduleProposed.subject"])
    expect(mail?.text).toContain("Cours de piano")
    expect(mail?.text).toContain("propose de déplacer votre réservation")
    expect((await mailsTo(server, provider.email)).some((m) => m.subject === fr["mail.booking.rescheduleProposed.subject"])).toBe(false)

    const accepted = await answer(client.token, booking.id, proposal.id, "accept")
    expect(accepted.status, accepted.text).toBe(200)
    const moved = accepted.body.data.booking
    expect(moved).toMatchObject({
      startTime: target.startTime,
      endTime: target.endTime,
      totalMinor: booking.totalMinor,
      openProposal: null
    })
    expect(moved.reschedules).toHaveLength(1)
    expect(moved.reschedules[0]).toMatchObject({ id: proposal.id, status: "ACCEPTED", decidedBy: "CLIENT" })
    expect((await mailsTo(server, provider.email)).some((m) => m.subject === fr["mail.booking.rescheduleAccepted.subject"])).toBe(true)
    // Answered once: a second answer is refused.
    const again = await answer(client.token, booking.id, proposal.id, "decline")
    expect(again.status).toBe(409)
    expect(again.body.code).toBe("RESCHEDULE_CLOSED")
  })

  it("the client proposes, the provider declines: the booking stays, the client is mailed", async () => {
    const booking = await book()
    const proposed = await propose(client.token, booking.id, nextSlot())
    expect(proposed.status, proposed.text).toBe(201)
    const id = proposed.body.data.proposal.id
    const declined = await answer(provider.token, booking.id, id, "decline")
    expect(declined.status, declined.text).toBe(200)
    expect(declined.body.data.booking).toMatchObject({ startTime: booking.startTime, openProposal: null })
    expect(declined.body.data.booking.reschedules[0]).toMatchObject({ id, status: "DECLINED", decidedBy: "PROVIDER" })
    expect((await mailsTo(server, client.email)).some((m) => m.subject === fr["mail.booking.rescheduleDeclined.subject"])).toBe(true)
    // Another proposal may follow.
    expect((await propose(provider.token, booking.id, nextSlot())).status).toBe(201)
  })

  it("answers 403 to the wrong side and to an administrator, 404 to strangers and unknown proposals, 409 to a second proposal", async () => {
    const booking = await book()
    const proposed = await propose(provider.token, booking.id, nextSlot())
    const id = proposed.body.data.proposal.id
    const own = await answer(provider.token, booking.id, id, "accept")
    expect(own.status).toBe(403)
    expect(own.body.code).toBe("RESCHEDULE_OWN_PROPOSAL")
    expect(own.body.message).toBe(fr["booking.rescheduleOwnProposal"])
    expect((await answer(admin.token, booking.id, id, "accept")).status).toBe(403)
    expect((await propose(admin.token, booking.id, nextSlot())).status).toBe(403)
    // A stranger does not learn that the booking exists.
    expect((await propose(stranger.token, booking.id, nextSlot())).status).toBe(404)
    expect((await answer(stranger.token, booking.id, id, "accept")).status).toBe(404)
    const unknown = await answer(client.token, booking.id, "00000000-0000-4000-8000-000000000000", "accept")
    expect(unknown.status).toBe(404)
    expect(unknown.body.code).toBe("RESCHEDULE_NOT_FOUND")
    expect((await propose(client.token, "00000000-0000-4000-8000-000000000000", nextSlot())).status).toBe(404)
    const second = await propose(client.token, booking.id, nextSlot(), "en")
    expect(second.status).toBe(409)
    expect(second.body).toMatchObject({ code: "RESCHEDULE_ALREADY_OPEN", message: en["booking.rescheduleAlreadyOpen"] })
    expect((await propose(client.token, booking.id, nextSlot())).status).toBe(409)
    expect((await api.post(`/api/bookings/${booking.id}/reschedule`, nextSlot())).status).toBe(401)
  })

  it("GET /api/bookings/{id}/slots offers the times the booking can move to, its own time and the times around it included", async () => {
    const booking = await book()
    const start = Date.parse(booking.startTime)
    const window = { from: new Date(start - 2 * HOUR).toISOString(), to: new Date(start + 2 * HOUR).toISOString(), duration: "60" }
    const startsOf = (reply: { body: any }) =>
      (reply.body.data.slots as Array<{ startTime: string }>).map((slot) => Date.parse(slot.startTime))
    // The service's own slots leave the booking's hour out (and the half-hour before it)...
    const serviceSlots = await api.get(`/api/services/${world.serviceId}/slots?${new URLSearchParams(window)}`)
    expect(serviceSlots.status, serviceSlots.text).toBe(200)
    expect(startsOf(serviceSlots)).not.toContain(start + HOUR / 2)
    // ...the booking's do not: moving it by half an hour is offered, to either party.
    for (const who of [client, provider]) {
      const moves = await api.get(`/api/bookings/${booking.id}/slots?${new URLSearchParams(window)}`, { token: who.token })
      expect(moves.status, moves.text).toBe(200)
      expect(moves.body.data).toMatchObject({ duration: 60, timeZone: expect.any(String) })
      expect(startsOf(moves)).toEqual(expect.arrayContaining([start - HOUR / 2, start, start + HOUR / 2]))
    }
    // The half-hour move it offered is accepted as a proposal.
    const half = new Date(start + HOUR / 2)
    const moved = await propose(client.token, booking.id, {
      startTime: half.toISOString(),
      endTime: new Date(half.getTime() + HOUR).toISOString()
    })
    expect(moved.status, moved.text).toBe(201)
    // Whoever may not propose may not ask: strangers 404, an administrator 403, a second proposal 409, a bad window 422.
    const query = `?${new URLSearchParams(window)}`
    expect((await api.get(`/api/bookings/${booking.id}/slots${query}`, { token: stranger.token })).status).toBe(404)
    expect((await api.get(`/api/bookings/${booking.id}/slots${query}`, { token: admin.token })).status).toBe(403)
    expect((await api.get(`/api/bookings/${booking.id}/slots${query}`, { token: provider.token })).status).toBe(409)
    expect((await api.get(`/api/bookings/${booking.id}/slots${query}`)).status).toBe(401)
    const other = await book()
    const bad = await api.get(`/api/bookings/${other.id}/slots?from=demain&duration=60`, { token: client.token, language: "en" })
    expect(bad.status, bad.text).toBe(422)
  })

  it("answers 422 per field for times the booking rules refuse, in the user's language", async () => {
    const booking = await book()
    const start = new Date(Date.now() + 30 * HOUR)
    const backwards = await propose(
      client.token,
      booking.id,
      { startTime: start.toISOString(), endTime: new Date(start.getTime() - HOUR).toISOString() },
      "en"
    )
    expect(backwards.status).toBe(422)
    expect(backwards.body.details).toContainEqual({ field: "endTime", message: en["booking.endBeforeStart"] })
    const past = await propose(client.token, booking.id, {
      startTime: new Date(Date.now() - HOUR).toISOString(),
      endTime: new Date(Date.now() + HOUR).toISOString()
    })
    expect(past.status).toBe(422)
    expect(past.body.details).toContainEqual({ field: "startTime", message: fr["booking.startInPast"] })
    const same = await propose(client.token, booking.id, { startTime: booking.startTime, endTime: booking.endTime })
    expect(same.status).toBe(422)
    expect(same.body.details).toContainEqual({ field: "startTime", message: fr["booking.rescheduleSameTime"] })
    const tooLong = await propose(client.token, booking.id, {
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + 8 * 24 * HOUR).toISOString()
    })
    expect(tooLong.status).toBe(422)
    const farAhead = new Date(Date.now() + 400 * 24 * HOUR)
    const horizon = await propose(client.token, booking.id, {
      startTime: farAhead.toISOString(),
      endTime: new Date(farAhead.getTime() + HOUR).toISOString()
    })
    expect(horizon.status).toBe(422)
    expect((await propose(client.token, booking.id, {})).status).toBe(422)
  })

  it("409 for a taken slot, at the proposal and at the acceptance (the proposal stays open), and for a booking that cannot move", async () => {
    const booking = await book()
    const other = await book()
    const taken = await propose(provider.token, booking.id, { startTime: other.startTime, endTime: other.endTime })
    expect(taken.status).toBe(409)
    expect(taken.body.code).toBe("BOOKING_SLOT_TAKEN")
    // Free when proposed, taken by another booking before the acceptance: the exclusion constraint refuses the move.
    const target = nextSlot()
    const proposed = await propose(provider.token, booking.id, target)
    expect(proposed.status).toBe(201)
    const racer = await api.post(
      "/api/bookings",
      { serviceId: world.serviceId, address: "1200 rue Sainte-Catherine, Montréal", ...target },
      { token: stranger.token }
    )
    expect(racer.status, racer.text).toBe(201)
    const refused = await answer(client.token, booking.id, proposed.body.data.proposal.id, "accept")
    expect(refused.status).toBe(409)
    expect(refused.body.code).toBe("BOOKING_SLOT_TAKEN")
    const after = await get(client.token, booking.id)
    expect(after.startTime).toBe(booking.startTime)
    expect(after.openProposal).toMatchObject({ id: proposed.body.data.proposal.id, status: "OPEN" })
    // The client may still decline it.
    expect((await answer(client.token, booking.id, proposed.body.data.proposal.id, "decline")).status).toBe(200)
    // A cancelled booking cannot move.
    expect((await api.call("DELETE", `/api/bookings/${booking.id}`, { token: client.token })).status).toBe(200)
    const closed = await propose(client.token, booking.id, nextSlot())
    expect(closed.status).toBe(409)
    expect(closed.body.code).toBe("BOOKING_NOT_RESCHEDULABLE")
  })

  it("a longer time raises the total: the booking keeps its time and its hold until the client authorises the new total, then moves and releases the old hold", async () => {
    const booking = await book()
    await payInSandbox(server, api, client.token, booking.id)
    const paid = await get(client.token, booking.id)
    expect(paid).toMatchObject({ paymentStatus: "AUTHORIZED", totalMinor: 4_000 })
    const oldIntent = (await sql<{ intent: string }>("SELECT payment_intent_id AS intent FROM bookings WHERE id = $1", [booking.id]))[0]!
      .intent
    const target = nextSlot(2)
    const proposed = await propose(provider.token, booking.id, target)
    expect(proposed.status, proposed.text).toBe(201)
    expect(proposed.body.data.proposal).toMatchObject({ totalMinor: 8_000, previousTotalMinor: 4_000, duration: 120 })
    const accepted = await answer(client.token, booking.id, proposed.body.data.proposal.id, "accept")
    expect(accepted.status, accepted.text).toBe(200)
    // Accepted, not moved: same time, same total, the hold kept; the proposal awaits the new total's authorisation.
    const awaiting = await get(client.token, booking.id)
    expect(awaiting).toMatchObject({
      startTime: booking.startTime,
      totalMinor: 4_000,
      paymentStatus: "AUTHORIZED",
      amountDueMinor: 8_000,
      openProposal: { status: "AWAITING_PAYMENT", canAnswer: false, totalMinor: 8_000 }
    })
    expect(awaiting.actions).toContain("pay")
    expect(awaiting.actions).not.toContain("reschedule")
    // Both are told; answering it again is refused.
    expect((await mailsTo(server, client.email)).some((m) => m.subject === fr["mail.booking.rescheduleAwaitingPayment.subject"])).toBe(true)
    expect((await mailsTo(server, provider.email)).some((m) => m.subject === fr["mail.booking.rescheduleAwaitingPayment.subject"])).toBe(
      true
    )
    expect((await answer(client.token, booking.id, proposed.body.data.proposal.id, "accept")).status).toBe(409)
    // The checkout asks for the new total (the old one is refused), as a hold.
    const wrong = await api.post("/api/payments/checkout/session", { bookingId: booking.id, amountCents: 4_000 }, { token: client.token })
    expect(wrong.status).toBe(422)
    await payInSandbox(server, api, client.token, booking.id)
    // The new hold arrived: the booking moved, the proposal is accepted, and the old hold is released.
    const moved = await get(client.token, booking.id)
    expect(moved).toMatchObject({
      startTime: target.startTime,
      endTime: target.endTime,
      totalMinor: 8_000,
      paymentStatus: "AUTHORIZED",
      amountDueMinor: 8_000,
      openProposal: null
    })
    expect(moved.reschedules[0]).toMatchObject({ id: proposed.body.data.proposal.id, status: "ACCEPTED" })
    const [row] = await sql<{ authorized: number; intent: string }>(
      "SELECT authorized_minor::int AS authorized, payment_intent_id AS intent FROM bookings WHERE id = $1",
      [booking.id]
    )
    expect(row).toMatchObject({ authorized: 8_000 })
    expect(row!.intent).not.toBe(oldIntent)
    await expect
      .poll(
        async () => (await sql<{ status: string }>("SELECT status FROM sandbox_payment_intents WHERE id = $1", [oldIntent]))[0]?.status,
        {
          timeout: 20_000,
          interval: 250
        }
      )
      .toBe("canceled")
    expect((await mailsTo(server, client.email)).some((m) => m.subject === fr["mail.booking.rescheduleMoved.subject"])).toBe(true)
    expect((await api.post(`/api/bookings/${booking.id}/confirm`, {}, { token: provider.token })).status).toBe(200)
  }, 60_000)

  it("a new total authorised once the proposed time was taken: the proposal closes UNAVAILABLE, the booking keeps its time and hold, the new hold is released", async () => {
    const booking = await book()
    await payInSandbox(server, api, client.token, booking.id)
    const oldIntent = (await sql<{ intent: string }>("SELECT payment_intent_id AS intent FROM bookings WHERE id = $1", [booking.id]))[0]!
      .intent
    const target = nextSlot(2)
    const proposed = await propose(provider.token, booking.id, target)
    expect((await answer(client.token, booking.id, proposed.body.data.proposal.id, "accept")).status).toBe(200)
    // Meanwhile another client books the proposed time (an awaiting proposal holds no slot).
    const racer = await api.post(
      "/api/bookings",
      { serviceId: world.serviceId, address: "10 rue Sherbrooke, Montréal", ...target },
      { token: stranger.token }
    )
    expect(racer.status, racer.text).toBe(201)
    await payInSandbox(server, api, client.token, booking.id)
    const after = await get(client.token, booking.id)
    expect(after).toMatchObject({ startTime: booking.startTime, totalMinor: 4_000, paymentStatus: "AUTHORIZED", openProposal: null })
    expect(after.reschedules[0]).toMatchObject({ id: proposed.body.data.proposal.id, status: "UNAVAILABLE" })
    const [row] = await sql<{ intent: string }>("SELECT payment_intent_id AS intent FROM bookings WHERE id = $1", [booking.id])
    expect(row!.intent).toBe(oldIntent)
    // The new hold is released; the old one stays.
    await expect
      .poll(
        async () =>
          (
            await sql<{ status: string }>(
              "SELECT status FROM sandbox_payment_intents WHERE booking_id = $1 AND id <> $2 ORDER BY created_at DESC LIMIT 1",
              [booking.id, oldIntent]
            )
          )[0]?.status,
        { timeout: 20_000, interval: 250 }
      )
      .toBe("canceled")
    expect((await sql<{ status: string }>("SELECT status FROM sandbox_payment_intents WHERE id = $1", [oldIntent]))[0]?.status).toBe(
      "requires_capture"
    )
    expect(
      (await mailsTo(server, client.email)).some(
        (m) =>
          m.subject === en["mail.booking.rescheduleUnavailable.subject"] || m.subject === fr["mail.booking.rescheduleUnavailable.subject"]
      )
    ).toBe(true)
  }, 60_000)

  it("a shorter time keeps the hold, which covers the lower total", async () => {
    const booking = await book(client.token, nextSlot(2))
    await payInSandbox(server, api, client.token, booking.id)
    const proposed = await propose(client.token, booking.id, nextSlot(1))
    expect(proposed.status, proposed.text).toBe(201)
    const accepted = await answer(provider.token, booking.id, proposed.body.data.proposal.id, "accept")
    expect(accepted.status, accepted.text).toBe(200)
    expect(accepted.body.data.booking).toMatchObject({ totalMinor: 4_000, paymentStatus: "AUTHORIZED" })
    expect((await mailsTo(server, client.email)).some((m) => m.subject === fr["mail.booking.rescheduleAccepted.subject"])).toBe(true)
  })
})
