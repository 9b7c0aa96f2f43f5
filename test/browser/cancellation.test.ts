import { describe, expect, it } from "vitest"
import { hasChromium } from "../support/browser"
import { bookingCard, closeWithoutErrors, serviceJourney } from "../support/journey"
import { bookingIn } from "../support/scenarios"
import { chooseDay, dayAhead, openBookingForm } from "../support/slots"

// The cancellation policy in the browser (issue 13 item 2): the client reads the policy on the service
// page and in the booking form before booking; a day before a confirmed booking, the cancel dialog names
// the fee (half of 70,00 €), and once cancelled the card shows the fee charged.

const TITLE = "Leçon de violon"
const ZONE = "America/Toronto"
/** Amounts are formatted with no-break spaces. */
const spaced = (text: string | null) => (text ?? "").replace(/\s+/g, " ")

describe.skipIf(!hasChromium)("the cancellation policy in Chromium", () => {
  const journey = serviceJourney(
    { title: TITLE, description: "Leçons de violon à domicile, tous niveaux.", price: 35 },
    { timezoneId: ZONE }
  )

  it("the client sees the policy before booking, cancels late, the dialog names the fee and the card shows it charged", async () => {
    const { server, base, api, loggedInPage, provider, client, serviceId } = journey
    const asClient = await loggedInPage(client, "fr-CA")
    const { page } = asClient

    // ---- Before booking: the service page and the booking form state the policy ----
    await page.goto(`${base}/services/${serviceId}`)
    const policy = page.getByTestId("cancellation-policy")
    await expect.poll(() => policy.first().textContent()).toContain("Annulation gratuite jusqu'à 48 h avant le début")
    expect(spaced(await policy.first().textContent())).toContain("des frais d'annulation tardive de 50 % du total")
    expect(await policy.first().textContent()).toContain("rien n'est prélevé")
    const form = await openBookingForm(page, TITLE)
    await expect.poll(() => form.getByTestId("cancellation-policy").textContent()).toContain("Conditions d'annulation")
    await form.getByRole("button", { name: "Annuler" }).click()

    // ---- A confirmed, paid booking a day ahead: 2 hours at 35 €, 70,00 € ----
    const { bookingId } = await bookingIn(server, "confirmed", { provider, client, serviceId, startsInHours: 24, hours: 2 })

    // ---- The card says what cancelling now costs; the dialog names the fee ----
    await page.goto(`${base}/bookings`)
    const card = bookingCard(page, TITLE)
    await expect
      .poll(async () => spaced(await card.getByTestId("cancellation-terms").textContent()))
      .toBe("Annuler maintenant coûtera 35,00 € (50 % du total).")
    await card.getByRole("button", { name: /Annuler la réservation/ }).click()
    const dialog = page.getByRole("alertdialog", { name: "Annuler cette réservation ?" })
    expect(spaced(await dialog.getByTestId("cancel-cost").textContent())).toContain("Annuler maintenant coûtera 35,00 €")
    await dialog.getByRole("button", { name: "Oui, annuler la réservation" }).click()
    await expect.poll(() => dialog.count()).toBe(0)

    // ---- Cancelled: the card shows the fee charged, and the gateway took exactly that ----
    await expect
      .poll(async () => spaced(await card.getByTestId("cancellation-terms").textContent()))
      .toBe("Frais d'annulation tardive prélevés : 35,00 €")
    const after = (await api.get(`/api/bookings/${bookingId}`, { token: client.token })).body.data.booking
    expect(after).toMatchObject({ status: "CANCELLED", paymentStatus: "CAPTURED", cancellation: { chargedMinor: 3_500 } })

    // The provider's public profile states their cancellation rate once they have enough confirmed bookings.
    await page.goto(`${base}/profile/${provider.id}`)
    await expect.poll(() => page.getByTestId("cancellation-rate").textContent()).toBe("Pas encore assez de réservations")

    await closeWithoutErrors(asClient)
  }, 120_000)

  it("the booking form warns of a slot inside the fee window; a fee that rose while the dialog was open is refused, then shown", async () => {
    const { server, base, api, loggedInPage, provider, client, serviceId } = journey
    const asClient = await loggedInPage(client, "fr-CA")
    const { page } = asClient

    // ---- Four days ahead the cancellation is free for two more days; tomorrow it never is ----
    await page.goto(`${base}/services/${serviceId}`)
    const form = await openBookingForm(page, TITLE)
    const warning = form.getByTestId("cancellation-policy").getByRole("alert")
    await chooseDay(form, dayAhead(4, ZONE))
    await form.locator(".slot-button").first().click()
    expect(await warning.count()).toBe(0)
    await chooseDay(form, dayAhead(1, ZONE))
    await form.locator(".slot-button").first().click()
    await expect
      .poll(async () => spaced(await warning.textContent()))
      .toBe(
        "Annulation gratuite impossible : la séance commence dans moins de 48 h. Une fois la réservation confirmée, l'annuler coûtera 50 % du total."
      )
    await form.getByRole("button", { name: "Annuler" }).click()

    // ---- A paid request tomorrow: withdrawn free, until the provider confirms it under the open dialog ----
    const { bookingId } = await bookingIn(server, "paid", { provider, client, serviceId, startsInHours: 30, hours: 2 })
    await page.goto(`${base}/bookings`)
    const cancelButton = page.getByRole("button", { name: /Annuler la réservation/ })
    const card = page.getByRole("article", { name: TITLE }).filter({ has: cancelButton })
    await card.getByRole("button", { name: /Annuler la réservation/ }).click()
    const dialog = page.getByRole("alertdialog", { name: "Annuler cette réservation ?" })
    expect(await dialog.getByTestId("cancel-cost").textContent()).toBe(
      "Le montant éventuellement réservé sur la carte sera libéré, sans frais."
    )
    expect((await api.post(`/api/bookings/${bookingId}/confirm`, {}, { token: provider.token })).status).toBe(200)
    await dialog.getByRole("button", { name: "Oui, annuler la réservation" }).click()
    await expect.poll(async () => spaced(await dialog.getByRole("alert").textContent())).toContain("l'annuler maintenant coûte 35,00 €.")
    await expect
      .poll(async () => spaced(await dialog.getByTestId("cancel-cost").textContent()))
      .toContain("Annuler maintenant coûtera 35,00 €")
    const kept = (await api.get(`/api/bookings/${bookingId}`, { token: client.token })).body.data.booking
    expect(kept).toMatchObject({ status: "CONFIRMED", paymentStatus: "AUTHORIZED", cancellation: { chargedMinor: 0 } })

    // ---- Confirming again accepts the fee now shown ----
    await dialog.getByRole("button", { name: "Oui, annuler la réservation" }).click()
    await expect.poll(() => dialog.count()).toBe(0)
    const after = (await api.get(`/api/bookings/${bookingId}`, { token: client.token })).body.data.booking
    expect(after).toMatchObject({ status: "CANCELLED", cancellation: { chargedMinor: 3_500 } })

    await closeWithoutErrors(asClient)
  }, 120_000)
})
