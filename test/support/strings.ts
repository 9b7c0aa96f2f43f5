import type { Page } from "playwright-core"
import { isMessageKey } from "../../src/platform/messages"

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
    france: "a country's name, the same in both (the demo provider in Paris banks there)",
    export: "the audit log's subject of a bulk export, the same word in both",
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
export const visibleTexts = (page: Page) =>
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
