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

interface PluralCase {
  readonly source: string
  readonly name: string
  readonly extra?: Record<string, unknown>
  /** The message for 0, 1 and 2. */
  readonly fr: readonly [string, string, string]
  readonly en: readonly [string, string, string]
}

/** "{name, plural, one {# word} other {# words}}": 0 and 1 take the French singular, only 1 the English one. */
const countOf = (name: string, [frOne, frOther]: [string, string], [enOne, enOther]: [string, string]): PluralCase => ({
  source: `{${name}, plural, one {# ${frOne}} other {# ${frOther}}}`,
  name,
  fr: [`0 ${frOne}`, `1 ${frOne}`, `2 ${frOther}`],
  en: [`0 ${enOther}`, `1 ${enOne}`, `2 ${enOther}`]
})

const cases: ReadonlyArray<PluralCase> = [
  countOf("0", ["réservation", "réservations"], ["booking", "bookings"]),
  countOf("0", ["service", "services"], ["service", "services"]),
  {
    source: "{reviews, plural, one {Note {score}/5 (# avis)} other {Note {score}/5 (# avis)}}",
    name: "reviews",
    extra: { score: "4,5" },
    fr: ["Note 4,5/5 (0 avis)", "Note 4,5/5 (1 avis)", "Note 4,5/5 (2 avis)"],
    en: ["Rated 4,5/5 (0 reviews)", "Rated 4,5/5 (1 review)", "Rated 4,5/5 (2 reviews)"]
  },
  countOf("0", ["utilisateur", "utilisateurs"], ["user", "users"]),
  countOf("n", ["étoile", "étoiles"], ["star", "stars"]),
  countOf("0", ["paiement", "paiements"], ["payment", "payments"])
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
