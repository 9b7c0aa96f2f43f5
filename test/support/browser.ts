import type axe from "axe-core"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, expect } from "vitest"
import { promptWaits } from "./prompt-waits"
import { startTestServer, type TestServer } from "./server"

/** Debian's Chromium (`apt-get install chromium`); never a downloaded browser build. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
export const hasChromium = fs.existsSync(chromiumPath)
if (!hasChromium && process.env.CI) throw new Error(`Chromium is required in CI (${chromiumPath}); .ci/run installs it`)

/**
 * Playwright's own `--disable-features` list, read from the installed playwright-core: Chromium reads
 * only the last `--disable-features` switch, so the one we add must repeat Playwright's.
 */
const playwrightDisabledFeatures = (): ReadonlyArray<string> => {
  const bundle = fs.readFileSync(createRequire(import.meta.url).resolve("playwright-core/lib/coreBundle"), "utf8")
  const list = /disabledFeatures = \[([\s\S]*?)\]\.filter/.exec(bundle)
  if (!list) throw new Error("playwright-core's disabled Chromium features were not found (test/support/browser.ts reads them)")
  return [...list[1]!.matchAll(/^\s*"(\w+)",?$/gm)].map((feature) => feature[1]!)
}

/**
 * Chromium 156 preloads two WebUI pages of the address bar's popup in every window (a context is one),
 * each in a renderer of its own that nobody sees here: without them a new page opens in 130 ms
 * rather than 210 and the machine's two cores are left to the pages under test.
 */
const unseenBrowserUi = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]

const launchChromium = async (): Promise<Browser> => {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-quic",
      "--no-first-run",
      `--disable-features=${[...playwrightDisabledFeatures(), ...unseenBrowserUi].join(",")}`
    ]
  })
  await promptWaits(browser)
  return browser
}

let workerChromium: Promise<Browser> | undefined

/**
 * The worker's one Chromium, launched by its first browser file and kept for the files after it (a
 * worker runs its files in one process): each file works in contexts of its own and closes them.
 * Launched again if it went away (a crash in an earlier file must not fail the next).
 */
export const sharedChromium = async (): Promise<Browser> => {
  const current = workerChromium && (await workerChromium.catch(() => undefined))
  if (current?.isConnected()) return current
  workerChromium = launchChromium()
  return workerChromium
}

/** Closes what a file left open in the shared Chromium, so the next file starts from nothing. */
export const closeContexts = (browser: Browser) => Promise.all(browser.contexts().map((context) => context.close().catch(() => undefined)))

/** axe-core's script, read once: every document of a walk gets it once (a screen reached by an in-app link keeps it). */
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

type AxeWindow = { axe?: typeof axe }

/**
 * axe-core's violations on the current page, its frames included (rules by `tags`, else every rule).
 * axe runs in the page itself, injected once per document into each frame lacking it: the builder of
 * @axe-core/playwright injected and configured it again on every call, a third of a walk's axe time.
 * Violations only: axe still runs every rule but keeps one node of the passes and the rest.
 */
export const axeViolations = async (page: Page, tags?: ReadonlyArray<string>): Promise<Array<axe.Result>> => {
  for (const frame of page.frames())
    if (!(await frame.evaluate(() => "axe" in window).catch(() => true))) {
      await frame.evaluate(axeSource)
      // Frames answer the page's axe whatever their origin (a srcdoc frame's is opaque).
      await frame.evaluate(() => (window as AxeWindow).axe!.configure({ allowedOrigins: ["<unsafe_all_origins>"] }))
    }
  return page.evaluate(
    (tags) =>
      (window as AxeWindow)
        .axe!.run(document, { resultTypes: ["violations"], ...(tags ? { runOnly: { type: "tag", values: tags } } : {}) })
        .then((results) => results.violations),
    tags ? [...tags] : undefined
  )
}

/** Each violation as its rule, impact and first three elements. */
export const describeViolations = (violations: ReadonlyArray<axe.Result>) =>
  violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 3)
        .join(" | ")}`
  )

/** axe-core on the current page: the serious and critical violations (the accessibility bar). */
export const seriousViolations = async (page: Page) =>
  describeViolations((await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical"))

/**
 * The layout checks of the current page (issue 16): sideways scroll (document wider than the window),
 * visible interactive elements overlapping one another (2 px tolerance; inside an open modal only, the
 * page behind being inert), images without alt.
 */
export const layoutProblems = (page: Page) =>
  page.evaluate(() => {
    const problems: Array<string> = []
    const width = window.innerWidth
    const scrollWidth = document.documentElement.scrollWidth
    if (scrollWidth > width) problems.push(`scrolls sideways by ${scrollWidth - width} px`)
    for (const img of document.querySelectorAll("img:not([alt])"))
      problems.push(`img without alt: ${(img as HTMLImageElement).src.slice(-60)}`)
    // With a modal open, only its content is reachable: the page behind is inert.
    const modal = document.querySelector("dialog:modal, [role=dialog][aria-modal=true], [role=alertdialog]")
    const scope: ParentNode = modal ?? document
    const interactive = [
      ...scope.querySelectorAll<HTMLElement>(
        "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=tab], [role=checkbox], [role=radio], [role=switch]"
      )
    ].filter((el) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) && !el.closest("[inert]"))
    const name = (el: HTMLElement) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""} "${(el.getAttribute("aria-label") ?? el.textContent ?? (el as HTMLInputElement).name ?? "").trim().slice(0, 30)}"`
    const boxes = interactive
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      // Visually hidden controls (a custom radio under its label, a screen-reader-only link) take no room.
      .filter(({ box }) => box.width >= 4 && box.height >= 4)
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!
        const b = boxes[j]!
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue
        // A control and the label that holds it, or two parts of one label, are one target.
        const label = a.el.closest("label")
        if (label && label === b.el.closest("label")) continue
        const x = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left)
        const y = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top)
        // 2 px of tolerance: focus outlines and borders that touch are not an overlap.
        if (x > 2 && y > 2) problems.push(`${name(a.el)} overlaps ${name(b.el)} by ${Math.round(x)}x${Math.round(y)} px`)
      }
    return problems
  })

export const collectPageErrors = (page: Page) => {
  const errors: Array<string> = []
  page.on("pageerror", (error) => errors.push(String(error)))
  page.on("console", (message) => {
    // A failed resource load (401 on a check, 404 on an image) is logged by the browser, not a page error.
    if (message.type() === "error" && !/Failed to load resource/.test(message.text())) errors.push(message.text())
  })
  return errors
}

/** The login screen's words in each language. */
const loginScreen = {
  fr: { password: "Mot de passe", submit: "Se connecter" },
  en: { password: "Password", submit: "Log in" }
} as const

/** Logs in through the login screen (French, or English in an English browser) of the app at `origin` and waits for /services. */
export const logInThroughUi = async (page: Page, origin: string, email: string, password: string, language: "fr" | "en" = "fr") => {
  await page.goto(`${origin}/login`)
  await page.getByLabel("Email").fill(email)
  await page.getByLabel(loginScreen[language].password, { exact: true }).fill(password)
  await page.getByRole("button", { name: loginScreen[language].submit }).click()
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

/**
 * A signed-in user's click on "English", once the account has saved it and the screen speaks English
 * (its "Log out" button): the next page load follows the account's language, so a test that navigates
 * at once must not race the PATCH that records it.
 */
export const switchToEnglish = async (page: Page) => {
  const saved = page.waitForResponse(
    (response) => response.request().method() === "PATCH" && new URL(response.url()).pathname === "/api/users/me"
  )
  await page.getByRole("button", { name: "English" }).click()
  expect((await saved).ok()).toBe(true)
  await page.getByRole("button", { name: "Log out" }).waitFor()
}

/** Waits until the page shows no loading state at all (a screen may load several parts at once). */
export const loaded = (page: Page) => page.waitForFunction(() => document.querySelector(".loading") === null)

/**
 * One test server for the enclosing suite and the worker's Chromium: started before its tests and
 * handed to `ready`; the server stopped after them, with every browser context the suite left open.
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
    browser = await sharedChromium()
    await ready({ server, browser })
  }, 90_000)
  afterAll(async () => {
    if (browser) await closeContexts(browser)
    await server?.stop()
  })
}
