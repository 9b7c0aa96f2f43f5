import type { Browser, Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import type { BookingDetail, Participant } from "../../src/modules/booking/ports"
import { bookingMail, receiptMail, reminderMail } from "../../src/modules/booking/mails"
import { NotificationEvents } from "../../src/modules/booking/domain"
import { ReportReasons } from "../../src/modules/messaging/rules"
import { composeMail, type OutgoingMail } from "../../src/modules/notifications"
import { actionMail, contactMail, digestMail, withUnsubscribeFooter } from "../../src/modules/notifications/domain"
import { ContactSubjects } from "../../src/modules/notifications/rules"
import { approvalMail, documentRequestedMail, rejectionMail } from "../../src/modules/onboarding/mails"
import { isMessageKey, type Language, type MessageKey, translate } from "../../src/platform/messages"
import { hasChromium, withServerAndChromium } from "../support/browser"
import type { TestServer } from "../support/server"
import { seedWalk, walk, type WalkData } from "../support/walker"

// Issue 16, item 5: every string in its language. A text the same in French and English is a string
// left untranslated, unless it is a proper name, a number, a date, an email, an address or what a
// user typed; a code (CANCELLED) or a catalog key (booking.notFound) is never shown.

/**
 * Words that are the same in both languages by nature (compared without case). Each is justified; keep
 * the list short: anything else the same in both is a string left untranslated.
 */
const SAME_IN_BOTH: ReadonlyMap<string, string> = new Map(
  Object.entries({
    marketplace: "the demo data's addresses (marketplace.local)",
    proxima: "the brand name (SITE_NAME's default)",
    stripe: "the payment provider's name",
    canada: "a country's name, the same in both",
    français: "a language's own name, shown as is in the language switch",
    english: "a language's own name, shown as is in the language switch",
    // French and English words spelt alike (each is the translation the catalog gives).
    ...Object.fromEntries(
      [
        "services",
        "service",
        "client",
        "message",
        "messages",
        "description",
        "notifications",
        "email",
        "total",
        "date",
        "documents",
        "photo",
        "commission",
        "commissions",
        "transactions",
        "contact",
        "menu",
        "audit",
        "type",
        "note",
        "page",
        "cookies",
        "performance",
        "certifications",
        "impact",
        "bio",
        "public",
        "motivation",
        "latitude",
        "longitude",
        "exceptions",
        "net",
        "administration",
        "actions",
        "action",
        "participants",
        "photos",
        "source"
      ].map((word) => [word, "the same word in French and English"])
    )
  })
)

/** The platform's own postal address (a proper name), shown on /contact. */
const PLATFORM_ADDRESS = ["1250, rue Sainte-Catherine Ouest", "Montréal (Québec) H3G 1P1"]

/** Capitals that are words in both languages, never a code of ours: file formats, currencies, taxes, date patterns. */
const ACRONYMS = new Set([
  "PDF",
  "CSV",
  "ICS",
  "JSON",
  "ZIP",
  "JPEG",
  "JPG",
  "PNG",
  "WEBP",
  "UTC",
  "API",
  "URL",
  "FAQ",
  "HTML",
  "SMS",
  "IBAN",
  "SEPA",
  "RIB",
  "SIRET",
  "TPS",
  "TVQ",
  "TVA",
  "RGPD",
  "GDPR",
  "CAD",
  "EUR",
  "USD",
  "GBP",
  "CHF",
  "JPY",
  "XOF",
  "XAF",
  "CA",
  "FR",
  "EN",
  // A date's format as the form explains it ("AAAA-MM-JJ" / "YYYY-MM-DD").
  "AAAA",
  "YYYY"
])

const hasLetter = (text: string) => /\p{L}/u.test(text)

/** `text` without what users typed (longest first: a full name before a first name), emails, links and ids. */
const withoutUserContent = (text: string, userContent: ReadonlyArray<string>) => {
  let rest = text
    .replace(/\S+@\S+\.\S+/g, " ")
    .replace(/https?:\/\/\S+/g, " ")
    // Ids: a booking's reference (uuid or its first 8 hex digits), a payout account's id.
    .replace(/\b[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}\b|\b(?=[0-9a-f]*\d)[0-9a-f]{8}\b|\bacct_\w+/g, " ")
  for (const content of userContent) if (content.length > 1 && rest.includes(content)) rest = rest.split(content).join(" ")
  // A truncated description ("…") or an abbreviated name ("Lucas B.").
  const cut = rest.trim().replace(/…$/, "")
  if (cut.length > 8 && userContent.some((content) => content.includes(cut))) return ""
  return rest.replace(/(^|\s)\p{Lu}\.(?=\s|$)/gu, " ")
}

/** A code shown raw: an enum value (CANCELLED, PAYMENT_FAILED) or a message key (booking.notFound). */
export const rawCodes = (text: string, userContent: ReadonlyArray<string> = []): Array<string> => {
  const found: Array<string> = []
  for (const word of withoutUserContent(text, userContent).match(/[\p{L}\d_]+(?:\.[\p{L}\d_]+)*/gu) ?? []) {
    if (isMessageKey(word)) found.push(word)
    else if (/^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(word) || (/^[A-Z]{3,}$/.test(word) && !ACRONYMS.has(word))) found.push(word)
  }
  return found
}

/**
 * French typography left in an English text ("You :"): a space before a colon, semicolon, question or
 * exclamation mark, outside what users typed. A text that starts with the separator (a screen-reader-only
 * " : name" after a button's label) is not a sentence.
 */
export const frenchSpacing = (text: string, userContent: ReadonlyArray<string> = []) =>
  /\S[\s\u00a0\u202f]+[:;!?](?=\s|$)/u.test(withoutUserContent(text, userContent).trim())

/** Whether `text`, the same in both languages, is allowed: no words, a name or typed content, a number, date, email or link. */
export const sameIsFine = (text: string, userContent: ReadonlyArray<string>) => {
  if (!hasLetter(text) || SAME_IN_BOTH.has(text.toLowerCase()) || PLATFORM_ADDRESS.includes(text)) return true
  // What is left: numbers, units, currency codes, times ("14 h"), separators, and words alike in both languages.
  const rest = withoutUserContent(text, userContent).replace(/\b(?:[A-Z]{2,4}\$?|\$[A-Z]{2,3}|h|km|min)\b/g, " ")
  return [...rest.matchAll(/\p{L}+/gu)].every((m) => SAME_IN_BOTH.has(m[0].toLowerCase()) || ACRONYMS.has(m[0]))
}

/**
 * The visible texts of the page: text nodes (screen-reader-only ones too), placeholders, images' alt, the
 * title. Not <code>: literal identifiers (a cookie's name) are the same in every language.
 */
const visibleTexts = (page: Page) =>
  page.evaluate(() => {
    const out: Array<string> = []
    const visible = (el: Element) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true })
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? "").replace(/\s+/g, " ").trim()
      const parent = node.parentElement
      if (!text || !parent || parent.closest("script, style, noscript, template, option:not(:checked), code")) continue
      if (visible(parent)) out.push(text)
    }
    for (const el of document.querySelectorAll<HTMLInputElement>("input[placeholder], textarea[placeholder]"))
      if (visible(el) && el.placeholder.trim()) out.push(el.placeholder.trim())
    for (const img of document.querySelectorAll("img[alt]"))
      if (visible(img) && img.getAttribute("alt")!.trim()) out.push(img.getAttribute("alt")!.trim())
    out.push(document.title)
    return out
  })

let server: TestServer
let browser: Browser
let data: WalkData

describe.skipIf(!hasChromium)("every string in its language (issue 16)", () => {
  withServerAndChromium(async (started) => {
    ;({ server, browser } = started)
    data = await seedWalk(server)
  })

  it("no screen shows a French text in English or the reverse, nor a raw code", async () => {
    const texts: Record<Language, Map<string, Set<string>>> = { fr: new Map(), en: new Map() }
    for (const language of ["fr", "en"] as const)
      await walk(server, browser, data, { language, width: 1280 }, async (page, label) => {
        texts[language].set(label, new Set(await visibleTexts(page)))
      })
    const userContent = [...data.userContent].sort((a, b) => b.length - a.length)
    const problems: Array<string> = []
    for (const [label, fr] of texts.fr) {
      const en = texts.en.get(label)
      expect(en, `${label} was visited in English`).toBeDefined()
      for (const text of fr) if (en!.has(text) && !sameIsFine(text, userContent)) problems.push(`${label}: same in both: "${text}"`)
      for (const [language, set] of [
        ["fr", fr],
        ["en", en!]
      ] as const)
        for (const text of set)
          for (const code of rawCodes(text, userContent)) problems.push(`${label} (${language}): raw code ${code} in "${text}"`)
      for (const text of en!) if (frenchSpacing(text, userContent)) problems.push(`${label} (en): French spacing in "${text}"`)
    }
    expect(texts.fr.size).toBeGreaterThan(45)
    expect(problems).toEqual([])
  }, 300_000)
})

// ---- Mails ------------------------------------------------------------------------------------------

const person = (language: Language, firstName: string, lastName: string): Participant => ({
  id: `${firstName}-id`,
  firstName,
  lastName,
  email: `${firstName.toLowerCase()}@example.com`,
  phoneNumber: "5145550100",
  preferredLanguage: language,
  timeZone: "America/Toronto"
})

const booking = (language: Language): BookingDetail =>
  ({
    id: "5f0c1a52-7a51-4c5e-9d3c-1e0f1f6b2a11",
    version: 3,
    updatedAt: new Date("2027-03-01T10:00:00Z"),
    startTime: new Date("2027-03-12T18:00:00Z"),
    endTime: new Date("2027-03-12T19:00:00Z"),
    address: "1200 rue Sainte-Catherine, Montréal",
    totalMinor: 9000,
    capturedMinor: 0,
    cancellationFeeMinor: 2500,
    resolvedCaptureMinor: 4500,
    currency: "CAD",
    rejectionReason: "Indisponible ce jour-là",
    service: { id: "s", title: "Grand ménage de printemps", description: "", categoryNameFr: "Ménage", categoryNameEn: "Cleaning" },
    client: person(language, "Lucas", "Bernard"),
    provider: person(language, "Marie", "Dubois"),
    review: null,
    reschedules: [
      {
        startTime: new Date("2027-03-14T18:00:00Z"),
        previousStartTime: new Date("2027-03-12T18:00:00Z"),
        totalMinor: 9000
      }
    ],
    dispute: { note: "Remboursement de la moitié" }
  }) as unknown as BookingDetail

/** Every mail template, rendered with sample data through the modules' composition code, in `language`. */
const allMails = (language: Language): Record<string, OutgoingMail | { subject: string; text: string }> => {
  const brand = { publicUrl: "https://marketplace.example", siteName: "Atelier Test" }
  const url = brand.publicUrl
  const to = { email: "lucas@example.com", firstName: "Lucas", preferredLanguage: language }
  const mails: Record<string, OutgoingMail | { subject: string; text: string }> = {}
  const sample = booking(language)
  for (const event of NotificationEvents)
    for (const side of ["client", "provider"] as const)
      if (isMessageKey(`mail.booking.${event}.${side}`))
        mails[`booking ${event} (${side})`] = bookingMail(event, sample[side], side, sample, brand)
  for (const kind of ["24h", "2h"] as const)
    for (const side of ["client", "provider"] as const)
      mails[`reminder ${kind} (${side})`] = reminderMail(kind, sample[side], side, sample, brand)
  mails.receipt = receiptMail(
    sample,
    { paidMinor: 9000, paidAt: new Date("2027-03-12T20:00:00Z") },
    new Uint8Array([37, 80, 68, 70]),
    brand
  )
  mails["application approved"] = approvalMail(to, brand)
  for (const resubmission of [
    { state: "FINALLY_REFUSED" },
    { state: "COOLDOWN", until: new Date("2027-04-01T12:00:00Z"), daysRemaining: 7 },
    { state: "CAN_RESUBMIT" }
  ] as const)
    mails[`application rejected ${resubmission.state}`] = rejectionMail(
      to,
      { reason: "Pièce d'identité illisible", resubmission, attemptsLeft: 2, timeZone: "Europe/Paris" },
      brand
    )
  mails["document requested"] = documentRequestedMail(to, { slot: "identityDocument", reason: "Photo floue" }, brand)
  for (const name of ["verify", "reset", "emailChange", "emailChanged", "export"] as const)
    mails[name] = actionMail({
      kind: "email-verification",
      to: to.email,
      language,
      firstName: "Lucas",
      link: `${url}/x`,
      keys: {
        subject: `mail.${name}.subject`,
        greeting: `mail.${name}.greeting`,
        body: `mail.${name}.body`,
        action: `mail.${name}.action`
      } as { subject: MessageKey; greeting: MessageKey; body: MessageKey; action: MessageKey },
      siteName: brand.siteName
    })
  for (const subject of ContactSubjects)
    mails[`contact ${subject}`] = contactMail(
      "support@example.com",
      { name: "Lucas Bernard", email: "lucas@example.com", subject, message: "Bonjour" },
      language
    )
  mails.digest = digestMail(
    to,
    [
      {
        id: "1",
        userId: "u",
        kind: "booking",
        subject: "Réservation confirmée",
        body: "Votre réservation",
        link: `${url}/bookings`,
        createdAt: new Date("2027-03-01T10:00:00Z")
      }
    ],
    { home: url, settings: `${url}/settings` },
    "Europe/Paris",
    brand.siteName
  )
  mails["digest (unsubscribe footer)"] = withUnsubscribeFooter(
    mails["application approved"] as OutgoingMail,
    language,
    `${url}/unsubscribe/t`
  )
  for (const reason of ReportReasons)
    mails[`moderation warning ${reason}`] = composeMail(
      "legal",
      to,
      translate(language, "mail.moderationWarning.subject"),
      [
        translate(language, "mail.moderationWarning.body", { reason: translate(language, `moderation.reason.${reason}`) }),
        translate(language, "mail.moderationWarning.note", { note: "Soyez courtois" })
      ],
      { label: translate(language, "mail.moderationWarning.action"), link: `${url}/messaging` },
      brand.siteName
    )
  mails["unsubscribe confirmation"] = composeMail(
    "unsubscribe-confirmation",
    to,
    translate(language, "mail.unsubscribeConfirm.subject"),
    [translate(language, "mail.unsubscribeConfirm.body")],
    { label: translate(language, "mail.unsubscribeConfirm.action"), link: `${url}/unsubscribe/t` },
    brand.siteName
  )
  return mails
}

/** A mail's texts to compare: its subject, then each line of its plain text. */
const mailTexts = (mail: { subject: string; text: string }) => [mail.subject, ...mail.text.split("\n").map((line) => line.trim())]

// What the sample data typed (the same in both languages), and the sample links.
const mailUserContent = [
  "Grand ménage de printemps",
  "1200 rue Sainte-Catherine, Montréal",
  "Indisponible ce jour-là",
  "Remboursement de la moitié",
  "Pièce d'identité illisible",
  "Photo floue",
  "Soyez courtois",
  "Réservation confirmée",
  "Votre réservation",
  "Lucas Bernard",
  "Marie Dubois",
  "Bonjour",
  "Lucas",
  "Marie",
  "--"
]

describe("every mail in its language (issue 16)", () => {
  it("no mail template has a line or subject the same in French and English, nor a raw code", () => {
    const fr = allMails("fr")
    const en = allMails("en")
    const problems: Array<string> = []
    expect(Object.keys(fr).length).toBeGreaterThan(60)
    for (const [name, frMail] of Object.entries(fr)) {
      const enTexts = new Set(mailTexts(en[name]!))
      for (const text of mailTexts(frMail))
        if (text !== "" && enTexts.has(text) && !sameIsFine(text.replace(/https?:\/\/\S+/g, ""), mailUserContent))
          problems.push(`${name}: same in both: "${text}"`)
      for (const [language, mail] of [
        ["fr", frMail],
        ["en", en[name]!]
      ] as const)
        for (const text of mailTexts(mail))
          for (const code of rawCodes(text.replace(/https?:\/\/\S+/g, ""))) problems.push(`${name} (${language}): raw ${code}`)
      for (const text of mailTexts(en[name]!))
        if (frenchSpacing(text, mailUserContent)) problems.push(`${name} (en): French spacing in "${text}"`)
    }
    expect(problems).toEqual([])
  })

  it("the support mail names the contact form's subject in words", () => {
    const mail = contactMail("support@example.com", { name: "Lucas", email: "l@example.com", subject: "technical", message: "Bonjour" })
    expect(mail.subject).toBe("Nouveau message de contact : problème technique")
    expect(mail.text).not.toMatch(/technical|From:|Subject:/)
  })
})
