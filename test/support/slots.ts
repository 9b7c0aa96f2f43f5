import { TZDate } from "@date-fns/tz"
import type { Locator } from "playwright-core"

// The booking form's slot picker driven from a browser test: days are the picker's cells
// (`data-day`, the viewer's zone), times its buttons.

/** The day ("2026-11-27") `days` days from now in `zone` (the browser's, as the picker shows days). */
export const dayAhead = (days: number, zone: string, from = Date.now()) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    new Date(from + days * 24 * 3_600_000)
  )

/** The picker's cell of a day of the shown month (a cell of a neighbouring month is left out). */
export const dayCell = (scope: Locator, day: string) => scope.locator(`[data-day="${day}"]:not([data-outside]) button`)

/** Shows the month of `day` (forward from the month shown) and waits until its free days are known. */
export const showMonthOf = async (scope: Locator, day: string) => {
  for (let step = 0; step < 13; step++) {
    if ((await dayCell(scope, day).count()) > 0) break
    await scope.locator(".rdp-button_next").click()
  }
  // The month's slots have loaded: the picker's loading line is gone.
  await scope.locator(".slot-times .loading").waitFor({ state: "detached" })
}

/** Picks `day` in the slot picker. */
export const chooseDay = async (scope: Locator, day: string) => {
  await showMonthOf(scope, day)
  await dayCell(scope, day).click()
}

/** The instant of `time` ("10:00") on `day` ("2026-11-27") in `zone`. */
export const zonedAt = (day: string, time: string, zone: string) => {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number]
  const [h, mi] = time.split(":").map(Number) as [number, number]
  return new Date(new TZDate(y, m - 1, d, h, mi, zone).getTime())
}

/** An instant's time of day in `zone`, as Intl writes it for `locale` ("15:00", "3:00 PM"). */
export const timeIn = (locale: string, instant: Date, zone: string) =>
  new Intl.DateTimeFormat(locale, { timeStyle: "short", timeZone: zone }).format(instant)
