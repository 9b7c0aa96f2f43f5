import type { Locator } from "playwright-core"
import { describe, expect, it } from "vitest"
import { newClient, newProvider, providerWithService, type Session } from "../support/accounts"
import { hasChromium, switchToEnglish } from "../support/browser"
import { browserJourney, closeWithoutErrors, type Journey } from "../support/journey"
import { serviceOf } from "../support/scenarios"
import { chooseDayAfterDayOff, dayAhead, openBookingForm, requestSlot, slotName, zonedAt } from "../support/slots"

// The booking form picks from the provider's free slots (issue 12, item 3). A provider in Toronto
// works 09:00-17:00 every day but takes a day off; clients whose browsers are in Paris, one in
// French and one in English, see that day disabled and the times at their own hour with Toronto's
// beside it. The first books a time; the second no longer sees it, and a time taken while their form
// was open is refused, the slots loaded anew and the refusal said. A provider with no free time in
// the next 60 days gets the empty state.

const TITLE = "Cours de guitare à domicile"
const CLOSED_TITLE = "Réparation de vélos"
const PROVIDER_ZONE = "America/Toronto"
const CLIENT_ZONE = "Europe/Paris"

// The provider's day off, three days ahead (their day), and the open day after it. Toronto's
// 09:00-17:00 is 14:00/15:00-22:00/23:00 in Paris: each Toronto day lies inside the same Paris day.
const CLOSED_DAY = dayAhead(3, PROVIDER_ZONE)
const OPEN_DAY = dayAhead(4, PROVIDER_ZONE)

/** The instant of `time` ("10:00") on `day` in Toronto. */
const torontoAt = (day: string, time: string) => zonedAt(day, time, PROVIDER_ZONE)
/** A time button's name: the time in Paris, then Toronto's ("15:00 (09:00, heure de Toronto)"). */
const frenchSlot = (instant: Date) => slotName("fr", instant, CLIENT_ZONE, PROVIDER_ZONE)
const englishSlot = (instant: Date) => slotName("en", instant, CLIENT_ZONE, PROVIDER_ZONE)

const every = (ranges: ReadonlyArray<{ start: string; end: string }>) => Array.from({ length: 7 }, (_, i) => ({ weekday: i + 1, ranges }))

/** The provider works in Toronto (their account's zone, the one their plan is read in) on these hours. */
const setAvailability = async (api: Journey["api"], session: Session, body: Record<string, unknown>) => {
  expect((await api.patch("/api/users/me", { timeZone: PROVIDER_ZONE }, { token: session.token })).status).toBe(200)
  const answer = await api.call("PUT", "/api/providers/me/availability", { json: body, token: session.token })
  expect(answer.status, answer.text).toBe(200)
}

const bookThroughApi = async (api: Journey["api"], client: Session, serviceId: string, start: Date, minutes: number) => {
  // As the form sends it: the slot's start and end, the start's UTC day.
  const answer = await api.post(
    "/api/bookings",
    {
      serviceId,
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + minutes * 60_000).toISOString(),
      date: start.toISOString().slice(0, 10),
      address: "12 rue Sainte-Catherine, Montréal",
      notes: ""
    },
    { token: client.token }
  )
  expect(answer.status, answer.text).toBe(201)
}

const slotButton = (form: Locator, name: string) => form.getByRole("button", { name, exact: true })

describe.skipIf(!hasChromium)("booking from the free slots in Chromium", () => {
  const journey = browserJourney({
    timezoneId: CLIENT_ZONE,
    setup: async ({ server, api }) => {
      const { provider, client, serviceId } = await providerWithService(server, api, {
        title: TITLE,
        description: "Cours particuliers de guitare, tous niveaux.",
        price: 40,
        duration: 60
      })
      await setAvailability(api, provider, {
        weekly: every([{ start: "09:00", end: "17:00" }]),
        exceptions: [
          {
            kind: "closed",
            startTime: torontoAt(CLOSED_DAY, "00:00").toISOString(),
            endTime: torontoAt(OPEN_DAY, "00:00").toISOString(),
            note: "Congé"
          }
        ],
        noticeMinutes: 120,
        bufferMinutes: 0
      })
      // Another provider, closed every day: nothing free in the next 60 days.
      const closed = await newProvider(server, api)
      const closedServiceId = await serviceOf(server, closed, {
        title: CLOSED_TITLE,
        description: "Réparation et entretien de vélos.",
        price: 30,
        duration: 45
      })
      await setAvailability(api, closed, { weekly: [], exceptions: [], noticeMinutes: 120, bufferMinutes: 0 })
      return { serviceId, closedServiceId, first: client, second: await newClient(server, api) }
    }
  })

  it("in French: the day off is disabled, a time is picked at the client's hour with Toronto's beside it, and booked", async () => {
    const { base, api, loggedInPage, first, serviceId } = journey
    const asFirst = await loggedInPage(first, "fr-FR")
    const { page } = asFirst
    await page.goto(`${base}/services/${serviceId}`)

    // The next free slots open the form preset to them.
    const next = page.getByRole("region", { name: "Prochains créneaux libres" })
    const firstFree = next.getByRole("button", { name: /^Réserver le / }).first()
    await firstFree.waitFor()
    await expect.poll(() => firstFree.textContent()).toContain("heure de Toronto")
    await firstFree.click()
    let form = page.getByRole("dialog", { name: `Réserver : ${TITLE}` })
    await expect.poll(() => form.getByTestId("booking-start").textContent()).not.toBe("—")
    await form.getByRole("button", { name: "Annuler" }).click()

    form = await openBookingForm(page, TITLE)
    await form.getByText("Horaires à l'heure de Paris (votre fuseau horaire), avec l'heure de Toronto").waitFor()
    await chooseDayAfterDayOff(form, CLOSED_DAY, OPEN_DAY)

    // Toronto's 09:00 is the first free time of the day, shown at Paris's hour.
    const times = form.getByRole("list", { name: /^Horaires libres le / })
    await expect.poll(() => times.getByRole("button").first().textContent()).toBe(frenchSlot(torontoAt(OPEN_DAY, "09:00")))
    const booked = torontoAt(OPEN_DAY, "10:00")
    await requestSlot(form, frenchSlot(booked), "12 rue Sainte-Catherine, Montréal", "40")

    const [booking] = (await api.get("/api/bookings/me?as=client", { token: first.token })).body.data.bookings
    expect(booking).toMatchObject({ serviceId, status: "PENDING" })
    expect(new Date(booking.startTime).toISOString()).toBe(booked.toISOString())
    expect(new Date(booking.endTime).toISOString()).toBe(new Date(booked.getTime() + 3_600_000).toISOString())

    await closeWithoutErrors(asFirst)
  }, 90_000)

  it("in English: a second client no longer sees the booked time, and a time taken meanwhile is refused and refreshed", async () => {
    const { server, base, api, loggedInPage, second, serviceId } = journey
    // Logged in through the French screen, then switched to English.
    const asSecond = await loggedInPage(second, "fr-FR")
    const { page } = asSecond
    await switchToEnglish(page)
    await page.goto(`${base}/services/${serviceId}`)
    await page.getByRole("region", { name: "Next free times" }).waitFor()
    const form = await openBookingForm(page, TITLE, "en")
    await form.getByText("Times in Paris time (your time zone), with the provider's Toronto time in brackets.").waitFor()
    await chooseDayAfterDayOff(form, CLOSED_DAY, OPEN_DAY)

    // 10:00-11:00 (Toronto) is taken: no start from 09:15 to 10:45; 09:00 and 11:00 are free.
    await slotButton(form, englishSlot(torontoAt(OPEN_DAY, "09:00"))).waitFor()
    await slotButton(form, englishSlot(torontoAt(OPEN_DAY, "11:00"))).waitFor()
    for (const time of ["09:15", "09:45", "10:00", "10:30", "10:45"]) {
      expect(await slotButton(form, englishSlot(torontoAt(OPEN_DAY, time))).count(), time).toBe(0)
    }

    // Someone books 14:00 while the form is open: picking it is refused, the slots are loaded anew.
    const taken = torontoAt(OPEN_DAY, "14:00")
    await bookThroughApi(api, await newClient(server, api), serviceId, taken, 60)
    await slotButton(form, englishSlot(taken)).click()
    await form.getByLabel("Service address").fill("4500 rue Saint-Denis, Montréal")
    await form.getByRole("button", { name: "Confirm the booking" }).click()
    await form.getByText("Someone else has just booked this time. The free times are up to date: choose another time.").waitFor()
    await expect.poll(() => slotButton(form, englishSlot(taken)).count()).toBe(0)
    await slotButton(form, englishSlot(torontoAt(OPEN_DAY, "15:00"))).waitFor()
    expect(await form.getByTestId("booking-start").textContent()).toBe("—")

    await closeWithoutErrors(asSecond)
  }, 90_000)

  it("with no free time in the next 60 days, says so and offers to write to the provider (both languages)", async () => {
    const { base, api, loggedInPage, second, closedServiceId } = journey
    // The previous test switched this client to English, which their account keeps: back to French.
    expect((await api.patch("/api/users/me", { preferredLanguage: "fr" }, { token: second.token })).status).toBe(200)
    const asSecond = await loggedInPage(second, "fr-FR")
    const { page } = asSecond
    await page.goto(`${base}/services/${closedServiceId}`)
    const next = page.getByRole("region", { name: "Prochains créneaux libres" })
    await next.getByText("Aucun créneau libre dans les 60 prochains jours : contactez le prestataire.").waitFor()
    const form = await openBookingForm(page, CLOSED_TITLE)
    await form.getByText("Aucun créneau libre dans les 60 prochains jours : contactez le prestataire.").waitFor()
    await form.getByRole("link", { name: "Écrire au prestataire" }).waitFor()
    await form.getByRole("button", { name: "Annuler" }).click()

    await page.getByRole("button", { name: "English" }).click()
    await page
      .getByRole("region", { name: "Next free times" })
      .getByText("No free time in the next 60 days: contact the provider.")
      .waitFor()
    await closeWithoutErrors(asSecond)
  }, 90_000)
})
