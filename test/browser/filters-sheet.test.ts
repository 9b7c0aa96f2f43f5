import { describe, expect, it } from "vitest"
import { hasChromium, loaded, seriousViolations, switchToEnglish } from "../support/browser"
import { browserJourney, closeWithoutErrors, demoAccounts } from "../support/journey"

// The list screens on a phone (issue 23, item 16): a search field and one "Filtres" button before
// the first result; the filters open in a bottom sheet, apply as they change, and the button counts
// them. On a wide screen the filters stay inline. In French on /services, in English on /search.

const PHONE = { width: 375, height: 812 }

describe.skipIf(!hasChromium)("the filters sheet in Chromium", () => {
  const journey = browserJourney()

  it("/services on a phone: the first result under the search field, the filters in a sheet (French)", async () => {
    const opened = await journey.newPage("fr-FR", { viewport: PHONE })
    const { page } = opened
    await page.goto(`${journey.base}/services`)
    await loaded(page)
    // Nothing but the search field and the two buttons before the first card, which shows on the first screen.
    expect(await page.getByLabel("Catégorie").count()).toBe(0)
    const toggle = page.getByRole("button", { name: "Filtres", exact: true })
    const firstCard = page.locator(".service-cards > li").first()
    await firstCard.waitFor()
    expect((await firstCard.boundingBox())!.y).toBeLessThan(PHONE.height)

    await toggle.click()
    const sheet = page.getByRole("dialog", { name: "Filtres" })
    const category = sheet.getByLabel("Catégorie")
    const choice = (await category.locator("option").nth(1).getAttribute("value"))!
    await category.selectOption(choice)
    await page.waitForURL(new RegExp(`categoryId=${choice}`))
    const done = sheet.getByRole("button", { name: /^Voir (les )?\d+ services?$/ })
    await done.waitFor()
    const shown = Number((await done.textContent())!.replace(/\D/g, ""))
    expect(await seriousViolations(page)).toEqual([])
    await done.click()
    await expect.poll(() => sheet.count()).toBe(0)
    await page.getByRole("button", { name: "Filtres (1)" }).waitFor()
    await expect.poll(() => page.locator(".service-cards > li").count()).toBe(Math.min(shown, 20))
    await closeWithoutErrors(opened)
  }, 60_000)

  it("/search on a phone in English, and inline filters on a wide screen", async () => {
    const opened = await journey.loggedInPage(demoAccounts.client, "en-CA")
    const { page } = opened
    await switchToEnglish(page)
    await page.setViewportSize(PHONE)
    await page.goto(`${journey.base}/search?q=cours`)
    await loaded(page)
    await page.getByRole("button", { name: "Filters", exact: true }).click()
    const sheet = page.getByRole("dialog", { name: "Filters" })
    await sheet.getByLabel("Hourly price in CA$").selectOption("0-50")
    await page.waitForURL(/price=0-50/)
    await sheet.getByRole("button", { name: /^Show \d+ services?$|^Show the results$/ }).click()
    await page.getByRole("button", { name: "Filters (1)" }).waitFor()
    // Wider than a phone: no sheet, the filters are in the form.
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.getByLabel("Category").waitFor()
    expect(await page.getByRole("button", { name: /^Filters/ }).count()).toBe(0)
    await closeWithoutErrors(opened)
  }, 60_000)
})
