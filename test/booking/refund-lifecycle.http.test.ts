import { describe, expect, it } from "vitest"
import { httpWorld } from "../support/world"
import { sqlRows } from "../support/journey"

// Refunds that can fail (issue 24, item 4), over HTTP against the sandbox: the 5126 card's refund
// succeeds, then fails a few seconds later (as Stripe's test card does); its `charge.refund.updated`
// and `refund.failed` reach the webhook, the booking gives the money back to "captured", is flagged
// for an administrator, and every figure (timeline, receipt, finance) follows.

const { server, api, admin, client, bookedIn } = httpWorld({
  admin: true,
  service: { title: "Taille de haies", description: "Haies et arbustes.", price: 40, location: "Montréal", categoryId: 2 },
  slots: { fromHours: 24, hours: 2 }
})

type Booking = { paymentStatus: string; refundedMinor: number; capturedMinor: number; currency: string }
const adminBooking = async (id: string) =>
  (await api.get(`/api/admin/bookings/${id}`, { token: admin.token })).body.data.booking as Booking & { paymentIssue: string | null }

/** Polls until `done` holds of the admin's view of the booking (the sandbox fails the refund after a few seconds). */
const until = async (id: string, done: (b: Awaited<ReturnType<typeof adminBooking>>) => boolean, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const b = await adminBooking(id)
    if (done(b)) return b
    if (Date.now() > deadline) throw new Error(`booking ${id} stayed ${JSON.stringify(b)}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

describe("a refund that fails afterwards (the sandbox's 4000 0000 0000 5126)", () => {
  it("is first counted, then given back to captured: the booking flagged REFUND_FAILED, the timeline, receipt and finance follow", async () => {
    const { bookingId: id } = await bookedIn("completed", { card: "4000000000005126", hours: 2 })
    expect(await adminBooking(id)).toMatchObject({ paymentStatus: "CAPTURED", capturedMinor: 8000, refundedMinor: 0 })

    const refunded = await api.post(
      `/api/admin/bookings/${id}/refund`,
      { amountMinor: 3000, reason: "Haie oubliée" },
      { token: admin.token }
    )
    expect(refunded.status, refunded.text).toBe(200)
    // As Stripe answers it: succeeded, counted.
    expect(await adminBooking(id)).toMatchObject({ paymentStatus: "PARTIALLY_REFUNDED", refundedMinor: 3000, paymentIssue: null })
    const [pending] = await sqlRows<{ refundStatus: string }>(
      server,
      "SELECT refund_status FROM payment_operations WHERE booking_id = $1 AND kind = 'REFUND'",
      [id]
    )
    expect(pending!.refundStatus).toBe("succeeded")

    // Then the gateway fails it: nothing was given back.
    const failed = await until(id, (b) => b.paymentIssue === "REFUND_FAILED")
    expect(failed).toMatchObject({ paymentStatus: "CAPTURED", refundedMinor: 0, capturedMinor: 8000 })
    const rows = await sqlRows<{ refundStatus: string; detail: string }>(
      server,
      "SELECT refund_status, detail FROM payment_operations WHERE booking_id = $1 AND kind = 'REFUND'",
      [id]
    )
    // One record of the refund, its state failed; the admin's reason kept, the gateway's reason not written over it.
    expect(rows).toEqual([{ refundStatus: "failed", detail: "Haie oubliée" }])

    // The timeline reads it for everyone; the receipt lists no refund; the finance figures count none.
    const timeline = (await api.get(`/api/bookings/${id}/payments`, { token: client.token })).body.data.payments as ReadonlyArray<{
      event: string
      amountMinor: number
    }>
    expect(timeline.map((e) => [e.event, e.amountMinor])).toEqual([
      ["held", 8000],
      ["captured", 8000],
      ["refundFailed", 3000]
    ])
    const receipt = (await api.get(`/api/bookings/${id}/receipt`, { token: client.token })).body.data.receipt
    expect(receipt).toMatchObject({ paidMinor: 8000, refundedMinor: 0, netPaidMinor: 8000, refunds: [] })
    const finance = (await api.get(`/api/admin/payments?currency=${failed.currency}&limit=100`, { token: admin.token })).body.data
      .payments as ReadonlyArray<{
      bookingId: string
      refundedMinor: number
      commissionMinor: number
    }>
    expect(finance.find((p) => p.bookingId === id)).toMatchObject({ refundedMinor: 0, commissionMinor: 400 })
    const exported = await api.get(`/api/admin/exports/payments?currency=${failed.currency}`, { token: admin.token })
    const refundLine = exported.text.split("\n").find((line) => line.includes(id) && line.includes("REFUND"))
    expect(refundLine).toContain(",FAILED,")

    // The administrator's bookings list says which booking needs them.
    const list = await api.get("/api/admin/bookings?search=Taille", { token: admin.token })
    expect(list.body.data.bookings.find((b: { id: string }) => b.id === id)).toMatchObject({ paymentIssue: "REFUND_FAILED" })

    // Refunding again (the money is back with the platform) is possible; a refund that goes through clears the flag.
    const again = await api.post(
      `/api/admin/bookings/${id}/refund`,
      { amountMinor: 8000, reason: "Remboursement complet" },
      { token: admin.token }
    )
    expect(again.status, again.text).toBe(200)
    expect(await adminBooking(id)).toMatchObject({ paymentStatus: "REFUNDED", refundedMinor: 8000, paymentIssue: null })
  }, 60_000)
})
