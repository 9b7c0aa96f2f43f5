import { describe, expect, it } from "vitest"
import { newClient, newProvider } from "../support/accounts"
import { hasChromium } from "../support/browser"
import { browserJourney, closeWithoutErrors, demoAccounts } from "../support/journey"

// Issue 15 in Chromium: a client (Chloé) writes her phone number to a provider (Nadia) they have no
// booking with; Nadia reads it masked, with the note explaining why, and answers; Nadia blocks
// Chloé, who can no longer send; Chloé reports Nadia's message; the admin hides it from /admin/reports.

describe.skipIf(!hasChromium)("safety in Chromium", () => {
  const journey = browserJourney()

  it("contact details masked until booked; block; report; the admin hides the message", async () => {
    const { server, base, api, loggedInPage } = journey
    const provider = await newProvider(server, api)
    const client = await newClient(server, api, { firstName: "Chloé", lastName: "Martin" })

    // ---- The client writes her number ----
    const asClient = await loggedInPage(client)
    const clientPage = asClient.page
    await clientPage.goto(`${base}/messaging?userId=${provider.id}`)
    const clientDialog = clientPage.getByRole("dialog", { name: "Nadia Gagnon" })
    await clientDialog.getByText("Pour votre sécurité, les coordonnées").waitFor()
    const box = clientDialog.getByLabel("Votre message")
    await box.fill("Bonjour, appelez-moi au 06 12 34 56 78 pour le cours de 45 € samedi à 14h30.")
    await box.press("Enter")
    const mine = clientDialog.locator(".message-mine").filter({ hasText: "06 12 34 56 78" })
    await mine.getByText("Coordonnées masquées pour Nadia jusqu'à une réservation confirmée.").waitFor()

    // ---- The provider reads it masked, with the note, and answers ----
    const asProvider = await loggedInPage(provider)
    const providerPage = asProvider.page
    await providerPage.goto(`${base}/messaging`)
    await providerPage.getByRole("button", { name: "Chloé Martin" }).click()
    const providerDialog = providerPage.getByRole("dialog", { name: "Chloé Martin" })
    const received = providerDialog.locator(".message").filter({ hasText: "Bonjour, appelez-moi" })
    await received.waitFor()
    expect(await received.locator(".message-content").innerText()).toBe(
      "Bonjour, appelez-moi au [•••] pour le cours de 45 € samedi à 14h30."
    )
    await received.getByText("Des coordonnées ont été masquées dans ce message.").waitFor()
    await providerDialog.getByText("Pour votre sécurité, les coordonnées").waitFor()
    expect(await providerDialog.innerText()).not.toContain("06 12 34 56 78")
    const providerBox = providerDialog.getByLabel("Votre message")
    await providerBox.fill("Payez-moi en liquide, on se parle sur WhatsApp @nadia_g")
    await providerBox.press("Enter")
    const answer = clientDialog.locator(".message").filter({ hasText: "Payez-moi en liquide" })
    await answer.waitFor()
    expect(await answer.locator(".message-content").innerText()).toBe("Payez-moi en liquide, on se parle sur [•••]")

    // ---- The provider blocks the client: neither can write, and the chat says so (no presence, no send box) ----
    await providerDialog.getByText("Chloé est en ligne").waitFor()
    await providerDialog.getByRole("button", { name: "Bloquer Chloé" }).click()
    await providerDialog.getByRole("button", { name: "Confirmer le blocage" }).click()
    await providerDialog.getByText("Vous avez bloqué Chloé", { exact: true }).waitFor()
    await providerDialog.getByText("Débloquez cette personne depuis vos paramètres").waitFor()
    expect(await providerDialog.getByLabel("Votre message").count()).toBe(0)
    expect(await providerDialog.getByText("Chloé est en ligne").count()).toBe(0)
    // The client, whose dialog was open, learns it from her next message.
    await box.fill("Vous êtes là ?")
    await box.press("Enter")
    await clientDialog
      .locator(".message-failed")
      .filter({ hasText: "Vous ne pouvez pas échanger avec cet utilisateur : l'un de vous a bloqué l'autre." })
      .waitFor()
    await clientDialog.getByText("Vous ne pouvez plus écrire à Nadia.").waitFor()
    expect(await box.count()).toBe(0)
    // Opened again from the list, the conversation says it at once.
    await clientPage.goto(`${base}/messaging`)
    await clientPage.getByRole("button", { name: "Nadia Gagnon" }).click()
    await clientDialog.getByText("Conversation fermée").waitFor()
    expect(await clientDialog.getByLabel("Votre message").count()).toBe(0)
    expect(await clientDialog.getByText(/Nadia est (en|hors) ligne/).count()).toBe(0)

    // ---- The client reports the provider's message ----
    await answer.getByRole("button", { name: "Signaler ce message" }).click()
    await answer.getByLabel("Motif du signalement").selectOption("OFF_PLATFORM")
    await answer.getByLabel("Précisions (facultatif)").fill("Demande un paiement en liquide.")
    await answer.getByRole("button", { name: "Envoyer le signalement" }).click()
    await answer.getByText("Signalement envoyé. Merci.").waitFor()

    // ---- The admin hides it from the moderation queue ----
    const asAdmin = await loggedInPage(demoAccounts.admin)
    const adminPage = asAdmin.page
    await adminPage.goto(`${base}/admin`)
    await adminPage.getByRole("navigation", { name: "Sections d'administration" }).getByRole("link", { name: "Signalements" }).click()
    await adminPage.getByRole("heading", { name: "Signalements" }).waitFor()
    const row = adminPage.getByRole("row").filter({ hasText: "Nadia Gagnon" }).filter({ hasText: "Chloé Martin" })
    await row.getByRole("link", { name: /Examiner/ }).click()
    await adminPage.getByText("Payez-moi en liquide, on se parle sur WhatsApp @nadia_g").waitFor()
    await adminPage.getByText("Demande un paiement en liquide.").waitFor()
    await adminPage.getByRole("button", { name: "Masquer le message" }).click()
    await adminPage.getByText("Message masqué", { exact: true }).waitFor()

    // Hidden for both participants (read again on reopening).
    await clientPage.goto(`${base}/messaging`)
    await clientPage.getByRole("button", { name: "Nadia Gagnon" }).click()
    const reopened = clientPage.getByRole("dialog", { name: "Nadia Gagnon" })
    await reopened.locator(".message").filter({ hasText: "Message masqué par la modération." }).waitFor()
    expect(await reopened.innerText()).not.toContain("Payez-moi en liquide")

    // The blocked list on /settings, with "unblock", for the provider.
    await providerPage.goto(`${base}/settings`)
    await providerPage.getByRole("heading", { name: "Utilisateurs bloqués" }).waitFor()
    await providerPage.getByRole("button", { name: "Débloquer Chloé Martin" }).click()
    await providerPage.getByText("Vous ne bloquez personne.").waitFor()

    await closeWithoutErrors(asClient, asProvider, asAdmin)
  }, 120_000)
})
