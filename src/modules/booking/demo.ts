import { TZDate } from "@date-fns/tz"
import { Clock, Effect, Logger, LogLevel, Option } from "effect"
import { now } from "../../platform/clock"
import { Transactional } from "../../platform/transaction"
import { ServiceRepository } from "../catalogue"
import { type Actor, Identity } from "../identity"
import { ChargeGateway } from "../payments"
import { SandboxCheckout } from "../payments/adapters/charges-sandbox"
import { BookingRepository } from "./ports"
import { Bookings, type UserCommand } from "./service"
import { type AvailabilityPlan, unavailability } from "./availability/domain"
import { checkoutModeFor } from "./domain"
import { Availability } from "./availability/service"

const HOUR = 3_600_000
const DAY = 24 * HOUR

/** The clock `offsetMs` ahead: a demo booking is carried through its service as if that time had come. */
const clockAhead = (offsetMs: number): Clock.Clock => {
  const base = Clock.make()
  const nanos = BigInt(offsetMs) * 1_000_000n
  return {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => base.unsafeCurrentTimeMillis() + offsetMs,
    currentTimeMillis: Effect.sync(() => base.unsafeCurrentTimeMillis() + offsetMs),
    unsafeCurrentTimeNanos: () => base.unsafeCurrentTimeNanos() + nanos,
    currentTimeNanos: Effect.sync(() => base.unsafeCurrentTimeNanos() + nanos),
    sleep: (duration) => base.sleep(duration)
  }
}

const week = (days: ReadonlyArray<number>, ranges: ReadonlyArray<{ start: string; end: string }>) =>
  days.map((weekday) => ({ weekday, ranges }))

/** Realistic weekly plans for the demo providers: office hours with a lunch break, a Saturday morning, a day off. */
export const demoPlans: ReadonlyArray<{ readonly provider: string; readonly plan: Parameters<Availability["Type"]["put"]>[1] }> = [
  {
    provider: "marie.dubois@marketplace.local",
    plan: {
      weekly: [
        ...week(
          [1, 2, 3, 4, 5],
          [
            { start: "09:00", end: "12:00" },
            { start: "13:00", end: "18:00" }
          ]
        ),
        ...week([6], [{ start: "10:00", end: "14:00" }])
      ],
      exceptions: [],
      noticeMinutes: 120,
      bufferMinutes: 15
    }
  },
  {
    provider: "jean.tremblay@marketplace.local",
    plan: {
      weekly: week([1, 2, 3, 4, 5, 6], [{ start: "08:00", end: "17:00" }]),
      exceptions: [],
      noticeMinutes: 24 * 60,
      bufferMinutes: 30
    }
  },
  {
    provider: "emily.clark@marketplace.local",
    plan: {
      weekly: [...week([2, 3, 4], [{ start: "12:00", end: "20:00" }]), ...week([6, 7], [{ start: "09:00", end: "17:00" }])],
      exceptions: [],
      noticeMinutes: 180,
      bufferMinutes: 0
    }
  }
]

/** Gives each demo provider without a plan its weekly plan (running it again changes nothing). */
export const seedDemoAvailability = Effect.gen(function* () {
  const identity = yield* Identity
  const availability = yield* Availability
  let set = 0
  for (const demo of demoPlans) {
    const user = yield* identity.findByEmail(demo.provider)
    if (Option.isNone(user) || user.value.role !== "PROVIDER") continue
    const current = yield* availability.of(user.value.id)
    if (!current.isDefault) continue
    const actor: Actor = {
      id: user.value.id,
      role: user.value.role,
      preferredLanguage: user.value.preferredLanguage,
      isEmailVerified: true
    }
    yield* availability.put(actor, demo.plan)
    set++
  }
  return set
}).pipe(Effect.catchAll((error) => Effect.as(Effect.logWarning("demo availability not seeded", error), 0)))

/** One demo booking's story: who books whom, when, and what happens to it next. */
interface DemoBooking {
  readonly client: string
  readonly provider: string
  /** Which of the provider's services (newest first). */
  readonly service: number
  readonly inDays: number
  readonly hour: number
  readonly hours: number
  readonly address: string
  readonly then: ReadonlyArray<UserCommand>
}

/**
 * Demo bookings between the demo accounts (sandbox payments only), so that a fresh install shows
 * bookings in every state a screen has to handle: a completed one with its review and captured
 * payment, a confirmed one in the provider's calendar, and a paid request awaiting confirmation.
 * Made through the booking service and the sandbox gateway, like a user's; skipped when the demo
 * client already has bookings (running the seed again changes nothing).
 */
export const demoBookings: ReadonlyArray<DemoBooking> = [
  {
    client: "lucas.bernard@marketplace.local",
    provider: "marie.dubois@marketplace.local",
    service: 0,
    inDays: 2,
    hour: 10,
    hours: 2,
    address: "18 rue des Martyrs, 75009 Paris",
    then: [
      { _tag: "Confirm" },
      { _tag: "MarkRendered" },
      { _tag: "ConfirmCompletion", rating: 5, comment: "Travail impeccable, ponctuelle et très professionnelle. Je recommande !" }
    ]
  },
  {
    client: "sophie.nguyen@marketplace.local",
    provider: "marie.dubois@marketplace.local",
    service: 1,
    inDays: 2,
    hour: 14,
    hours: 1.5,
    address: "7 rue Oberkampf, 75011 Paris",
    then: [{ _tag: "Confirm" }]
  },
  {
    client: "lucas.bernard@marketplace.local",
    provider: "jean.tremblay@marketplace.local",
    service: 0,
    inDays: 3,
    hour: 9,
    hours: 2,
    address: "45 avenue du Mont-Royal, Montréal",
    then: []
  }
]

/**
 * A demo booking's start: at its hour in the provider's zone, on the first day from `inDays` on that
 * the provider works then and that is near enough for the card to be held at checkout (further, the
 * checkout only saves the card, and a demo's paid request would stay unpaid on some weekdays).
 */
export const demoStart = (plan: AvailabilityPlan, demo: Pick<DemoBooking, "inDays" | "hour" | "hours">, today: Date): Date | undefined => {
  const local = new TZDate(today.getTime(), plan.timeZone)
  const fits = (start: Date) =>
    checkoutModeFor(start, today) === "authorize" &&
    unavailability({ plan, busy: [], startTime: start, endTime: new Date(start.getTime() + demo.hours * HOUR), now: today }) === undefined
  for (let day = demo.inDays; day < demo.inDays + 14; day++) {
    const start = new Date(new TZDate(local.getFullYear(), local.getMonth(), local.getDate() + day, demo.hour, 0, plan.timeZone).getTime())
    if (fits(start)) return start
  }
  return undefined
}

export const seedDemoBookings = Effect.gen(function* () {
  const gateway = yield* ChargeGateway
  if (gateway.kind !== "sandbox") return 0
  const identity = yield* Identity
  const services = yield* ServiceRepository
  const bookings = yield* Bookings
  const repository = yield* BookingRepository
  const checkout = yield* SandboxCheckout
  const tx = yield* Transactional
  const availability = yield* Availability
  const actorOf = (email: string) =>
    Effect.map(
      identity.findByEmail(email),
      Option.map((u): Actor => ({ id: u.id, role: u.role, preferredLanguage: u.preferredLanguage, isEmailVerified: true }))
    )

  const first = yield* actorOf(demoBookings[0]!.client)
  if (Option.isNone(first)) return 0
  if ((yield* repository.list({ userId: first.value.id, as: "client", limit: 1, offset: 0 })).total > 0) return 0

  const today = yield* now
  let created = 0
  for (const demo of demoBookings) {
    const client = yield* actorOf(demo.client)
    const provider = yield* actorOf(demo.provider)
    if (Option.isNone(client) || Option.isNone(provider)) continue
    const service = (yield* services.listOwnedBy(provider.value.id)).filter((s) => s.status === "ACTIVE")[demo.service]
    if (!service) continue
    const start = demoStart(yield* availability.of(provider.value.id), demo, today)
    if (start === undefined) continue
    const booking = yield* bookings.request(client.value, {
      serviceId: service.id,
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + demo.hours * HOUR).toISOString(),
      address: demo.address,
      notes: ""
    })
    // Paid with the sandbox's accepting test card; its authorisation applied as the webhook would.
    const session = yield* bookings.checkout(client.value, { bookingId: booking.id })
    // The app is not listening yet while it seeds: the sandbox's own webhook deliveries fail (quietly),
    // and the authorisation is applied here instead.
    yield* checkout
      .pay(session.sessionId, { number: "4242424242424242", expiry: "12/34", cvc: "123" })
      .pipe(Logger.withMinimumLogLevel(LogLevel.Error))
    const paid = yield* checkout.find(session.sessionId)
    const intent = Option.flatMap(paid, ({ session }) => Option.fromNullable(session.paymentIntentId))
    if (Option.isNone(intent)) continue
    yield* tx.run(
      bookings.applyChargeEvent({
        _tag: "PaymentAuthorized",
        bookingId: booking.id,
        paymentIntentId: intent.value,
        amountMinor: booking.totalMinor,
        expiresAt: new Date(today.getTime() + 7 * DAY),
        expiryKnown: true,
        extendedAuthorization: false,
        customerId: Option.getOrNull(Option.flatMap(paid, ({ session }) => Option.fromNullable(session.customerId))),
        paymentMethodId: null,
        paymentMethod: "card",
        reference: `seed:${booking.id}`,
        occurredAt: today
      })
    )
    // A service is marked rendered only once it has started: its story is told as of its end.
    const clock = demo.then.some((c) => c._tag === "MarkRendered")
      ? clockAhead(start.getTime() + demo.hours * HOUR - today.getTime())
      : undefined
    for (const command of demo.then) {
      const actor = command._tag === "ConfirmCompletion" ? client.value : provider.value
      const act = bookings.act(actor, booking.id, command)
      yield* clock ? Effect.withClock(act, clock) : act
    }
    created++
  }
  return created
}).pipe(
  // Demo data is a convenience: a failure is reported, never a reason not to start.
  Effect.catchAll((error) => Effect.as(Effect.logWarning("demo bookings not seeded", error), 0))
)
