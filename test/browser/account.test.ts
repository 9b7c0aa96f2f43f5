import { readFile } from "node:fs/promises"
import { describe, expect, it } from "vitest"
import { hasChromium } from "../support/browser"
import { mailsTo } from "../support/http"
import { browserJourney, closeWithoutErrors, operatorAccount } from "../support/journey"

// Account self-service on /settings (issue 15): a client changes their password (their other session
// ends, this one stays), downloads their data from the mailed link once, then deletes their account,
// confirmed by the password, and can no longer log in.

describe.skipIf(!hasChromium)("account security and privacy in Chromium", () => {
  const journey = browserJourney()

  it("changes the password (other sessions end) and deletes the account with the password", async () => {
    const { server, base, loggedInPage, newPage } = journey
    const apiLogin = (email: string, password: string) =>
      fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password })
      })
    const { email, password } = await operatorAccount(server, "CLIENT", {
      firstName: "Maëlle",
      lastName: "Tremblay",
      password: "Client1234!"
    })
    const changed = "Nouveau5678!"
    // Another session of the same account, elsewhere.
    const elsewhere = (await (await apiLogin(email, password)).json()).data.token as string
    const me = (token: string) => fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })
    expect((await me(elsewhere)).status).toBe(200)

    const signedIn = await loggedInPage({ email, password })
    const { page } = signedIn
    await page.goto(`${base}/settings`)
    await page.getByRole("heading", { name: "Sécurité", level: 2 }).waitFor()

    // Two sessions listed, this one marked; the other one can be told apart.
    const sessions = page.locator(".session")
    await expect.poll(() => sessions.count()).toBe(2)
    await page.getByText("Cette session", { exact: true }).waitFor()
    await page.getByRole("button", { name: "Déconnecter cette session" }).waitFor()

    // A wrong current password is refused beside the field.
    await page.getByLabel("Mot de passe actuel", { exact: true }).fill("Wrong1234!")
    await page.getByLabel("Nouveau mot de passe", { exact: true }).fill(changed)
    await page.getByLabel("Confirmer le nouveau mot de passe", { exact: true }).fill(changed)
    await page.getByRole("button", { name: "Changer le mot de passe" }).click()
    await page.getByText("Le mot de passe actuel est incorrect.").waitFor()
    expect(await page.getByLabel("Mot de passe actuel", { exact: true }).getAttribute("aria-invalid")).toBe("true")

    await page.getByLabel("Mot de passe actuel", { exact: true }).fill(password)
    await page.getByRole("button", { name: "Changer le mot de passe" }).click()
    await page.getByText("Votre mot de passe a été modifié.").first().waitFor()
    // The other session ended at once; this one goes on, and the list shows it alone.
    expect((await me(elsewhere)).status).toBe(401)
    await expect.poll(() => sessions.count()).toBe(1)
    expect((await apiLogin(email, password)).status).toBe(401)
    expect((await apiLogin(email, changed)).status).toBe(200)

    // Export my data: the mailed link opens a page whose button downloads the file, once.
    await page.getByRole("button", { name: "Demander l'export de mes données" }).click()
    const exportPath = async () =>
      (await mailsTo(server, email)).map((m) => /\/account\/export\/[A-Za-z0-9_-]+/.exec(m.text)?.[0]).find(Boolean)
    await expect.poll(exportPath, { timeout: 15_000 }).toBeTruthy()
    const mailed = (await exportPath())!
    await page.goto(`${base}${mailed}`)
    await page.getByRole("heading", { name: "Export de vos données", level: 1 }).waitFor()
    const saving = page.waitForEvent("download")
    await page.getByRole("button", { name: "Télécharger mes données" }).click()
    const file = await saving
    expect(file.suggestedFilename()).toBe("mes-donnees.json")
    expect(JSON.parse(await readFile((await file.path())!, "utf8")).profile.email).toBe(email)
    await page.getByText("Ce lien ne sert qu'une fois", { exact: false }).waitFor()
    // Used: the same link again says so, in English too.
    const english = await newPage("en-CA")
    await english.page.goto(`${base}${mailed}`)
    await english.page.getByRole("button", { name: "Download my data" }).click()
    await english.page.getByText("This export link no longer works: it was already used", { exact: false }).waitFor()
    await page.goto(`${base}/settings`)

    // Delete the account: cancel first, then a wrong password, then the right one.
    await page.getByRole("button", { name: "Supprimer mon compte" }).click()
    const dialog = page.getByRole("alertdialog")
    await dialog.waitFor()
    await dialog.getByRole("button", { name: "Annuler" }).click()
    await dialog.waitFor({ state: "detached" })
    await page.getByRole("button", { name: "Supprimer mon compte" }).click()
    await dialog.getByLabel("Mot de passe du compte", { exact: true }).fill("Wrong1234!")
    await dialog.getByRole("button", { name: "Oui, supprimer mon compte" }).click()
    await dialog.getByText("Le mot de passe actuel est incorrect.").waitFor()
    await dialog.getByLabel("Mot de passe du compte", { exact: true }).fill(changed)
    await dialog.getByRole("button", { name: "Oui, supprimer mon compte" }).click()
    await page.getByText("Votre compte a été supprimé. Vos données personnelles ont été effacées.").waitFor()
    // Home (which shows the services), not the login page.
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/(services)?$/)
    // Logged out, and no login is possible any more.
    await page.getByRole("navigation", { name: "Navigation principale" }).getByRole("link", { name: "Connexion" }).first().waitFor()
    expect((await apiLogin(email, changed)).status).toBe(401)
    await closeWithoutErrors(signedIn, english)
  }, 120_000)
})
