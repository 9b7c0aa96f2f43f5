import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { formatDate, formatPrice, formatRating } from "../../ui/format"
import { hasChromium, loaded, seriousViolations } from "../support/browser"
import { browserJourney, closeWithoutErrors, operatorAccount } from "../support/journey"
import type { TestServer } from "../support/server"

// The pages that sell (issue 16, item 2) as a visitor sees them, in French and English, on a phone
// and a desktop: image-first cards with stars, price and provider; the service page's key facts,
// provider card, reviews and booking box; a public profile without empty sections; /about and
// /contact. Every page: no sideways scroll, no serious or critical axe violation.

type ServiceJson = {
  id: string
  title: string
  price: number
  currency: string
  rating: number
  reviewCount: number
  userId: string
  user: { firstName: string; lastName: string }
}

const reviewedService = async (server: TestServer) => {
  const answer = (await (await fetch(`${server.url}/api/services?limit=50&sortBy=rating`)).json()) as {
    data: { services: Array<ServiceJson> }
  }
  const service = answer.data.services.find((s) => s.reviewCount > 0)
  if (!service) throw new Error("the demo data has no reviewed service")
  const reviews = (await (await fetch(`${server.url}/api/services/${service.id}/reviews`)).json()) as {
    data: { reviews: Array<{ createdAt: string }> }
  }
  return { service, firstReviewAt: reviews.data.reviews[0]!.createdAt }
}

/** A provider who filled nothing in: no description, specialities, experience, nor services. */
const blankProvider = async (server: TestServer) =>
  (await operatorAccount(server, "PROVIDER", { firstName: "Noémie", lastName: "Vide" })).id

/** No sideways scroll; on failure, the elements that stick out name the culprit. */
const noSidewaysScroll = async (page: Page, label: string) => {
  const { overflow, wide } = await page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const wide = [...document.querySelectorAll("body *")]
      .filter((node) => node.getBoundingClientRect().right > width + 1)
      .slice(-3)
      .map((node) => `${node.tagName.toLowerCase()}.${[...node.classList].join(".")}`)
    return { overflow: document.documentElement.scrollWidth - width, wide }
  })
  expect(overflow, `${label} scrolls sideways (${wide.join(", ")})`).toBeLessThanOrEqual(0)
}

const texts = {
  fr: {
    locale: "fr-FR",
    ratingName: (score: string, count: number) => `${score} sur 5, ${count} avis`,
    facts: ["Catégorie", "Durée", "Lieu", "Prix", "Fuseau horaire"],
    provider: "Votre prestataire",
    since: "Membre depuis",
    average: (score: string) => `Note moyenne : ${score} sur 5`,
    booking: "Réservation",
    book: "Réserver",
    viewDetails: /Voir les détails/,
    profileSections: ["À propos", "Spécialités", "Expérience et compétences", "Services proposés"],
    servicesHeading: "Services proposés",
    contact: "Contacter",
    contactNotice: "Connectez-vous pour contacter ce prestataire.",
    about: "Comment ça marche",
    contactForm: "Envoyer un message",
    subject: "Sujet",
    subjectOption: "Problème technique"
  },
  en: {
    locale: "en-US",
    ratingName: (score: string, count: number) => `${score} out of 5, ${count} ${count === 1 ? "review" : "reviews"}`,
    facts: ["Category", "Duration", "Location", "Price", "Time zone"],
    provider: "Your provider",
    since: "Member since",
    average: (score: string) => `Average rating: ${score} out of 5`,
    booking: "Booking",
    book: "Book now",
    viewDetails: /View details/,
    profileSections: ["About", "Specialities", "Experience and skills", "Services offered"],
    servicesHeading: "Services offered",
    contact: "Contact",
    contactNotice: "Log in to contact this provider.",
    about: "How it works",
    contactForm: "Send a message",
    subject: "Subject",
    subjectOption: "Technical problem"
  }
} as const

describe.skipIf(!hasChromium)("pages that sell in Chromium", () => {
  const journey = browserJourney()

  for (const language of ["fr", "en"] as const) {
    for (const width of [375, 1280]) {
      it(`shows cards, the service page, profiles, about and contact in ${language} at ${width} px`, async () => {
        const { server, base, newPage } = journey
        const text = texts[language]
        const lang = language
        const { service, firstReviewAt } = await reviewedService(server)
        const blankId = await blankProvider(server)
        const visitor = await newPage(text.locale, { viewport: { width, height: 900 } })
        const { page } = visitor
        const violations: Array<string> = []
        const check = async (label: string) => {
          await noSidewaysScroll(page, label)
          violations.push(...(await seriousViolations(page)).map((v) => `${label}: ${v}`))
        }
        const score = formatRating(lang, service.rating)
        const provider = `${service.user.firstName} ${service.user.lastName}`

        // ---- A card: stars named for assistive technology, price with its currency, provider ----
        await page.goto(`${base}/services?sortBy=rating&lang=${lang}`)
        const card = page.getByRole("article", { name: service.title, exact: true })
        await card.waitFor()
        await card.getByRole("img", { name: text.ratingName(score, service.reviewCount) }).waitFor()
        const cardText = (await card.innerText()).replace(/[\u00a0\u202f]/g, " ")
        expect(cardText).toContain(formatPrice(lang, service.price, service.currency).replace(/[\u00a0\u202f]/g, " "))
        expect(cardText).toContain(provider)
        expect(cardText).toContain(score)
        expect(await card.locator(".card-cover").count()).toBe(1)
        await check("/services")

        // ---- The service page ----
        await card.getByRole("link", { name: text.viewDetails }).click()
        await page.getByRole("heading", { name: service.title, level: 1 }).waitFor()
        await loaded(page)
        expect(await page.locator(".service-gallery-area").count()).toBe(1)
        const facts = await page.locator(".key-facts dt").allTextContents()
        for (const term of text.facts) expect(facts).toContain(term)
        const providerCard = page.getByRole("region", { name: text.provider })
        await providerCard.getByText(text.since).waitFor()
        expect(await providerCard.innerText()).toContain(provider)
        await page.getByText(text.average(score)).waitFor()
        const reviewDate = page.locator(".review time").first()
        expect(await reviewDate.innerText()).toBe(formatDate(lang, firstReviewAt, "long"))
        const box = page.getByRole("complementary", { name: text.booking })
        await box.waitFor()
        // Sticky beside the content on a desktop; on a phone the bar at the bottom offers the booking.
        if (width >= 1024) {
          expect(await box.evaluate((node) => getComputedStyle(node).position)).toBe("sticky")
          expect(await page.locator(".book-bar").isVisible()).toBe(false)
        } else {
          const bar = page.locator(".book-bar")
          expect(await bar.evaluate((node) => getComputedStyle(node).position)).toBe("fixed")
          await bar.getByRole("button", { name: text.book, exact: true }).waitFor()
          // Scrolled to the end, the bar covers nothing of the footer.
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
          const footer = await page.locator(".site-footer").boundingBox()
          const barBox = await bar.boundingBox()
          expect(footer!.y + footer!.height).toBeLessThanOrEqual(barBox!.y + 1)
        }
        await check(`/services/${service.id}`)

        // ---- Public profiles: the header and the services as a grid; empty sections left out ----
        await page.goto(`${base}/profile/${service.userId}`)
        await page.getByRole("heading", { name: provider, level: 1 }).waitFor()
        await loaded(page)
        await page.locator(".profile-hero").getByText(text.since).waitFor()
        await page.getByRole("heading", { name: text.servicesHeading }).waitFor()
        const grid = page.locator("ul.service-cards")
        expect(await grid.evaluate((node) => getComputedStyle(node).display)).toBe("grid")
        expect(await grid.evaluate((node) => getComputedStyle(node).listStyleType)).toBe("none")
        expect(await page.locator("main").innerText()).not.toContain("—")
        await check(`/profile/${service.userId}`)
        // Contact as a visitor: the login page says why, and logging in leads back to this profile.
        await page.locator(".page-actions").getByRole("link", { name: text.contact, exact: true }).click()
        await page.getByText(text.contactNotice).waitFor()
        expect(new URL(page.url()).searchParams.get("redirectTo")).toBe(`/profile/${service.userId}`)

        await page.goto(`${base}/profile/${blankId}`)
        await page.getByRole("heading", { name: "Noémie Vide", level: 1 }).waitFor()
        await loaded(page)
        await page.locator(".profile-hero").getByText(text.since).waitFor()
        for (const heading of text.profileSections) expect(await page.getByRole("heading", { name: heading, exact: true }).count()).toBe(0)
        expect(await page.locator("main").innerText()).not.toContain("—")
        await check(`/profile/${blankId}`)

        // ---- About and contact ----
        await page.goto(`${base}/about`)
        await page.getByRole("heading", { name: text.about }).waitFor()
        expect(await page.locator(".steps > li").count()).toBe(3)
        await check("/about")
        await page.goto(`${base}/contact`)
        const form = page.getByRole("region", { name: text.contactForm })
        await form.waitFor()
        expect(await form.getByLabel(text.subject).locator("option").allInnerTexts()).toContain(text.subjectOption)
        await check("/contact")

        expect(violations).toEqual([])
        await closeWithoutErrors(visitor)
      }, 120_000)
    }
  }
})
