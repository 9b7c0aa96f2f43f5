import { Effect, Either } from "effect"
import { BookingRepository } from "../../src/modules/booking/ports"
import { type AppError, errorText, isAppError } from "../../src/platform/errors"
import { describe, expect, it } from "vitest"
import { listBookings, refundBooking, renderBooking, renderList, setBookingStatus } from "../../cli/commands/bookings/shared"
import { cliBuiltWith } from "../support/cli"
import { cliWorld } from "../support/world"

// 35 an hour: a 2-hour booking is 70.00.
const { server, cli, failureCode, bookedIn } = cliWorld({
  service: { title: "Cours de piano", description: "Cours particuliers à domicile.", price: 35, location: "Québec", categoryId: 9 },
  slots: { fromHours: 24, hours: 2 },
  booking: { address: "2 rue Saint-Jean, Québec" }
})

/** A paid (authorised) booking. */
const paidBooking = async () => (await bookedIn("paid")).bookingId

describe("bookings:* and payments:refund as Effects (what the commands run)", () => {
  it("lists with filters, sets statuses through the rules, and refunds captured money in part then in full", async () => {
    const id = await paidBooking()
    const list = await server.run(listBookings({ status: "PAID" }))
    expect(list.bookings.map((b) => b.id)).toContain(id)
    expect(renderList(list)).toContain(id)
    expect(await failureCode(listBookings({ status: "LOST" }))).toBe("VALIDATION_ERROR")

    expect(await failureCode(setBookingStatus(id, "COMPLETED", undefined))).toBe("BOOKING_INVALID_TRANSITION")
    expect(await failureCode(setBookingStatus(id, "REJECTED", " "))).toBe("VALIDATION_ERROR")
    expect((await server.run(setBookingStatus(id, "CONFIRMED", undefined))).status).toBe("CONFIRMED")
    // Nothing captured yet: a refund is refused; a refund needs a reason.
    expect(await failureCode(refundBooking(id, undefined, "Service not as booked"))).toBe("NOTHING_TO_REFUND")
    expect(await failureCode(refundBooking(id, undefined, " "))).toBe("VALIDATION_ERROR")
    const validated = await server.run(setBookingStatus(id, "VALIDATED", undefined))
    expect(validated).toMatchObject({ status: "VALIDATED", paymentStatus: "CAPTURED", capturedMinor: 7000 })
    expect(renderBooking(validated)).toContain("VALIDATED")

    expect(await failureCode(refundBooking(id, 7001, "Service not as booked"))).toBe("REFUND_TOO_LARGE")
    expect(await server.run(refundBooking(id, 2000, "Service not as booked"))).toMatchObject({
      paymentStatus: "PARTIALLY_REFUNDED",
      refundedMinor: 2000
    })
    expect(await server.run(refundBooking(id, undefined, "Service not as booked"))).toMatchObject({
      paymentStatus: "REFUNDED",
      refundedMinor: 7000
    })
    expect(await failureCode(refundBooking("nope", undefined, "Service not as booked"))).toBe("BOOKING_NOT_FOUND")
  })

  /** A booking whose 70.00 were captured. */
  const capturedBooking = async () => {
    const id = await paidBooking()
    await server.run(setBookingStatus(id, "CONFIRMED", undefined))
    expect(await server.run(setBookingStatus(id, "VALIDATED", undefined))).toMatchObject({ paymentStatus: "CAPTURED", capturedMinor: 7000 })
    return id
  }
  const refunds = (id: string) =>
    server.run(Effect.flatMap(BookingRepository, (r) => r.operations(id))).then((ops) => ops.filter((op) => op.kind === "REFUND"))

  it("two concurrent identical partial refunds are two real refunds, each recorded (never a success for a refund merged away)", async () => {
    const id = await capturedBooking()
    const [first, second] = await Promise.all([
      server.run(refundBooking(id, 2000, "Service not as booked")),
      server.run(refundBooking(id, 2000, "Service not as booked"))
    ])
    expect(first.paymentStatus).toBe("PARTIALLY_REFUNDED")
    expect(second.paymentStatus).toBe("PARTIALLY_REFUNDED")
    const recorded = await refunds(id)
    expect(recorded.map((op) => op.amountMinor)).toEqual([2000, 2000])
    expect(new Set(recorded.map((op) => op.reference)).size).toBe(2)
    expect((await server.run(listBookings({ status: "VALIDATED" }))).bookings.find((b) => b.id === id)).toMatchObject({
      refundedMinor: 4000
    })
  })

  it("of two concurrent refunds that together exceed the capture, the second is refused clearly (409), and refunded stays within captured", async () => {
    const id = await capturedBooking()
    const outcomes = await Promise.all([
      server.run(Effect.either(refundBooking(id, 5000, "Service not as booked"))),
      server.run(Effect.either(refundBooking(id, 5000, "Service not as booked")))
    ])
    const refused = outcomes.filter(Either.isLeft).map((outcome) => outcome.left as { code?: string })
    // Both may pass the booking's check before either is recorded: the gateway then refuses one.
    expect(refused.length).toBeLessThanOrEqual(1)
    for (const error of refused) expect(["REFUND_EXCEEDS_REFUNDABLE", "REFUND_TOO_LARGE", "VALIDATION_ERROR"]).toContain(error.code)
    const recorded = await refunds(id)
    expect(recorded.reduce((sum, op) => sum + op.amountMinor, 0)).toBeLessThanOrEqual(7000)
    expect(recorded).toHaveLength(outcomes.filter(Either.isRight).length)
  })

  it("a refund refusal names the amount that may be refunded, in the message and in the field's message (no raw placeholder)", async () => {
    const id = await capturedBooking()
    const error = await server.run(Effect.flip(refundBooking(id, 7001, "Service not as booked")))
    expect(isAppError(error)).toBe(true)
    for (const language of ["fr", "en"] as const) {
      const text = errorText(error as AppError, language)
      // The ceiling written as the reader's language writes money (70,00 $CA, CA$70.00), never "70.00 CAD".
      expect(text, language).toMatch(language === "fr" ? /70,00\s\S+\)/ : /\(\S*70\.00\)/)
      expect(text, language).not.toMatch(/70\.00 [A-Z]{3}/)
      expect(text, language).not.toMatch(/\{\w+\}/)
    }
  })
})

describe.skipIf(!cliBuiltWith("bookings:list"))("bin/run bookings:* and payments:refund (spawned, same database)", () => {
  it("lists as JSON, cancels through the rules; refusals exit with code 3 and a clear message", async () => {
    const id = await paidBooking()
    const listed = await cli("bookings:list", "--status", "PAID", "--json")
    expect(listed.status, listed.stderr).toBe(0)
    expect(JSON.parse(listed.stdout).bookings.map((b: { id: string }) => b.id)).toContain(id)
    const cancelled = await cli("bookings:status", id, "CANCELLED", "--reason", "Client request", "--json")
    expect(cancelled.status, cancelled.stderr).toBe(0)
    expect(JSON.parse(cancelled.stdout).booking).toMatchObject({ id, status: "CANCELLED", paymentStatus: "CANCELED" })
    const refused = await cli("payments:refund", id, "--reason", "Client request")
    expect(refused.status).toBe(3)
    expect(refused.stderr).toContain("NOTHING_TO_REFUND")
  }, 60_000)

  it("payments:refund of more than was captured names the maximum, in the message and the field's (no raw placeholder)", async () => {
    const id = await paidBooking()
    await server.run(setBookingStatus(id, "CONFIRMED", undefined))
    await server.run(setBookingStatus(id, "VALIDATED", undefined))
    const refused = await cli("payments:refund", id, "--amount", "7001", "--reason", "Late")
    expect(refused.status).toBe(3)
    expect(refused.stderr).toContain("REFUND_TOO_LARGE")
    expect(refused.stderr).toMatch(/amountMinor: The refund is above what is left to refund \(\S*70\.00\)/)
    expect(refused.stderr).not.toContain("{max}")
  }, 60_000)
})
