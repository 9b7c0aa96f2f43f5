import { describe, expect, it } from "vitest"
import { hasChromium, loaded, seriousViolations } from "../support/browser"
import { browserJourney, closeWithoutErrors, demoAccounts } from "../support/journey"

// Issue 14 item 4 in Chromium: an admin sets an exchange rate on /admin/rates (refused, then saved) in
// French and in English; visitors see prices converted into their currency and the filter says which.

describe.skipIf(!hasChromium)("exchange rates in Chromium", () => {
  const journey = browserJourney()

  it("the admin sets a rate from the admin navigation, in French then in English", async () => {
    const admin = await journey.loggedInPage(demoAccounts.admin)
    const { page } = admin

    await page.getByRole("navigation", { name: "Sections d'administration" }).getByRole("link", { name: "Taux de change" }).click()
    await page.getByRole("heading", { name: "Taux de change", level: 1 }).waitFor()
    const cad = page.getByLabel("CAD", { exact: true })
    expect(await cad.inputValue()).toBe("1.62")
    expect(await page.getByLabel("EUR", { exact: true }).getAttribute("readonly")).not.toBeNull()
    expect(await seriousViolations(page)).toEqual([])

    // A wrong rate: the server's message beside the field, nothing saved.
    await cad.fill("un et demi")
    await page.getByRole("button", { name: "Enregistrer les taux" }).click()
    await page.getByText("Le taux doit être un nombre positif (unités de la devise pour 1 €), avec au plus 6 décimales.").waitFor()
    expect(await cad.getAttribute("aria-invalid")).toBe("true")

    await cad.fill("1,5")
    await page.getByRole("button", { name: "Enregistrer les taux" }).click()
    await page.getByText("Taux de change enregistrés.").waitFor()
    const row = page.locator('tr[data-currency="CAD"]')
    await row.getByText("Administrateur").waitFor()
    expect(await cad.inputValue()).toBe("1.5")

    // In English: the same screen, the server's refusals in English.
    await page.getByRole("button", { name: "English" }).click()
    await page.getByRole("heading", { name: "Exchange rates", level: 1 }).waitFor()
    await page.getByLabel("USD", { exact: true }).fill("-3")
    await page.getByRole("button", { name: "Save the rates" }).click()
    await page.getByText("The rate must be a positive number (units of the currency per €1), with at most 6 decimals.").waitFor()
    await page.getByLabel("USD", { exact: true }).fill("1.16")
    await page.getByRole("button", { name: "Save the rates" }).click()
    await page.getByText("Exchange rates saved.").waitFor()
    await page.locator('tr[data-currency="USD"]').getByText("Admin").waitFor()

    // A phone's width: the table scrolls inside its frame, never the page.
    await page.setViewportSize({ width: 375, height: 800 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await closeWithoutErrors(admin)
  }, 120_000)

  it("a visitor sees each service's own price with its conversion, in their region's currency or the one they choose", async () => {
    const { base, newPage } = journey
    // The browser's region decides (issue 23, item 2): fr-FR reads euros, fr-CA and en-CA Canadian dollars.
    for (const [locale, lang, label, approx] of [
      ["fr-FR", "fr", "Prix horaire en €", /≈\s*\d+\s€/],
      ["fr-CA", "fr", "Prix horaire en $CA", /≈\s*\d+\s\$CA/],
      ["en-CA", "en", "Hourly price in CA$", /≈\s*CA\$\d+/]
    ] as const) {
      const { context, page } = await newPage(locale)
      await page.goto(`${base}/services?lang=${lang}`)
      await loaded(page)
      await page.getByLabel(label).waitFor()
      // The demo has services in euros and in Canadian dollars: those in the other currency show "≈ …".
      await page.locator(".price-approx").first().waitFor()
      expect(await page.locator(".price-approx").first().textContent(), locale).toMatch(approx)
      expect(await page.locator(".price").allTextContents()).not.toContainEqual(expect.stringMatching(/(^|[^A-Z])\$\d/))
      await context.close()
    }
    // The person's choice wins and stays on this device: francs suisses from a Canadian browser.
    const { context, page } = await newPage("fr-CA")
    await page.goto(`${base}/services?lang=fr`)
    await loaded(page)
    const picker = page.getByLabel("Devise des prix")
    expect(await picker.locator("option:checked").textContent()).toBe("Selon votre région ($CA)")
    await picker.selectOption("CHF")
    await page.getByLabel("Prix horaire en CHF").waitFor()
    await expect.poll(async () => (await page.locator(".price-approx").allTextContents()).join(" ")).toMatch(/CHF/)
    expect((await page.locator(".price-approx").allTextContents()).join(" ")).not.toMatch(/\$CA|€/)
    await page.reload()
    await page.getByLabel("Prix horaire en CHF").waitFor()
    await picker.selectOption("")
    await page.getByLabel("Prix horaire en $CA").waitFor()
    await context.close()
  }, 60_000)
})
