import AxeBuilder from "@axe-core/playwright"
import * as fs from "node:fs"
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll } from "vitest"
import { startTestServer, type TestServer } from "./server"

/** Debian's Chromium (`apt-get install chromium`); never a downloaded browser build. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
export const hasChromium = fs.existsSync(chromiumPath)
if (!hasChromium && process.env.CI) throw new Error(`Chromium is required in CI (${chromiumPath}); .ci/run installs it`)

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic", "--no-first-run"]
  })

/** axe-core on the current page: the serious and critical violations (the accessibility bar). */
export const seriousViolations = async (page: Page) => {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(" | ")}`
    )
}

export const collectPageErrors = (page: Page) => {
  const errors: Array<string> = []
  page.on("pageerror", (error) => errors.push(String(error)))
  page.on("console", (message) => {
    // A failed resource load (401 on a check, 404 on an image) is logged by the browser, not a page error.
    if (message.type() === "error" && !/Failed to load resource/.test(message.text())) errors.push(message.text())
  })
  return errors
}

/** Logs in through the French login screen of the app at `origin` and waits for /services. */
export const logInThroughUi = async (page: Page, origin: string, email: string, password: string) => {
  await page.goto(`${origin}/login`)
  await page.getByLabel("Email").fill(email)
  await page.getByLabel("Mot de passe", { exact: true }).fill(password)
  await page.getByRole("button", { name: "Se connecter" }).click()
  await page.waitForURL("**/services")
}

/**
 * A desktop-sized French context whose cookie banner is already answered: shown 1 s after each load,
 * it would cover buttons at the bottom of the screen.
 */
export const contextWithConsent = async (browser: Browser, options: BrowserContextOptions = {}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "fr-FR", ...options })
  await context.addInitScript(() => {
    if (!localStorage.getItem("cookieConsent"))
      localStorage.setItem("cookieConsent", JSON.stringify({ hasConsent: false, consentDate: new Date().toISOString() }))
  })
  return context
}

/** Waits until the page shows no loading state at all (a screen may load several parts at once). */
export const loaded = (page: Page) => page.waitForFunction(() => document.querySelector(".loading") === null)

/**
 * One test server and one Chromium for the enclosing suite: started before its tests and handed to
 * `ready`, stopped after them.
 */
export const withServerAndChromium = (
  ready: (started: { server: TestServer; browser: Browser }) => void | Promise<void>,
  serverOptions: Parameters<typeof startTestServer>[1] = {},
  config: Parameters<typeof startTestServer>[0] = {}
) => {
  let server: TestServer | undefined
  let browser: Browser | undefined
  beforeAll(async () => {
    server = await startTestServer(config, serverOptions)
    browser = await launchChromium()
    await ready({ server, browser })
  }, 90_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })
}
