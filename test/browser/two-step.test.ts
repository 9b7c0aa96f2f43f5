import { Secret, TOTP } from "otpauth"
import { describe, expect, it } from "vitest"
import { hasChromium } from "../support/browser"
import { browserJourney, closeWithoutErrors, operatorAccount } from "../support/journey"

// Issue 15, item 5, in Chromium: a client turns on two-step login on /settings (the code computed here
// from the secret the page shows), writes the recovery codes down, logs out, and logs in with a code.

/** The code an authenticator app shows for `secret`, `stepsAhead` 30 s steps from now (the server accepts one step of drift). */
const codeOf = (secret: string, stepsAhead = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({
    timestamp: Date.now() + stepsAhead * 30_000
  })

describe.skipIf(!hasChromium)("two-step login in Chromium", () => {
  const journey = browserJourney()

  it("enrols with a first code, shows the recovery codes once, then asks for a code at the next login", async () => {
    const { server, base, loggedInPage } = journey
    const { email, password } = await operatorAccount(server, "CLIENT", { firstName: "Léa", lastName: "Tremblay" })
    const signedIn = await loggedInPage({ email, password })
    const { page } = signedIn

    await page.goto(`${base}/settings`)
    const section = page.getByRole("region", { name: "Connexion en deux étapes" })
    await section.getByRole("button", { name: "Activer la connexion en deux étapes" }).click()
    await section.getByRole("img", { name: "QR code de connexion en deux étapes" }).waitFor()
    const secret = (await section.getByTestId("two-factor-secret").textContent())!.trim()
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)

    // A wrong code is refused beside the field.
    await section.getByLabel("Premier code de l'application").fill("000000")
    await section.getByRole("button", { name: "Activer", exact: true }).click()
    await section.getByText("Code incorrect ou expiré", { exact: false }).waitFor()
    await section.getByLabel("Premier code de l'application").fill(codeOf(secret))
    await section.getByRole("button", { name: "Activer", exact: true }).click()
    const codes = section.getByTestId("recovery-codes").getByRole("listitem")
    await codes.first().waitFor()
    expect(await codes.count()).toBe(10)
    await section.getByRole("button", { name: "J'ai noté mes codes" }).click()
    await section.getByText("La connexion en deux étapes est activée.").waitFor()
    await section.getByText("Codes de secours restants : 10").waitFor()
    expect(await section.getByTestId("two-factor-secret").count()).toBe(0)

    await page.getByRole("button", { name: "Déconnexion" }).first().click()
    await page.waitForURL("**/login")
    await page.getByRole("heading", { name: "Connexion", level: 1 }).waitFor()
    await page.getByLabel("Email", { exact: true }).fill(email)
    await page.getByLabel("Mot de passe", { exact: true }).fill(password)
    await page.getByRole("button", { name: "Se connecter" }).click()
    await page.getByRole("heading", { name: "Connexion en deux étapes" }).waitFor()
    // The enrolment used this 30 s step: the next one is what the app shows a moment later.
    await page.getByLabel("Code à 6 chiffres de votre application").fill(codeOf(secret, 1))
    await page.getByRole("button", { name: "Vérifier" }).click()
    await page.waitForURL("**/services")
    await page.getByRole("button", { name: "Déconnexion" }).first().waitFor()
    await closeWithoutErrors(signedIn)
  }, 120_000)
})
