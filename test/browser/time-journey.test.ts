import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { providerWithService, type Session } from "../support/accounts"
import { collectPageErrors, contextWithConsent, hasChromium, logInThroughUi, withServerAndChromium } from "../support/browser"
import { httpClient, registration } from "../support/http"
import { advance } from "../support/scenarios"
import type { TestServer } from "../support/server"
import { chooseDay, dayAhead, dayCell, showMonthOf, timeIn, zonedAt } from "../support/slots"

// Issue 12's journey, end to end in one scenario: a provider in Toronto (French) sets a weekly plan and a
// day off on /provider/availability; a client whose browser is in Paris, in English, sees only the free
// slots (the day off disabled), books one and pays in the sandbox, and reads both zones on /bookings; the
// provider finds the booking at the Toronto hour in the calendar, proposes a new time, the client accepts
// it and their card shows the new time.

let server: TestServer
let browser: Browser
let base: string
let api: ReturnType<typeof httpClient>
let provider: Session
let client: Session
let serviceId: string
const TITLE = "Cours de violon à domicile"
const PASSWORD = registration().password
const PROVIDER_ZONE = "America/Toronto"
const CLIENT_ZONE = "Europe/Paris"
const HOUR = 3_600_000
const WEEKDAYS = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"]

// The day off, three days ahead (the provider's day), and the open day after it. Toronto's 09:00-17:00
// is 14:00/15:00-22:00/23:00 in Paris: each Toronto day lies inside the same Paris day.
const CLOSED_DAY = dayAhead(3, PROVIDER_ZONE)
const OPEN_DAY = dayAhead(4, PROVIDER_ZONE)

/** The instant of `time` ("10:00") on `day` in Toronto. */
const torontoAt = (day: string, time: string) => zonedAt(day, time, PROVIDER_ZONE)
/** A time button's name in English: the time in Paris, then Toronto's ("3:00 PM (9:00 AM Toronto time)"). */
const englishSlot = (instant: Date) => `${timeIn("en", instant, CLIENT_ZONE)} (${timeIn("en", instant, PROVIDER_ZONE)} Toronto time)`

const plain = (text: string) => text.replace(/[\u2009\u202f\u00a0]/g, " ")
/** The start's hour in a zone ("3:00"): a range shares its AM/PM ("3:00 – 4:00 PM"). */
const hourIn = (instant: Date, zone: string) =>
  plain(new Intl.DateTimeFormat("en", { hour: "numeric", minute: "2-digit", timeZone: zone }).format(instant)).replace(/\s?[AP]M$/, "")

/** A datetime-local value in the provider's browser zone (America/Toronto) for an instant. */
const localValue = (date: Date) => {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: PROVIDER_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23"
  }).formatToParts(date)
  const part = (type: string) => parts.find((p) => p.type === type)!.value
  return `${part("year")}-${part("month")}-${part("day")}T${part("hour")}:${part("minute")}`
}

const newPage = async (
  locale: string,
  timezoneId: string
): Promise<{ context: BrowserContext; page: Page; errors: ReadonlyArray<string> }> => {
  const context = await contextWithConsent(browser, { locale, timezoneId })
  const page = await context.newPage()
  return { context, page, errors: collectPageErrors(page) }
}
const card = (page: Page) => page.getByRole("article", { name: TITLE })

describe.skipIf(!hasChromium)("issue 12's time journey in Chromium", () => {
  withServerAndChromium(async (started) => {
    ;({ server, browser } = started)
    base = `http://localhost:${server.port}`
    api = httpClient(server)
    ;({ provider, client, serviceId } = await providerWithService(server, api, {
      title: TITLE,
      description: "Cours particuliers de violon, tous niveaux.",
      price: 50,
      duration: 60
    }))
    // The accounts' zones (as registration sets them from the browser, or /settings).
    expect((await api.patch("/api/users/me", { timeZone: PROVIDER_ZONE }, { token: provider.token })).status).toBe(200)
    expect((await api.patch("/api/users/me", { timeZone: CLIENT_ZONE, preferredLanguage: "en" }, { token: client.token })).status).toBe(200)
    // The helpers' providers are open at all times: this one starts with no plan, as a new provider does.
    await server.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DELETE FROM availability_plans WHERE provider_id = ${provider.id}`))
  })

  it("plan and day off in Toronto, a free slot booked and paid from Paris, both zones shown, the time moved and accepted", async () => {
    // ---- The provider sets a weekly plan and a day off (French, Toronto) ----
    const asProvider = await newPage("fr-FR", PROVIDER_ZONE)
    let page = asProvider.page
    await logInThroughUi(page, base, provider.email, PASSWORD)
    await page.getByRole("navigation", { name: "Navigation principale" }).getByRole("link", { name: "Disponibilités" }).click()
    await page.waitForURL("**/provider/availability")
    await page.getByRole("heading", { name: "Mes disponibilités", level: 1 }).waitFor()
    await page.getByText("Pas encore de plan : vous êtes ouvert de 08:00 à 20:00 tous les jours.", { exact: false }).waitFor()
    await page.getByText("Horaires dans le fuseau America/Toronto.").waitFor()
    // 09:00-17:00 every day.
    for (const weekday of WEEKDAYS) {
      const range = page.getByRole("group", { name: `${weekday}, plage 1` })
      await range.getByLabel("De").fill("09:00")
      await range.getByLabel("À").fill("17:00")
    }
    await page.getByLabel("Type", { exact: true }).selectOption("dayOff")
    await page.getByLabel("Du", { exact: true }).fill(CLOSED_DAY)
    await page.getByRole("button", { name: "Ajouter l'exception" }).click()
    await page.getByText("Indisponible", { exact: true }).waitFor()
    await page.getByRole("button", { name: "Enregistrer mes disponibilités" }).click()
    await page.getByText("Disponibilités enregistrées.").waitFor()

    // ---- The client picks a free slot and books it (English, Paris) ----
    const asClient = await newPage("en-US", CLIENT_ZONE)
    page = asClient.page
    await page.goto(`${base}/login`)
    await page.getByLabel("Email").fill(client.email)
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD)
    await page.getByRole("button", { name: "Log in" }).click()
    await page.waitForURL("**/services")
    await page.goto(`${base}/services/${serviceId}`)
    await page.getByRole("region", { name: "Next free times" }).waitFor()
    await page.getByRole("button", { name: "Book this service" }).click()
    const form = page.getByRole("dialog", { name: `Book: ${TITLE}` })
    await form.getByText("Times in Paris time (your time zone), with the provider's Toronto time in brackets.").waitFor()
    await showMonthOf(form, CLOSED_DAY)
    expect(await dayCell(form, CLOSED_DAY).isDisabled()).toBe(true)
    await chooseDay(form, OPEN_DAY)

    // Only the plan's times: from Toronto's 09:00 to the last hour that ends by 17:00.
    const times = form.getByRole("list", { name: /^Free times on / })
    await expect.poll(() => times.getByRole("button").first().textContent()).toBe(englishSlot(torontoAt(OPEN_DAY, "09:00")))
    await expect.poll(() => times.getByRole("button").last().textContent()).toBe(englishSlot(torontoAt(OPEN_DAY, "16:00")))
    const booked = torontoAt(OPEN_DAY, "10:00")
    const slot = form.getByRole("button", { name: englishSlot(booked), exact: true })
    await slot.click()
    expect(await slot.getAttribute("aria-pressed")).toBe("true")
    await form.getByLabel("Service address").fill("12 rue de Rivoli, Paris")
    await expect.poll(() => form.getByTestId("booking-total").textContent()).toContain("50")
    await form.getByRole("button", { name: "Confirm the booking" }).click()
    await page.getByRole("dialog", { name: "Secure payment" }).waitFor()

    const [booking] = (await api.get("/api/bookings/me?as=client", { token: client.token })).body.data.bookings
    expect(booking).toMatchObject({ serviceId, status: "PENDING" })
    expect(new Date(booking.startTime).toISOString()).toBe(booked.toISOString())
    // Paid in the sandbox's checkout (its form's POST, as test/browser/booking.test.ts pays in the page), then confirmed by the provider.
    const end = new Date(booked.getTime() + HOUR)
    await advance(server, { bookingId: booking.id, serviceId, provider, client, start: booked, end }, "confirmed")

    // /bookings: the Paris time, named, and the provider's Toronto time beside it.
    await page.goto(`${base}/bookings`)
    const clientCard = page.locator(`[data-booking-id="${booking.id}"]`)
    await clientCard.waitFor()
    const range = plain(await clientCard.locator(".booking-facts .date-range").innerText())
    expect(range).toContain("Paris time")
    expect(range).toContain(`, ${hourIn(booked, CLIENT_ZONE)} –`)
    const other = plain(await clientCard.locator(".booking-facts").getByTestId("other-zone").innerText())
    expect(other).toMatch(/^For the provider: .*Toronto time$/)
    expect(other).toContain(`, ${hourIn(booked, PROVIDER_ZONE)} –`)

    // ---- The provider sees it at the Toronto hour in the calendar, and proposes a new time ----
    page = asProvider.page
    await page.goto(`${base}/provider/calendar`)
    await page.getByTestId("calendar-zone").getByText("Toronto", { exact: false }).waitFor()
    const monthIn = (instant: Date | number) => new Intl.DateTimeFormat("en", { month: "numeric", timeZone: PROVIDER_ZONE }).format(instant)
    if (monthIn(booked) !== monthIn(Date.now())) await page.getByRole("button", { name: "Période suivante" }).click()
    // The booking's event starts at Toronto's 10:00 (16:00 or 15:00 in the client's Paris).
    await page.locator(".calendar-event", { hasText: TITLE }).locator(".event-time", { hasText: "10:00–" }).first().waitFor()

    await page.goto(`${base}/bookings`)
    await card(page)
      .getByRole("button", { name: /Proposer un nouvel horaire/ })
      .click()
    const dialog = page.getByRole("dialog", { name: "Proposer un nouvel horaire" })
    const moved = torontoAt(OPEN_DAY, "14:00")
    await dialog.getByLabel("Nouveau début").fill(localValue(moved))
    await dialog.getByLabel("Nouvelle fin").fill(localValue(new Date(moved.getTime() + HOUR)))
    await dialog.getByRole("button", { name: "Envoyer la proposition" }).click()
    await expect.poll(() => dialog.count()).toBe(0)
    await expect.poll(() => card(page).textContent()).toContain("Vous proposez un nouvel horaire")

    // ---- The client accepts; their card shows the new time in both zones ----
    page = asClient.page
    await page.reload()
    const proposal = card(page).getByRole("region", { name: "New time proposed" })
    await expect.poll(async () => proposal.locator("time").first().getAttribute("datetime")).toBe(moved.toISOString())
    await card(page)
      .getByRole("button", { name: /Accept the new time/ })
      .click()
    await expect.poll(() => card(page).getByRole("region", { name: "New time proposed" }).count()).toBe(0)
    await expect.poll(async () => card(page).locator(".booking-facts time").first().getAttribute("datetime")).toBe(moved.toISOString())
    await expect
      .poll(async () => plain(await clientCard.locator(".booking-facts .date-range").innerText()))
      .toContain(`, ${hourIn(moved, CLIENT_ZONE)} –`)
    expect(plain(await clientCard.locator(".booking-facts").getByTestId("other-zone").innerText())).toContain(
      `, ${hourIn(moved, PROVIDER_ZONE)} –`
    )
    const stored = await api.get(`/api/bookings/${booking.id}`, { token: client.token })
    expect(stored.body.data.booking).toMatchObject({ startTime: moved.toISOString(), status: "CONFIRMED" })

    expect(asClient.errors).toEqual([])
    expect(asProvider.errors).toEqual([])
    await asClient.context.close()
    await asProvider.context.close()
  }, 180_000)
})
