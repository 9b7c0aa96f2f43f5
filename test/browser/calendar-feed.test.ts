import { describe, expect, it } from "vitest"
import { hasChromium, loaded, seriousViolations } from "../support/browser"
import { browserJourney, closeWithoutErrors } from "../support/journey"
import { bookingIn } from "../support/scenarios"

// A provider with a confirmed booking opens /provider/availability: the "subscribe from your calendar
// app" block shows a private URL that downloads their calendar (the booking in it); after a
// confirmed regeneration the block shows a new URL and the old one is refused. /settings lists
// booking reminders among the mails the preferences apply to.

describe.skipIf(!hasChromium)("the private calendar feed in Chromium", () => {
  const journey = browserJourney()

  it("shows a URL that downloads the provider's calendar, copies it, and regenerates it after confirmation", async () => {
    const { server, base, newPage, logIn } = journey
    // A confirmed booking in the provider's calendar.
    const { provider, bookingId } = await bookingIn(server, "confirmed", {
      service: { title: "Taille de haies", description: "Haies et arbustes, déchets emportés.", price: 45 },
      startsInHours: 30,
      hours: 2,
      address: "2 rue Rachel, Montréal"
    })

    const opened = await newPage()
    const { context, page } = opened
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base })
    await logIn(page, provider)
    await page.goto(`${base}/provider/availability`)
    const block = page.getByRole("region", { name: "S'abonner depuis votre application d'agenda" })
    await block.waitFor()
    await loaded(page)
    const address = block.getByLabel("Adresse de votre calendrier")
    const url = await address.inputValue()
    expect(url).toMatch(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/)
    expect(await seriousViolations(page)).toEqual([])
    expect(await block.getByRole("link", { name: "Télécharger le fichier .ics" }).getAttribute("href")).toBe(url)
    expect(await block.getByRole("link", { name: "Ouvrir dans mon application d'agenda" }).getAttribute("href")).toBe(
      url.replace(/^http:/, "webcal:")
    )

    // The URL downloads the calendar, with the booking in it.
    const feed = await page.request.get(`${base}${new URL(url).pathname}`)
    expect(feed.status()).toBe(200)
    expect(feed.headers()["content-type"]).toBe("text/calendar; charset=utf-8")
    const text = await feed.text()
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/)
    expect(text).toContain(`UID:booking-${bookingId}@marketplace`)
    expect(text).toContain("SUMMARY:Taille de haies")

    await block.getByRole("button", { name: "Copier l'adresse" }).click()
    await block.getByText("Adresse copiée.").waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url)

    // Regenerating asks first; cancelling keeps the address.
    await block.getByRole("button", { name: "Générer une nouvelle adresse" }).click()
    const dialog = page.getByRole("alertdialog")
    await dialog.getByRole("button", { name: "Annuler" }).click()
    await dialog.waitFor({ state: "detached" })
    expect(await address.inputValue()).toBe(url)
    await block.getByRole("button", { name: "Générer une nouvelle adresse" }).click()
    await dialog.getByRole("button", { name: "Générer une nouvelle adresse" }).click()
    await block.getByText("Nouvelle adresse créée. L'ancienne ne fonctionne plus : mettez à jour votre agenda.").waitFor()
    expect(await seriousViolations(page)).toEqual([])
    const fresh = await address.inputValue()
    expect(fresh).not.toBe(url)
    expect((await page.request.get(`${base}${new URL(url).pathname}`)).status()).toBe(404)
    expect((await page.request.get(`${base}${new URL(fresh).pathname}`)).status()).toBe(200)

    // The notification settings name booking reminders among the mails they govern.
    await page.goto(`${base}/settings`)
    await page.getByText("Rappels de réservation : 24 h et 2 h avant le début d'une réservation confirmée, aux deux parties").waitFor()
    await closeWithoutErrors(opened)
  }, 90_000)
})
