import { Effect, Option } from "effect"
import type { ServiceRepository } from "../../../catalogue"
import type { UserRepository } from "../../../identity"
import type { Interval, ValidPlan } from "../domain"
import type { AvailabilityRepositoryShape, ProviderPlan, StoredPlan } from "../ports"

/** A slot-holding booking of a provider, as the memory booking store keeps it. */
interface Held {
  readonly id: string
  readonly startTime: Date
  readonly endTime: Date
}

const overlaps = (a: Interval, b: Interval) => a.start < b.end && b.start < a.end

/**
 * Plans in memory, over the memory booking store's slot-holding bookings (the booking module's memory
 * adapter builds it beside its own store). The plan's zone is the account's.
 */
export const makeAvailabilityMemory = (deps: {
  readonly users: UserRepository["Type"]
  readonly services: ServiceRepository["Type"]
  readonly held: (providerId: string) => ReadonlyArray<Held>
}): AvailabilityRepositoryShape => {
  const plans = new Map<string, StoredPlan>()
  let ids = 0
  const providerOf = (id: string, window: Interval | undefined) =>
    Effect.map(
      deps.users.findById(id),
      Option.map((user): ProviderPlan => {
        const plan = plans.get(id)
        return {
          providerId: user.id,
          role: user.role,
          zone: user.timeZone,
          plan:
            plan && window
              ? {
                  ...plan,
                  exceptions: plan.exceptions.filter((e) => overlaps({ start: e.startTime.getTime(), end: e.endTime.getTime() }, window))
                }
              : (plan ?? null)
        }
      })
    )
  const busy = (providerId: string, window: Interval, keep: (b: Held) => boolean = () => true) =>
    deps
      .held(providerId)
      .map((b) => ({ id: b.id, start: b.startTime.getTime(), end: b.endTime.getTime() }))
      .filter((b) => overlaps(b, window) && keep({ id: b.id, startTime: new Date(b.start), endTime: new Date(b.end) }))
      .map(({ start, end }) => ({ start, end }))
  return {
    planOf: (providerId) => providerOf(providerId, undefined),
    save: (providerId, plan: ValidPlan) =>
      Effect.sync(() => {
        plans.set(providerId, {
          ...plan,
          exceptions: plan.exceptions.map((e) => ({ ...e, id: `00000000-0000-4000-a000-${(++ids).toString(16).padStart(12, "0")}` }))
        })
      }),
    slotContext: (serviceId, window, ignoreBookingId) =>
      Effect.gen(function* () {
        const found = yield* deps.services.findById(serviceId)
        if (Option.isNone(found)) return Option.none()
        const s = found.value
        const provider = yield* providerOf(s.userId, window)
        if (Option.isNone(provider)) return Option.none()
        return Option.some({
          service: { id: s.id, userId: s.userId, status: s.status, archivedAt: s.archivedAt, providerActive: s.provider.isActive },
          provider: provider.value,
          busy: busy(s.userId, window, (b) => b.id !== ignoreBookingId)
        })
      }),
    bookingContext: (providerId, window, time, ignoreBookingId) =>
      Effect.map(providerOf(providerId, window), (provider) => ({
        provider: Option.getOrNull(provider),
        busy: busy(
          providerId,
          window,
          (b) => b.id !== ignoreBookingId && !overlaps({ start: b.startTime.getTime(), end: b.endTime.getTime() }, time)
        )
      }))
  }
}
