import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { axeViolations, describeViolations, hasChromium } from "../support/browser"
import { browserJourney } from "../support/journey"
import { freshUser } from "./support"

describe.skipIf(!hasChromium)("sandbox pages in a browser: axe and keyboard", () => {
  // The sandbox's pages send the browser back to the server's public address, the journey's `base`.
  const journey = browserJourney()

  /** The link the server makes for a provider whose account reads `language` (the page speaks it). */
  const onboardingLink = async (language: "fr" | "en" = "fr") => {
    const { server, api } = journey
    const provider = await freshUser(server, api)
    if (language !== "fr")
      expect((await api.patch("/api/users/me", { preferredLanguage: language }, { token: provider.token })).status).toBe(200)
    const reply = await api.post("/api/users/me/stripe-connect/onboarding", { country: "CA" }, { token: provider.token })
    return { provider, link: reply.body.data.data.accountLink as string }
  }

  const newPage = async (locale: "fr-CA" | "en-CA") => (await journey.newPage(locale)).page

  const expectNoViolations = async (page: Page, where: string) => {
    const violations = await axeViolations(page, ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    expect(describeViolations(violations), where).toEqual([])
  }

  /** Tabs from the top of the page to the button with this name; fails when it is not reachable. */
  const tabTo = async (page: Page, name: string) => {
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press("Tab")
      const focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? "")
      if (focused === name) return
    }
    throw new Error(`"${name}" is not reachable with the keyboard`)
  }

  it("the onboarding page passes axe in French and English, with the lang attribute of its language", async () => {
    for (const [locale, lang] of [
      ["fr-CA", "fr"],
      ["en-CA", "en"]
    ] as const) {
      const { link } = await onboardingLink(lang)
      const page = await newPage(locale)
      await page.goto(link)
      expect(await page.getAttribute("html", "lang")).toBe(lang)
      expect(await page.title()).toBe(lang === "fr" ? "Configuration des paiements (bac à sable)" : "Payment setup (sandbox)")
      await expectNoViolations(page, `onboarding ${lang}`)
      await page.context().close()
    }
  })

  it("the setup page names what the payment provider still needs, in the provider's language, and passes axe", async () => {
    for (const [locale, language, needs, identity] of [
      ["fr-CA", "fr", "Le prestataire de paiement attend encore :", "Une pièce d'identité"],
      ["en-CA", "en", "The payment provider still needs:", "An identity document"]
    ] as const) {
      const { provider } = await onboardingLink(language)
      const opened = await journey.loggedInPage(provider, locale)
      await opened.page.goto(`${journey.base}/provider/payments/setup`)
      const box = opened.page.getByTestId("payout-requirements")
      await box.getByText(needs).waitFor()
      await box.getByText(identity).waitFor()
      expect(await box.locator("li").count()).toBe(3)
      await expectNoViolations(opened.page, `setup with requirements ${language}`)
      await opened.context.close()
    }
  })

  it("the language link switches the page to the other language", async () => {
    const { link } = await onboardingLink()
    const page = await newPage("fr-CA")
    await page.goto(link)
    await page.getByRole("link", { name: "English" }).click()
    expect(await page.getAttribute("html", "lang")).toBe("en")
    await expect(page.getByRole("button", { name: "Complete onboarding" }).isVisible()).resolves.toBe(true)
    await page.context().close()
  })

  it("Complete onboarding with the keyboard only: back on the setup page, the account can take charges", async () => {
    const { base, api } = journey
    const { provider, link } = await onboardingLink("en")
    const page = await newPage("en-CA")
    await page.goto(link)
    await tabTo(page, "Complete onboarding")
    await Promise.all([page.waitForURL(`${base}/provider/payments/setup?onboarding=complete`), page.keyboard.press("Enter")])
    const status = await api.get("/api/users/me/stripe-connect/status", { token: provider.token })
    expect(status.body.data.data).toMatchObject({ chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true })

    // The dashboard page too passes axe, in both languages.
    const dashboard = await api.get("/api/users/me/stripe-connect/dashboard", { token: provider.token })
    for (const locale of ["en-CA", "fr-CA"] as const) {
      const dashboardPage = await newPage(locale)
      await dashboardPage.goto(dashboard.body.data.data.dashboardUrl)
      expect(await dashboardPage.getAttribute("html", "lang")).toBe(locale.slice(0, 2))
      await expectNoViolations(dashboardPage, `dashboard ${locale}`)
      await dashboardPage.context().close()
    }
    await page.context().close()
  })

  it("Abandon with the keyboard (Space): back on the refresh URL, nothing enabled", async () => {
    const { base, api } = journey
    const { provider, link } = await onboardingLink()
    const page = await newPage("fr-CA")
    await page.goto(link)
    await tabTo(page, "Abandonner")
    await Promise.all([page.waitForURL(`${base}/provider/payments/setup?onboarding=refresh`), page.keyboard.press("Space")])
    const status = await api.get("/api/users/me/stripe-connect/status", { token: provider.token })
    expect(status.body.data.data).toMatchObject({ hasAccount: true, chargesEnabled: false })
    await page.context().close()
  })

  it("the error pages (unknown account, foreign return address) pass axe too", async () => {
    const { link } = await onboardingLink()
    const page = await newPage("fr-CA")
    const unknown = new URL(link)
    unknown.pathname = "/sandbox/connect/onboarding/acct_sandbox_unknown"
    expect((await page.goto(unknown.toString()))!.status()).toBe(404)
    await expectNoViolations(page, "unknown account")
    const foreign = new URL(link)
    foreign.searchParams.set("return", "https://elsewhere.example/")
    expect((await page.goto(foreign.toString()))!.status()).toBe(400)
    await expectNoViolations(page, "foreign return address")
    await page.context().close()
  })
})
