import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { deflateSync } from "node:zlib"
import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { hasChromium } from "../support/browser"
import { browserJourney, closeWithoutErrors, demoAccounts, operatorAccount } from "../support/journey"

// A client applies to become a provider with four real files, the admin rejects with a reason,
// the client sees it, resubmits once the cooldown is over (moved into the past in the database),
// the admin verifies the documents and approves, and the client now has the provider navigation.

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
const chunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, "ascii"), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}
/** A valid 2×2 RGB PNG. */
const tinyPng = () => {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(2, 0)
  header.writeUInt32BE(2, 4)
  header.set([8, 2, 0, 0, 0], 8)
  const rows = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255])
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0))
  ])
}
const tinyPdf = () =>
  Buffer.from(
    "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 100 100]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
  )

describe.skipIf(!hasChromium)("becoming a provider in Chromium", () => {
  const journey = browserJourney()

  const APPLICANT_PHONE = "5145550142"
  const LONG_FILE_NAME = "justificatif-de-domicile-hydro-quebec-janvier-2026.pdf"
  const freshClient = () =>
    operatorAccount(journey.server, "CLIENT", { firstName: "Camille", lastName: "Tremblay", phoneNumber: APPLICANT_PHONE })

  const openApplication = async (admin: Page, email: string) => {
    await admin.goto(`${journey.base}/admin/applications`)
    await admin.getByLabel("Rechercher un candidat").fill(email)
    await admin.getByRole("button", { name: "Rechercher" }).click()
    const row = admin.getByRole("row").filter({ hasText: email })
    await row.waitFor()
    // The spec's columns (name, email, phone, status, …) and the total from the pagination.
    expect(await row.getByRole("cell").nth(2).textContent()).toBe(APPLICANT_PHONE)
    await admin.getByText("1 candidature", { exact: true }).waitFor()
    await row.getByRole("link", { name: /Voir/ }).click()
    await admin.getByRole("heading", { name: "Candidature de Camille Tremblay", level: 1 }).waitFor()
  }

  it("a client applies, is rejected, resubmits after the cooldown and is approved", async () => {
    const { server, base, logIn, loggedInPage } = journey
    const client = await freshClient()
    const asClient = await loggedInPage(client)
    const { page } = asClient

    // The form: its own checks first, then four real files.
    await page.getByRole("navigation", { name: "Navigation principale" }).getByRole("link", { name: "Devenir prestataire" }).click()
    await page.waitForURL("**/become-provider")
    // The spec's back button to the profile.
    expect(await page.getByRole("link", { name: "Retour au profil" }).getAttribute("href")).toBe("/profile")
    await page.getByRole("button", { name: "Envoyer ma candidature" }).click()
    await page.getByText("Veuillez décrire vos compétences.").waitFor()
    // No birth date on the profile: the date field is required, said before anything is sent.
    await page.getByText("Indiquez votre date de naissance.").waitFor()
    expect(await page.getByLabel("Date de naissance").getAttribute("type")).toBe("date")
    expect(await page.getByLabel("Photo de profil").getAttribute("accept")).toContain("image/png")
    await page.getByLabel("Compétences").fill("Plomberie, petite électricité")
    await page.getByLabel("Expérience").fill("Huit ans en entreprise de rénovation.")
    await page.getByLabel("Motivation").fill("Travailler à mon compte auprès de clients du quartier.")
    await page.getByLabel("Date de naissance").fill("1990-04-12")
    const png = tinyPng()
    await page.getByLabel("Pièce d'identité").setInputFiles({ name: "identite.png", mimeType: "image/png", buffer: png })
    await page
      .getByLabel("Justificatif de domicile")
      .setInputFiles({ name: LONG_FILE_NAME, mimeType: "application/pdf", buffer: tinyPdf() })
    await page.getByLabel("Document bancaire (RIB)").setInputFiles({ name: "rib.pdf", mimeType: "application/pdf", buffer: tinyPdf() })
    await page.getByLabel("Photo de profil").setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: png })
    await page.getByRole("button", { name: "Envoyer ma candidature" }).click()
    await page.getByText("En attente", { exact: true }).waitFor()

    // The admin rejects with a reason (a blank one is refused first).
    const asAdmin = await loggedInPage(demoAccounts.admin)
    const admin = asAdmin.page
    await openApplication(admin, client.email)
    // A long file name is cut to 40 characters, its extension kept, the whole name in its title.
    expect(await admin.getByTitle(LONG_FILE_NAME).textContent()).toBe("justificatif-de-domicile-hydro-queb….pdf")
    await admin.getByRole("button", { name: "Refuser la candidature" }).click()
    await admin.getByText("Veuillez saisir un motif de refus.").waitFor()
    await admin.getByLabel("Motif du refus").fill("Le justificatif de domicile est illisible.")
    await admin.getByRole("button", { name: "Refuser la candidature" }).click()
    await admin.getByText("Refusée", { exact: true }).first().waitFor()
    await admin.getByText(/Nouvelle soumission possible dans 7 jours/).waitFor()

    // The client sees the rejection and the cooldown.
    await page.reload()
    await page.getByText("Le justificatif de domicile est illisible.").waitFor()
    await page.getByText(/Refus : 1 sur 3 tentatives/).waitFor()
    await page.getByText(/Nouvelle soumission possible dans 7 jours/).waitFor()
    expect(await page.getByRole("button", { name: "Modifier et renvoyer ma candidature" }).count()).toBe(0)

    // The cooldown is over.
    await server.run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql`UPDATE provider_applications SET next_submission_date = now() - interval '1 minute'
            WHERE user_id = (SELECT id FROM users WHERE email = ${client.email})`
      )
    )
    await page.reload()
    await page.getByRole("button", { name: "Modifier et renvoyer ma candidature" }).click()
    // The form comes pre-filled; cancelling goes back to the status view.
    expect(await page.getByLabel("Compétences").inputValue()).toBe("Plomberie, petite électricité")
    await page.getByRole("button", { name: "Annuler la modification" }).click()
    await page.getByRole("button", { name: "Modifier et renvoyer ma candidature" }).click()
    await page
      .getByLabel("Justificatif de domicile")
      .setInputFiles({ name: "facture-2.pdf", mimeType: "application/pdf", buffer: tinyPdf() })
    await page.getByRole("button", { name: "Renvoyer ma candidature" }).click()
    await page.getByText("En attente", { exact: true }).waitFor()

    // The admin verifies the four documents and approves.
    await openApplication(admin, client.email)
    const documents = admin.locator("li.document")
    expect(await documents.count()).toBe(4)
    for (let index = 0; index < 4; index++) {
      const item = documents.nth(index)
      await item.getByRole("radio", { name: "Vérifié" }).check()
      await item.getByRole("button", { name: /Enregistrer la vérification/ }).click()
      await item.locator("strong", { hasText: "Vérifié" }).waitFor()
    }
    await admin.getByRole("button", { name: "Approuver la candidature" }).click()
    const dialog = admin.getByRole("alertdialog", { name: "Approuver cette candidature ?" })
    await dialog.getByRole("button", { name: "Approuver" }).click()
    await admin.getByText("Approuvée", { exact: true }).first().waitFor()

    // Logged in again, the new provider has the provider navigation.
    await page.getByRole("button", { name: "Déconnexion" }).first().click()
    await logIn(page, client)
    await page.getByRole("navigation", { name: "Navigation principale" }).getByRole("link", { name: "Mes services" }).waitFor()
    await page.goto(`${base}/become-provider`)
    await page.waitForURL("**/services/my")

    await closeWithoutErrors(asClient, asAdmin)
  }, 150_000)

  it("a user edits the own profile and photo; a visitor sees a provider's public profile", async () => {
    const { base, newPage, loggedInPage } = journey
    const asClient = await loggedInPage(await freshClient())
    const { page } = asClient
    await page.goto(`${base}/profile`)
    await page.getByRole("heading", { name: "Mon profil", level: 1 }).waitFor()
    await page.getByRole("button", { name: "Modifier mon profil" }).click()
    await page.getByRole("button", { name: "Enregistrer" }).click()
    // Nothing changed: said, and the editor closes (the spec's profile edit).
    await page.getByText("Aucune modification à enregistrer.").waitFor()
    await page.getByRole("button", { name: "Modifier mon profil" }).click()
    const chips = page.getByLabel("Spécialités")
    await chips.fill("  Plomberie  ")
    await chips.press("Enter")
    await chips.fill("plomberie")
    await chips.press("Enter")
    await page.getByText("Déjà dans la liste.").waitFor()
    await chips.fill("   ")
    await page.getByRole("button", { name: "Ajouter : Spécialités" }).click()
    await page.getByLabel("Bio").fill("Bricoleuse du Plateau.")
    await page.getByLabel("Années d'expérience").fill("8")
    await page.getByRole("button", { name: "Enregistrer" }).click()
    await page.getByRole("button", { name: "Modifier mon profil" }).waitFor()
    const facts = page.locator("dl.profile-facts")
    await expect.poll(() => facts.innerText()).toContain("Bricoleuse du Plateau.")
    expect(await facts.locator(".chip").allInnerTexts()).toEqual(["Plomberie"])
    await page.locator("#avatar-input").setInputFiles({ name: "moi.png", mimeType: "image/png", buffer: tinyPng() })
    await page.getByRole("button", { name: "Supprimer la photo" }).waitFor()
    await page.locator("img.profile-photo").waitFor()
    await page.getByRole("button", { name: "Supprimer la photo" }).click()
    await page.getByRole("button", { name: "Supprimer la photo" }).waitFor({ state: "detached" })
    // The profile's link copied: its notice shows for 1.5 s, as the services' share button's does.
    await page.getByRole("button", { name: "Copier le lien du profil" }).click()
    const copied = page.locator(".share-notice").filter({ hasText: /Lien copié|Copie impossible/ })
    await copied.waitFor()
    const shownAt = Date.now()
    await copied.waitFor({ state: "detached", timeout: 5_000 })
    expect(Date.now() - shownAt).toBeLessThan(2_500)
    await closeWithoutErrors(asClient)

    // A visitor: Marie's public profile with her services; favorite asks to log in first.
    const services = (await (await fetch(`${base}/api/services?limit=1`)).json()) as { data: { services: Array<{ userId: string }> } }
    const providerId = services.data.services[0]!.userId
    const visitor = await newPage()
    await visitor.page.goto(`${base}/profile/${providerId}`)
    await visitor.page.getByText("Prestataire", { exact: true }).waitFor()
    await visitor.page.getByRole("heading", { name: "Services proposés" }).waitFor()
    await visitor.page.locator(".service-cards article").first().waitFor()
    await visitor.page.getByRole("button", { name: "Ajouter aux favoris" }).click()
    // The login page says why, and leads back to the profile.
    await visitor.page.waitForURL(`**/login?redirectTo=${encodeURIComponent(`/profile/${providerId}`)}&message=favorite`)
    await visitor.page.getByText("Connectez-vous pour ajouter ce prestataire à vos favoris.").waitFor()
    await visitor.page.goto(`${base}/profile/00000000-0000-4000-8000-000000000000`)
    await visitor.page.getByRole("heading", { name: "Profil introuvable" }).waitFor()
    await visitor.context.close()
  }, 90_000)
})
