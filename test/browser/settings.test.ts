import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { NotificationSettings } from "../../src/modules/notifications"
import { hasChromium } from "../support/browser"
import { browserJourney, closeWithoutErrors, operatorAccount } from "../support/journey"

// A client opens /settings, switches to a daily digest with quiet hours 22:00-07:00, reloads and
// finds the choices kept (read back from the server), then unsubscribes from everything after confirming.

describe.skipIf(!hasChromium)("notification settings in Chromium", () => {
  const journey = browserJourney({ timezoneId: "America/Montreal" })

  it("saves every change, keeps them across a reload, and unsubscribes completely after confirmation", async () => {
    const { server, loggedInPage } = journey
    const account = await operatorAccount(server, "CLIENT", { firstName: "Inès", lastName: "Moreau" })
    const signedIn = await loggedInPage(account)
    const { page } = signedIn

    await page.getByRole("navigation", { name: "Navigation principale" }).getByRole("link", { name: "Paramètres" }).click()
    await page.waitForURL("**/settings")
    await page.getByRole("heading", { name: "Paramètres", level: 1 }).waitFor()
    expect(await page.getByLabel("Immédiatement").isChecked()).toBe(true)
    expect(await page.getByLabel("Recevoir les notifications par email").isChecked()).toBe(true)

    const status = page.getByRole("status").filter({ hasText: /Préférences enregistrées|Enregistrement/ })
    await page.getByLabel("Un résumé par jour (8 h)").check()
    await page.getByText("Préférences enregistrées.").waitFor()
    expect(await status.getAttribute("aria-live")).toBe("polite")
    await page.getByLabel("Ne pas m'écrire pendant les heures calmes").check()
    await page.getByLabel("Début").fill("22:00")
    await page.getByLabel("Fin").fill("07:00")
    await page.getByText("Préférences enregistrées.").waitFor()
    // A window of no length is refused by the server, shown beside the field.
    await page.getByLabel("Fin").fill("22:00")
    await page.getByText("Les heures de début et de fin doivent être différentes.").waitFor()
    expect(await page.getByLabel("Fin").getAttribute("aria-invalid")).toBe("true")
    await page.getByLabel("Fin").fill("07:00")
    await page.getByText("Préférences enregistrées.").waitFor()
    expect(await page.getByText("Les heures de début et de fin doivent être différentes.").count()).toBe(0)

    await page.reload()
    await page.getByLabel("Un résumé par jour (8 h)").waitFor()
    expect(await page.getByLabel("Un résumé par jour (8 h)").isChecked()).toBe(true)
    expect(await page.getByLabel("Ne pas m'écrire pendant les heures calmes").isChecked()).toBe(true)
    expect(await page.getByLabel("Début").inputValue()).toBe("22:00")
    expect(await page.getByLabel("Fin").inputValue()).toBe("07:00")
    // The account took the browser's zone at sign-in; the quiet hours follow it, named in words.
    // (Chromium may name Montreal's zone by its canonical name, America/Toronto.)
    await page.getByText(/\(heure de (Montréal|Toronto), le fuseau de votre compte\)/).waitFor()

    // Complete unsubscribe: cancelling changes nothing; confirming turns everything off.
    await page.getByRole("button", { name: "Me désabonner de tout" }).click()
    const dialog = page.getByRole("alertdialog")
    await dialog.waitFor()
    await dialog.getByRole("button", { name: "Annuler" }).click()
    await dialog.waitFor({ state: "detached" })
    expect(await page.getByLabel("Recevoir les notifications par email").isChecked()).toBe(true)
    await page.getByRole("button", { name: "Me désabonner de tout" }).click()
    await dialog.getByRole("button", { name: "Oui, me désabonner" }).click()
    await page.getByText("Vous êtes désabonné de tous les emails de notification.").waitFor()
    expect(await page.getByLabel("Recevoir les notifications par email").isChecked()).toBe(false)

    await page.reload()
    await page.getByLabel("Recevoir les notifications par email").waitFor()
    expect(await page.getByLabel("Recevoir les notifications par email").isChecked()).toBe(false)
    expect(await page.getByLabel("Jamais").isChecked()).toBe(true)
    expect(await server.run(Effect.flatMap(NotificationSettings, (settings) => settings.get(account.id)))).toMatchObject({
      emailNotifications: false,
      emailFrequency: "never",
      quietHoursEnabled: true,
      quietHoursStart: "22:00",
      quietHoursEnd: "07:00",
      timeZone: expect.stringMatching(/^America\/(Montreal|Toronto)$/)
    })
    await closeWithoutErrors(signedIn)
  }, 90_000)
})
