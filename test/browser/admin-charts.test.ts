import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { hasChromium, loaded, seriousViolations } from "../support/browser"
import { browserJourney, closeWithoutErrors, demoAccounts, sqlRows } from "../support/journey"

// Issue 16 item 3: /admin/analytics and /admin/financial draw their charts (uPlot's canvas, loaded with
// those screens only), each with a data table that lists the database's figures, in French and in
// English, at 1280 and 375 px without sideways scroll.

const DAY = 86_400_000

/** The figures of a chart's data table, row by row: the row's label, then its cells. */
const tableOf = async (page: Page, chart: string) => {
  const section = page.getByTestId(chart)
  await section.locator("summary").click()
  return section
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll("th, td")].map((cell) => (cell.textContent ?? "").trim())))
}
/** "1 234,56 $ CA" → 123456, "-0,50 €" → -50: an amount written with its two decimals, in minor units. */
const digits = (text: string) => (/[-−]/.test(text) ? -1 : 1) * Number(text.replace(/\D/g, ""))

const canvasDrawn = (page: Page, chart: string) =>
  page.waitForFunction((id) => {
    const canvas = document.querySelector<HTMLCanvasElement>(`[data-testid="${id}"] canvas`)
    return canvas !== null && canvas.width > 0 && canvas.height > 0
  }, chart)

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

describe.skipIf(!hasChromium)("the back-office's charts in Chromium", () => {
  const journey = browserJourney()
  const sql = <A extends object>(text: string, params: ReadonlyArray<unknown> = []) => sqlRows<A>(journey.server, text, params)

  it("analytics and finance draw their charts, with tables of the right figures, in both languages and at 375 px", async () => {
    const { base, loggedInPage } = journey
    // Captures of known amounts, three days ago and today, in the currency the finance page opens on.
    const [booking] = await sql<{ id: string }>("SELECT id FROM bookings ORDER BY created_at LIMIT 1")
    const [{ currency }] = (await sql<{ currency: string }>(
      "SELECT trim(currency) AS currency FROM payment_operations GROUP BY currency ORDER BY count(*) DESC, currency LIMIT 1"
    )) as [{ currency: string }]
    for (const [i, amount, daysAgo] of [
      [1, 123_400, 3],
      [2, 5_600, 0]
    ] as const) {
      await sql(
        `INSERT INTO payment_operations (booking_id, gateway, kind, amount_minor, currency, fee_minor, reference, created_at)
         VALUES ($1, 'sandbox', 'CAPTURE', $2, $3, $4, $5, now() - make_interval(days => $6))`,
        [booking!.id, amount, currency, amount / 20, `browser-charts-${i}`, daysAgo]
      )
    }

    for (const [language, width] of [
      ["fr", 1280],
      ["en", 1280],
      ["en", 375],
      ["fr", 375]
    ] as const) {
      const admin = await loggedInPage(demoAccounts.admin, "fr-FR", { viewport: { width, height: 900 } })
      const { page } = admin
      const words =
        language === "fr"
          ? { growth: "Croissance par jour (UTC)", statuses: "Réservations par statut", revenue: "Revenus et commissions par jour (UTC)" }
          : { growth: "Growth per day (UTC)", statuses: "Bookings by status", revenue: "Revenue and commissions per day (UTC)" }

      // Analytics, the last 30 days: one row per UTC day, the bookings and accounts created each day.
      await page.goto(`${base}/admin/analytics?lang=${language}`)
      await page.getByRole("heading", { name: words.growth }).waitFor()
      await loaded(page)
      await canvasDrawn(page, "chart-growth")
      await canvasDrawn(page, "chart-statuses")
      const from = Date.now() - 30 * DAY
      const growth = await tableOf(page, "chart-growth")
      expect(growth.length).toBe(31)
      const bookings = await sql<{ createdAt: Date; status: string }>("SELECT created_at, status FROM bookings WHERE created_at >= $1", [
        new Date(from)
      ])
      const users = await sql<{ n: number }>("SELECT count(*)::int AS n FROM users WHERE created_at >= $1", [new Date(from)])
      expect(growth.reduce((n, row) => n + Number(row[2]), 0)).toBe(bookings.length)
      expect(growth.reduce((n, row) => n + Number(row[1]), 0)).toBe(users[0]!.n)
      const today = new Date().toISOString().slice(0, 10)
      const todays = bookings.filter((b) => new Date(b.createdAt).toISOString().slice(0, 10) === today).length
      expect(Number(growth.at(-1)![2])).toBe(todays)
      // Per status: one bar and one row each, in the reader's language.
      const statuses = await tableOf(page, "chart-statuses")
      const perStatus = new Map<string, number>()
      for (const b of bookings) perStatus.set(b.status, (perStatus.get(b.status) ?? 0) + 1)
      expect(statuses.map((row) => Number(row[1])).sort()).toEqual([...perStatus.values()].sort())
      if (perStatus.has("PENDING")) expect(statuses.map((row) => row[0])).toContain(language === "fr" ? "En attente" : "Pending")
      expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0)
      // axe-core with the tables open: no serious or critical violation.
      expect(await seriousViolations(page)).toEqual([])
      const plot = await page.getByTestId("chart-growth").locator("canvas").first().boundingBox()
      expect(plot!.width).toBeLessThanOrEqual(width)
      if (language === "en") await page.screenshot({ path: `/tmp/charts-analytics-${language}-${width}.png`, fullPage: true })

      // Finance, the last 30 days per UTC day: the captures above are in their days' rows.
      await page.goto(`${base}/admin/financial?lang=${language}`)
      await page.getByRole("heading", { name: words.revenue }).waitFor()
      await canvasDrawn(page, "chart-revenue")
      const revenue = await tableOf(page, "chart-revenue")
      expect(revenue.length).toBe(31)
      const perDay = await sql<{ day: string; gross: number; commission: number }>(
        `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
                coalesce(sum(amount_minor) FILTER (WHERE kind = 'CAPTURE'), 0)::int AS gross,
                (coalesce(sum(fee_minor) FILTER (WHERE kind = 'CAPTURE'), 0) - coalesce(sum(fee_minor) FILTER (WHERE kind = 'REFUND'), 0))::int AS commission
         FROM payment_operations WHERE currency = $1 AND created_at >= $2 GROUP BY 1`,
        [currency, new Date(from)]
      )
      const days = Array.from({ length: 31 }, (_, i) => new Date(from + i * DAY).toISOString().slice(0, 10))
      const expected = (field: "gross" | "commission") => days.map((day) => perDay.find((d) => d.day === day)?.[field] ?? 0)
      expect(revenue.map((row) => digits(row[1]!))).toEqual(expected("gross"))
      expect(revenue.map((row) => digits(row[3]!))).toEqual(expected("commission"))
      expect(expected("gross")[27]).toBeGreaterThanOrEqual(123_400)
      expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0)
      expect(await seriousViolations(page)).toEqual([])
      if (language === "en") await page.screenshot({ path: `/tmp/charts-finance-${language}-${width}.png`, fullPage: false })

      // The year: one bar of the table per UTC month, the year's captures in them.
      if (width === 1280) {
        await page.getByLabel(language === "fr" ? "Période" : "Period").selectOption("year")
        const title = language === "fr" ? "Revenus et commissions par mois (UTC)" : "Revenue and commissions per month (UTC)"
        await page.getByRole("heading", { name: title }).waitFor()
        await canvasDrawn(page, "chart-revenue")
        const months = await tableOf(page, "chart-revenue")
        const yearFrom = Date.now() - 365 * DAY
        const wanted = [...new Set(Array.from({ length: 366 }, (_, i) => new Date(yearFrom + i * DAY).toISOString().slice(0, 7)))]
        expect(months.length).toBe(wanted.length)
        const [year] = await sql<{ gross: number }>(
          "SELECT coalesce(sum(amount_minor), 0)::int AS gross FROM payment_operations WHERE kind = 'CAPTURE' AND currency = $1 AND created_at >= $2",
          [currency, new Date(yearFrom)]
        )
        expect(months.reduce((n, row) => n + digits(row[1]!), 0)).toBe(year!.gross)
      }

      await closeWithoutErrors(admin)
    }
  }, 240_000)
})
