import { Effect } from "effect"
import { AvailabilityRepository } from "../../src/modules/booking/availability/ports"

/**
 * An always-open availability plan (every day 00:00–24:00 in the provider's zone, no notice, no
 * buffer): the providers the test helpers make book at any time, as before availability existed
 * (issue 12), so tests about payments, timers or races pick their times freely. Tests of
 * availability itself set their own plans.
 */
export const ALWAYS_OPEN = {
  weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, ranges: [{ start: 0, end: 1440 }] })),
  exceptions: [],
  noticeMinutes: 0,
  bufferMinutes: 0
}

/** Gives the provider the always-open plan (straight to the store: the helpers make providers the same way). */
export const openAllTheTime = (providerId: string) => Effect.flatMap(AvailabilityRepository, (plans) => plans.save(providerId, ALWAYS_OPEN))
