import { expect } from "@effect/vitest"
import { layer } from "../support/effect-layer"
import { Effect, Either } from "effect"
import { Administration } from "../../src/modules/administration"
import { AdminMemoryFacts, type MemoryFacts } from "../../src/modules/administration/adapters/memory"
import { type Actor, Identity, UserRepository } from "../../src/modules/identity"
import { inMemoryDomain, validRegistration } from "../support/domain"

// The administration service on the in-memory adapters: the read model answers from facts put
// here; the actions go through identity (also in memory).

const DAY = 86_400_000
const now = Date.now()
const person = (n: number) => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  firstName: `P${n}`,
  lastName: "Test",
  email: `p${n}@example.com`
})
const admin = (id: string): Actor => ({ id, role: "ADMIN", preferredLanguage: "fr", isEmailVerified: true })

const booking = (
  id: string,
  status: string,
  daysAgo: number,
  client = person(1),
  provider = person(2)
): MemoryFacts["bookings"][number] => ({
  id,
  status,
  paymentStatus: "UNPAID",
  startTime: new Date(now + DAY),
  endTime: new Date(now + DAY + 7_200_000),
  totalMinor: 8000,
  currency: "CAD",
  createdAt: new Date(now - daysAgo * DAY),
  service: { id: "s1", title: "Cours de piano", categoryNameFr: "Formation", categoryNameEn: "Training" },
  client,
  provider
})

const fill = (facts: MemoryFacts) => {
  facts.bookings.push(
    booking("b1", "COMPLETED", 1),
    booking("b2", "VALIDATED", 2),
    booking("b3", "CANCELLED", 3),
    booking("b4", "PENDING", 40)
  )
  const op = (
    kind: MemoryFacts["operations"][number]["kind"],
    amountMinor: number,
    feeMinor: number,
    daysAgo: number,
    intent: string,
    currency = "CAD",
    bookingId = "b1"
  ) =>
    facts.operations.push({
      id: `${kind}-${intent}-${daysAgo}`,
      bookingId,
      kind,
      refundStatus: kind === "REFUND" ? "succeeded" : null,
      amountMinor,
      feeMinor,
      currency,
      paymentMethod: "card",
      createdAt: new Date(now - daysAgo * DAY),
      paymentIntentId: intent
    })
  op("AUTHORIZATION", 8000, 0, 2, "pi_1")
  op("CAPTURE", 8000, 400, 1, "pi_1")
  op("REFUND", 2000, 100, 1, "pi_1")
  // b4: a hold renewed (pi_5 replaced by pi_2: only pi_2 is held).
  op("AUTHORIZATION", 5000, 0, 3, "pi_5", "CAD", "b4")
  op("AUTHORIZATION", 5000, 0, 1, "pi_2", "CAD", "b4")
  op("CAPTURE", 10000, 500, 100, "pi_3", "CAD", "b2")
  // b3: held, then released.
  op("AUTHORIZATION", 3000, 0, 5, "pi_6", "CAD", "b3")
  op("CANCELLATION", 3000, 0, 4, "pi_6", "CAD", "b3")
  op("CAPTURE", 99999, 4999, 1, "pi_4", "EUR", "b2")
  facts.pendingApplications.count = 2
}

layer(inMemoryDomain(), { excludeTestServices: true })("Administration on in-memory adapters", (it) => {
  it.effect("dashboard and financial figures from the facts, in one currency and period", () =>
    Effect.gen(function* () {
      yield* Effect.map(AdminMemoryFacts, fill)
      const me = admin("00000000-0000-4000-8000-0000000000aa")
      const d = yield* Effect.flatMap(Administration, (a) => a.dashboard(me, {}))
      expect(d.bookings).toMatchObject({
        total: 4,
        completed: 1,
        validated: 1,
        pending: 1,
        validationRate: Math.round((2 / 3) * 1000) / 10
      })
      // The most active currency (CAD: 8 operations, EUR: 1); captured in the last 30 days, held now (pi_2
      // only: pi_1 was captured, pi_5 replaced, pi_6 released), captured less refunds all time.
      expect(d.revenue).toEqual({
        monthly: 8000,
        monthlyCommissions: 300,
        pending: 5000,
        pendingCount: 1,
        validated: 8000 + 10000 - 2000,
        currency: "CAD"
      })
      expect(d.applications.pending).toBe(2)
      expect(d.currencies).toEqual(["CAD", "EUR"])

      const week = yield* Effect.flatMap(Administration, (a) => a.financialStats(me, { period: "week" }))
      expect(week).toMatchObject({
        grossRevenue: 8000,
        refundedAmount: 2000,
        keptRevenue: 6000,
        totalCommissions: 300,
        netRevenue: 5700,
        commissionMargin: 5,
        heldAmount: 5000,
        payments: { completed: 1, pending: 1, failed: 0 }
      })
      expect(week.revenueByStatus).toEqual([
        { status: "COMPLETED", count: 1, amountMinor: 8000 },
        { status: "PENDING", count: 1, amountMinor: 5000 },
        { status: "REFUNDED", count: 1, amountMinor: 2000 },
        { status: "CANCELLED", count: 1, amountMinor: 3000 }
      ])
      // One row per booking, latest operation first, in the currency asked (the most active by default).
      const payments = yield* Effect.flatMap(Administration, (a) => a.payments(me, {}))
      expect(payments.currency).toBe("CAD")
      expect(payments.rows.map((p) => [p.bookingId, p.status, p.amountMinor, p.refundedMinor, p.commissionMinor, p.heldMinor])).toEqual([
        ["b1", "COMPLETED", 8000, 2000, 300, 0],
        ["b4", "PENDING", 5000, 0, 0, 5000],
        ["b3", "CANCELLED", 3000, 0, 0, 0],
        ["b2", "COMPLETED", 10000, 0, 500, 0]
      ])
      const eurPayments = yield* Effect.flatMap(Administration, (a) => a.payments(me, { currency: "eur" }))
      expect(eurPayments.rows.map((p) => [p.bookingId, p.currency, p.amountMinor])).toEqual([["b2", "EUR", 99999]])
      const badCurrency = yield* Effect.either(Effect.flatMap(Administration, (a) => a.payments(me, { currency: "ZZZ" })))
      expect(Either.isLeft(badCurrency) && badCurrency.left._tag).toBe("ValidationFailed")
      const year = yield* Effect.flatMap(Administration, (a) => a.financialStats(me, { period: "year" }))
      expect(year.grossRevenue).toBe(18000)
      const euros = yield* Effect.flatMap(Administration, (a) => a.financialStats(me, { period: "week", currency: "eur" }))
      expect(euros).toMatchObject({ currency: "EUR", grossRevenue: 99999, totalCommissions: 4999 })

      const bad = yield* Effect.either(Effect.flatMap(Administration, (a) => a.financialStats(me, { period: "fortnight" })))
      expect(Either.isLeft(bad) && bad.left._tag).toBe("ValidationFailed")
    })
  )

  it.effect("analytics rank users and services by bookings in the period", () =>
    Effect.gen(function* () {
      const me = admin("00000000-0000-4000-8000-0000000000aa")
      const a7 = yield* Effect.flatMap(Administration, (a) => a.analytics(me, { period: "7" }))
      // b4 (40 days ago) is outside the week.
      expect(a7.topServices).toEqual([]) // no services in the facts: only booked services that exist are ranked
      expect(a7.growth.bookings.reduce((n, d) => n + d.count, 0)).toBe(3)
      const a90 = yield* Effect.flatMap(Administration, (a) => a.analytics(me, { period: "90" }))
      expect(a90.growth.bookings.reduce((n, d) => n + d.count, 0)).toBe(4)
    })
  )

  it.effect("only admins: everyone else is refused with 403", () =>
    Effect.gen(function* () {
      const client: Actor = { id: "c", role: "CLIENT", preferredLanguage: "fr", isEmailVerified: true }
      const calls: ReadonlyArray<(a: Administration["Type"]) => Effect.Effect<unknown, { readonly _tag: string }>> = [
        (a: Administration["Type"]) => a.dashboard(client, {}),
        (a: Administration["Type"]) => a.users(client, {}),
        (a: Administration["Type"]) => a.analytics(client, {}),
        (a: Administration["Type"]) => a.payments(client, {})
      ]
      for (const call of calls) {
        const result = yield* Effect.either(Effect.flatMap(Administration, call))
        expect(Either.isLeft(result) && result.left._tag).toBe("Forbidden")
      }
    })
  )

  it.effect("account changes go through identity: deactivation, role change, and never on oneself", () =>
    Effect.gen(function* () {
      const identity = <A, E>(f: (i: Identity["Type"]) => Effect.Effect<A, E>) => Effect.flatMap(Identity, f)
      const boss = yield* identity((i) => i.createAccount({ ...validRegistration(), role: "ADMIN" }))
      const target = yield* identity((i) => i.createAccount({ ...validRegistration(), role: "CLIENT" }))
      const off = yield* Effect.flatMap(Administration, (a) =>
        a.updateUser(admin(boss.id), target.id, { isActive: false, role: "PROVIDER" })
      )

      expect(off).toMatchObject({ id: target.id, isActive: false, role: "PROVIDER" })
      const stored = yield* Effect.flatMap(UserRepository, (u) => u.findById(target.id))
      expect(stored._tag === "Some" && stored.value.isActive).toBe(false)
      const self = yield* Effect.either(Effect.flatMap(Administration, (a) => a.updateUser(admin(boss.id), boss.id, { isActive: false })))
      expect(Either.isLeft(self) && self.left._tag).toBe("Conflict")
      const unknown = yield* Effect.either(
        Effect.flatMap(Administration, (a) => a.updateUser(admin(boss.id), "00000000-0000-4000-8000-000000000999", { isActive: true }))
      )
      expect(Either.isLeft(unknown) && unknown.left._tag).toBe("NotFound")
    })
  )

  it.effect("list filters are validated before any read", () =>
    Effect.gen(function* () {
      const me = admin("x")
      const calls: ReadonlyArray<(a: Administration["Type"]) => Effect.Effect<unknown, { readonly _tag: string }>> = [
        (a: Administration["Type"]) => a.users(me, { role: "KING" }),
        (a: Administration["Type"]) => a.users(me, { isActive: "perhaps" }),
        (a: Administration["Type"]) => a.bookings(me, { status: "LOST" }),
        (a: Administration["Type"]) => a.services(me, { categoryId: "-1" }),
        (a: Administration["Type"]) => a.exportBookings(me, { from: "2024-02-30" })
      ]
      for (const call of calls) {
        const result = yield* Effect.either(Effect.flatMap(Administration, call))
        expect(Either.isLeft(result) && result.left._tag).toBe("ValidationFailed")
      }
      const page = yield* Effect.flatMap(Administration, (a) => a.bookings(me, { status: "completed", page: "1", limit: "500" }))
      expect(page).toMatchObject({ total: 1, limit: 100, page: 1 })
    })
  )
})
