import type { Browser } from "playwright-core"
import { describe, expect, it } from "vitest"
import { providerWithService, type Session } from "../support/accounts"
import { collectPageErrors, contextWithConsent, hasChromium, logInThroughUi, withServerAndChromium } from "../support/browser"
import { httpClient, registration } from "../support/http"
import type { TestServer } from "../support/server"
import { bookingIn } from "../support/scenarios"

// The cancellation policy in the browser (issue 13 item 2): the client reads the policy on the service
// page and in the booking form before booking; a day before a confirmed booking, the cancel dialog names
// the fee (half of 70,00 €), and once cancelled the card shows the fee charged.

let server: TestServer
let browser: Browser
let base: string
let api: ReturnType<typeof httpClient>
let provider: Session
let client: Session
let serviceId: string
const TITLE = "Leçon de violon"
const PASSWORD = registration().password
/** Amounts are formatted with no-break spaces. */
const spaced = (text: string | null) => (text ?? "").replace(/\s+/g, " ")

describe.skipIf(!hasChromium)("the cancellation policy in Chromium", () => {
  withServerAndChromium(async (started) => {
    ;({ server, browser } = started)
    base = `http://localhost:${server.port}`
    api = httpClient(server)
    ;({ provider, client, serviceId } = await providerWithService(server, api, {
      title: TITLE,
      description: "Leçons de violon à domicile, tous niveaux.",
      price: 35,
      location: "Montréal",
      categoryId: 7
    }))
  })

  it("the client sees the policy before booking, cancels late, the dialog names the fee and the card shows it charged", async () => {
    const context = await contextWithConsent(browser, { locale: "fr-CA", timezoneId: "America/Toronto" })
    const page = await context.newPage()
    const errors = collectPageErrors(page)
    await logInThroughUi(page, base, client.email, PASSWORD)

    // ---- Before booking: the service page and the booking form state the policy ----
    await page.goto(`${base}/services/${serviceId}`)
    const policy = page.getByTestId("cancellation-policy")
    await expect.poll(() => policy.first().textContent()).toContain("Annulation gratuite jusqu'à 48 h avant le début")
    expect(spaced(await policy.first().textContent())).toContain("des frais d'annulation tardive de 50 % du total")
    expect(await policy.first().textContent()).toContain("rien n'est prélevé")
    await page.getByRole("button", { name: "Réserver ce service" }).click()
    const form = page.getByRole("dialog", { name: `Réserver : ${TITLE}` })
    await expect.poll(() => form.getByTestId("cancellation-policy").textContent()).toContain("Conditions d'annulation")
    await form.getByRole("button", { name: "Annuler" }).click()

    // ---- A confirmed, paid booking a day ahead: 2 hours at 35 €, 70,00 € ----
    const { bookingId } = await bookingIn(server, "confirmed", { provider, client, serviceId, startsInHours: 24, hours: 2 })

    // ---- The card says what cancelling now costs; the dialog names the fee ----
    await page.goto(`${base}/bookings`)
    const card = page.getByRole("article", { name: TITLE })
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

    expect(errors).toEqual([])
    await context.close()
  }, 120_000)
})
