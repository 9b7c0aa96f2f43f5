import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import * as fs from "node:fs"
import { describe, expect, it } from "vitest"
import { Operator } from "../../cli/commands/administration"
import { Administration } from "../../src/modules/administration"
import { commissionOf, HOLD_MINUTES, newBooking } from "../../src/modules/booking/domain"
import { BookingRepository } from "../../src/modules/booking/ports"
import { formatMoney } from "../../src/platform/money"
import { hasChromium, seriousViolations } from "../support/browser"
import { browserJourney, closeWithoutErrors, demoAccounts, statCard } from "../support/journey"
import type { TestServer } from "../support/server"

// The currency selector of the dashboard and the finance page switches every money figure, and the
// payments table with them: CHF payments are added to the seed's (a capture and a hold, through the
// booking adapter), then each currency is chosen in turn and the screens must show the service's figures.

/** A booking in CHF of a demo service, with its operations recorded as the booking module records them. */
const chfBooking = async (
  server: TestServer,
  slot: number,
  operations: ReadonlyArray<{ kind: "AUTHORIZATION" | "CAPTURE"; amountMinor: number }>
) =>
  server.run(
    Effect.gen(function* () {
      const bookings = yield* BookingRepository
      const db = yield* SqlClient.SqlClient
      const [row] = yield* db.unsafe<{ serviceId: string; providerId: string; clientId: string }>(
        `SELECT s.id AS service_id, s.user_id AS provider_id, (SELECT id FROM users WHERE role = 'CLIENT' ORDER BY email LIMIT 1) AS client_id
         FROM services s ORDER BY s.id LIMIT 1`
      )
      const start = new Date(Date.UTC(2091, 0, 1) + slot * 3 * 3_600_000)
      // One hour at 123,45 CHF, requested as the booking service requests it (pending, unpaid), held until its start.
      const request = {
        serviceId: row!.serviceId,
        startTime: start,
        endTime: new Date(start.getTime() + 3_600_000),
        minutes: 60,
        address: "1 rue du Test",
        notes: ""
      }
      const state = newBooking(
        { id: crypto.randomUUID(), clientId: row!.clientId, providerId: row!.providerId, hourlyPriceMinor: 12_345, currency: "CHF" },
        request,
        new Date(start.getTime() - HOLD_MINUTES * 60_000)
      )
      const { serviceId, address, notes } = request
      const inserted = yield* bookings.insert({ ...state, serviceId, address, notes, hourlyPriceMinor: 12_345 })
      if (inserted._tag !== "Some") return yield* Effect.die("slot taken")
      const intent = `pi_browser_${slot}`
      for (const o of operations) {
        yield* bookings.recordOperation({
          bookingId: inserted.value.id,
          gateway: "sandbox",
          kind: o.kind,
          amountMinor: o.amountMinor,
          currency: "CHF",
          feeMinor: o.kind === "CAPTURE" ? commissionOf(o.amountMinor) : 0,
          paymentIntentId: intent,
          reference: `${o.kind.toLowerCase()}:${intent}`,
          paymentMethod: "card",
          detail: null,
          refundStatus: null
        })
      }
    })
  )

describe.skipIf(!hasChromium)("the back-office's currency selector in Chromium", () => {
  const journey = browserJourney()

  it("the dashboard and the finance page show each currency's own figures and payments", async () => {
    const { server, base, loggedInPage } = journey
    const admin = <A, E>(f: (a: Administration["Type"]) => Effect.Effect<A, E>) => server.run(Effect.flatMap(Administration, f))
    await chfBooking(server, 1, [
      { kind: "AUTHORIZATION", amountMinor: 12_345 },
      { kind: "CAPTURE", amountMinor: 10_000 }
    ])
    await chfBooking(server, 2, [{ kind: "AUTHORIZATION", amountMinor: 12_345 }])
    const opening = await admin((a) => a.dashboard(Operator, {}))
    expect(opening.currencies).toContain("CHF")
    expect(opening.currencies.length).toBeGreaterThan(1)

    const signedIn = await loggedInPage(demoAccounts.admin)
    const { page } = signedIn
    const card = (label: string) => statCard(page, label)
    const money = (minor: number, currency: string) => formatMoney("fr", minor, currency)

    // Dashboard: opens on the most active currency, then every currency with payments, in turn.
    await page.goto(`${base}/admin`)
    await expect.poll(() => page.getByLabel("Devise des revenus").inputValue()).toBe(opening.revenue.currency)
    expect(await card("Encaissé brut sur 30 jours").textContent()).toBe(money(opening.revenue.monthly, opening.revenue.currency))
    for (const currency of [...opening.currencies].reverse()) {
      const want = await admin((a) => a.dashboard(Operator, { currency }))
      await page.getByLabel("Devise des revenus").selectOption(currency)
      await expect.poll(() => card("Encaissé brut sur 30 jours").textContent()).toBe(money(want.revenue.monthly, currency))
      expect(await card("Commissions sur 30 jours").textContent()).toBe(money(want.revenue.monthlyCommissions, currency))
      expect(await card("Retenu sur les cartes").textContent()).toBe(money(want.revenue.pending, currency))
      expect(await card("Encaissé net des remboursements (depuis le début)").textContent()).toBe(money(want.revenue.validated, currency))
    }
    // The selector and the labelled figures pass axe (as test/browser/accessibility.test.ts checks every screen).
    expect(await seriousViolations(page)).toEqual([])
    // CHF as recorded above: 100 captured (5 of commission), one hold of 123,45 still held (the captured one is not).
    await page.getByLabel("Devise des revenus").selectOption("CHF")
    await expect.poll(() => card("Encaissé brut sur 30 jours").textContent()).toBe(money(10_000, "CHF"))
    expect(await card("Commissions sur 30 jours").textContent()).toBe(money(500, "CHF"))
    expect(await card("Retenu sur les cartes").textContent()).toBe(money(12_345, "CHF"))

    // Finance page: the figures and the payments table follow the selector.
    await page.getByRole("navigation", { name: "Sections d'administration" }).getByRole("link", { name: "Finances" }).click()
    await page.getByTestId("finance-figures").getByText("Revenu brut", { exact: true }).waitFor()
    for (const currency of opening.currencies) {
      const stats = await admin((a) => a.financialStats(Operator, { period: "month", currency }))
      const payments = await admin((a) => a.payments(Operator, { currency, limit: "10" }))
      await page.getByLabel("Devise", { exact: true }).selectOption(currency)
      await expect.poll(() => card("Revenu brut").textContent()).toBe(money(stats.grossRevenue, currency))
      expect(await card("Encaissé net des remboursements").textContent()).toBe(money(stats.keptRevenue, currency))
      expect(await card("Commissions").textContent()).toBe(money(stats.totalCommissions, currency))
      expect(await card("Revenu net des prestataires").textContent()).toBe(money(stats.netRevenue, currency))
      expect(await card("Retenu sur les cartes").textContent()).toBe(money(stats.heldAmount, currency))
      // One row per booking, in the selected currency only.
      const table = page.getByRole("table")
      await expect.poll(() => table.locator("tbody tr").count()).toBe(payments.rows.length)
      await expect
        .poll(() => table.locator("tbody tr").first().locator("td").nth(2).textContent())
        .toContain(money(payments.rows[0]!.amountMinor, currency))
    }
    await page.getByLabel("Devise", { exact: true }).selectOption("CHF")
    await expect.poll(() => card("Revenu net des prestataires").textContent()).toBe(money(10_000 - 500, "CHF"))
    expect(await seriousViolations(page)).toEqual([])
    await expect.poll(() => page.getByRole("table").locator("tbody tr").count()).toBe(2)
    // The CSV export follows the selector too: CHF's operations only (2 authorisations and a capture).
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Exporter les paiements (CSV)" }).click()
    ])
    expect(download.suggestedFilename()).toBe("payments-CHF.csv")
    const lines = fs
      .readFileSync((await download.path())!, "utf8")
      .trim()
      .split("\r\n")
    expect(lines[0]!.startsWith("id,bookingId,kind,status,amountMinor,feeMinor,currency")).toBe(true)
    expect(lines.slice(1).map((line) => line.split(",").slice(2, 7))).toEqual(
      expect.arrayContaining([
        ["CAPTURE", "COMPLETED", "10000", "500", "CHF"],
        // An authorisation is pending only while held: the captured one is completed.
        ["AUTHORIZATION", "COMPLETED", "12345", "0", "CHF"],
        ["AUTHORIZATION", "PENDING", "12345", "0", "CHF"]
      ])
    )
    expect(lines.slice(1).every((line) => line.split(",")[6] === "CHF")).toBe(true)
    expect(lines).toHaveLength(4)

    await closeWithoutErrors(signedIn)
  }, 120_000)
})
