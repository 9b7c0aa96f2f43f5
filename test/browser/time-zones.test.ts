import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import { Identity } from "../../src/modules/identity"
import { login } from "../support/accounts"
import { hasChromium } from "../support/browser"
import { mailedToken } from "../support/http"
import { browserJourney, closeWithoutErrors } from "../support/journey"
import { bookingIn, providerWithPayouts } from "../support/scenarios"
import { hourIn, plainSpaces as plain } from "../support/slots"

// Issue 12, time zones in the browser: a client whose Chromium runs in Europe/Paris, in English, registers
// (the account takes the browser's zone), books a provider working from Toronto, and reads the booking on
// /bookings at the Paris time with the Toronto time beside it, each named; the service page names the
// provider's zone; the provider's calendar lays the booking out at the Toronto hour.

describe.skipIf(!hasChromium)("time zones in Chromium", () => {
  const journey = browserJourney({ timezoneId: "Europe/Paris" })

  it("registration takes the browser's zone; /bookings shows the client's and the provider's times, each named", async () => {
    const { server, base, api, newPage, logIn, loggedInPage } = journey
    const email = `zones.${Date.now().toString(36)}@example.com`
    const password = "Secret12!"

    const newcomer = await newPage("en-US")
    const { page } = newcomer
    await page.goto(`${base}/register`)
    await page.getByLabel("First name").fill("Chloé")
    await page.getByLabel("Last name").fill("Martin")
    await page.getByLabel("Email").fill(email)
    await page.getByLabel("Phone").fill("0612345678")
    await page.getByLabel("Password", { exact: true }).fill(password)
    await page.getByLabel("Confirm password").fill(password)
    await page.getByRole("button", { name: "Create my account" }).click()
    await page.waitForURL("**/login?verify=1")
    const account = await server.run(Effect.flatMap(Identity, (identity) => identity.findByEmail(email)))
    expect(Option.getOrThrow(account).timeZone).toBe("Europe/Paris")
    expect((await api.get(`/api/auth/verify-email/${await mailedToken(server, email, "verify-email")}`)).status).toBe(200)

    // A provider in Toronto (set on their settings, in English: the account's language is the one they get) offers a service; the client books 14:00 UTC in three days.
    const provider = await providerWithPayouts(server)
    expect(
      (await api.patch("/api/users/me", { timeZone: "America/Toronto", preferredLanguage: "en" }, { token: provider.token })).status
    ).toBe(200)
    const start = new Date(Date.now() + 3 * 24 * 3_600_000)
    start.setUTCHours(14, 0, 0, 0)
    // Paid (the sandbox's checkout): the calendar shows bookings whose payment is secured.
    const { bookingId, serviceId } = await bookingIn(server, "paid", {
      provider,
      client: await login(api, email, password),
      service: { title: "Piano lessons", description: "One hour of piano at home.", price: 50, location: "Toronto" },
      start,
      address: "10 rue de la Paix, Paris"
    })
    // The start's hour in a zone ("3:00"): a range shares its AM/PM ("3:00 – 4:00 PM").
    const time = (zone: string) => hourIn(start, zone)

    // Signed in through the English login screen, in Paris.
    await logIn(page, { email, password }, "en")

    await page.goto(`${base}/bookings`)
    const card = page.locator(`[data-booking-id="${bookingId}"]`)
    await card.waitFor()
    const range = plain(await card.locator(".date-range").innerText())
    // 14:00 UTC: 3:00 or 4:00 PM in Paris, 9:00 or 10:00 AM in Toronto, depending on the date's offsets.
    expect(range).toContain("Paris time")
    expect(range).toContain(`, ${time("Europe/Paris")} –`)
    const other = plain(await card.getByTestId("other-zone").innerText())
    expect(other).toMatch(/^For the provider: .*Toronto time$/)
    expect(other).toContain(`, ${time("America/Toronto")} –`)

    // The service page names the provider's zone and says the times are shown in Paris time.
    await page.goto(`${base}/services/${serviceId}`)
    const zone = plain(await page.getByTestId("provider-zone").innerText())
    expect(zone).toContain("Toronto time")
    expect(zone).toContain("times shown in Paris time")
    await closeWithoutErrors(newcomer)

    // The provider's calendar, opened from a browser in Paris, is laid out in Toronto: the booking sits at the Toronto hour.
    // Through the English login screen (an English browser).
    const { context: providerContext, page: providerPage } = await loggedInPage(provider, "en-US")
    await providerPage.goto(`${base}/provider/calendar`)
    await providerPage.getByTestId("calendar-zone").getByText("Times in Toronto time").waitFor()
    // The month shown is today's in Toronto: the booking may fall in the next one.
    const monthIn = (instant: Date | number) =>
      new Intl.DateTimeFormat("en", { month: "numeric", timeZone: "America/Toronto" }).format(instant)
    if (monthIn(start) !== monthIn(Date.now())) await providerPage.getByRole("button", { name: "Next period" }).click()
    const torontoHour = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "America/Toronto" }).format(start)
    await providerPage
      .locator(".calendar-event .event-time", { hasText: `${torontoHour}–` })
      .first()
      .waitFor()
    await providerContext.close()
  }, 120_000)
})
