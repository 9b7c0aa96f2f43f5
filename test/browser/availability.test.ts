import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { AvailabilityRepository } from "../../src/modules/booking/availability/ports"
import { hasChromium } from "../support/browser"
import { browserJourney, closeWithoutErrors, operatorAccount } from "../support/journey"

// A provider in Toronto opens /provider/availability from the navigation, sees the default plan
// (08:00–20:00 every day), closes the weekend, works 09:00–17:00 on Mondays, adds a day off, saves,
// and after a reload finds the plan kept (and the server has it).

describe.skipIf(!hasChromium)("availability screen in Chromium", () => {
  const journey = browserJourney({ timezoneId: "America/Toronto" })

  it("sets a weekly plan and a day off, saved and shown again after a reload", async () => {
    const { server, loggedInPage } = journey
    // No plan yet, as a new provider (the API-made test providers are open at any time).
    const provider = await operatorAccount(server, "PROVIDER", { firstName: "Jean", lastName: "Tremblay" })
    // The provider's zone (set from the browser at registration by the time-zone work of issue 12).
    await server.run(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE users SET time_zone = 'America/Toronto' WHERE id = ${provider.id}`)
    )
    const signedIn = await loggedInPage(provider)
    const { page } = signedIn

    await page.getByRole("navigation", { name: "Navigation principale" }).getByRole("link", { name: "Disponibilités" }).click()
    await page.waitForURL("**/provider/availability")
    await page.getByRole("heading", { name: "Mes disponibilités", level: 1 }).waitFor()
    await page.getByText("Pas encore de plan : vous êtes ouvert de 08:00 à 20:00 tous les jours.", { exact: false }).waitFor()
    await page.getByText("Horaires en heure de Toronto, le fuseau de votre compte", { exact: false }).waitFor()

    // Weekend closed, Monday 09:00–17:00.
    await page.getByRole("button", { name: "Retirer samedi 08:00–20:00" }).click()
    await page.getByRole("button", { name: "Retirer dimanche 08:00–20:00" }).click()
    const monday = page.getByRole("group", { name: "lundi, plage 1" })
    await monday.getByLabel("De").selectOption("09:00")
    await monday.getByLabel("À").selectOption("17:00")
    // Monday's hours copied to Friday; times read as French writes them (24-hour).
    await page.getByLabel("Copier les horaires du lundi").selectOption("5")
    const friday = page.getByRole("group", { name: "vendredi, plage 1" })
    expect(await friday.getByLabel("De").inputValue()).toBe("09:00")
    expect(await friday.getByLabel("À").locator("option:checked").textContent()).toBe("17:00")
    // A compact week: the whole editor fits in a screen and a half at 1280 px (it was a 4,400 px list).
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(1800)
    // A day off.
    await page.getByLabel("Type", { exact: true }).selectOption("dayOff")
    await page.getByLabel("Du", { exact: true }).fill("2030-01-07")
    await page.getByRole("button", { name: "Ajouter l'exception" }).click()
    await page.getByText("Indisponible", { exact: true }).waitFor()
    await page.getByRole("button", { name: "Enregistrer mes disponibilités" }).click()
    await page.getByText("Disponibilités enregistrées.").waitFor()

    const stored = await server.run(Effect.flatMap(AvailabilityRepository, (plans) => plans.planOf(provider.id)))
    const plan = stored._tag === "Some" ? stored.value.plan : null
    expect(plan?.weekly.find((d) => d.weekday === 1)?.ranges).toEqual([{ start: 540, end: 1020 }])
    expect(plan?.weekly.some((d) => d.weekday === 6 || d.weekday === 7)).toBe(false)
    expect(plan?.exceptions.map((e) => [e.kind, e.startTime.toISOString(), e.endTime.toISOString()])).toEqual([
      ["closed", "2030-01-07T05:00:00.000Z", "2030-01-08T05:00:00.000Z"]
    ])

    await page.reload()
    await page.getByRole("heading", { name: "Mes disponibilités", level: 1 }).waitFor()
    await page.getByText("Indisponible", { exact: true }).waitFor()
    expect(await page.getByText("Pas encore de plan", { exact: false }).count()).toBe(0)
    expect(await page.getByRole("group", { name: "lundi, plage 1" }).getByLabel("De").inputValue()).toBe("09:00")
    expect(await page.getByRole("button", { name: /^Retirer samedi/ }).count()).toBe(0)
    // In English the same week reads 12-hour times, and the Friday copy was saved.
    await page.getByRole("button", { name: "English" }).click()
    const fridayInEnglish = page.getByRole("group", { name: "Friday, range 1" })
    expect(await fridayInEnglish.getByLabel("From").locator("option:checked").textContent()).toBe("9:00 AM")
    expect(plan?.weekly.find((d) => d.weekday === 5)?.ranges).toEqual([{ start: 540, end: 1020 }])
    await closeWithoutErrors(signedIn)
  }, 120_000)
})
