import { describe, expect, it } from "vitest"
import { hasChromium, switchToEnglish } from "../support/browser"
import { browserJourney, closeWithoutErrors, demoAccounts } from "../support/journey"

// A conversation between two seeded accounts in two browsers: the client (Lucas, French) contacts
// the provider (Marie) from her service's page; Marie, in English with the conversation open, sees
// the message arrive live and answers; Lucas sees the answer and his message marked read.

describe.skipIf(!hasChromium)("messaging in Chromium", () => {
  const journey = browserJourney()

  it("the client contacts the provider from a service; both chat live; read state and unread badge follow", async () => {
    const { base, loggedInPage } = journey
    const services = (await (await fetch(`${base}/api/services?limit=100`)).json()) as {
      data: { services: Array<{ id: string; title: string; userId: string; user: { firstName: string } }> }
    }
    const service = services.data.services.find((s) => s.user.firstName === "Marie")!
    expect(service).toBeDefined()

    // ---- The client opens the conversation from the service page (French) ----
    const asClient = await loggedInPage(demoAccounts.client, "fr-FR")
    const client = asClient.page
    await client.goto(`${base}/services/${service.id}`)
    await client.getByRole("link", { name: "Contacter le prestataire" }).click()
    const clientDialog = client.getByRole("dialog", { name: "Marie Dubois" })
    await clientDialog.getByText("Aucun message pour l'instant. Écrivez le premier !").waitFor()
    await client.waitForURL(/\/messaging$/)

    // ---- The provider opens the same conversation (English) ----
    // Logged in through the French screen, then switched to English.
    const asProvider = await loggedInPage(demoAccounts.provider, "fr-CA")
    const provider = asProvider.page
    await switchToEnglish(provider)
    await provider.goto(`${base}/messaging`)
    await provider.getByRole("heading", { name: "Messaging" }).waitFor()
    await provider.getByRole("button", { name: "Lucas Bernard" }).click()
    const providerDialog = provider.getByRole("dialog", { name: "Lucas Bernard" })
    await providerDialog.getByText("Lucas is online").waitFor()
    await clientDialog.getByText("Marie est en ligne").waitFor()

    // ---- The client writes; the provider sees it arrive, typing first ----
    const clientBox = clientDialog.getByLabel("Votre message")
    await clientBox.pressSequentially("Bonjour Marie, ")
    await providerDialog.getByText("Lucas is typing…").waitFor()
    await clientBox.pressSequentially("êtes-vous disponible samedi ?")
    await clientBox.press("Shift+Enter")
    await clientBox.pressSequentially("Merci !")
    await expect.poll(() => clientBox.inputValue()).toBe("Bonjour Marie, êtes-vous disponible samedi ?\nMerci !")
    await clientBox.press("Enter")
    await expect.poll(() => clientBox.inputValue()).toBe("")
    const question = providerDialog.locator(".message").filter({ hasText: "êtes-vous disponible samedi ?" })
    await question.waitFor()
    expect(await question.locator(".message-content").innerText()).toBe("Bonjour Marie, êtes-vous disponible samedi ?\nMerci !")
    // Open on the provider's side: read at once, and the client sees it.
    const sent = clientDialog.locator(".message-mine").filter({ hasText: "samedi" })
    await sent.locator(".message-state", { hasText: "Lu" }).waitFor()

    // ---- The provider answers in English ----
    const providerBox = providerDialog.getByLabel("Your message")
    await providerBox.fill("Hello Lucas, yes: Saturday at 10 am works for me.")
    await providerDialog.getByRole("button", { name: "Send", exact: true }).click()
    await clientDialog.getByText("Hello Lucas, yes: Saturday at 10 am works for me.", { exact: true }).waitFor()
    // Announced to screen readers.
    await clientDialog.locator("[aria-live=polite]", { hasText: "Marie : Hello Lucas" }).waitFor({ state: "attached" })
    const answer = providerDialog.locator(".message-mine").filter({ hasText: "Saturday at 10 am" })
    await answer.locator(".message-state", { hasText: "Read" }).waitFor()

    // ---- The provider closes the dialog: the list shows the last message; a new one bumps the badge live ----
    // The list's refresh on closing is answered by the server at once but reaches the page only
    // after the next message has arrived live (as on a slow network): that older answer must not
    // wipe the badge, so the page asks again and shows the newer count.
    let releaseHeldList!: () => void
    const heldList = new Promise<void>((resolve) => (releaseHeldList = resolve))
    await provider.route(
      /\/api\/conversations\?/,
      async (route) => {
        const response = await route.fetch()
        await heldList
        await route.fulfill({ response })
      },
      { times: 1 }
    )
    await providerDialog.getByRole("button", { name: "Close" }).click()
    const card = provider.getByRole("article", { name: "Lucas Bernard" })
    await card.getByText("You: Hello Lucas, yes: Saturday at 10 am works for me.").waitFor()
    await clientBox.fill("Parfait, à samedi.")
    await clientBox.press("Enter")
    await card.getByText("1 unread").waitFor()
    const freshList = provider.waitForResponse((response) => /\/api\/conversations\?/.test(response.url()) && response.ok())
    releaseHeldList()
    await freshList // the held answer
    await provider.waitForResponse((response) => /\/api\/conversations\?/.test(response.url()) && response.ok()) // asked again
    await card.getByText("1 unread").waitFor()
    await card.getByText("Lucas: Parfait, à samedi.").waitFor()

    // ---- The real-time link drops and comes back: the banner warns at once (the browser says it is
    // offline; the heartbeat would take up to 15 s), then turns green for 5 s ----
    await asClient.context.setOffline(true)
    await client.getByText("Connexion perdue").first().waitFor({ timeout: 3_000 })
    await asClient.context.setOffline(false)
    await client.getByText("Connexion rétablie.").first().waitFor({ timeout: 30_000 })
    await client.getByText("Connexion rétablie.").first().waitFor({ state: "detached", timeout: 10_000 })

    await closeWithoutErrors(asClient, asProvider)
  }, 120_000)
})
