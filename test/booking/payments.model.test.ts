import { Effect, Either, ManagedRuntime, Option } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Bookings } from "../../src/modules/booking"
import { type UserCommand } from "../../src/modules/booking/service"
import { type ChargeEvent, ChargeGateway } from "../../src/modules/payments"
import { SandboxChargeStore } from "../../src/modules/payments/ports"
import { BookingRepository } from "../../src/modules/booking/ports"
import { fallbackHoldEnd } from "../../src/modules/payments/holds"
import { SandboxCheckout } from "../../src/modules/payments/adapters/charges-sandbox"
import { Transactional } from "../../src/platform/transaction"
import { actorOf, bookableService, inMemoryDomain, verifiedAccount } from "../support/domain"
import { adjustableClock } from "../support/clock"
import type { RuntimeOf, ServicesOf } from "../support/layers"
import { DAY, HOUR, MINUTE } from "../support/durations"

/**
 * Model-based test of the money (issue 10) through the real booking service on in-memory adapters and
 * the sandbox gateway: random stories where clients open several checkout sessions and pay them (two
 * tabs), the gateway's events arrive duplicated, late and reordered (a decline created before the hold
 * delivered after it), time jumps, the sweep and the users act, and reconciliation runs as a command.
 * After every step: captured ≤ authorised, refunded ≤ captured, and a finished booking holds its money,
 * can still collect it, or says why not. After each reconciliation: no hold without its booking, and no
 * finished booking unpaid unless flagged.
 */

const layer = inMemoryDomain()
let runtime: RuntimeOf<ReturnType<typeof inMemoryDomain>>
const time = adjustableClock()
const run = <A, E>(effect: Effect.Effect<A, E, ServicesOf<ReturnType<typeof inMemoryDomain>>>): Promise<A> =>
  runtime.runPromise(Effect.withClock(effect, time.clock))
const attempt = <A, E>(effect: Effect.Effect<A, E, ServicesOf<ReturnType<typeof inMemoryDomain>>>) => run(Effect.either(effect))

beforeAll(() => {
  runtime = ManagedRuntime.make(layer)
})
afterAll(() => runtime.dispose())

/** A provider with a payable account and a service, a client, an admin, and one booking `leadDays` ahead. */
const scene = (leadDays: number) =>
  Effect.gen(function* () {
    const bookings = yield* Bookings
    const { provider, client, service, accountId } = yield* bookableService()
    const admin = yield* verifiedAccount()
    const now = yield* Effect.clockWith((clock) => clock.currentTimeMillis)
    const start = new Date(now + leadDays * DAY)
    start.setUTCSeconds(0, 0)
    const actors = { client, provider, admin: actorOf(admin.user, "ADMIN") }
    const booking = yield* bookings.request(actors.client, {
      serviceId: service.id,
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + 2 * HOUR).toISOString(),
      address: "3 quai de la Fosse, Nantes"
    })
    return { bookingId: booking.id, totalMinor: booking.totalMinor, actors, accountId }
  })

type Scene = Effect.Effect.Success<ReturnType<typeof scene>>

type Step =
  | { readonly t: "checkout" }
  | { readonly t: "raceCheckout" }
  | { readonly t: "pay"; readonly pick: number }
  | { readonly t: "deliver"; readonly pick: number; readonly keep: boolean }
  | { readonly t: "advance"; readonly ms: number }
  | { readonly t: "sweep" }
  | { readonly t: "act"; readonly pick: number }
  | { readonly t: "reconcile" }
  /** The next move of an ordinary story (so that runs get to finished bookings), by whoever would make it. */
  | { readonly t: "progress"; readonly pick: number }
  /** Either party proposes a new time, `shiftHours` from now, `hours` long (the booking lasts 2: shorter, same, longer). */
  | { readonly t: "propose"; readonly by: "client" | "provider"; readonly shiftHours: number; readonly hours: number }
  /** The other party accepts or declines the open proposal. */
  | { readonly t: "answer"; readonly accept: boolean }
  /** The client reports a problem (issue 13); a party writes in the dispute; an admin decides it (outcome by pick, a part by `share`). */
  | { readonly t: "report" }
  | { readonly t: "disputeMessage"; readonly by: "client" | "provider" | "admin" }
  | { readonly t: "resolve"; readonly pick: number; readonly share: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ t: "checkout" as const }) },
  { weight: 4, arbitrary: fc.constant({ t: "raceCheckout" as const }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant("pay" as const), pick: fc.nat({ max: 5 }) }) },
  { weight: 6, arbitrary: fc.record({ t: fc.constant("deliver" as const), pick: fc.nat({ max: 9 }), keep: fc.boolean() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant("advance" as const),
      ms: fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: MINUTE, max: 20 * MINUTE }) },
        { weight: 1, arbitrary: fc.integer({ min: 2 * HOUR, max: 3 * DAY }) }
      )
    })
  },
  { weight: 2, arbitrary: fc.constant({ t: "sweep" as const }) },
  { weight: 6, arbitrary: fc.record({ t: fc.constant("act" as const), pick: fc.nat({ max: 9 }) }) },
  { weight: 2, arbitrary: fc.constant({ t: "reconcile" as const }) },
  { weight: 10, arbitrary: fc.record({ t: fc.constant("progress" as const), pick: fc.nat({ max: 5 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant("propose" as const),
      by: fc.constantFrom("client" as const, "provider" as const),
      shiftHours: fc.integer({ min: -2, max: 14 * 24 }),
      hours: fc.constantFrom(1, 2, 3)
    })
  },
  { weight: 3, arbitrary: fc.record({ t: fc.constant("answer" as const), accept: fc.boolean() }) },
  { weight: 2, arbitrary: fc.constant({ t: "report" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant("disputeMessage" as const),
      by: fc.constantFrom("client" as const, "provider" as const, "admin" as const)
    })
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant("resolve" as const),
      pick: fc.nat({ max: 5 }),
      share: fc.double({ min: 0, max: 1.2, noNaN: true })
    })
  }
)

/** Where captured money may sit (migration 0023): completed, validated, or a decided dispute. */
const KEEPS = ["COMPLETED", "VALIDATED", "RESOLVED"]
/** A finished booking owed money: completed, validated, or a dispute decided to keep something. */
const owed = (b: { status: string; resolvedCaptureMinor: number | null }) =>
  b.status === "COMPLETED" || b.status === "VALIDATED" || (b.status === "RESOLVED" && (b.resolvedCaptureMinor ?? 0) > 0)

/** The user commands a story may try, by whom (refusals are part of the story). */
const COMMANDS: ReadonlyArray<readonly ["client" | "provider" | "admin", UserCommand]> = [
  ["provider", { _tag: "Confirm" }],
  ["provider", { _tag: "Confirm" }],
  ["provider", { _tag: "MarkRendered" }],
  ["provider", { _tag: "MarkRendered" }],
  ["client", { _tag: "ConfirmCompletion", rating: 5, comment: "Parfait" }],
  ["client", { _tag: "ConfirmCompletion", rating: 4, comment: "Bien" }],
  ["admin", { _tag: "Validate" }],
  ["client", { _tag: "Cancel", reason: "Empêchement" }],
  ["admin", { _tag: "Refund", amountMinor: 100 }],
  ["provider", { _tag: "Reject", reason: "Indisponible" }]
]

interface World {
  readonly scene: Scene
  /** Checkout sessions opened for the booking (through the service, or racing it). */
  readonly sessions: Array<string>
  /** Gateway events not delivered yet (delivered in any order, possibly several times). */
  readonly pending: Array<ChargeEvent>
  sequence: number
}

const booking = (w: World) => run(Effect.flatMap(Bookings, (b) => b.get(w.scene.actors.admin, w.scene.bookingId)))
/** The booking's holds still open: one past its capture deadline was released by the gateway (as Stripe does). */
const holdsOf = (w: World) =>
  run(Effect.flatMap(SandboxChargeStore, (store) => store.listIntents("requires_capture", new Date(0)))).then((intents) =>
    intents.filter(
      (i) =>
        i.bookingId === w.scene.bookingId && (i.captureBefore ?? new Date(i.createdAt.getTime() + 7 * DAY)).getTime() > time.now().getTime()
    )
  )

const checkEveryStep = async (w: World) => {
  const b = await booking(w)
  expect(b.capturedMinor).toBeLessThanOrEqual(b.authorizedMinor)
  expect(b.capturedMinor).toBeLessThanOrEqual(b.totalMinor)
  expect(b.refundedMinor).toBeLessThanOrEqual(b.capturedMinor)
  // Captured money only where it may be kept (a finished booking, a decided dispute), or in a client's late cancellation (its fee at most, half
  // the total by the default policy, rounded down).
  if (b.capturedMinor > 0 && b.status === "CANCELLED") {
    expect(b.cancelledBy).toBe("CLIENT")
    expect(b.capturedMinor).toBeLessThanOrEqual(b.cancellationFeeMinor)
  } else if (b.capturedMinor > 0) expect(KEEPS).toContain(b.status)
  if (b.cancellationFeeMinor > 0) {
    expect(b).toMatchObject({ status: "CANCELLED", cancelledBy: "CLIENT", cancellationFeeMinor: Math.floor(b.totalMinor / 2) })
  }
  // A finished booking holds its money, can still collect it (a hold to capture, a saved card to authorise), or says why not.
  if (owed(b) && b.capturedMinor === 0 && b.paymentIssue === null) {
    expect(["AUTHORIZED", "CARD_SAVED"]).toContain(b.paymentStatus)
  }
  if (b.paymentIssue !== null) expect(KEEPS).toContain(b.status)
  // A decided dispute captures at most what its decision keeps.
  if (b.status === "RESOLVED") expect(b.capturedMinor).toBeLessThanOrEqual(b.resolvedCaptureMinor!)
  else expect(b.resolvedCaptureMinor).toBeNull()
  // A disputed booking is never captured nor validated by time; it keeps a hold (or a way to get one) until decided.
  if (b.status === "DISPUTED") expect(b.capturedMinor).toBe(0)
  // The commission is 5% of each captured amount, and the captures add up to what the booking says.
  const operations = await run(Effect.flatMap(Bookings, (bk) => bk.operations(w.scene.actors.admin, w.scene.bookingId)))
  const captures = operations.filter((o) => o.kind === "CAPTURE")
  for (const c of captures) expect(c.feeMinor).toBe(Math.round((c.amountMinor * 5) / 100))
  expect(captures.reduce((sum, c) => sum + c.amountMinor, 0)).toBe(b.capturedMinor)
  // A move that raised the total released the hold at once (the sandbox answers): no hold short of the total is left.
  if (b.paymentStatus === "AUTHORIZED") expect(b.authorizedMinor).toBeGreaterThanOrEqual(b.totalMinor)
  // The hold's end the booking plans its renewal from is never after the gateway's real one.
  if (b.paymentStatus === "AUTHORIZED" && b.paymentIntentId !== null) {
    const recorded = Option.getOrThrow(
      await run(Effect.flatMap(BookingRepository, (bookings) => bookings.findById(w.scene.bookingId)))
    ).authorizationExpiresAt
    const intent = Option.getOrThrow(await run(Effect.flatMap(SandboxChargeStore, (store) => store.findIntent(b.paymentIntentId!))))
    expect(recorded!.getTime()).toBeLessThanOrEqual(intent.captureBefore!.getTime())
  }
  // At most one open proposal, only on a booking that can still move.
  const open = b.reschedules.filter((r) => r.status === "OPEN" || r.status === "AWAITING_PAYMENT")
  expect(open.length).toBeLessThanOrEqual(1)
  if (open.length > 0) expect(["PENDING", "CONFIRMED"]).toContain(b.status)
}

/** Reconciliation as the operator's command (after the sweep settled what it could), then its promises. */
const reconcileAndCheck = async (w: World) => {
  time.advance(11 * MINUTE)
  await run(Effect.flatMap(Bookings, (b) => b.sweep))
  const report = await run(Effect.flatMap(Bookings, (b) => b.reconcile))
  await run(Effect.flatMap(Bookings, (b) => b.sweep))
  const b = await booking(w)
  const holds = await holdsOf(w)
  // No hold without its booking: the only hold left is the one the booking references (and still needs).
  for (const hold of holds) expect(hold.id).toBe(b.paymentIntentId)
  if (
    b.status === "CANCELLED" ||
    b.status === "REJECTED" ||
    (b.status === "RESOLVED" && !owed(b)) ||
    ["CAPTURED", "PARTIALLY_REFUNDED", "REFUNDED"].includes(b.paymentStatus)
  )
    expect(holds).toEqual([])
  // No finished booking with nothing captured unless flagged (a dispute decided to keep something included).
  if (owed(b)) expect(b.capturedMinor > 0 || b.paymentIssue !== null).toBe(true)
  return report
}

const pay = (w: World, sessionId: string) =>
  Effect.gen(function* () {
    const checkout = yield* SandboxCheckout
    const outcome = yield* checkout.pay(sessionId, { number: "4242424242424242", expiry: "12/34", cvc: "123" })
    if (outcome._tag !== "Completed") return
    const session = Option.getOrThrow(yield* checkout.find(sessionId)).session
    const at = new Date(yield* Effect.clockWith((clock) => clock.currentTimeMillis))
    const reference = () => `evt_model_${++w.sequence}`
    if (session.mode === "setup") {
      const store = yield* SandboxChargeStore
      const setup = Option.getOrThrow(yield* store.findSetupIntent(session.setupIntentId!))
      w.pending.push({
        _tag: "CardSaved",
        bookingId: session.bookingId,
        customerId: setup.customerId!,
        paymentMethodId: setup.paymentMethodId!,
        reference: reference(),
        occurredAt: at
      })
      return
    }
    const intentId = session.paymentIntentId!
    const real = Option.getOrThrow(yield* Effect.flatMap(SandboxChargeStore, (store) => store.findIntent(intentId))).captureBefore!
    // The hold, and a decline of the same intent created a little earlier (a first card refused), in any order.
    // The hold as the webhook hands it on: its real end once retrieved, and the same report again
    // with the fallback of a gateway that did not say (Stripe's event, its charge an id).
    for (const [expiresAt, expiryKnown] of [
      [real, true],
      [fallbackHoldEnd("customer", at), false]
    ] as const) {
      w.pending.push({
        _tag: "PaymentAuthorized",
        bookingId: session.bookingId,
        paymentIntentId: intentId,
        amountMinor: session.amountMinor,
        expiresAt,
        expiryKnown,
        extendedAuthorization: false,
        customerId: session.customerId,
        paymentMethodId: null,
        paymentMethod: "visa •••• 4242",
        reference: reference(),
        occurredAt: at
      })
    }
    w.pending.push({
      _tag: "PaymentFailed",
      bookingId: session.bookingId,
      paymentIntentId: intentId,
      needsClient: true,
      code: "card_declined",
      reference: reference(),
      occurredAt: new Date(at.getTime() - 5_000)
    })
  })

/** What the stories did (the reschedule steps are not vacuous). */
const tally: Record<string, number> = {}

const apply = async (w: World, st: Step): Promise<void> => {
  const { actors, bookingId, totalMinor } = w.scene
  switch (st.t) {
    case "checkout": {
      const opened = await attempt(Effect.flatMap(Bookings, (b) => b.checkout(actors.client, { bookingId })))
      if (Either.isRight(opened)) w.sessions.push(opened.right.sessionId)
      return
    }
    case "raceCheckout": {
      // A session opened beside the service's (two tabs racing the one-session rule).
      const b = await booking(w)
      const opened = await attempt(
        Effect.flatMap(ChargeGateway, (gateway) =>
          gateway.createCheckoutSession({
            bookingId,
            mode:
              b.paymentStatus === "UNPAID" && new Date(b.startTime).getTime() - time.now().getTime() <= 5 * DAY ? "authorize" : "save_card",
            amountMinor: totalMinor,
            currency: "EUR",
            productName: "Plomberie",
            destinationAccountId: w.scene.accountId,
            applicationFeeMinor: 0,
            customerEmail: "client@example.com",
            successUrl: "http://127.0.0.1/ok",
            cancelUrl: "http://127.0.0.1/ko",
            idempotencyKey: `race:${bookingId}:${++w.sequence}`
          })
        )
      )
      if (Either.isRight(opened)) w.sessions.push(opened.right.id)
      return
    }
    case "pay":
      if (w.sessions.length > 0) await run(pay(w, w.sessions[st.pick % w.sessions.length]!))
      return
    case "deliver": {
      if (w.pending.length === 0) return
      const index = st.pick % w.pending.length
      const event = w.pending[index]!
      if (!st.keep) w.pending.splice(index, 1)
      const before = await booking(w)
      // Inside the webhook's transaction, as PaymentWebhooks calls the sink.
      await run(Effect.flatMap(Transactional, (tx) => tx.run(Effect.flatMap(Bookings, (b) => b.applyChargeEvent(event)))))
      // The client's authorisation of a move's higher total arrived: the booking moved then, never before.
      const awaited = before.reschedules.find((r) => r.status === "AWAITING_PAYMENT")
      const after = await booking(w)
      if (awaited && after.reschedules.find((r) => r.id === awaited.id)?.status === "ACCEPTED") {
        tally.movedAfterTopUp = (tally.movedAfterTopUp ?? 0) + 1
        tally.moved = (tally.moved ?? 0) + 1
        expect(after).toMatchObject({ startTime: awaited.startTime, totalMinor: awaited.totalMinor, paymentStatus: "AUTHORIZED" })
        expect(after.paymentIntentId).not.toBe(before.paymentIntentId)
      }
      return
    }
    case "advance":
      time.advance(st.ms)
      return
    case "sweep":
      await run(Effect.flatMap(Bookings, (b) => b.sweep))
      return
    case "act": {
      const [who, command] = COMMANDS[st.pick % COMMANDS.length]!
      await attempt(Effect.flatMap(Bookings, (b) => b.act(actors[who], bookingId, command)))
      return
    }
    case "reconcile":
      await reconcileAndCheck(w)
      return
    case "propose": {
      const start = new Date(time.now().getTime() + st.shiftHours * HOUR)
      start.setUTCSeconds(0, 0)
      await attempt(
        Effect.flatMap(Bookings, (b) =>
          b.proposeReschedule(actors[st.by], bookingId, {
            startTime: start.toISOString(),
            endTime: new Date(start.getTime() + st.hours * HOUR).toISOString()
          })
        )
      )
      return
    }
    case "answer": {
      const open = (await booking(w)).reschedules.find((r) => r.status === "OPEN")
      if (!open) return
      const other = open.proposedBy === "CLIENT" ? actors.provider : actors.client
      const before = await booking(w)
      const answered = await attempt(
        Effect.flatMap(Bookings, (b) => b.answerReschedule(other, bookingId, open.id, st.accept ? "accept" : "decline"))
      )
      if (Either.isRight(answered) && st.accept) {
        if (open.totalMinor > before.totalMinor && before.paymentStatus === "AUTHORIZED") {
          // Authorise before effect: the booking keeps its time and its hold until the new total is authorised.
          tally.awaitingTopUp = (tally.awaitingTopUp ?? 0) + 1
          expect(answered.right).toMatchObject({ startTime: before.startTime, totalMinor: before.totalMinor, paymentStatus: "AUTHORIZED" })
          expect(answered.right.reschedules.find((r) => r.id === open.id)?.status).toBe("AWAITING_PAYMENT")
          return
        }
        tally.moved = (tally.moved ?? 0) + 1
        if (open.totalMinor > before.totalMinor) tally.repricedUp = (tally.repricedUp ?? 0) + 1
        expect(answered.right).toMatchObject({ startTime: open.startTime, endTime: open.endTime, totalMinor: open.totalMinor })
      }
      return
    }
    case "report": {
      const reported = await attempt(
        Effect.flatMap(Bookings, (b) =>
          b.reportProblem(actors.client, bookingId, { reason: "QUALITY", description: "Le robinet fuit encore." }, {})
        )
      )
      if (Either.isRight(reported)) tally.disputed = (tally.disputed ?? 0) + 1
      return
    }
    case "disputeMessage":
      await attempt(Effect.flatMap(Bookings, (b) => b.addDisputeMessage(actors[st.by], bookingId, { body: "Précisions." }, {})))
      return
    case "resolve": {
      const b = await booking(w)
      const outcome = (["CAPTURE_ALL", "CAPTURE_PART", "CAPTURE_PART", "RELEASE", "CAPTURE_PART", "RELEASE"] as const)[st.pick % 6]!
      // Sometimes above what is held (refused, 422), never below 1 unit.
      const amountMinor = Math.max(1, Math.round(b.authorizedMinor * st.share))
      const decided = await attempt(
        Effect.flatMap(Bookings, (bk) => bk.resolveDispute(actors.admin, bookingId, { outcome, amountMinor, note: "Décision." }))
      )
      if (Either.isRight(decided)) {
        tally[`resolved:${outcome}`] = (tally[`resolved:${outcome}`] ?? 0) + 1
        const kept = decided.right.resolvedCaptureMinor!
        if (outcome === "CAPTURE_PART") expect(kept).toBe(amountMinor)
        if (outcome === "RELEASE") expect(kept).toBe(0)
      } else if (
        b.status === "DISPUTED" &&
        outcome === "CAPTURE_PART" &&
        b.paymentStatus === "AUTHORIZED" &&
        amountMinor <= b.authorizedMinor
      )
        throw new Error(`a partial capture within the hold was refused: ${JSON.stringify(decided.left)}`)
      return
    }
    case "progress": {
      const b = await booking(w)
      const started = time.now().getTime() >= new Date(b.startTime).getTime()
      // An accepted move awaits the client's authorisation of its higher total: the client pays it (the
      // booking moves when the hold arrives), or its events are delivered.
      const awaiting = b.reschedules.find((r) => r.status === "AWAITING_PAYMENT")
      if (awaiting && !started) {
        if (w.pending.length > 0 && st.pick % 2 === 0) return apply(w, { t: "deliver", pick: st.pick, keep: false })
        await apply(w, { t: "checkout" })
        return apply(w, { t: "pay", pick: w.sessions.length - 1 })
      }
      if (b.status === "PENDING" && ["UNPAID", "REQUIRES_ACTION"].includes(b.paymentStatus)) {
        if (w.pending.length > 0 && st.pick % 2 === 0) return apply(w, { t: "deliver", pick: st.pick, keep: st.pick === 4 })
        // Sometimes a second tab was opened before: both are paid.
        if (st.pick === 5) {
          await apply(w, { t: "raceCheckout" })
          await apply(w, { t: "pay", pick: w.sessions.length - 1 })
        }
        await apply(w, { t: "checkout" })
        return apply(w, { t: "pay", pick: w.sessions.length - 1 })
      }
      if (b.status === "PENDING") return apply(w, { t: "act", pick: 0 })
      if ((b.status === "CONFIRMED" || b.status === "IN_PROGRESS") && !started)
        return void time.advance(new Date(b.startTime).getTime() - time.now().getTime() + MINUTE)
      if (b.status === "CONFIRMED" || b.status === "IN_PROGRESS") return apply(w, { t: "act", pick: 2 })
      if (b.status === "SERVICE_RENDERED") {
        if (st.pick === 5 || st.pick === 1) return apply(w, { t: "report" })
        if (st.pick <= 2) return apply(w, { t: "act", pick: 4 })
        if (st.pick === 3) return apply(w, { t: "act", pick: 6 })
        // Nobody answers: the sweep validates a week after the end.
        time.advance(8 * DAY)
        return apply(w, { t: "sweep" })
      }
      if (b.status === "DISPUTED") {
        // Time passes while the parties write (2 days a step, past the 7 days): the sweep neither validates it nor lets its hold lapse.
        if (st.pick === 0) {
          time.advance(2 * DAY)
          await apply(w, { t: "sweep" })
          const after = await booking(w)
          expect(after.status).toBe("DISPUTED")
          return
        }
        if (st.pick === 1) return apply(w, { t: "disputeMessage", by: "provider" })
        return apply(w, { t: "resolve", pick: st.pick, share: 0.5 })
      }
      return apply(w, { t: "act", pick: 8 })
    }
  }
}

/** `n` progress steps, each the story's next ordinary move (its first choice). */
const forward = (n: number): Array<Step> => Array.from({ length: n }, () => ({ t: "progress", pick: 0 }))

describe("money through the booking service, with events duplicated, late and reordered and clients paying twice", () => {
  it("keeps the money invariants at every step and reconciliation leaves no orphan hold and no unflagged unpaid booking", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(1, 10), fc.array(step, { minLength: 5, maxLength: 30 }), async (leadDays, steps) => {
        const w: World = { scene: await run(scene(leadDays)), sessions: [], pending: [], sequence: 0 }
        for (const st of steps) {
          await apply(w, st)
          await checkEveryStep(w)
        }
        // Every event is delivered in the end (in the order left), then the operator reconciles.
        while (w.pending.length > 0) await apply(w, { t: "deliver", pick: 0, keep: false })
        await checkEveryStep(w)
        const report = await reconcileAndCheck(w)
        const final = await booking(w)
        tally[`${final.status}/${final.paymentStatus}${final.paymentIssue ? `/${final.paymentIssue}` : ""}`] =
          (tally[`${final.status}/${final.paymentStatus}${final.paymentIssue ? `/${final.paymentIssue}` : ""}`] ?? 0) + 1
        tally.released = (tally.released ?? 0) + report.released.length
        tally.applied = (tally.applied ?? 0) + report.applied.length
      }),
      {
        numRuns: Number(process.env.PAYMENT_MODEL_RUNS ?? 40),
        // The stories run first, so the coverage checks after the property never depend on the draw: the
        // test below (two tabs paid, stale declines delivered last, completed, one hold released), and a move
        // to a higher total.
        examples: [
          [
            1,
            [
              { t: "raceCheckout" },
              { t: "raceCheckout" },
              { t: "pay", pick: 0 },
              { t: "pay", pick: 1 },
              { t: "deliver", pick: 0, keep: false },
              { t: "deliver", pick: 1, keep: false },
              { t: "deliver", pick: 0, keep: false },
              { t: "deliver", pick: 0, keep: false },
              { t: "act", pick: 0 },
              { t: "advance", ms: DAY + 3 * HOUR },
              { t: "act", pick: 2 },
              { t: "act", pick: 4 }
            ]
          ],
          // Paid (a hold), then a longer time proposed by the provider and accepted: the booking keeps its time
          // and its hold until the client authorises the new total; its hold arrives (after a stale decline)
          // and moves the booking, the old hold released then.
          [
            1,
            [
              ...forward(2),
              { t: "propose", by: "provider", shiftHours: 30, hours: 3 },
              { t: "answer", accept: true },
              { t: "progress", pick: 1 },
              ...forward(5)
            ]
          ],
          // Paid, confirmed, rendered, disputed; two days pass (nothing validated), then part captured.
          [
            1,
            [
              ...forward(5),
              { t: "progress", pick: 5 },
              { t: "disputeMessage", by: "client" },
              { t: "progress", pick: 0 },
              { t: "resolve", pick: 1, share: 0.4 }
            ]
          ],
          // The same, released.
          [1, [...forward(5), { t: "progress", pick: 5 }, { t: "resolve", pick: 3, share: 0 }]]
        ]
      }
    )
    if (process.env.PAYMENT_MODEL_TALLY) console.log(tally)
    // The stories reach finished bookings, and reconciliation had holds to release (the property is not vacuous).
    expect(Object.keys(tally).some((k) => k.startsWith("COMPLETED/") || k.startsWith("VALIDATED/"))).toBe(true)
    expect(tally.released ?? 0).toBeGreaterThan(0)
    // Some stories moved bookings; a higher total of a booking holding money waited for its authorisation, then moved.
    expect(tally.moved ?? 0).toBeGreaterThan(0)
    expect(tally.awaitingTopUp ?? 0).toBeGreaterThan(0)
    expect(tally.movedAfterTopUp ?? 0).toBeGreaterThan(0)
    // Some stories went through a dispute to each decision.
    expect(tally.disputed ?? 0).toBeGreaterThan(0)
    expect(Object.keys(tally).some((k) => k.startsWith("RESOLVED/"))).toBe(true)
    expect(tally["resolved:CAPTURE_PART"] ?? 0).toBeGreaterThan(0)
    expect(tally["RESOLVED/CAPTURED"] ?? 0).toBeGreaterThan(0)
    expect(tally["resolved:RELEASE"] ?? 0).toBeGreaterThan(0)
  }, 300_000)

  it("a story the model found interesting: paid in two tabs, the stale decline delivered last, completed by the client", async () => {
    const w: World = { scene: await run(scene(1)), sessions: [], pending: [], sequence: 0 }
    for (const st of [{ t: "raceCheckout" }, { t: "raceCheckout" }, { t: "pay", pick: 0 }, { t: "pay", pick: 1 }] as const)
      await apply(w, st)
    // The two holds, then the two stale declines.
    for (const index of [0, 1, 0, 0]) await apply(w, { t: "deliver", pick: index, keep: false })
    const paid = await booking(w)
    expect(paid.paymentStatus).toBe("AUTHORIZED")
    await apply(w, { t: "act", pick: 0 })
    time.advance(DAY + 3 * HOUR)
    await apply(w, { t: "act", pick: 2 })
    await apply(w, { t: "act", pick: 4 })
    const report = await reconcileAndCheck(w)
    expect(await booking(w)).toMatchObject({ status: "COMPLETED", paymentStatus: "CAPTURED", capturedMinor: w.scene.totalMinor })
    // The second tab's hold was released; the first was captured.
    expect(report.released).toHaveLength(1)
  }, 60_000)
})
