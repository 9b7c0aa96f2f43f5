import { describe, expect, it } from "vitest"
import { collectPageErrors, hasChromium } from "../support/browser"
import { browserJourney } from "../support/journey"

describe.skipIf(!hasChromium)("a newcomer in Chromium", () => {
  const journey = browserJourney()

  it("registers, verifies by the outbox link, logs in, switches to English and logs out", async () => {
    const { server, browser } = journey
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "fr-FR" })
    const page = await context.newPage()
    const errors = collectPageErrors(page)
    const email = `newcomer.${Date.now()}@example.com`

    await page.goto(`${server.url}/register`)
    await page.getByLabel("Prénom").fill("Ana")
    await page.getByLabel("Nom de famille").fill("Lefebvre")
    await page.getByLabel("Email").fill(email)
    await page.getByLabel("Téléphone").fill("5145550199")
    await page.getByLabel("Mot de passe", { exact: true }).fill("Secret12!")
    await page.getByLabel("Confirmer le mot de passe").fill("Secret12!")
    await page.getByRole("button", { name: "Créer mon compte" }).click()
    await page.waitForURL("**/login?verify=1")

    // Logging in before verifying shows the orange resend box.
    await page.getByLabel("Email").fill(email)
    await page.getByLabel("Mot de passe", { exact: true }).fill("Secret12!")
    await page.getByRole("button", { name: "Se connecter" }).click()
    await page.locator(".alert-warning").waitFor()

    // The verification mail, read from the local outbox page, in French.
    const outbox = await (await fetch(`${server.url}/dev/mail`)).text()
    const mail = [...outbox.matchAll(/<span class="to">([^<]+)<\/span>[^]*?href="([^"]*\/verify-email\/[^"]+)"/g)].find(
      (m) => m[1] === email
    )
    expect(mail, "verification mail in the outbox").toBeDefined()
    expect(outbox).toContain("Vérifiez votre adresse email")
    await page.goto(mail![2]!)
    await page.locator(".alert-success").waitFor()
    await page.waitForURL("**/login?verified=1", { timeout: 8_000 })

    await page.getByLabel("Email").fill(email)
    await page.getByLabel("Mot de passe", { exact: true }).fill("Secret12!")
    await page.getByRole("button", { name: "Se connecter" }).click()
    await page.waitForURL("**/services")
    await page.getByRole("button", { name: "Déconnexion" }).waitFor()

    await page.getByRole("button", { name: "English" }).click()
    await page.getByRole("button", { name: "Log out" }).waitFor()
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en")
    // The choice is saved on the server as the user's preferredLanguage.
    const token = await page.evaluate(() => localStorage.getItem("token"))
    await expect
      .poll(
        async () =>
          (await (await fetch(`${server.url}/api/users/me`, { headers: { authorization: `Bearer ${token}` } })).json()).data.user
            .preferredLanguage
      )
      .toBe("en")

    await page.getByRole("button", { name: "Log out" }).click()
    await page.waitForURL("**/login")
    await page.getByRole("heading", { name: "Log in" }).waitFor()
    expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull()
    // The refresh cookie was revoked: a reload does not bring the session back.
    await page.goto(`${server.url}/profile`)
    await page.waitForURL("**/login?redirectTo=%2Fprofile")
    expect(errors).toEqual([])
    await context.close()
  }, 60_000)
})
