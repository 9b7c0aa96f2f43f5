import type { Page } from "playwright-core"
import sharp from "sharp"
import { describe, expect, it } from "vitest"
import { newProvider, type Session } from "../support/accounts"
import { hasChromium } from "../support/browser"
import { browserJourney, closeWithoutErrors, type Journey } from "../support/journey"

// Issue 14: a provider adds three photos to a service on its edit form and puts the last one first
// with the keyboard ("move left" twice); the service page then shows them in that order in its
// gallery, which the arrow keys browse. In French, then in English.

/** The journey of this file: its provider adds the photos. */
type PhotosJourney = Journey & { readonly provider: Session }

const STEP = { timeout: 15_000 }
const picture = async (name: string, color: string) => ({
  name,
  mimeType: "image/png",
  buffer: await sharp({ create: { width: 1200, height: 900, channels: 3, background: color } })
    .png()
    .toBuffer()
})

const newService = async ({ api, provider }: PhotosJourney, title: string) => {
  const created = await api.post(
    "/api/services",
    { title, description: "Vitres, sols et cuisine.", price: 35, duration: 60, location: "Montréal, QC", categoryId: 5 },
    { token: provider.token }
  )
  expect(created.status, created.text).toBe(201)
  return created.body.data.service.id as string
}
const photoIds = async ({ api }: PhotosJourney, id: string) =>
  ((await api.get(`/api/services/${id}`)).body.data.service.photos as ReadonlyArray<{ id: string }>).map((p) => p.id)
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? null)

interface Labels {
  readonly heading: string
  readonly add: string
  readonly left: (n: number) => string
  readonly right: (n: number) => string
  readonly cover: string
  readonly movedFirst: string
  readonly alt: (title: string, n: number) => string
  readonly counter: (n: number) => string
  readonly next: string
}

/** The form's and the gallery's words, each in French and in English side by side. */
const WORDS: { readonly [K in keyof Labels]: readonly [fr: Labels[K], en: Labels[K]] } = {
  heading: ["Modifier le service", "Edit service"],
  add: ["Ajouter des photos", "Add photos"],
  left: [(n) => `Déplacer la photo ${n} vers la gauche`, (n) => `Move photo ${n} left`],
  right: [(n) => `Déplacer la photo ${n} vers la droite`, (n) => `Move photo ${n} right`],
  cover: ["Couverture", "Cover"],
  movedFirst: ["Photo déplacée en position 1 sur 3 : c'est la couverture.", "Photo moved to position 1 of 3: it is the cover."],
  alt: [(title, n) => `${title}, photo ${n} sur 3`, (title, n) => `${title}, photo ${n} of 3`],
  counter: [(n) => `Photo ${n} sur 3`, (n) => `Photo ${n} of 3`],
  next: ["Photo suivante", "Next photo"]
}
/** The words of one language. */
const labelsIn = (language: "fr" | "en") =>
  Object.fromEntries(Object.entries(WORDS).map(([key, both]) => [key, both[language === "fr" ? 0 : 1]])) as unknown as Labels

const addThreeAndReorder = async (journey: PhotosJourney, page: Page, labels: Labels, title: string) => {
  const { base } = journey
  const id = await newService(journey, title)
  await page.goto(`${base}/services/${id}/edit`)
  await page.getByRole("heading", { name: labels.heading, level: 1 }).waitFor(STEP)
  await page
    .getByLabel(labels.add)
    .setInputFiles([await picture("rouge.png", "#dd2222"), await picture("vert.png", "#22aa22"), await picture("bleu.png", "#2244dd")])
  const items = page.locator(".photo-item")
  await expect.poll(() => items.count(), STEP).toBe(3)
  const [red, green, blue] = await photoIds(journey, id)
  expect(await items.first().getByText(labels.cover).count()).toBe(1)

  // The third photo moved left twice, with the keyboard: the focus follows it.
  await page.getByRole("button", { name: labels.left(3) }).focus()
  await page.keyboard.press("Enter")
  await expect.poll(() => photoIds(journey, id), STEP).toEqual([red, blue, green])
  await expect.poll(() => focused(page), STEP).toBe(labels.left(2))
  await page.keyboard.press("Enter")
  await expect.poll(() => photoIds(journey, id), STEP).toEqual([blue, red, green])
  // First now, its "left" button is disabled: the focus is on its "right" one.
  await expect.poll(() => focused(page), STEP).toBe(labels.right(1))
  await page.getByText(labels.movedFirst).waitFor({ state: "attached", ...STEP })
  expect(await items.first().locator("img").getAttribute("src")).toContain(blue)

  // The service page: the blue photo first, and the arrow keys go through the gallery.
  await page.goto(`${base}/services/${id}`)
  const stage = page.locator(".gallery-stage figure")
  await stage.locator("img").waitFor(STEP)
  expect(await stage.locator("img").getAttribute("alt")).toBe(labels.alt(title, 1))
  expect(await stage.locator("img").getAttribute("src")).toContain(blue)
  await expect.poll(() => stage.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), STEP).toBe(true)
  await stage.focus()
  await page.keyboard.press("ArrowRight")
  await page.getByText(labels.counter(2)).waitFor(STEP)
  expect(await stage.locator("img").getAttribute("src")).toContain(red)
  await page.keyboard.press("End")
  expect(await stage.locator("img").getAttribute("src")).toContain(green)
  await page.getByRole("button", { name: labels.next }).click()
  expect(await stage.locator("img").getAttribute("src")).toContain(blue)

  // On a phone, the form's photos and the gallery fit the width: no sideways scroll.
  await page.setViewportSize({ width: 375, height: 812 })
  for (const path of [`/services/${id}`, `/services/${id}/edit`]) {
    await page.goto(`${base}${path}`)
    await page
      .locator(path.endsWith("edit") ? ".photo-item img" : ".gallery-stage img")
      .first()
      .waitFor(STEP)
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375)
    if (process.env.SCREENSHOTS)
      await page.screenshot({ path: `${process.env.SCREENSHOTS}/${title}${path.replace(/\//g, "_")}.png`, fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

/**
 * The target is 1.5 s, measured by `make bench` (LCP_LIMIT_MS=1500) on a quiet machine; inside
 * `make test` the files run side by side on two cores, so the bound there is a regression guard (a page
 * that waited for its pictures or a heavier first load would pass it).
 */
const LCP_LIMIT_MS = Number(process.env.LCP_LIMIT_MS ?? 3000)

describe.skipIf(!hasChromium)("service photos in Chromium", () => {
  const journey = browserJourney({ setup: async ({ server, api }) => ({ provider: await newProvider(server, api) }) })

  it("/services with 20 cards with photos: the Largest Contentful Paint is under 1.5 s (issue 16), at 1280 and 375 px", async () => {
    const { base, api, newPage } = journey
    const answer = (await api.get("/api/services?limit=20")).body.data.services as ReadonlyArray<{ photos: ReadonlyArray<unknown> }>
    // The demo services (seeded with photos) fill the first page.
    expect(answer.filter((s) => s.photos.length > 0)).toHaveLength(20)
    const figures: Array<{ viewport: string; lcpMs: number; element: string; layoutShift: number }> = []
    // A first visit warms the server (its first answers compile and cache); each measure is then a fresh visitor's first load.
    const warm = await newPage()
    await warm.page.goto(`${base}/services`)
    await warm.context.close()
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 375, height: 812 }
    ]) {
      const { context, page } = await newPage("fr-FR", { viewport })
      await page.addInitScript(() => {
        const w = window as unknown as { lcp: { time: number; element: string } }
        w.lcp = { time: 0, element: "" }
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<PerformanceEntry & { element?: Element | null }>)
            w.lcp = { time: entry.startTime, element: entry.element ? `${entry.element.tagName} ${entry.element.className}` : "" }
        }).observe({ type: "largest-contentful-paint", buffered: true })
      })
      await page.goto(`${base}/services`)
      await page.locator(".service-card").nth(19).waitFor(STEP)
      expect(await page.locator(".service-card .card-cover img").count()).toBe(20)
      // Every cover in view has loaded; then LCP has its last candidate.
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>(".card-cover img")]
          .filter((img) => img.getBoundingClientRect().top < window.innerHeight)
          .every((img) => img.complete && img.naturalWidth > 0)
      )
      await page.waitForTimeout(300)
      const lcp = await page.evaluate(() => (window as unknown as { lcp: { time: number; element: string } }).lcp)
      const layoutShift = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            let total = 0
            new PerformanceObserver((list) => {
              for (const e of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>)
                if (!e.hadRecentInput) total += e.value
            }).observe({ type: "layout-shift", buffered: true })
            setTimeout(() => resolve(total), 100)
          })
      )
      figures.push({ viewport: `${viewport.width}×${viewport.height}`, lcpMs: Math.round(lcp.time), element: lcp.element, layoutShift })
      await context.close()
    }
    console.log(JSON.stringify({ lcp: figures }))
    for (const figure of figures) {
      expect(figure.lcpMs, figure.viewport).toBeGreaterThan(0)
      expect(figure.lcpMs, figure.viewport).toBeLessThan(LCP_LIMIT_MS)
    }
    // The covers' frames have their 4:3 size before any picture arrives (no shift as they load);
    // the page's layout shift (recorded above) also counts the list replacing its loading state.
    const { context, page } = await newPage()
    await page.route("**/photos/**", () => {}) // the pictures never arrive
    await page.goto(`${base}/services`)
    await page.locator(".service-card").nth(19).waitFor(STEP)
    const frames = await page.locator(".service-card .card-cover").evaluateAll((all) => all.map((f) => f.getBoundingClientRect()))
    for (const frame of frames) expect(Math.abs(frame.height - (frame.width * 3) / 4)).toBeLessThan(1)
    await context.close()
  }, 60_000)

  it("a provider adds three photos and reorders them, in French and in English", async () => {
    const { api, provider, loggedInPage } = journey
    const french = await loggedInPage(provider)
    await addThreeAndReorder(journey, french.page, labelsIn("fr"), "Grand ménage du printemps")
    await closeWithoutErrors(french)

    // The account's language is used on every device: the provider now reads English.
    expect((await api.patch("/api/users/me", { preferredLanguage: "en" }, { token: provider.token })).status).toBe(200)
    // Through the English login screen (an English browser).
    const english = await loggedInPage(provider, "en-CA")
    await addThreeAndReorder(journey, english.page, labelsIn("en"), "Spring cleaning")
    await closeWithoutErrors(english)
  }, 150_000)
})
