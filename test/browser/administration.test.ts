import { describe, expect, it } from "vitest"
import { hasChromium } from "../support/browser"
import { browserJourney, closeWithoutErrors, demoAccounts, operatorAccount, sqlRows, statCard } from "../support/journey"

// The admin logs in, reads the dashboard's figures, deactivates a user (who can no longer log in),
// confirms a paid demo booking from its detail page, unlists a service, and opens finance and analytics.

describe.skipIf(!hasChromium)("the back-office in Chromium", () => {
  const journey = browserJourney()
  const sql = <A extends object>(text: string, params: ReadonlyArray<unknown> = []) => sqlRows<A>(journey.server, text, params)

  it("dashboard, users, a booking's status, a service's availability, finance and analytics", async () => {
    const { server, base, loggedInPage } = journey
    const { email, password } = await operatorAccount(server, "CLIENT", { firstName: "Gaston", lastName: "Lagaffe" })
    const admin = await loggedInPage(demoAccounts.admin)
    const { page } = admin

    // Dashboard: the figures of the database.
    await page.goto(`${base}/admin`)
    const [counts] = await sql<{ users: number; bookings: number }>(
      "SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM bookings) AS bookings"
    )
    const card = (label: string) => statCard(page, label)
    expect(await card("Utilisateurs").textContent()).toBe(String(counts!.users))
    expect(await card("Réservations").textContent()).toBe(String(counts!.bookings))

    // Users: deactivate the new account; it can no longer log in.
    await page.getByRole("navigation", { name: "Sections d'administration" }).getByRole("link", { name: "Utilisateurs" }).click()
    await page.getByLabel("Rechercher un utilisateur").fill(email)
    await page.getByRole("button", { name: "Rechercher" }).click()
    // A user is a row; its actions are in the row's menu.
    const row = page.getByRole("row").filter({ hasText: email })
    await row.getByText("Actif", { exact: true }).waitFor()
    await row.getByRole("button", { name: "Actions : Gaston Lagaffe" }).click()
    await page.getByRole("button", { name: "Désactiver : Gaston Lagaffe" }).click()
    await row.getByText("Inactif", { exact: true }).waitFor()
    await row.getByRole("button", { name: "Actions : Gaston Lagaffe" }).click()
    // exact: "Activer : …" is a substring of "Désactiver : …".
    await page.getByRole("button", { name: "Activer : Gaston Lagaffe", exact: true }).waitFor()
    await page.keyboard.press("Escape")
    const refused = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password })
    })
    expect(refused.status).toBe(401)

    // A paid demo request, confirmed from its detail page.
    const [paid] = await sql<{ id: string }>("SELECT id FROM bookings WHERE status = 'PENDING' AND payment_status = 'AUTHORIZED' LIMIT 1")
    await page.goto(`${base}/admin/bookings`)
    await page.getByRole("table").waitFor()
    await page.getByRole("link", { name: new RegExp(`Détails : .*${paid!.id.slice(0, 8)}`) }).click()
    await page.getByRole("heading", { name: `Réservation n° ${paid!.id.slice(0, 8)}`, level: 1 }).waitFor()
    await page.getByLabel("Nouveau statut").selectOption("CONFIRMED")
    await page.getByRole("button", { name: "Mettre à jour" }).click()
    await page.locator("section").filter({ hasText: "Informations générales" }).getByText("Confirmée", { exact: true }).waitFor()
    const [after] = await sql<{ status: string }>("SELECT status FROM bookings WHERE id = $1", [paid!.id])
    expect(after!.status).toBe("CONFIRMED")

    // A service unlisted, then listed again.
    const [service] = await sql<{ id: string; title: string }>(
      "SELECT id, title FROM services WHERE status = 'ACTIVE' AND archived_at IS NULL ORDER BY created_at LIMIT 1"
    )
    await page.goto(`${base}/admin/services`)
    await page.getByLabel("Rechercher un service").fill(service!.title)
    await page.getByRole("button", { name: "Rechercher" }).click()
    await page.getByRole("button", { name: `Désactiver : ${service!.title}` }).click()
    await page.getByRole("button", { name: `Activer : ${service!.title}`, exact: true }).waitFor()
    expect((await sql<{ status: string }>("SELECT status FROM services WHERE id = $1", [service!.id]))[0]!.status).toBe("INACTIVE")

    // Finance and analytics open with their figures.
    await page.getByRole("navigation", { name: "Sections d'administration" }).getByRole("link", { name: "Finances" }).click()
    await page.getByTestId("finance-figures").getByText("Revenu brut", { exact: true }).waitFor()
    await page.getByRole("heading", { name: "Derniers paiements" }).waitFor()
    await page.getByRole("table").waitFor()
    await page.getByLabel("Période").selectOption("year")
    await page.getByTestId("finance-figures").getByText("Revenu brut", { exact: true }).waitFor()
    // Figures are in one currency at a time (the most active first): every recorded one can be chosen, and back.
    const recorded = (await sql<{ currency: string }>("SELECT DISTINCT trim(currency) AS currency FROM payment_operations")).map(
      (r) => r.currency
    )
    expect(recorded.length).toBeGreaterThan(0)
    for (const currency of [...recorded, recorded[0]!]) {
      await page.getByLabel("Devise", { exact: true }).selectOption(currency)
      await expect.poll(() => page.getByLabel("Devise", { exact: true }).inputValue()).toBe(currency)
    }
    await page.getByRole("navigation", { name: "Sections d'administration" }).getByRole("link", { name: "Statistiques" }).click()
    await page.getByRole("heading", { name: "Utilisateurs les plus actifs" }).waitFor()
    await page.getByText("Marie Dubois", { exact: false }).first().waitFor()

    await closeWithoutErrors(admin)
  }, 120_000)
})
