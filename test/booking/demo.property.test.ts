import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { demoAccounts } from "../../src/app/seed"
import { demoBookings, demoPlans, demoStart } from "../../src/modules/booking/demo"
import { validatePlan } from "../../src/modules/booking/availability/domain"
import { checkoutModeFor } from "../../src/modules/booking/domain"
import { DAY } from "../support/durations"

// The demo data a first start leaves must tell the same story whatever the day: its paid request and
// its confirmed booking are held on the card (a weekday once left them unpaid, and the admin journey
// that confirms the paid request failed on those days).
describe("the demo bookings' times", () => {
  // Each provider's plan as the seed stores it (no exception), in their account's zone.
  const planOf = (provider: string) => {
    const timeZone = demoAccounts.find((a) => a.email === provider)!.timeZone
    const valid = Either.getOrThrow(validatePlan(demoPlans.find((p) => p.provider === provider)!.plan, timeZone))
    return { ...valid, timeZone, isDefault: false, exceptions: [] }
  }

  it("fall in the provider's hours, near enough for the card to be held at checkout, on any day at any time", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("2026-01-01T00:00:00Z"), max: new Date("2030-12-31T23:59:59Z"), noInvalidDate: true }),
        (today) => {
          for (const demo of demoBookings) {
            const start = demoStart(planOf(demo.provider), demo, today)
            expect(start, `${demo.client} with ${demo.provider} from ${today.toISOString()}`).toBeDefined()
            expect(checkoutModeFor(start!, today)).toBe("authorize")
            expect(start!.getTime() - today.getTime()).toBeGreaterThan(demo.inDays * DAY - DAY)
          }
        }
      ),
      { numRuns: 2000 }
    )
  })
})
