import type { Page } from "playwright-core"
import sharp from "sharp"
import { describe, expect, it } from "vitest"
import { hasChromium, switchToEnglish } from "../support/browser"
import { bookingCard, closeWithoutErrors, demoAccounts, serviceJourney } from "../support/journey"
import { bookingIn } from "../support/scenarios"

// Disputes in the browser (issue 13, item 1): after "service rendered", the client (in French) reports a
// problem with a photo from the booking card; the administrator finds it on the dashboard, reads the
// thread on the booking's page and captures part of the amount with a note; the client (in English) and
// the provider (in French) both see the outcome and the note on their booking.

const TITLE = "Réparation de clôture"
const NOTE = "La moitié de la clôture seulement a été réparée."

const card = (page: Page) => bookingCard(page, TITLE)

describe.skipIf(!hasChromium)("disputes in Chromium", () => {
  const journey = serviceJourney({ title: TITLE, description: "Réparation de clôtures en bois.", price: 40 })

  it("the client reports a problem, the admin captures part of the amount, both parties see the outcome and the note", async () => {
    const { server, base, api, loggedInPage, provider, client, serviceId } = journey
    // A paid, confirmed booking (40 an hour, 1 hour), moved into the past and marked rendered by the provider.
    const { bookingId } = await bookingIn(server, "rendered", { provider, client, serviceId })

    // ---- The client reports the problem with a photo (French) ----
    const asClient = await loggedInPage(client, "fr-CA")
    let page = asClient.page
    await page.goto(`${base}/bookings`)
    await card(page)
      .getByRole("button", { name: /Signaler un problème/ })
      .click()
    const dialog = page.getByRole("dialog", { name: "Signaler un problème" })
    await dialog.getByLabel("Motif").selectOption("PARTLY_DONE")
    await dialog.getByLabel("Description du problème").fill("Seul un côté de la clôture a été réparé.")
    const photo = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#aa5522" } })
      .png()
      .toBuffer()
    await dialog.getByLabel(/Photos ou PDF/).setInputFiles({ name: "clôture.png", mimeType: "image/png", buffer: photo })
    await dialog.getByRole("button", { name: "Envoyer le signalement" }).click()
    await expect.poll(() => dialog.count()).toBe(0)
    await expect.poll(() => card(page).textContent()).toContain("Litige en cours")
    expect(
      await card(page)
        .getByRole("button", { name: /Confirmer la réception/ })
        .count()
    ).toBe(0)
    const reported = await api.get(`/api/bookings/${bookingId}/dispute`, { token: client.token })
    expect(reported.body.data.dispute.files.map((f: { fileName: string }) => f.fileName)).toEqual(["clôture.png"])

    // ---- The administrator decides: 25 of the 40 captured (French) ----
    const asAdmin = await loggedInPage(demoAccounts.admin, "fr-CA")
    page = asAdmin.page
    await page.goto(`${base}/admin`)
    const disputes = page.getByRole("region", { name: /Litiges à trancher/ })
    await disputes.getByRole("link", { name: new RegExp(TITLE) }).click()
    await page.waitForURL(`**/admin/bookings/${bookingId}`)
    const panel = page.getByTestId("dispute-panel")
    await expect.poll(() => panel.textContent()).toContain("Seul un côté de la clôture a été réparé.")
    expect(await panel.getByRole("button", { name: "clôture.png" }).count()).toBe(1)
    await panel.getByLabel("Décision").selectOption("CAPTURE_PART")
    await panel.getByLabel(/Montant à encaisser/).fill("25")
    await panel.getByLabel("Note aux deux parties").fill(NOTE)
    await panel.getByRole("button", { name: "Enregistrer la décision" }).click()
    // Decided: the panel shows the decision (its form is gone) and the booking's status follows.
    await expect
      .poll(
        async () => (await page.getByRole("button", { name: "Enregistrer la décision" }).count()) === 0 || (await panel.textContent()),
        {
          timeout: 10_000
        }
      )
      .toBe(true)
    await expect.poll(() => page.getByTestId("dispute-panel").locator(".alert").last().textContent()).toContain(NOTE)
    const decided = await api.get(`/api/bookings/${bookingId}`, { token: client.token })
    expect(decided.body.data.booking).toMatchObject({
      status: "RESOLVED",
      paymentStatus: "CAPTURED",
      dispute: { outcome: "CAPTURE_PART", keptMinor: 2500, note: NOTE }
    })
    // The payments read as the operations: 40 held on the card, 25 charged from it (never "40 charged").
    await page.reload()
    const payments = page.getByRole("region", { name: "Paiements" })
    await expect.poll(() => payments.textContent()).toMatch(/Montant bloqué sur la carte · 40,00\s€ · Visa •••• \d{4}/)
    expect(await payments.textContent()).toMatch(/Montant débité · 25,00\s€ · Visa •••• \d{4}.*commission : 1,25\s€/)
    expect(await payments.textContent()).not.toMatch(/débité · 40/)
    // Gone from the dashboard's list.
    await page.goto(`${base}/admin`)
    await expect.poll(() => page.getByRole("region", { name: /Litiges à trancher/ }).textContent()).toContain("Aucun litige en attente.")

    // ---- The client sees the outcome and the note (English) ----
    page = asClient.page
    await switchToEnglish(page)
    await page.goto(`${base}/bookings`)
    const summary = card(page).getByTestId("dispute-summary")
    await expect.poll(() => summary.textContent()).toContain("Dispute decided")
    expect(await summary.textContent()).toContain(NOTE)
    expect(await summary.textContent()).toContain("Capture part of the amount")
    expect(await summary.textContent()).toMatch(/25\.00/)
    // The same events in the booking's payment history, without the platform's commission.
    await card(page).getByText("Payment history").click()
    const history = card(page).locator(".payment-timeline")
    await expect.poll(() => history.textContent()).toMatch(/Amount held on the card · €40\.00.*Amount charged · €25\.00/)
    expect(await history.textContent()).not.toContain("commission")

    // ---- The provider too (French) ----
    const asProvider = await loggedInPage(provider, "fr-CA")
    page = asProvider.page
    await page.goto(`${base}/bookings`)
    const seen = card(page).getByTestId("dispute-summary")
    await expect.poll(() => seen.textContent()).toContain("Litige tranché")
    expect(await seen.textContent()).toContain(NOTE)
    expect(await seen.textContent()).toMatch(/25,00/)
    await card(page).getByText("Historique des paiements").click()
    await expect.poll(() => card(page).locator(".payment-timeline").textContent()).toMatch(/Montant débité · 25,00\s€.*commission/)

    await closeWithoutErrors(asClient, asAdmin, asProvider)
  }, 180_000)
})
