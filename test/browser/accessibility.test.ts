import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hasChromium, launchChromium, seriousViolations } from "../support/browser"
import { startTestServer, type TestServer } from "../support/server"

// Every screen built so far, checked by axe-core with no serious or critical violation, on a phone
// and a desktop width. Later issues add their screens here.
const publicScreens = [
  "/services",
  "/login",
  "/login?verify=1",
  "/register",
  "/forgot-password",
  "/reset-password/abc",
  "/verify-email/not-a-token",
  "/email-verification-required",
  "/about",
  "/contact",
  "/cookies",
  "/no-such-page"
]

let server: TestServer
let browser: Browser

const login = async (page: Page, email: string, password: string) => {
  await page.goto(`${server.url}/login`)
  await page.getByLabel("Email").fill(email)
  await page.getByLabel("Mot de passe", { exact: true }).fill(password)
  await page.getByRole("button", { name: "Se connecter" }).click()
  await page.waitForURL("**/services")
}

describe.skipIf(!hasChromium)("accessibility (axe-core)", () => {
  beforeAll(async () => {
    server = await startTestServer()
    browser = await launchChromium()
  }, 90_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  for (const width of [375, 1280]) {
    it(`has no serious or critical violation at ${width} px`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 }, locale: "fr-FR" })
      const page = await context.newPage()
      const found: Array<string> = []
      const check = async (label: string) => found.push(...(await seriousViolations(page)).map((v) => `${label}: ${v}`))

      for (const path of publicScreens) {
        await page.goto(`${server.url}${path}`)
        await page.locator("h1").first().waitFor()
        if (path.startsWith("/verify-email")) await page.locator(".alert-error, .alert-danger, [role=alert]").first().waitFor()
        await check(path)
      }
      // The cookie banner (after its 1 s delay) and forms showing their errors.
      await page.goto(`${server.url}/services`)
      await page.getByRole("button", { name: /Accepter/ }).first().waitFor({ timeout: 5_000 })
      await check("cookie banner")
      await page.goto(`${server.url}/register`)
      await page.getByRole("button", { name: "Créer mon compte" }).click()
      await check("register errors")
      // Role-dependent navigation, in English too.
      await login(page, "marie.dubois@marketplace.local", "Provider1234!")
      await check("provider /services")
      await page.goto(`${server.url}/services?lang=en`)
      await page.locator("h1").first().waitFor()
      await check("provider /services (en)")
      if (width < 768) {
        await page.getByRole("button", { name: "Menu", exact: true }).click()
        await page.getByRole("dialog").waitFor()
        await check("mobile menu")
      }
      expect(found).toEqual([])
      await context.close()
    }, 120_000)
  }
})
