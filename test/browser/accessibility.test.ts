import { describe, expect, it } from "vitest"
import { hasChromium, layoutProblems, loaded, seriousViolations } from "../support/browser"
import { browserJourney, demoAccounts } from "../support/journey"

// The accessibility and visual bar (issue 16) of the states no route reaches by itself (the cookie
// banner, forms showing their errors, settings' sections), and the layout check itself. Every route
// at 375 and 1280 px in both languages is the route walk's (test/browser/walk-*.test.ts).

describe.skipIf(!hasChromium)("accessibility (axe-core) and layout", () => {
  const journey = browserJourney()

  it("the layout check sees sideways scroll, overlapping controls and an image without alt", async () => {
    const page = await journey.browser.newPage({ viewport: { width: 375, height: 600 } })
    await page.setContent(`<body style="margin:0"><main><div style="width:500px">wide</div><button style="position:absolute;top:0;left:0;width:80px">A</button>
      <a href="#" style="position:absolute;top:5px;left:40px;width:80px;display:block">B</a><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body>`)
    const problems = await layoutProblems(page)
    expect(problems).toEqual([
      "scrolls sideways by 125 px",
      expect.stringMatching(/^img without alt/),
      expect.stringMatching(/^button "A" overlaps a "B" by \d+x\d+ px$/)
    ])
    await page.close()
  })

  it("the axe check sees a serious violation: a button without a name, an image without alt", async () => {
    const page = await journey.browser.newPage()
    await page.setContent(
      `<html lang="fr"><head><title>t</title></head><body><main><h1>t</h1><button></button><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>`
    )
    expect(await seriousViolations(page)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^button-name \(critical\)/), expect.stringMatching(/^image-alt \(critical\)/)])
    )
    await page.close()
  })

  for (const width of [375, 1280])
    it(`states beyond the routes at ${width} px: no serious or critical violation`, async () => {
      const { browser, base, logIn, loggedInPage } = journey
      // No consent asked beforehand: the cookie banner is one of the states checked.
      const context = await browser.newContext({ viewport: { width, height: 900 }, locale: "fr-FR" })
      const page = await context.newPage()
      const found: Array<string> = []
      const check = async (label: string) => found.push(...(await seriousViolations(page)).map((v) => `${label}: ${v}`))

      // The cookie banner (after its 1 s delay).
      await page.goto(`${base}/services`)
      await page
        .getByRole("button", { name: /Accepter/ })
        .first()
        .waitFor({ timeout: 5_000 })
      await check("cookie banner")
      // Answered once checked: on a narrow screen it would cover the buttons of the forms below.
      await page
        .getByRole("button", { name: /Accepter/ })
        .first()
        .click()
      await page.locator(".cookie-banner").waitFor({ state: "detached" })
      // Forms showing their errors, a filtered list.
      await page.goto(`${base}/register`)
      await page.getByRole("button", { name: "Créer mon compte" }).click()
      await check("register errors")
      await page.goto(`${base}/services?search=menage&sortBy=price_asc`)
      await page.locator("h1").first().waitFor()
      await loaded(page)
      await check("/services filtered")
      await logIn(page, demoAccounts.provider)
      for (const path of ["/services/not-a-service/edit", "/provider/payments/setup?onboarding=refresh", "/search?q=menage&price=0-50"]) {
        await page.goto(`${base}${path}`)
        await page.locator("h1").first().waitFor()
        await loaded(page)
        await check(path)
      }
      // Settings with quiet hours shown, and its unsubscribe confirmation.
      await page.goto(`${base}/settings`)
      await page.getByLabel("Ne pas m'écrire pendant les heures calmes").check()
      await page.getByLabel("Début").waitFor()
      await check("settings quiet hours")
      await page.getByRole("button", { name: "Me désabonner de tout" }).click()
      await page.getByRole("alertdialog").waitFor()
      await check("settings unsubscribe confirmation")
      await page.keyboard.press("Escape")
      await page.getByRole("alertdialog").waitFor({ state: "detached" })
      await page.goto(`${base}/services/create`)
      await page.getByRole("button", { name: "Créer le service" }).click()
      await page.locator(".field-error").first().waitFor()
      await check("create service errors")
      await page.goto(`${base}/profile`)
      await page.getByRole("button", { name: "Modifier mon profil" }).click()
      await check("profile edit")
      await context.close()

      // A client's application form with its errors; an unknown application for the admin.
      for (const [account, path] of [
        [demoAccounts.client, "/become-provider"],
        [demoAccounts.admin, "/admin/applications/00000000-0000-4000-8000-000000000000"]
      ] as const) {
        const { context: other, page: otherPage } = await loggedInPage(account, "fr-FR", { viewport: { width, height: 900 } })
        await otherPage.goto(`${base}${path}`)
        await otherPage.locator("h1").first().waitFor()
        await loaded(otherPage)
        if (path === "/become-provider") {
          await otherPage.getByRole("button", { name: "Envoyer ma candidature" }).click()
          await otherPage.locator(".field-error").first().waitFor()
        }
        found.push(...(await seriousViolations(otherPage)).map((v) => `${path}: ${v}`))
        await other.close()
      }
      expect(found).toEqual([])
    }, 180_000)
})
