import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { hasChromium } from "../support/browser"
import { browserJourney, closeWithoutErrors, operatorAccount } from "../support/journey"
import { providerWithPayouts, serviceOf } from "../support/scenarios"

// A new provider becomes payment-ready through the sandbox onboarding, publishes a service with
// an accented French title, manages it from /services/my and finds it in both languages.

const TITLE = "Ménage écologique à domicile"

/** The card of our service in a results list. */
const card = (page: Page) => page.getByRole("article", { name: TITLE, exact: true })

describe.skipIf(!hasChromium)("catalogue and payouts in Chromium", () => {
  // The sandbox onboarding comes back to the journey's `base`: the session lives on it.
  const journey = browserJourney()

  it("a new provider sets up payouts in the sandbox, publishes a service, manages it and finds it in French and English", async () => {
    const { server, base, loggedInPage } = journey
    // A provider with no payout account yet.
    const provider = await operatorAccount(server, "PROVIDER", { firstName: "Élodie", lastName: "Gagné" })
    const signedIn = await loggedInPage(provider)
    const { page } = signedIn

    // Without a payment-ready account, service creation sends the provider to the required page.
    await page.goto(`${base}/services/create`)
    await page.waitForURL("**/provider/payments/required")
    await page.getByRole("heading", { name: "Compte de paiement requis" }).waitFor()
    await page.getByRole("link", { name: "Configurer mes paiements" }).click()
    await page.waitForURL("**/provider/payments/setup")
    await page.getByText("Aucun compte de paiement n'a encore été créé.").waitFor()
    expect(await page.getByRole("button", { name: /Ouvrir le tableau de bord/ }).isDisabled()).toBe(true)

    // The country is required, then the sandbox onboarding page is completed.
    await page.getByRole("button", { name: "Activer les paiements" }).click()
    await page.getByText("Veuillez sélectionner votre pays.").waitFor()
    await page.getByLabel("Pays de votre compte").selectOption("CA")
    await page.getByRole("button", { name: "Activer les paiements" }).click()
    await page.waitForURL("**/sandbox/connect/onboarding/**")
    await page.getByRole("button", { name: "Terminer l'inscription" }).click()
    await page.waitForURL("**/provider/payments/setup?onboarding=complete")
    await page.getByText("Configuration terminée : les paiements par carte sont activés sur votre compte.").waitFor()
    const status = page.locator("section.panel dl")
    await expect.poll(() => status.innerText()).toMatch(/Paiements par carte activés\s+Oui/)
    expect(await status.innerText()).toContain("Canada")

    // Creating the service (the form's own checks first).
    await page.getByRole("navigation", { name: "Navigation principale" }).getByRole("link", { name: "Créer un service" }).click()
    await page.waitForURL("**/services/create")
    await page.getByRole("button", { name: "Créer le service" }).click()
    await page.getByText("Veuillez remplir tous les champs obligatoires.").waitFor()
    await page.getByLabel("Titre").fill(TITLE)
    await page
      .getByLabel("Description")
      .fill("Entretien complet de votre logement avec des produits écologiques certifiés : cuisine, salle de bain et sols.")
    await page.getByLabel("Prix horaire").fill("42.50")
    await page.getByLabel("Durée (minutes)").fill("90")
    await page.getByLabel("Lieu").fill("Montréal, QC")
    // A rule only the server checks comes back under its field, and its message in the red banner.
    await page.getByLabel("Catégorie", { exact: true }).selectOption({ label: "Autre (nouvelle catégorie)" })
    await page.getByLabel("Nouvelle catégorie").fill("x")
    await page.getByRole("button", { name: "Créer le service" }).click()
    await page.locator(".field-error", { hasText: "Le nom de la catégorie doit contenir entre 2 et 60 caractères" }).waitFor()
    await page.getByLabel("Catégorie", { exact: true }).selectOption({ label: "Ménage" })
    await page.getByLabel("Latitude").fill("45.5019")
    await page.getByLabel("Longitude").fill("-73.5674")
    await page.getByRole("button", { name: "Créer le service" }).click()
    await page.waitForURL("**/services/my")
    const row = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: TITLE, exact: true }) })
    await row.getByText("Actif", { exact: true }).waitFor()
    // Intl separates the amount and the currency with a no-break space.
    expect((await row.innerText()).replace(/\s/g, " ")).toContain("42,50 $CA / heure")

    // Edit: the price changes, the duration keeps to steps of 15 minutes.
    await row.getByRole("link", { name: `Modifier : ${TITLE}` }).click()
    await page.waitForURL("**/edit")
    await page.getByLabel("Durée (minutes)").fill("100")
    await page.getByRole("button", { name: "Enregistrer les modifications" }).click()
    await page.getByText("La durée doit être d'au moins 15 minutes, par tranches de 15 minutes.").first().waitFor()
    await page.getByLabel("Durée (minutes)").fill("105")
    await page.getByLabel("Prix horaire").fill("45")
    await page.getByRole("button", { name: "Enregistrer les modifications" }).click()
    await page.waitForURL("**/services/my")
    await expect.poll(async () => (await row.innerText()).replace(/\s/g, " ")).toContain("45,00 $CA / heure")
    expect((await row.innerText()).replace(/\s/g, " ")).toContain("1 h 45 min")

    // Deactivate, then activate again.
    await row.getByRole("button", { name: `Désactiver : ${TITLE}` }).click()
    await row.getByText("Inactif", { exact: true }).waitFor()
    await row.getByRole("button", { name: `Activer : ${TITLE}`, exact: true }).click()
    await row.getByText("Actif", { exact: true }).waitFor()

    // Duplicate (the copy starts inactive), then delete the copy through the confirmation dialog.
    await row.getByRole("button", { name: `Dupliquer : ${TITLE}` }).click()
    const copy = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: `${TITLE} (copie)`, exact: true }) })
    await copy.getByText("Inactif", { exact: true }).waitFor()
    await copy.getByRole("button", { name: /^Supprimer/ }).click()
    const dialog = page.getByRole("alertdialog", { name: "Supprimer ce service ?" })
    await dialog.waitFor()
    await page.keyboard.press("Escape")
    await dialog.waitFor({ state: "detached" })
    await copy.getByRole("button", { name: /^Supprimer/ }).click()
    await dialog.getByRole("button", { name: "Supprimer" }).click()
    await copy.waitFor({ state: "detached" })
    await row.waitFor()

    // Found by /search and /services, typing without the accent, in French.
    await page.goto(`${base}/search`)
    await page.getByText("Que cherchez-vous ?").waitFor()
    await page.getByLabel("Mots-clés").fill("menage")
    await card(page).waitFor()
    expect(page.url()).toContain("q=menage")
    await page.goto(`${base}/services`)
    await page.getByLabel("Rechercher un service").fill("menage")
    await page.waitForURL("**/services?search=menage")
    await card(page).waitFor()
    expect(await card(page).innerText()).toContain("MÉNAGE")

    // Then in English: the same service, with the category named in English.
    await page.getByRole("button", { name: "English" }).click()
    await page.getByRole("heading", { name: "Services", level: 1 }).waitFor()
    await page.getByRole("button", { name: "Log out" }).waitFor()
    await page.goto(`${base}/search`)
    await page.getByText("What are you looking for?").waitFor()
    await page.getByLabel("Keywords").fill("menage")
    await card(page).waitFor()
    expect(await card(page).innerText()).toMatch(/cleaning/i)
    await page.goto(`${base}/services`)
    await page.getByLabel("Search for a service").fill("menage")
    await page.waitForURL("**/services?search=menage")
    await card(page).waitFor()
    await page.getByRole("article").first().waitFor()
    expect(await page.getByRole("article", { name: "Web development with React and Node" }).count()).toBe(0)
    await card(page)
      .getByRole("link", { name: /View details/ })
      .click()
    await page.getByRole("heading", { name: TITLE, level: 1 }).waitFor()
    expect(await page.locator('meta[property="og:title"]').getAttribute("content")).toBe(TITLE)
    // The owner sees no booking or contact button on their own service.
    expect(await page.getByRole("link", { name: "Contact the provider" }).count()).toBe(0)

    await closeWithoutErrors(signedIn)
  }, 120_000)
  it("the unfiltered list's first page ends with the best rated and the newest services, each opening its page, in French and English", async () => {
    const { server, base, newPage } = journey
    const newest = "Cours de céramique pour débutants"
    const serviceId = await serviceOf(server, await providerWithPayouts(server), { title: newest })
    for (const [locale, rated, recent] of [
      ["fr-FR", "Mieux notés", "Nouveautés"],
      ["en-US", "Top rated", "New services"]
    ] as const) {
      const visitor = await newPage(locale)
      const { page } = visitor
      await page.goto(`${base}/services`)
      const newestList = page.getByRole("region", { name: recent, exact: true })
      await newestList.getByRole("link").first().waitFor()
      expect(await newestList.getByRole("link").first().innerText()).toContain(newest)
      expect(await newestList.getByRole("listitem").count()).toBeLessThanOrEqual(6)
      // The seeded services have reviews: the best rated list is never empty here.
      const ratedList = page.getByRole("region", { name: rated, exact: true })
      expect(await ratedList.getByRole("listitem").count()).toBeGreaterThan(0)
      expect(await ratedList.getByRole("listitem").count()).toBeLessThanOrEqual(6)
      // A filter or a later page is a search: the lists are not shown.
      await page.goto(`${base}/services?search=ceramique`)
      await page.getByRole("article", { name: newest }).waitFor()
      expect(await page.getByRole("region", { name: recent, exact: true }).count()).toBe(0)
      await page.goto(`${base}/services`)
      await newestList.getByRole("link").first().click()
      await page.waitForURL(`**/services/${serviceId}`)
      await page.getByRole("heading", { name: newest, level: 1 }).waitFor()
      await closeWithoutErrors(visitor)
    }
  })
})
