import type { Browser, Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { contextWithConsent, hasChromium, loaded, logInThroughUi, seriousViolations, withServerAndChromium } from "../support/browser"
import type { TestServer } from "../support/server"

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

const firstServiceId = async () => {
  const answer = (await (await fetch(`${server.url}/api/services?limit=1`)).json()) as { data: { services: Array<{ id: string }> } }
  return answer.data.services[0]!.id
}

const firstProviderId = async () => {
  const answer = (await (await fetch(`${server.url}/api/services?limit=1`)).json()) as { data: { services: Array<{ userId: string }> } }
  return answer.data.services[0]!.userId
}

const login = (page: Page, email: string, password: string) => logInThroughUi(page, server.url, email, password)

/** A demo booking's id, read through the admin list (the seed makes some). */
const firstBookingId = async () => {
  const session = (await (
    await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@marketplace.local", password: "Admin1234!" })
    })
  ).json()) as { data: { token: string } }
  const answer = (await (
    await fetch(`${server.url}/api/admin/bookings?limit=1`, { headers: { authorization: `Bearer ${session.data.token}` } })
  ).json()) as { data: { bookings: Array<{ id: string }> } }
  return answer.data.bookings[0]!.id
}

/** The demo client's captured booking (the seed completes one): its receipt page. */
const capturedBookingId = async () => {
  const session = (await (
    await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "lucas.bernard@marketplace.local", password: "Client1234!" })
    })
  ).json()) as { data: { token: string } }
  const answer = (await (
    await fetch(`${server.url}/api/bookings/me?as=client`, { headers: { authorization: `Bearer ${session.data.token}` } })
  ).json()) as { data: { bookings: Array<{ id: string; paymentStatus: string }> } }
  return answer.data.bookings.find((b) => b.paymentStatus === "CAPTURED")!.id
}

describe.skipIf(!hasChromium)("accessibility (axe-core)", () => {
  withServerAndChromium((started) => void ({ server, browser } = started))

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
      await page.goto(`${server.url}/register`)
      await page.getByRole("button", { name: "Créer mon compte" }).click()
      await check("register errors")
      // Role-dependent navigation, in English too.
      // The catalogue's public screens: a service, an unknown one, a filtered list.
      const serviceId = await firstServiceId()
      for (const path of [
        `/services/${serviceId}`,
        "/services/00000000-0000-4000-8000-000000000000",
        "/services?search=menage&sortBy=price_asc"
      ]) {
        await page.goto(`${server.url}${path}`)
        await page.locator("h1").first().waitFor()
        await loaded(page)
        await check(path)
      }
      await login(page, "marie.dubois@marketplace.local", "Provider1234!")
      await check("provider /services")
      // The provider's catalogue and payout screens (Marie is payment-ready), and the search.
      const providerScreens = [
        "/services/my",
        "/services/create",
        `/services/${serviceId}/edit`,
        "/services/not-a-service/edit",
        "/provider/payments/setup",
        "/provider/payments/setup?onboarding=refresh",
        "/provider/payments/required",
        "/provider/earnings",
        "/search",
        "/search?q=menage&price=0-50",
        "/settings"
      ]
      for (const path of providerScreens) {
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
      await page.goto(`${server.url}/services/my`)
      await page
        .getByRole("button", { name: /^Supprimer/ })
        .first()
        .click()
      await page.getByRole("alertdialog").waitFor()
      await check("delete confirmation")
      await page.keyboard.press("Escape")
      await page.getByRole("alertdialog").waitFor({ state: "detached" })
      // Profiles: the own profile (view and edit), a public one, an unknown one.
      const providerId = await firstProviderId()
      for (const path of ["/profile", `/profile/${providerId}`, "/profile/00000000-0000-4000-8000-000000000000"]) {
        await page.goto(`${server.url}${path}`)
        await page.locator("h1").first().waitFor()
        await loaded(page)
        await check(path)
      }
      await page.goto(`${server.url}/profile`)
      await page.getByRole("button", { name: "Modifier mon profil" }).click()
      await check("profile edit")
      // Onboarding: a client's application form with its errors, and the admin's list.
      for (const [email, password, paths] of [
        ["lucas.bernard@marketplace.local", "Client1234!", [`/bookings/${await capturedBookingId()}/receipt`, "/become-provider"]],
        [
          "admin@marketplace.local",
          "Admin1234!",
          [
            "/admin/applications",
            "/admin/applications/00000000-0000-4000-8000-000000000000",
            // The back-office (administration module).
            "/admin",
            "/admin/users",
            "/admin/bookings",
            `/admin/bookings/${await firstBookingId()}`,
            "/admin/services",
            "/admin/financial",
            "/admin/analytics",
            "/admin/audit",
            "/admin/rates"
          ]
        ]
      ] as const) {
        // The banner was checked above; answered here so it does not cover the form's button.
        const other = await contextWithConsent(browser, { viewport: { width, height: 900 } })
        const otherPage = await other.newPage()
        await login(otherPage, email, password)
        for (const path of paths) {
          await otherPage.goto(`${server.url}${path}`)
          await otherPage.locator("h1").first().waitFor()
          await loaded(otherPage)
          found.push(...(await seriousViolations(otherPage)).map((v) => `${path}: ${v}`))
        }
        if (email.startsWith("lucas")) {
          await otherPage.getByRole("button", { name: "Envoyer ma candidature" }).click()
          await otherPage.locator(".field-error").first().waitFor()
          found.push(...(await seriousViolations(otherPage)).map((v) => `become-provider errors: ${v}`))
          // Messaging: the list (empty at first), a conversation dialog opened from a contact link, the list holding it.
          await otherPage.goto(`${server.url}/messaging`)
          await otherPage.locator(".empty-state, .conversation-card").first().waitFor()
          found.push(...(await seriousViolations(otherPage)).map((v) => `/messaging: ${v}`))
          await otherPage.goto(`${server.url}/messaging?userId=${providerId}`)
          await otherPage.getByRole("dialog").getByLabel("Votre message").waitFor()
          found.push(...(await seriousViolations(otherPage)).map((v) => `conversation dialog: ${v}`))
          await otherPage.keyboard.press("Escape")
          await otherPage.locator(".conversation-card").first().waitFor()
          found.push(...(await seriousViolations(otherPage)).map((v) => `/messaging list: ${v}`))
        }
        await other.close()
      }
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
    }, 180_000)
  }
})
