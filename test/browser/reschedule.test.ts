import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { hasChromium, switchToEnglish } from "../support/browser"
import { acceptNewTime, bookingCard, cardStart, closeWithoutErrors, proposeNewTime, serviceJourney } from "../support/journey"
import { bookingIn } from "../support/scenarios"

// Rescheduling in the browser (issue 12, item 4): the provider (in French) proposes a new time for a
// confirmed booking from its card on /bookings and sees that it awaits the client's answer; the client
// (in English) sees the proposal, accepts it, and the card shows the new time and the history.

const TITLE = "Accordage de piano"
const HOUR = 3_600_000
const ZONE = "America/Toronto"

const card = (page: Page) => bookingCard(page, TITLE)

describe.skipIf(!hasChromium)("rescheduling in Chromium", () => {
  const journey = serviceJourney({ title: TITLE, description: "Accordage et réglage à domicile.", price: 60 }, { timezoneId: ZONE })

  it("the provider proposes a new time, the client accepts it: the card shows the new time and the history", async () => {
    const { server, base, api, loggedInPage, provider, client, serviceId } = journey
    // A confirmed, paid booking two days ahead.
    const { bookingId, start } = await bookingIn(server, "confirmed", { provider, client, serviceId })

    // ---- The provider proposes the next day, same length (French) ----
    const asProvider = await loggedInPage(provider, "fr-CA")
    let page = asProvider.page
    await page.goto(`${base}/bookings`)
    const target = new Date(start.getTime() + 24 * HOUR + 2 * HOUR)
    await proposeNewTime(page, card(page), target, new Date(target.getTime() + HOUR), ZONE)
    expect(await card(page).textContent()).toContain("En attente de la réponse de")
    // The proposer cannot answer, nor propose another time meanwhile.
    expect(
      await card(page)
        .getByRole("button", { name: /Accepter le nouvel horaire/ })
        .count()
    ).toBe(0)
    expect(
      await card(page)
        .getByRole("button", { name: /Proposer un nouvel horaire/ })
        .count()
    ).toBe(0)

    // ---- The client accepts (English) ----
    // Logged in through the French screen, then switched to English.
    const asClient = await loggedInPage(client, "fr-CA")
    page = asClient.page
    await switchToEnglish(page)
    await page.goto(`${base}/bookings`)
    // The card shows the new time, and the history the accepted proposal.
    await acceptNewTime(card(page), target)
    const history = card(page).locator(".booking-history")
    await history.getByText("Time history").click()
    await expect.poll(() => history.textContent()).toContain("Accepted")
    expect(await history.textContent()).toContain("proposed by the provider")
    const moved = await api.get(`/api/bookings/${bookingId}`, { token: client.token })
    expect(moved.body.data.booking).toMatchObject({ startTime: target.toISOString(), status: "CONFIRMED", paymentStatus: "AUTHORIZED" })

    // The provider's card follows (the list refreshes itself; a reload shows it at once).
    page = asProvider.page
    await page.reload()
    await expect.poll(() => cardStart(card(page))).toBe(target.toISOString())

    await closeWithoutErrors(asClient, asProvider)
  }, 120_000)
})
