import type { Browser, BrowserContext, Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { providerWithService, type Session } from "../support/accounts"
import {
  collectPageErrors,
  contextWithConsent,
  hasChromium,
  logInThroughUi,
  switchToEnglish,
  withServerAndChromium
} from "../support/browser"
import { httpClient, registration } from "../support/http"
import type { TestServer } from "../support/server"
import { bookingIn } from "../support/scenarios"

// Rescheduling in the browser (issue 12, item 4): the provider (in French) proposes a new time for a
// confirmed booking from its card on /bookings and sees that it awaits the client's answer; the client
// (in English) sees the proposal, accepts it, and the card shows the new time and the history.

let server: TestServer
let browser: Browser
let base: string
let api: ReturnType<typeof httpClient>
let provider: Session
let client: Session
let serviceId: string
const TITLE = "Accordage de piano"
const PASSWORD = registration().password
const HOUR = 3_600_000
const ZONE = "America/Toronto"

/** A datetime-local value in the browser's zone (America/Toronto) for an instant. */
const localValue = (date: Date) => {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: ZONE,
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

const newPage = async (locale: string): Promise<{ context: BrowserContext; page: Page; errors: ReadonlyArray<string> }> => {
  const context = await contextWithConsent(browser, { locale, timezoneId: ZONE })
  const page = await context.newPage()
  return { context, page, errors: collectPageErrors(page) }
}
const card = (page: Page) => page.getByRole("article", { name: TITLE })

describe.skipIf(!hasChromium)("rescheduling in Chromium", () => {
  withServerAndChromium(async (started) => {
    ;({ server, browser } = started)
    base = `http://localhost:${server.port}`
    api = httpClient(server)
    ;({ provider, client, serviceId } = await providerWithService(server, api, {
      title: TITLE,
      description: "Accordage et réglage à domicile.",
      price: 60,
      location: "Montréal",
      categoryId: 7
    }))
  })

  it("the provider proposes a new time, the client accepts it: the card shows the new time and the history", async () => {
    // A confirmed, paid booking two days ahead.
    const { bookingId, start } = await bookingIn(server, "confirmed", { provider, client, serviceId })

    // ---- The provider proposes the next day, same length (French) ----
    const asProvider = await newPage("fr-CA")
    let page = asProvider.page
    await logInThroughUi(page, base, provider.email, PASSWORD)
    await page.goto(`${base}/bookings`)
    await card(page)
      .getByRole("button", { name: /Proposer un nouvel horaire/ })
      .click()
    const dialog = page.getByRole("dialog", { name: "Proposer un nouvel horaire" })
    const target = new Date(start.getTime() + 24 * HOUR + 2 * HOUR)
    await dialog.getByLabel("Nouveau début").fill(localValue(target))
    await dialog.getByLabel("Nouvelle fin").fill(localValue(new Date(target.getTime() + HOUR)))
    await dialog.getByRole("button", { name: "Envoyer la proposition" }).click()
    await expect.poll(() => dialog.count()).toBe(0)
    await expect.poll(() => card(page).textContent()).toContain("Vous proposez un nouvel horaire")
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
    const asClient = await newPage("fr-CA")
    page = asClient.page
    await logInThroughUi(page, base, client.email, PASSWORD)
    await switchToEnglish(page)
    await page.getByRole("button", { name: "Log out" }).waitFor()
    await page.goto(`${base}/bookings`)
    const proposal = card(page).getByRole("region", { name: "New time proposed" })
    await expect.poll(() => proposal.textContent()).toContain("proposes a new time")
    await expect.poll(async () => proposal.locator("time").first().getAttribute("datetime")).toBe(target.toISOString())
    await card(page)
      .getByRole("button", { name: /Accept the new time/ })
      .click()
    await expect.poll(() => card(page).getByRole("region", { name: "New time proposed" }).count()).toBe(0)

    // The card shows the new time, and the history the accepted proposal.
    await expect.poll(async () => card(page).locator(".booking-facts time").first().getAttribute("datetime")).toBe(target.toISOString())
    const history = card(page).locator(".booking-history")
    await history.getByText("Time history").click()
    await expect.poll(() => history.textContent()).toContain("Accepted")
    expect(await history.textContent()).toContain("proposed by the provider")
    const moved = await api.get(`/api/bookings/${bookingId}`, { token: client.token })
    expect(moved.body.data.booking).toMatchObject({ startTime: target.toISOString(), status: "CONFIRMED", paymentStatus: "AUTHORIZED" })

    // The provider's card follows (the list refreshes itself; a reload shows it at once).
    page = asProvider.page
    await page.reload()
    await expect.poll(async () => card(page).locator(".booking-facts time").first().getAttribute("datetime")).toBe(target.toISOString())

    expect(asClient.errors).toEqual([])
    expect(asProvider.errors).toEqual([])
    await asClient.context.close()
    await asProvider.context.close()
  }, 120_000)
})
