import { describe, expect, it } from "vitest"
import { setBookingStatus } from "../../cli/commands/bookings/shared"
import { hasChromium } from "../support/browser"
import { browserJourney, closeWithoutErrors, demoAccounts, sqlRows } from "../support/journey"
import { bookingIn } from "../support/scenarios"
import type { TestServer } from "../support/server"

// Issue 13 items 3 and 4 in Chromium: the admin refunds part of a captured booking from its detail
// page (the status menu offers only what the server allows), then finds the refund on /admin/audit.

/** A booking of 2 hours at 45 EUR, paid, confirmed and validated by the admin: 90.00 EUR captured. */
const capturedBooking = async (server: TestServer) => {
  const { bookingId } = await bookingIn(server, "confirmed", {
    service: { title: "Cours de pâtisserie", description: "À domicile.", price: 45, currency: "EUR", location: "Lyon" },
    startsInHours: 36,
    hours: 2,
    address: "3 quai Saint-Antoine, Lyon"
  })
  expect(await server.run(setBookingStatus(bookingId, "VALIDATED", undefined))).toMatchObject({ capturedMinor: 9000 })
  return bookingId
}

describe.skipIf(!hasChromium)("refunds and the audit log in Chromium", () => {
  const journey = browserJourney()

  it("the admin refunds part of a booking from its detail page, then finds the entry on /admin/audit", async () => {
    const { server, base, loggedInPage } = journey
    const id = await capturedBooking(server)
    const admin = await loggedInPage(demoAccounts.admin)
    const { page } = admin

    await page.goto(`${base}/admin/bookings/${id}`)
    await page.getByRole("heading", { name: `Réservation n° ${id.slice(0, 8)}`, level: 1 }).waitFor()
    // Validated: no status change is left to offer.
    await page.getByText("Aucun changement de statut n'est possible pour cette réservation.").waitFor()
    await page.getByText("Aucun remboursement.").waitFor()

    // A refund without a reason is refused by the server, in the form.
    await page.getByLabel("Montant (EUR), vide pour tout rembourser").fill("12,50")
    await page.getByRole("button", { name: "Rembourser" }).click()
    await page.getByText("Veuillez indiquer la raison du remboursement.").waitFor()

    await page.getByLabel("Raison du remboursement").fill("Arrivé avec 30 minutes de retard")
    await page.getByRole("button", { name: "Rembourser" }).click()
    const refunds = page.getByTestId("refunds")
    await refunds.getByText(/12,50\s€/).waitFor()
    await refunds.getByText(/Arrivé avec 30 minutes de retard/).waitFor()
    await page.getByText(/Reste remboursable : 77,50\s€/).waitFor()
    const [booking] = await sqlRows<{ refundedMinor: number; paymentStatus: string }>(
      server,
      "SELECT refunded_minor::int, payment_status FROM bookings WHERE id = $1",
      [id]
    )
    expect(booking).toEqual({ refundedMinor: 1250, paymentStatus: "PARTIALLY_REFUNDED" })

    // The audit log, from the admin navigation, filtered to refunds.
    await page.getByRole("navigation", { name: "Sections d'administration" }).getByRole("link", { name: "Journal d'audit" }).click()
    await page.getByRole("heading", { name: "Journal d'audit", level: 1 }).waitFor()
    await page.getByLabel("Action").selectOption("BOOKING_REFUNDED")
    const row = page.locator(`tr[data-audit-action="BOOKING_REFUNDED"][data-subject-id="${id}"]`)
    await row.waitFor()
    await row.getByText("admin@marketplace.local").waitFor()
    await row.getByText(/"amountMinor":1250/).waitFor()
    await row.getByText(/"reason":"Arrivé avec 30 minutes de retard"/).waitFor()
    // Only refunds are listed.
    const actions = await page.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-audit-action")))
    expect(new Set(actions)).toEqual(new Set(["BOOKING_REFUNDED"]))
    // The subject links back to the booking.
    await row.getByRole("link", { name: `Réservation ${id.slice(0, 8)}` }).click()
    await page.getByRole("heading", { name: `Réservation n° ${id.slice(0, 8)}`, level: 1 }).waitFor()

    await closeWithoutErrors(admin)
  }, 120_000)
})
