/**
 * Private until booked (issue 15): a pure rule that finds contact details in a message's text —
 * email addresses (also spelled "arobase", "at", "(at)", "point", "dot"), phone numbers (French and
 * North-American formats, +33/0033/+1, spaced, dotted, dashed, parenthesised) and mentions or links
 * of other messaging services (WhatsApp, wa.me, Telegram, t.me, Signal, Messenger, m.me, Instagram,
 * Snapchat, Skype, Viber, WeChat, Discord) — and replaces each with MASK.
 *
 * What it leaves alone, on purpose: prices ("1 250,50 €", "$1,200.00"), dates ("12/05/2026",
 * "2026-05-12", "12.05.2026"), times ("14:30", "14h30") and postcodes ("75001", "H2X 1Y4"): a phone
 * number needs 10 digits in one of the shapes below (or 8+ after an international prefix), which
 * none of those have. Property-tested in test/messaging/masking.property.test.ts.
 *
 * The order matters: literal emails first (so a spelled form cannot leave half of one), then spelled
 * emails, then services, then phones, repeated until nothing changes, so masking twice is masking once.
 */

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

const SERVICE_LINK = String.raw`(?:https?:\/\/)?(?:www\.)?(?:wa\.me|api\.whatsapp\.com|chat\.whatsapp\.com|t\.me|telegram\.(?:me|org|dog)|signal\.(?:me|org|group)|m\.me|messenger\.com|instagram\.com|instagr\.am|snapchat\.com|skype\.com|join\.skype\.com|viber\.com|discord\.gg|discord\.com)(?:\/[^\s]*)?`
/** A service's name, with the handle that follows it ("whatsapp: @marie", "insta marie_d", "skype live:marie"). */
const SERVICE_NAME = String.raw`(?<![\p{L}\p{N}])(?:whats\s?app|whatsapp|telegram|messenger|instagram|insta|snapchat|snap|skype|viber|wechat|discord)(?![\p{L}\p{N}])(?:\s*[:=-]?\s*(?:@[\p{L}\p{N}._-]+|live:[\p{L}\p{N}._-]+))?`
/** "Signal" is also a word: only as the app ("sur Signal", "on Signal", "via Signal"). */
const SIGNAL_APP = String.raw`(?<![\p{L}\p{N}])(?:sur|on|via|par)\s+signal(?![\p{L}\p{N}])`
const SERVICES = new RegExp(`${SERVICE_LINK}|${SERVICE_NAME}|${SIGNAL_APP}`, "giu")

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
const digitCount = (s: string) => s.replace(/\D/g, "").length

// ---- The rule --------------------------------------------------------------------------------

/**
 * Cheap tests that every match of a pattern needs (an "@", an "at"-like word, a service's name, nine
 * digits): most messages hold none, and skipping a pattern that cannot match changes nothing.
 */
const MAY_HOLD_AT = /@|\bat\b|arr?obase/i
const MAY_HOLD_SERVICE = /whats|wa\.me|t\.me|telegr|signal|m\.me|messenger|insta|snap|skype|viber|wechat|discord/i
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
  if (mayHoldPhone(out)) out = out.replace(PHONES, (found) => (digitCount(found) >= 9 ? MASK : found))
  return out
}

/**
 * Passes until nothing changes: a detail masked late in a pass can free one an earlier pattern
 * skipped ("5145551234insta": "insta" is glued to the number until the number is masked). Each
 * change removes letters or digits and MASK holds none, so this ends; most messages take one pass.
 */
export const maskContactDetails = (text: string): Masking => {
  let out = text
  for (let next = maskOnce(out); next !== out; next = maskOnce(out)) out = next
  return { text: out, masked: out !== text }
}

// ---- Who reads what --------------------------------------------------------------------------

/**
 * Booking statuses after which the two may exchange contact details (the booking is agreed). A
 * conversation is "private" while its two members have no booking in one of these between them.
 */
export const BOOKED_STATUSES = ["CONFIRMED", "IN_PROGRESS", "SERVICE_RENDERED", "COMPLETED", "VALIDATED"] as const

export interface MessageReading {
  /** The text the reader gets. */
  readonly content: string
  /** Details were hidden from this reader. */
  readonly masked: boolean
  /** The original holds details the other participant does not see (shown to the sender and admins). */
  readonly maskedForRecipient: boolean
}

/**
 * A message as `reader` reads it: the sender and admins read the original (marked when the other
 * side gets it masked); the other participant of a private conversation reads it masked.
 */
export const readMessage = (
  message: { readonly senderId: string; readonly content: string },
  reader: { readonly id: string; readonly isAdmin: boolean },
  isPrivate: boolean
): MessageReading => {
  if (!isPrivate) return { content: message.content, masked: false, maskedForRecipient: false }
  const result = maskContactDetails(message.content)
  if (reader.isAdmin || reader.id === message.senderId)
    return { content: message.content, masked: false, maskedForRecipient: result.masked }
  return { content: result.text, masked: result.masked, maskedForRecipient: result.masked }
}
