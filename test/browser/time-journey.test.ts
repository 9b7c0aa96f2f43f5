import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { providerWithService } from "../support/accounts"
import { hasChromium } from "../support/browser"
import { acceptNewTime, bookingCard, browserJourney, closeWithoutErrors, proposeNewTime } from "../support/journey"
import { advance } from "../support/scenarios"
import {
  chooseDayAfterDayOff,
  dayAhead,
  hourIn,
  openBookingForm,
  plainSpaces as plain,
  requestSlot,
  slotName,
  zonedAt
} from "../support/slots"

// Issue 12's journey, end to end in one scenario: a provider in Toronto (French) sets a weekly plan and a
// day off on /provider/availability; a client whose browser is in Paris, in English, sees only the free
// slots (the day off disabled), books one and pays in the sandbox, and reads both zones on /bookings; the
// provider finds the booking at the Toronto hour in the calendar, proposes a new time, the client accepts
// it and their card shows the new time.

const TITLE = "Cours de violon à domicile"
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
const englishSlot = (instant: Date) => slotName("en", instant, CLIENT_ZONE, PROVIDER_ZONE)

const card = (page: Page) => bookingCard(page, TITLE)

describe.skipIf(!hasChromium)("issue 12's time journey in Chromium", () => {
  const journey = browserJourney({
    setup: async ({ server, api }) => {
      const world = await providerWithService(server, api, {
        title: TITLE,
        description: "Cours particuliers de violon, tous niveaux.",
        price: 50,
        duration: 60
      })
      const { provider, client } = world
      // The accounts' zones (as registration sets them from the browser, or /settings).
      expect((await api.patch("/api/users/me", { timeZone: PROVIDER_ZONE }, { token: provider.token })).status).toBe(200)
      expect((await api.patch("/api/users/me", { timeZone: CLIENT_ZONE, preferredLanguage: "en" }, { token: client.token })).status).toBe(
        200
      )
      // The helpers' providers are open at all times: this one starts with no plan, as a new provider does.
      await server.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DELETE FROM availability_plans WHERE provider_id = ${provider.id}`))
      return world
    }
  })

  it("plan and day off in Toronto, a free slot booked and paid from Paris, both zones shown, the time moved and accepted", async () => {
    const { server, base, api, loggedInPage, provider, client, serviceId } = journey
    // ---- The provider sets a weekly plan and a day off (French, Toronto) ----
    const asProvider = await loggedInPage(provider, "fr-FR", { timezoneId: PROVIDER_ZONE })
    let page = asProvider.page
    await page.getByRole("navigation", { name: "Navigation principale" }).getByRole("link", { name: "Disponibilités" }).click()
    await page.waitForURL("**/provider/availability")
    await page.getByRole("heading", { name: "Mes disponibilités", level: 1 }).waitFor()
    await page.getByText("Pas encore de plan : vous êtes ouvert de 08:00 à 20:00 tous les jours.", { exact: false }).waitFor()
    await page.getByText("Horaires en heure de Toronto, le fuseau de votre compte", { exact: false }).waitFor()
    // 09:00-17:00 on Monday, copied to every day.
    const monday = page.getByRole("group", { name: `${WEEKDAYS[0]}, plage 1` })
    await monday.getByLabel("De").selectOption("09:00")
    await monday.getByLabel("À").selectOption("17:00")
    await page.getByLabel(`Copier les horaires du ${WEEKDAYS[0]}`).selectOption("all")
    for (const weekday of WEEKDAYS)
      expect(
        await page
          .getByRole("group", { name: `${weekday}, plage 1` })
          .getByLabel("À")
          .inputValue()
      ).toBe("17:00")
    await page.getByLabel("Type", { exact: true }).selectOption("dayOff")
    await page.getByLabel("Du", { exact: true }).fill(CLOSED_DAY)
    await page.getByRole("button", { name: "Ajouter l'exception" }).click()
    await page.getByText("Indisponible", { exact: true }).waitFor()
    await page.getByRole("button", { name: "Enregistrer mes disponibilités" }).click()
    await page.getByText("Disponibilités enregistrées.").waitFor()

    // ---- The client picks a free slot and books it (English, Paris) ----
    // Through the English login screen (an English browser).
    const asClient = await loggedInPage(client, "en-US", { timezoneId: CLIENT_ZONE })
    page = asClient.page
    await page.goto(`${base}/services/${serviceId}`)
    await page.getByRole("region", { name: "Next free times" }).waitFor()
    const form = await openBookingForm(page, TITLE, "en")
    await form.getByText("Times in Paris time (your time zone), with the provider's Toronto time in brackets.").waitFor()
    await chooseDayAfterDayOff(form, CLOSED_DAY, OPEN_DAY)

    // Only the plan's times: from Toronto's 09:00 to the last hour that ends by 17:00.
    const times = form.getByRole("list", { name: /^Free times on / })
    await expect.poll(() => times.getByRole("button").first().textContent()).toBe(englishSlot(torontoAt(OPEN_DAY, "09:00")))
    await expect.poll(() => times.getByRole("button").last().textContent()).toBe(englishSlot(torontoAt(OPEN_DAY, "16:00")))
    const booked = torontoAt(OPEN_DAY, "10:00")
    await requestSlot(form, englishSlot(booked), "12 rue de Rivoli, Paris", "50", "en")

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
    const moved = torontoAt(OPEN_DAY, "14:00")
    await proposeNewTime(page, card(page), moved, new Date(moved.getTime() + HOUR), PROVIDER_ZONE)

    // ---- The client accepts; their card shows the new time in both zones ----
    page = asClient.page
    await page.reload()
    await acceptNewTime(card(page), moved)
    await expect
      .poll(async () => plain(await clientCard.locator(".booking-facts .date-range").innerText()))
      .toContain(`, ${hourIn(moved, CLIENT_ZONE)} –`)
    expect(plain(await clientCard.locator(".booking-facts").getByTestId("other-zone").innerText())).toContain(
      `, ${hourIn(moved, PROVIDER_ZONE)} –`
    )
    const stored = await api.get(`/api/bookings/${booking.id}`, { token: client.token })
    expect(stored.body.data.booking).toMatchObject({ startTime: moved.toISOString(), status: "CONFIRMED" })

    await closeWithoutErrors(asClient, asProvider)
  }, 180_000)
})
