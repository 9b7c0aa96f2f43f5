import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { hasChromium, switchToEnglish } from "../support/browser"
import { adjustableClock } from "../support/clock"
import { bookingCard, closeWithoutErrors, serviceJourney } from "../support/journey"
import { chooseDay, dayAhead, openBookingForm } from "../support/slots"

// The whole booking journey, offline: a client books and pays in the sandbox checkout (in French),
// the provider confirms and marks it rendered (in English), the client confirms reception with a
// review; the booking is COMPLETED, the payment CAPTURED, the review on the service page, and the
// booking in the provider's calendar.

const TITLE = "Montage de meubles à domicile"

/** Our booking's card on /bookings, and one of its action buttons ("Confirmer : <title>"). */
const card = (page: Page) => bookingCard(page, TITLE)
const action = (page: Page, label: RegExp) => card(page).getByRole("button", { name: label })

// The server's clock is moved past the booking's start before the provider marks it rendered.
const clock = adjustableClock()

describe.skipIf(!hasChromium)("the booking journey in Chromium", () => {
  const journey = serviceJourney(
    { title: TITLE, description: "Montage et installation de vos meubles en kit.", price: 45 },
    { serverOptions: { clock: clock.clock }, timezoneId: "America/Toronto" }
  )

  it("book, pay in the sandbox, confirm, render, review: COMPLETED, CAPTURED, reviewed and in the calendar", async () => {
    const { base, api, loggedInPage, provider, client, serviceId } = journey
    // ---- The client books and pays (French) ----
    const asClient = await loggedInPage(client, "fr-CA")
    let page = asClient.page
    await page.goto(`${base}/services/${serviceId}`)
    const form = await openBookingForm(page, TITLE)
    // Two hours, in two days at 10:00 in the browser's zone (Toronto), picked from the free slots (the
    // test helpers' providers are open at all times).
    await form.getByLabel("Durée").selectOption("120")
    await chooseDay(form, dayAhead(2, "America/Toronto"))
    await form.getByRole("button", { name: /^10:00/ }).click()
    await form.getByLabel("Adresse de la prestation").fill("4500 rue Saint-Denis, Montréal")
    await form.getByLabel("Notes (facultatif)").fill("Deux armoires et un lit. Sonnez au 514 555 1234.")
    await expect.poll(() => form.getByTestId("booking-total").textContent()).toContain("90")
    await form.getByRole("button", { name: "Confirmer la réservation" }).click()

    const payment = page.getByRole("dialog", { name: "Paiement sécurisé" })
    await payment.getByLabel("Nom complet").fill("Nadia Gagnon")
    await payment.getByLabel("Adresse", { exact: true }).fill("4500 rue Saint-Denis")
    await payment.getByLabel("Ville").fill("Montréal")
    await payment.getByLabel("Code postal").fill("H2J 2L3")
    await payment.getByLabel("Pays").selectOption("CA")
    await payment.getByRole("button", { name: /^Payer / }).click()

    // The sandbox's hosted checkout: the test card that authorises.
    await page.waitForURL("**/sandbox/checkout/**")
    await page.getByLabel("Numéro de carte").fill("4242 4242 4242 4242")
    await page.getByLabel("Expiration (MM/AA)").fill("12/34")
    await page.getByLabel("CVC").fill("123")
    await page.getByRole("button", { name: /^Payer / }).click()
    await page.waitForURL("**/bookings?payment=success**")
    await page.getByText("Paiement effectué !").waitFor()
    await card(page).getByText("Paiement effectué", { exact: false }).first().waitFor()
    // The number in the notes: the client is told the provider sees it once the booking is confirmed.
    await card(page).getByText("Le prestataire verra vos coordonnées une fois la réservation confirmée.").waitFor()

    const [booking] = (await api.get("/api/bookings/me?as=client", { token: client.token })).body.data.bookings
    expect(booking).toMatchObject({ serviceId, status: "PENDING", displayStatus: "PAID", paymentStatus: "AUTHORIZED", totalMinor: 9000 })

    // ---- The provider confirms and marks it rendered (English) ----
    // Logged in through the French screen, then switched to English.
    const asProvider = await loggedInPage(provider, "fr-CA")
    page = asProvider.page
    await switchToEnglish(page)
    await page.goto(`${base}/bookings`)
    // Private until booked: the number in the notes is masked until the provider confirms.
    const notes = card(page).locator(".booking-notes")
    await notes.getByText("Contact details were hidden: you will see them once the booking is confirmed.").waitFor()
    expect(await notes.innerText()).toContain("Sonnez au [•••].")
    await action(page, /^Confirm\b(?! reception)/).click()
    await expect
      .poll(async () => (await api.get(`/api/bookings/${booking.id}`, { token: provider.token })).body.data.booking.status)
      .toBe("CONFIRMED")
    await notes.getByText("Deux armoires et un lit. Sonnez au 514 555 1234.").waitFor()
    // "Service rendered" is offered once the booking has started: three days later.
    clock.advance(3 * 24 * 3_600_000)
    await page.reload()
    await action(page, /^Mark as rendered/).waitFor()
    await action(page, /^Mark as rendered/).click()
    await expect
      .poll(async () => (await api.get(`/api/bookings/${booking.id}`, { token: provider.token })).body.data.booking.status)
      .toBe("SERVICE_RENDERED")

    // The booking shows in the provider's calendar (week view of its date).
    await page.goto(`${base}/provider/calendar`)
    await page.getByRole("heading", { name: "Booking calendar" }).waitFor()
    await page.locator(".calendar-event", { hasText: TITLE }).first().waitFor()
    await page.locator(".calendar-event", { hasText: TITLE }).first().click()
    await page.getByRole("dialog").getByText(TITLE).first().waitFor()

    // ---- The client confirms reception with a review (French) ----
    page = asClient.page
    await page.goto(`${base}/bookings`)
    await action(page, /^Confirmer la réception/).click()
    const review = page.getByRole("dialog", { name: "Confirmer la réception du service" })
    await review.getByRole("radio", { name: "4 étoiles" }).check()
    await review.getByLabel("Commentaire").fill("Travail soigné et rapide, merci !")
    await review.getByRole("button", { name: "Confirmer la réception" }).click()
    await expect
      .poll(async () => (await api.get(`/api/bookings/${booking.id}`, { token: client.token })).body.data.booking)
      .toMatchObject({
        status: "COMPLETED",
        paymentStatus: "CAPTURED",
        isReviewed: true
      })

    // The review is on the service page, and the average with it.
    await page.goto(`${base}/services/${serviceId}`)
    await page.getByText("Travail soigné et rapide, merci !").waitFor()
    await page.getByText(/Note moyenne : 4/).waitFor()

    await closeWithoutErrors(asClient, asProvider)
  }, 120_000)
})
