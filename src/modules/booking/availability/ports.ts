import { Context, type Effect, type Option } from "effect"
import type { Interval, PlanException, ValidPlan, WeekdayPlan } from "./domain"

/** A plan as stored (a provider with none has the default plan); its zone is the account's. */
export interface StoredPlan {
  readonly weekly: ReadonlyArray<WeekdayPlan>
  readonly exceptions: ReadonlyArray<PlanException>
  readonly noticeMinutes: number
  readonly bufferMinutes: number
}

/** A provider and their plan: `zone` is the provider's own (users.time_zone, null when unknown). */
export interface ProviderPlan {
  readonly providerId: string
  readonly role: string
  readonly zone: string | null
  readonly plan: StoredPlan | null
}

/** What a slots query needs, read with one statement: the service, its provider's zone and plan, and the bookings near the window. */
export interface SlotContext {
  readonly service: {
    readonly id: string
    readonly userId: string
    readonly status: string
    readonly archivedAt: Date | null
    readonly providerActive: boolean
  }
  readonly provider: ProviderPlan
  /** The provider's slot-holding bookings overlapping the window asked for. */
  readonly busy: ReadonlyArray<Interval>
}

export interface AvailabilityRepositoryShape {
  /** A user and their plan, with every exception (None: no such user). */
  readonly planOf: (providerId: string) => Effect.Effect<Option.Option<ProviderPlan>>
  /** Replaces the provider's plan, ranges and exceptions (call inside a transaction). */
  readonly save: (providerId: string, plan: ValidPlan) => Effect.Effect<void>
  /**
   * The service, its provider's plan with the exceptions overlapping `window`, and the provider's
   * slot-holding bookings overlapping `window` (the exclusion constraint's GiST index answers them).
   */
  /** The service, its provider's plan and their slot-holding bookings near `window`, leaving out `ignoreBookingId` (a booking being moved). */
  readonly slotContext: (serviceId: string, window: Interval, ignoreBookingId?: string) => Effect.Effect<Option.Option<SlotContext>>
  /**
   * A provider's plan with the exceptions overlapping `window`, and their slot-holding bookings
   * overlapping `window` but not `time` (an overlap of `time` is the exclusion constraint's to refuse),
   * leaving out `ignoreBookingId` (a booking being moved).
   */
  readonly bookingContext: (
    providerId: string,
    window: Interval,
    time: Interval,
    ignoreBookingId?: string
  ) => Effect.Effect<{ readonly provider: ProviderPlan | null; readonly busy: ReadonlyArray<Interval> }>
}
export class AvailabilityRepository extends Context.Tag("booking/AvailabilityRepository")<
  AvailabilityRepository,
  AvailabilityRepositoryShape
>() {}
