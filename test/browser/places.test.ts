import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import sharp from "sharp"
import { newClient, newProvider } from "../support/accounts"
import { fileOf, sendForm } from "../profiles/support"
import { hasChromium } from "../support/browser"
import { browserJourney, closeWithoutErrors } from "../support/journey"

// Issue 14: a client looks for "ménage" near Montréal by typing the place (no accent), picks it from
// the suggestions, narrows the radius to 25 km and sees the near service with its photo and distance,
// not the far one, adds its provider to the favorites and finds them on /favorites; in French, then in
// English.

const word = `Fenêtres${Date.now().toString(36)}`
const NEAR = `Ménage ${word} au Plateau`
const FAR = `Ménage ${word} à Saint-Jérôme`

/** The card of a service in the results. */
const card = (page: Page, title: string) => page.getByRole("article", { name: title, exact: true })

const searchNearMontreal = async (page: Page, labels: { keywords: string; place: string; radius: string; option: RegExp }) => {
  await page.getByLabel(labels.keywords).fill(`ménage ${word}`)
  const place = page.getByRole("combobox", { name: labels.place })
  await place.fill("montreal")
  await page.getByRole("option", { name: labels.option }).first().click({ timeout: 15_000 })
  await page.waitForURL(/near=/, { timeout: 15_000 })
  await page.getByLabel(labels.radius).selectOption("25", { timeout: 15_000 })
  await page.waitForURL(/radius=25/, { timeout: 15_000 })
}

describe.skipIf(!hasChromium)("searching near a place in Chromium", () => {
  // Each step fails by itself rather than the whole test timing out.
  const STEP = { timeout: 15_000 }
  const journey = browserJourney({
    setup: async ({ server, api }) => {
      const provider = await newProvider(server, api)
      const client = await newClient(server, api)
      const montreal = (await api.get("/api/places?q=montreal&limit=1")).body.data.places[0]
      for (const [title, at, location] of [
        [NEAR, { lat: montreal.lat + 0.02, lng: montreal.lng + 0.02 }, "Montréal, QC"],
        [FAR, { lat: 45.78036, lng: -74.00365 }, "Saint-Jérôme, QC"]
      ] as const) {
        const created = await api.post(
          "/api/services",
          { title, description: "Lavage des vitres et ménage complet.", price: 35, duration: 60, location, ...at, categoryId: 5 },
          { token: provider.token }
        )
        expect(created.status, created.text).toBe(201)
        // The near one has two photos; the far one none (its card shows the category's placeholder).
        if (title === NEAR)
          for (const color of ["#2a9d8f", "#e9c46a"]) {
            const form = new FormData()
            const bytes = await sharp({ create: { width: 1200, height: 900, channels: 3, background: color } })
              .jpeg()
              .toBuffer()
            form.append("photo", fileOf(new Uint8Array(bytes), "photo.jpg"))
            const added = await sendForm(server, "POST", `/api/services/${created.body.data.service.id}/photos`, form, {
              token: provider.token
            })
            expect(added.status, added.text).toBe(201)
          }
      }
      return { client }
    }
  })

  /** The card's cover: a loaded photo with its srcset, lazy, its size known before it loads. */
  const expectCoverPhoto = async (page: Page, alt: string) => {
    const cover = card(page, NEAR).locator(".card-cover img")
    expect(await cover.getAttribute("alt")).toBe(alt)
    expect(await cover.getAttribute("srcset")).toMatch(/\/400 400w, .*\/800 800w, .*\/1600 1200w$/)
    expect([await cover.getAttribute("loading"), await cover.getAttribute("width"), await cover.getAttribute("height")]).toEqual([
      "lazy",
      "1200",
      "900"
    ])
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), STEP).toBe(true)
  }

  it("finds the service within 25 km of Montréal with its distance, in French and in English", async () => {
    const { api, client, loggedInPage } = journey
    // /search (signed-in users, as the spec says) is reachable from the navigation.
    const french = await loggedInPage(client)
    const { page } = french
    await page.getByRole("navigation", { name: "Navigation principale" }).getByRole("link", { name: "Recherche", exact: true }).click()
    await page.getByRole("heading", { name: "Recherche", level: 1 }).waitFor(STEP)
    expect(new URL(page.url()).pathname).toBe("/search")
    await searchNearMontreal(page, { keywords: "Mots-clés", place: "Lieu", radius: "Rayon", option: /^Montréal \(QC\), Canada$/ })
    await card(page, NEAR).waitFor(STEP)
    expect(await card(page, NEAR).innerText()).toMatch(/à \d+(,\d)?\s?km/)
    await expectCoverPhoto(page, `${NEAR}, photo`)
    expect(await card(page, FAR).count()).toBe(0)
    await page.getByText("Services à moins de 25 km de Montréal (QC), Canada.").waitFor(STEP)
    // Widened to 50 km, Saint-Jérôme (about 40 km away) is found too, after the nearer one.
    await page.getByLabel("Rayon").selectOption("50")
    await card(page, FAR).waitFor(STEP)
    expect(await card(page, FAR).locator(".card-cover.photo-placeholder").count()).toBe(1)
    const titles = await page.locator("article h3, article h2").allInnerTexts()
    expect(titles.indexOf(NEAR)).toBeLessThan(titles.indexOf(FAR))

    // The heart keeps the provider among the favorites; /favorites lists them; un-ticked, they leave.
    const heart = card(page, NEAR).locator("button.favorite-heart")
    expect(await heart.getAttribute("aria-label")).toMatch(/^Ajouter .+ aux favoris$/)
    await heart.click()
    await expect.poll(() => heart.getAttribute("aria-pressed")).toBe("true")
    // Every card of the same provider shows it too.
    expect(
      await card(page, FAR)
        .getByRole("button", { name: /des favoris$/ })
        .getAttribute("aria-pressed")
    ).toBe("true")
    await page.getByRole("navigation", { name: "Navigation principale" }).getByRole("link", { name: "Favoris", exact: true }).click()
    await page.getByRole("heading", { name: "Mes favoris", level: 1 }).waitFor(STEP)
    const favorite = page.locator(".favorite-cards article")
    await favorite.first().waitFor(STEP)
    expect(await favorite.count()).toBe(1)
    await favorite.getByRole("link", { name: /Ses services/ }).click()
    await card(page, NEAR).waitFor(STEP)
    await page.goBack()
    await favorite.getByRole("button", { name: /des favoris$/ }).click()
    await page.getByText("Aucun favori pour le moment").waitFor(STEP)
    await closeWithoutErrors(french)

    // The account's language is used on every device: the client now reads English.
    expect((await api.patch("/api/users/me", { preferredLanguage: "en" }, { token: client.token })).status).toBe(200)
    // Through the English login screen (an English browser).
    const english = await loggedInPage(client, "en-CA")
    const en = english.page
    await searchNearMontreal(en, {
      keywords: "Search for a service",
      place: "Location",
      radius: "Radius",
      option: /^Montréal \(QC\), Canada$/
    })
    await card(en, NEAR).waitFor(STEP)
    expect(await card(en, NEAR).innerText()).toMatch(/\d+(\.\d)?\s?km away/)
    await expectCoverPhoto(en, `${NEAR}, photo`)
    expect(await card(en, FAR).count()).toBe(0)
    const enHeart = card(en, NEAR).locator("button.favorite-heart")
    expect(await enHeart.getAttribute("aria-label")).toMatch(/^Add .+ to favorites$/)
    await enHeart.click()
    await expect.poll(() => enHeart.getAttribute("aria-pressed")).toBe("true")
    await en.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Favorites", exact: true }).click()
    await en.getByRole("heading", { name: "My favorites", level: 1 }).waitFor(STEP)
    await en.locator(".favorite-cards article").first().waitFor(STEP)
    expect(await en.locator(".favorite-cards article").count()).toBe(1)
    await closeWithoutErrors(english)
  }, 120_000)
})
