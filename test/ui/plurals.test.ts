// Counts are written by each language's plural rules (issue 16 item 3): the UI's ICU messages through
// Lingui's compiled catalogs, the server's through `translate` (Intl.PluralRules). French puts 0 and 1
// in the singular ("0 réservation"), English only 1 ("0 bookings").
import { setupI18n } from "@lingui/core"
import { generateMessageId } from "@lingui/message-utils/generateMessageId"
import { describe, expect, it } from "vitest"
import { translate } from "../../src/platform/messages"
import { messages as en } from "../../ui/locales/en/messages"
import { messages as fr } from "../../ui/locales/fr/messages"

const render = (locale: "fr" | "en", source: string, values: Record<string, unknown>) => {
  const i18n = setupI18n({ locale, messages: { [locale]: locale === "fr" ? fr : en } })
  const id = generateMessageId(source)
  expect(locale === "fr" ? fr[id] : en[id], `no compiled message for «${source}»`).toBeDefined()
  return i18n._(id, values)
}

const cases: ReadonlyArray<{
  source: string
  name: string
  extra?: Record<string, unknown>
  fr: [string, string, string]
  en: [string, string, string]
}> = [
  {
    source: "{0, plural, one {# réservation} other {# réservations}}",
    name: "0",
    fr: ["0 réservation", "1 réservation", "2 réservations"],
    en: ["0 bookings", "1 booking", "2 bookings"]
  },
  {
    source: "{0, plural, one {# service} other {# services}}",
    name: "0",
    fr: ["0 service", "1 service", "2 services"],
    en: ["0 services", "1 service", "2 services"]
  },
  {
    source: "{reviews, plural, one {Note {score}/5 (# avis)} other {Note {score}/5 (# avis)}}",
    name: "reviews",
    extra: { score: "4,5" },
    fr: ["Note 4,5/5 (0 avis)", "Note 4,5/5 (1 avis)", "Note 4,5/5 (2 avis)"],
    en: ["Rated 4,5/5 (0 reviews)", "Rated 4,5/5 (1 review)", "Rated 4,5/5 (2 reviews)"]
  },
  {
    source: "{0, plural, one {# utilisateur} other {# utilisateurs}}",
    name: "0",
    fr: ["0 utilisateur", "1 utilisateur", "2 utilisateurs"],
    en: ["0 users", "1 user", "2 users"]
  },
  {
    source: "{n, plural, one {# étoile} other {# étoiles}}",
    name: "n",
    fr: ["0 étoile", "1 étoile", "2 étoiles"],
    en: ["0 stars", "1 star", "2 stars"]
  },
  {
    source: "{0, plural, one {# paiement} other {# paiements}}",
    name: "0",
    fr: ["0 paiement", "1 paiement", "2 paiements"],
    en: ["0 payments", "1 payment", "2 payments"]
  }
]

describe("plurals in the UI's catalogs", () => {
  for (const c of cases) {
    it(`«${c.source}» with 0, 1, 2 in French and English`, () => {
      for (const locale of ["fr", "en"] as const) {
        expect([0, 1, 2].map((n) => render(locale, c.source, { [c.name]: n, ...c.extra }))).toEqual(c[locale])
      }
    })
  }
})

describe("plurals in the server's messages", () => {
  it("a resubmission's waiting days and the rate limit's seconds follow each language's rules", () => {
    const days = (language: "fr" | "en", n: number) => translate(language, "onboarding.tooEarly", { days: String(n), date: "2026-12-01" })
    expect([0, 1, 2].map((n) => days("fr", n))).toEqual([
      "Vous pourrez soumettre à nouveau votre candidature dans 0 jour, à partir du 2026-12-01.",
      "Vous pourrez soumettre à nouveau votre candidature dans 1 jour, à partir du 2026-12-01.",
      "Vous pourrez soumettre à nouveau votre candidature dans 2 jours, à partir du 2026-12-01."
    ])
    expect([0, 1, 2].map((n) => days("en", n))).toEqual([
      "You can submit your application again in 0 days, from 2026-12-01.",
      "You can submit your application again in 1 day, from 2026-12-01.",
      "You can submit your application again in 2 days, from 2026-12-01."
    ])
    expect(translate("fr", "request.tooManyRequests", { seconds: "1" })).toBe("Trop de tentatives. Réessayez dans 1 seconde.")
    expect(translate("en", "request.tooManyRequests", { seconds: "1" })).toBe("Too many attempts. Try again in 1 second.")
    expect(translate("en", "request.tooManyRequests", { seconds: "30" })).toBe("Too many attempts. Try again in 30 seconds.")
    expect([1, 3].map((n) => translate("fr", "mail.digest.subject", { count: String(n) }))).toEqual([
      "Votre résumé : 1 notification",
      "Votre résumé : 3 notifications"
    ])
    expect([1, 3].map((n) => translate("en", "mail.digest.subject", { count: String(n) }))).toEqual([
      "Your digest: 1 notification",
      "Your digest: 3 notifications"
    ])
    expect(translate("en", "availability.noticeTooShort", { minutes: "1" })).toBe(
      "This provider needs at least 1 minute's notice before the start."
    )
  })

  it("no server message is left with a hand-made plural such as «jour(s)»", async () => {
    const { fr: french, en: english } = await import("../../src/platform/messages")
    for (const text of [...Object.values(french), ...Object.values(english)]) expect(text).not.toMatch(/\w\(s\)/)
  })
})
