import type { Browser } from "playwright-core"
import { describe, expect, it } from "vitest"
import {
  collectPageErrors,
  contextWithConsent,
  hasChromium,
  loaded,
  logInThroughUi,
  seriousViolations,
  withServerAndChromium
} from "../support/browser"
import { registration } from "../support/http"
import { bookingIn } from "../support/scenarios"
import type { TestServer } from "../support/server"

// A provider with a confirmed booking opens /provider/availability: the "subscribe from your calendar
// app" block shows a private URL that downloads their calendar (the booking in it); after a
// confirmed regeneration the block shows a new URL and the old one is refused. /settings lists
// booking reminders among the mails the preferences apply to.

let server: TestServer
let browser: Browser

describe.skipIf(!hasChromium)("the private calendar feed in Chromium", () => {
  withServerAndChromium((started) => void ({ server, browser } = started))

  it("shows a URL that downloads the provider's calendar, copies it, and regenerates it after confirmation", async () => {
    // A confirmed booking in the provider's calendar.
    const { provider, bookingId } = await bookingIn(server, "confirmed", {
      service: { title: "Taille de haies", description: "Haies et arbustes, déchets emportés.", price: 45 },
      startsInHours: 30,
      hours: 2,
      address: "2 rue Rachel, Montréal"
    })

    const context = await contextWithConsent(browser)
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url })
    const page = await context.newPage()
    const errors = collectPageErrors(page)
    await logInThroughUi(page, server.url, provider.email, registration().password as string)
    await page.goto(`${server.url}/provider/availability`)
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
    const feed = await page.request.get(`${server.url}${new URL(url).pathname}`)
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
    expect((await page.request.get(`${server.url}${new URL(url).pathname}`)).status()).toBe(404)
    expect((await page.request.get(`${server.url}${new URL(fresh).pathname}`)).status()).toBe(200)

    // The notification settings name booking reminders among the mails they govern.
    await page.goto(`${server.url}/settings`)
    await page.getByText("Rappels de réservation : 24 h et 2 h avant le début d'une réservation confirmée, aux deux parties").waitFor()
    expect(errors).toEqual([])
    await context.close()
  }, 90_000)
})
