import type { Browser, Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import {
  contextWithConsent,
  hasChromium,
  layoutProblems,
  loaded,
  logInThroughUi,
  seriousViolations,
  withServerAndChromium
} from "../support/browser"
import type { TestServer } from "../support/server"
import { seedWalk, walk, type WalkData } from "../support/walker"

// The accessibility and visual bar of every screen (issue 16): every route of both specs through the
// route walker (test/support/walker.ts) at 375 and 1280 px in both languages, then the states no route
// reaches by itself (the cookie banner, forms showing their errors, settings' sections).

let server: TestServer
let browser: Browser
let data: WalkData

describe.skipIf(!hasChromium)("accessibility (axe-core) and layout", () => {
  withServerAndChromium(async (started) => {
    ;({ server, browser } = started)
    data = await seedWalk(server)
  })

  // Every route and its dialogs: no sideways scroll, no overlapping controls, no image without alt, no
  // serious axe violation. Both widths walk at once (one language at a time: the walk sets the accounts' language).
  for (const language of ["fr", "en"] as const)
    it(`every route at 375 and 1280 px in ${language}: no overflow, overlap, image without alt or serious violation`, async () => {
      const found: Array<string> = []
      await Promise.all(
        [375, 1280].map((width) =>
          walk(server, browser, data, { language, width }, async (page, label) => {
            found.push(...[...(await layoutProblems(page)), ...(await seriousViolations(page))].map((p) => `${width} px ${label}: ${p}`))
          })
        )
      )
      expect(found).toEqual([])
      // About 290 s a language on a 2-core machine beside the other files (CI, 2026-11-26): room for a slower day.
    }, 600_000)

  it("the layout check sees sideways scroll, overlapping controls and an image without alt", async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 600 } })
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

  for (const width of [375, 1280])
    it(`states beyond the routes at ${width} px: no serious or critical violation`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 }, locale: "fr-FR" })
      const page = await context.newPage()
      const found: Array<string> = []
      const check = async (label: string) => found.push(...(await seriousViolations(page)).map((v) => `${label}: ${v}`))

      // The cookie banner (after its 1 s delay).
      await page.goto(`${server.url}/services`)
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
      await page.goto(`${server.url}/register`)
      await page.getByRole("button", { name: "Créer mon compte" }).click()
      await check("register errors")
      await page.goto(`${server.url}/services?search=menage&sortBy=price_asc`)
      await page.locator("h1").first().waitFor()
      await loaded(page)
      await check("/services filtered")
      await logInThroughUi(page, server.url, "marie.dubois@marketplace.local", "Provider1234!")
      for (const path of ["/services/not-a-service/edit", "/provider/payments/setup?onboarding=refresh", "/search?q=menage&price=0-50"]) {
        await page.goto(`${server.url}${path}`)
        await page.locator("h1").first().waitFor()
        await loaded(page)
        await check(path)
      }
      // Settings with quiet hours shown, and its unsubscribe confirmation.
      await page.goto(`${server.url}/settings`)
      await page.getByLabel("Ne pas m'écrire pendant les heures calmes").check()
      await page.getByLabel("Début").waitFor()
      await check("settings quiet hours")
      await page.getByRole("button", { name: "Me désabonner de tout" }).click()
      await page.getByRole("alertdialog").waitFor()
      await check("settings unsubscribe confirmation")
      await page.keyboard.press("Escape")
      await page.getByRole("alertdialog").waitFor({ state: "detached" })
      await page.goto(`${server.url}/services/create`)
      await page.getByRole("button", { name: "Créer le service" }).click()
      await page.locator(".field-error").first().waitFor()
      await check("create service errors")
      await page.goto(`${server.url}/profile`)
      await page.getByRole("button", { name: "Modifier mon profil" }).click()
      await check("profile edit")
      await context.close()

      // A client's application form with its errors; an unknown application for the admin.
      for (const [email, password, path] of [
        ["lucas.bernard@marketplace.local", "Client1234!", "/become-provider"],
        ["admin@marketplace.local", "Admin1234!", "/admin/applications/00000000-0000-4000-8000-000000000000"]
      ] as const) {
        const other = await contextWithConsent(browser, { viewport: { width, height: 900 } })
        const otherPage = await other.newPage()
        await logInThroughUi(otherPage, server.url, email, password)
        await otherPage.goto(`${server.url}${path}`)
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
