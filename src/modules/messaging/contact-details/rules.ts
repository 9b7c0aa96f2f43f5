/**
 * Private until booked (issue 15): a pure rule that finds contact details in a text (a message, a
 * booking's notes, a service's title) — email addresses (also spelled "arobase", "at", "(at)",
 * "point", "dot"), phone numbers (French and North-American formats, +33/0033/+1, spaced, dotted,
 * dashed, parenthesised, every digit apart, or written in words), mentions or links of other
 * messaging services (WhatsApp, wa.me, Telegram, t.me, Signal, Messenger, m.me, Instagram, "IG",
 * Snapchat, Skype, Viber, WeChat, Discord, TikTok), social handles ("@marie_d") and plain links
 * ("marie-plomberie.fr", "www.…", "https://…") — and replaces each with MASK. The text is read as
 * NFKC with its invisible characters removed, so full-width digits ("０６…") and a zero-width space
 * before "@" hide nothing.
 *
 * What it leaves alone, on purpose: prices ("1 250,50 €", "$1,200.00"), dates ("12/05/2026",
 * "2026-05-12", "12.05.2026"), times ("14:30", "14h30") and postcodes ("75001", "H2X 1Y4"): a phone
 * number needs 10 digits in one of the shapes below (or 8+ after an international prefix), which
 * none of those have. Property-tested in test/messaging/masking.property.test.ts.
 *
 * The order matters: literal emails first (so a spelled form cannot leave half of one), then spelled
 * emails, then services and links, then handles, then phones in digits (every digit apart, then in
 * groups), then in words (so a number's digits are not read as the tail of a spelled one), repeated until nothing changes, so masking twice is masking once.
 */

import { isSpelledNumber, MAY_HOLD_NUMBER_WORD, NUMBER_RUN } from "./spelled-digits"

export const MASK = "[•••]"

export interface Masking {
  readonly text: string
  readonly masked: boolean
}

// ---- Emails ----------------------------------------------------------------------------------

const LITERAL_EMAIL = /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}(?![\p{L}\p{N}-])/gu

/** Spelled "@" and ".": "marie arobase gmail point com", "marie (at) gmail [dot] com", "marie @ gmail . com". */
const SPELLED_AT = String.raw`(?:\s*@\s*|\s*[([{]\s*(?:at|@|arobase|arrobase)\s*[)\]}]\s*|\s+(?:at|arobase|arrobase)\s+)`
const SPELLED_DOT = String.raw`(?:\s*\.\s*|\s*[([{]\s*(?:dot|point|\.)\s*[)\]}]\s*|\s+(?:dot|point)\s+)`
const SPELLED_EMAIL = new RegExp(
  String.raw`(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+${SPELLED_AT}[\p{L}\p{N}-]+(?:${SPELLED_DOT}[\p{L}\p{N}-]+)+(?![\p{L}\p{N}-])`,
  "giu"
)
/** A spelled address counts only when it ends on a domain ending people type ("at home point final" is no address). */
const TOP_LEVEL_DOMAINS = new Set(
  "com fr ca net org io co be ch lu info me us uk de eu es it qc quebec biz pro app dev online live email mail gmail outlook hotmail yahoo".split(
    " "
  )
)
const lastLabel = (address: string) => {
  const labels = address.split(/\s*[([{]?\s*(?:dot|point|\.)\s*[)\]}]?\s*/i)
  return (labels[labels.length - 1] ?? "").toLowerCase()
}

// ---- Other messaging services ----------------------------------------------------------------

/** Not the tail of a word ("Salut.Me" is no t.me link). */
const SERVICE_LINK = String.raw`(?<![\p{L}\p{N}_-])(?:https?:\/\/)?(?:www\.)?(?:wa\.me|api\.whatsapp\.com|chat\.whatsapp\.com|t\.me|telegram\.(?:me|org|dog)|signal\.(?:me|org|group)|m\.me|messenger\.com|instagram\.com|instagr\.am|snapchat\.com|skype\.com|join\.skype\.com|viber\.com|discord\.gg|discord\.com)(?:\/[^\s]*)?`
/** A service's name, with the handle that follows it ("whatsapp: @marie", "insta marie_d", "skype live:marie"). */
const SERVICE_NAME = String.raw`(?<![\p{L}\p{N}])(?:whats\s?app|whatsapp|telegram|messenger|instagram|insta|snapchat|snap|skype|viber|wechat|discord|tik\s?tok)(?![\p{L}\p{N}])(?:\s*[:=-]?\s*(?:@[\p{L}\p{N}._-]*[\p{L}\p{N}_]|live:[\p{L}\p{N}._-]+))?`
/** "IG" is a service only with the handle it introduces ("IG @marie_d", "ig: @marie"). */
const IG_HANDLE = String.raw`(?<![\p{L}\p{N}])ig\s*[:=-]?\s*@[\p{L}\p{N}._-]*[\p{L}\p{N}_]`
/** "Signal" is also a word: only as the app ("sur Signal", "on Signal", "via Signal"). */
const SIGNAL_APP = String.raw`(?<![\p{L}\p{N}])(?:sur|on|via|par)\s+signal(?![\p{L}\p{N}])`
const SERVICES = new RegExp(`${SERVICE_LINK}|${SERVICE_NAME}|${IG_HANDLE}|${SIGNAL_APP}`, "giu")

// ---- Links and handles -----------------------------------------------------------------------

/** Domain endings of plain links ("marie-plomberie.fr", "atelier.quebec/contact"): letters only, so no date or price reads as one. */
// Not the endings that are also words glued after a full stop ("ok.Me", "Salut.Be"): "me", "be", "us", "it", "es", "de", "co".
const LINK_ENDINGS = "com|fr|ca|net|org|io|ch|lu|eu|qc|quebec|info|biz|app|dev|shop|online"
const LINK = new RegExp(
  String.raw`(?:https?:\/\/|www\.)[^\s]+|(?<![\p{L}\p{N}@._%+-])[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.(?:${LINK_ENDINGS})(?![\p{L}\p{N}-])(?:\/[^\s]*)?`,
  "giu"
)
/** A social handle standing alone ("@marie_d"): an "@" glued to a name of three characters or more, not ending on a full stop. */
const HANDLE = /(?<![\p{L}\p{N}._%+-])@[\p{L}_][\p{L}\p{N}._]+[\p{L}\p{N}_]/gu

// ---- Phones ----------------------------------------------------------------------------------

/** One optional separator between digit groups: a space, a dot or a dash, possibly spaced (" - "). */
const S = String.raw`[ \u00a0]?[.\-]?[ \u00a0]?`
/**
 * French: 0X XX XX XX XX, +33 X XX XX XX XX, 0033, +33 (0)X, grouped by two with one separator used
 * throughout (so "04-01-2084 00" is a date and a time, not a number), or every digit spaced.
 */
const FRENCH = String.raw`(?:(?:\+\s?|00)33\s?(?:\(0\)\s?)?|0)[1-9](?<fr>${S})\d{2}(?:\k<fr>\d{2}){3}|0 [1-9](?: \d){8}`
/** North American: (514) 555-1234, 514.555.1234, 5145551234, +1 514 555 1234, 1-800-555-1234. */
const NORTH_AMERICAN = String.raw`(?:(?:\+\s?|00)?1${S})?(?:\(\d{3}\)\s?\d{3}${S}\d{4}|\d{3}(?<na>${S})\d{3}\k<na>\d{4})`
/** Any other international number: + or 00, a country code, then at least 7 more digits in groups. */
const INTERNATIONAL = String.raw`(?:\+\s?|00)[1-9]\d{0,2}(?:${S}\d{1,4}){2,6}`
/** Not glued to a word, a number, a time ("15:00") or a date ("12/05"); not followed by more of one. */
const PHONES = new RegExp(
  String.raw`(?<![\p{L}\p{N}+:/]|\p{N}[.,\-])(?:${FRENCH}|${NORTH_AMERICAN}|${INTERNATIONAL})(?!\p{N}|[.,:/h\-]\p{N})`,
  "gu"
)
/** Every digit apart, with any separators ("5 1 4 - 5 5 5 - 1 2 3 4"): nine single digits in a row. */
const SPACED_DIGITS = /(?<!\p{N})\d(?!\p{N})(?:[ \u00a0.\-_]{1,3}\d(?!\p{N})){8,}/gu
const digitCount = (s: string) => s.replace(/\D/g, "").length

// ---- The rule --------------------------------------------------------------------------------

/**
 * Cheap tests that every match of a pattern needs (an "@", an "at"-like word, a service's name, nine
 * digits): most messages hold none, and skipping a pattern that cannot match changes nothing.
 */
const MAY_HOLD_AT = /@|\bat\b|arr?obase/i
const MAY_HOLD_SERVICE = /whats|wa\.me|t\.me|telegr|signal|m\.me|messenger|insta|snap|skype|viber|wechat|discord|tik|ig/i
const MAY_HOLD_LINK = /\.|:\/\//
/** A number masked has at least 9 digits. */
const mayHoldPhone = (text: string) => {
  let digits = 0
  for (let i = 0; i < text.length && digits < 9; i++) {
    const c = text.charCodeAt(i)
    if (c >= 48 && c <= 57) digits++
  }
  return digits >= 9
}

/** One pass of the four patterns, in order. */
const maskOnce = (text: string): string => {
  let out = text
  if (out.includes("@")) out = out.replace(LITERAL_EMAIL, MASK)
  if (MAY_HOLD_AT.test(out)) out = out.replace(SPELLED_EMAIL, (found) => (TOP_LEVEL_DOMAINS.has(lastLabel(found)) ? MASK : found))
  if (MAY_HOLD_SERVICE.test(out)) out = out.replace(SERVICES, MASK)
  if (MAY_HOLD_LINK.test(out)) out = out.replace(LINK, MASK)
  if (out.includes("@")) out = out.replace(HANDLE, MASK)
  if (mayHoldPhone(out)) out = out.replace(SPACED_DIGITS, MASK).replace(PHONES, (found) => (digitCount(found) >= 9 ? MASK : found))
  if (MAY_HOLD_NUMBER_WORD.test(out)) out = out.replace(NUMBER_RUN, (found) => (isSpelledNumber(found) ? MASK : found))
  return out
}

/**
 * What the patterns read: compatibility forms folded (full-width and styled digits and letters)
 * and invisible characters dropped (zero-width spaces and joiners, soft hyphens, direction marks),
 * except the joiner inside an emoji sequence.
 */
const INVISIBLE = /[\u00ad\u200b\u200c\u200e\u200f\u2060-\u2064\ufeff\u202a-\u202e\u2066-\u2069]|\u200d(?!\p{Extended_Pictographic})/gu
const readable = (text: string) => text.normalize("NFKC").replace(INVISIBLE, "")

/**
 * Passes until nothing changes: a detail masked late in a pass can free one an earlier pattern
 * skipped ("5145551234insta": "insta" is glued to the number until the number is masked). Each
 * change removes letters or digits and MASK holds none, so this ends; most messages take one pass.
 */
export const maskContactDetails = (text: string): Masking => {
  const read = readable(text)
  let out = read
  for (let next = maskOnce(out); next !== out; next = maskOnce(out)) out = next
  // Nothing found: the text as written (its folding was only for reading).
  return out === read ? { text, masked: false } : { text: out, masked: true }
}

/** Public text (a service's title or description) must hold none: it is shared only once booked. */
export const hasContactDetails = (text: string) => maskContactDetails(text).masked

// ---- Who reads what --------------------------------------------------------------------------

/**
 * Booking statuses after which the two may exchange contact details (the booking is agreed). A
 * conversation is "private" while its two members have no booking in one of these between them.
 */
export const BOOKED_STATUSES = ["CONFIRMED", "IN_PROGRESS", "SERVICE_RENDERED", "COMPLETED", "VALIDATED"] as const
