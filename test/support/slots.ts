import { TZDate } from "@date-fns/tz"
import type { Locator, Page } from "playwright-core"
import { expect } from "vitest"

// The booking form's slot picker driven from a browser test: days are the picker's cells
// (`data-day`, the viewer's zone), times its buttons.

/** The booking form's words in each language: the service page's button, the form, its fields, the payment dialog it opens. */
const bookingForm = {
  fr: {
    button: "Réserver ce service",
    dialog: (title: string) => `Réserver : ${title}`,
    address: "Adresse de la prestation",
    confirm: "Confirmer la réservation",
    payment: "Paiement sécurisé"
  },
  en: {
    button: "Book this service",
    dialog: (title: string) => `Book: ${title}`,
    address: "Service address",
    confirm: "Confirm the booking",
    payment: "Secure payment"
  }
} as const

/** Opens the booking form from the service page shown ("Réserver ce service"), and answers the form. */
export const openBookingForm = async (page: Page, title: string, language: "fr" | "en" = "fr") => {
  await page.getByRole("button", { name: bookingForm[language].button }).click()
  return page.getByRole("dialog", { name: bookingForm[language].dialog(title) })
}

/**
 * Requests the time named `slot` from the open booking form: the time picked (pressed), the address
 * filled, the total showing `total`, the request confirmed and the payment dialog open.
 */
export const requestSlot = async (form: Locator, slot: string, address: string, total: string, language: "fr" | "en" = "fr") => {
  const words = bookingForm[language]
  const time = form.getByRole("button", { name: slot, exact: true })
  await time.click()
  expect(await time.getAttribute("aria-pressed")).toBe("true")
  await form.getByLabel(words.address).fill(address)
  await expect.poll(() => form.getByTestId("booking-total").textContent()).toContain(total)
  await form.getByRole("button", { name: words.confirm }).click()
  await form.page().getByRole("dialog", { name: words.payment }).waitFor()
}

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

/** `closedDay` shows disabled in the picker (a day off), then `openDay` is picked. */
export const chooseDayAfterDayOff = async (scope: Locator, closedDay: string, openDay: string) => {
  await showMonthOf(scope, closedDay)
  expect(await dayCell(scope, closedDay).isDisabled()).toBe(true)
  await chooseDay(scope, openDay)
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

/**
 * A time button's name: the time in the viewer's zone, then the provider's, named by its city
 * ("15:00 (09:00, heure de Toronto)", "3:00 PM (9:00 AM Toronto time)").
 */
export const slotName = (language: "fr" | "en", instant: Date, viewerZone: string, providerZone: string) => {
  const city = providerZone.split("/").at(-1)!.replace(/_/g, " ")
  const viewers = timeIn(language, instant, viewerZone)
  const providers = timeIn(language, instant, providerZone)
  return language === "fr" ? `${viewers} (${providers}, heure de ${city})` : `${viewers} (${providers} ${city} time)`
}

/** Text with Intl's thin, narrow and plain no-break spaces as plain spaces. */
export const plainSpaces = (text: string) => text.replace(/[\u2009\u202f\u00a0]/g, " ")

/** An instant's hour in `zone` in English without its AM/PM ("3:00"): a range shares it ("3:00 – 4:00 PM"). */
export const hourIn = (instant: Date, zone: string) =>
  plainSpaces(new Intl.DateTimeFormat("en", { hour: "numeric", minute: "2-digit", timeZone: zone }).format(instant)).replace(
    /\s?[AP]M$/,
    ""
  )
