import { Context, Effect, Layer, Option } from "effect"
import { now } from "../../../platform/clock"
import { type Forbidden, NotFound, type ValidationFailed } from "../../../platform/errors"
import { isUuid } from "../../../platform/ids"
import { zoneOf } from "../../../platform/time-zones"
import { Transactional } from "../../../platform/transaction"
import { isPublic } from "../../catalogue"
import { type Actor, requireRole } from "../../identity"
import {
  type AvailabilityPlan,
  BUFFER_MAX_MINUTES,
  defaultPlan,
  freeSlots,
  outsideAvailability,
  type PlanInput,
  unavailability,
  validatePlan,
  validateSlotQuery
} from "./domain"
import { AvailabilityRepository, type ProviderPlan } from "./ports"

const MINUTE = 60_000

/** What a booking (a request, a move) asks of the provider's availability. */
export interface BookableInput {
  readonly providerId: string
  readonly startTime: Date
  readonly endTime: Date
  readonly now: Date
  /** A booking being moved: its own time does not count as taken. */
  readonly ignoreBookingId?: string | undefined
}

export interface SlotQuery {
  readonly from?: unknown
  readonly to?: unknown
  readonly duration?: unknown
}

export interface SlotsAnswer {
  readonly timeZone: string
  readonly duration: number
  /** Start times; each slot lasts `duration` minutes. */
  readonly slots: ReadonlyArray<{ readonly startTime: Date }>
}

export class Availability extends Context.Tag("booking/Availability")<
  Availability,
  {
    /** A provider's plan (the default one when they set none); 404 for anyone who is not a provider. */
    readonly of: (providerId: string) => Effect.Effect<AvailabilityPlan, NotFound>
    /** Replaces the caller's plan (providers only). */
    readonly put: (actor: Actor, input: PlanInput) => Effect.Effect<AvailabilityPlan, Forbidden | ValidationFailed>
    /**
     * The free start times of a public service in a window of at most 62 days; a booking being moved
     * (`ignoreBookingId`) does not count as taken, so its own time and the times around it are offered.
     */
    readonly slots: (
      serviceId: string,
      query: SlotQuery,
      ignoreBookingId?: string
    ) => Effect.Effect<SlotsAnswer, NotFound | ValidationFailed>
    /** Fails with 422 OUTSIDE_AVAILABILITY unless the time lies in the provider's free time (overlaps are the constraint's). */
    readonly ensureBookable: (input: BookableInput) => Effect.Effect<void, ValidationFailed>
  }
>() {}

/** The plan a provider's bookings follow: theirs, or the default one, in their account's zone (the only one). */
const planOf = (provider: ProviderPlan | null): AvailabilityPlan => {
  const timeZone = zoneOf(provider?.zone)
  return provider?.plan ? { ...provider.plan, timeZone, isDefault: false } : defaultPlan(timeZone)
}

const ProviderNotFound = new NotFound({ code: "PROVIDER_NOT_FOUND", key: "profile.notFound" })
const ServiceNotFound = new NotFound({ code: "SERVICE_NOT_FOUND", key: "catalogue.serviceNotFound" })

export const AvailabilityLive = Layer.effect(
  Availability,
  Effect.gen(function* () {
    const repository = yield* AvailabilityRepository
    const tx = yield* Transactional

    const of = (providerId: string) =>
      Effect.gen(function* () {
        if (!isUuid(providerId)) return yield* ProviderNotFound
        const found = yield* repository.planOf(providerId)
        if (Option.isNone(found) || found.value.role !== "PROVIDER") return yield* ProviderNotFound
        return planOf(found.value)
      })

    return {
      of,
      put: (actor, input) =>
        Effect.gen(function* () {
          yield* requireRole(actor, "PROVIDER")
          const current = yield* repository.planOf(actor.id)
          const plan = yield* validatePlan(input, zoneOf(Option.getOrUndefined(current)?.zone))
          yield* tx.run(repository.save(actor.id, plan))
          return yield* Effect.orDie(of(actor.id))
        }),
      slots: (serviceId, query, ignoreBookingId) =>
        Effect.gen(function* () {
          const window = yield* validateSlotQuery(query)
          if (!isUuid(serviceId)) return yield* ServiceNotFound
          const duration = window.durationMinutes * MINUTE
          const margin = BUFFER_MAX_MINUTES * MINUTE
          // Bookings just outside the window still push its slots away by the buffer; slots near its end run past it.
          const context = yield* repository.slotContext(
            serviceId,
            { start: window.from.getTime() - margin, end: window.to.getTime() + duration + margin },
            ignoreBookingId
          )
          if (Option.isNone(context)) return yield* ServiceNotFound
          const { service, provider, busy } = context.value
          if (!isPublic({ ...service, provider: { isActive: service.providerActive } })) return yield* ServiceNotFound
          const plan = planOf(provider)
          const slots = freeSlots({
            plan,
            busy,
            from: window.from,
            to: window.to,
            durationMinutes: window.durationMinutes,
            now: yield* now
          })
          return { timeZone: plan.timeZone, duration: window.durationMinutes, slots }
        }),
      ensureBookable: (input) =>
        Effect.gen(function* () {
          const margin = BUFFER_MAX_MINUTES * MINUTE
          const time = { start: input.startTime.getTime(), end: input.endTime.getTime() }
          const { provider, busy } = yield* repository.bookingContext(
            input.providerId,
            { start: time.start - margin, end: time.end + margin },
            time,
            input.ignoreBookingId
          )
          const plan = planOf(provider)
          const reason = unavailability({ plan, busy, startTime: input.startTime, endTime: input.endTime, now: input.now })
          if (reason !== undefined) return yield* outsideAvailability(reason, plan.noticeMinutes)
        })
    }
  })
)

/**
 * Checks a booking's time against its provider's availability (POST /api/bookings, rescheduling):
 * 422 OUTSIDE_AVAILABILITY when it is not inside the plan and its exceptions, after the notice and
 * clear of other bookings by the buffer. An overlap with another booking is left to the exclusion
 * constraint (409).
 */
export const ensureBookable = (input: BookableInput) => Effect.flatMap(Availability, (availability) => availability.ensureBookable(input))
