import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { readMessage } from "../../src/modules/messaging/masking"
import { MASK, maskContactDetails } from "../../src/modules/messaging/contact-details/rules"

const mask = (text: string) => maskContactDetails(text)

// ---- Generators ------------------------------------------------------------------------------

const digit = fc.integer({ min: 0, max: 9 }).map(String)
const digits = (n: number) => fc.array(digit, { minLength: n, maxLength: n }).map((d) => d.join(""))
const sep = fc.constantFrom(" ", ".", "-", "", "  ", " - ")
const pairs = (n: number) => fc.tuple(fc.array(digits(2), { minLength: n, maxLength: n }), sep)

/** French numbers: 06 12 34 56 78, 06.12.34.56.78, +33 6 12 34 56 78, 0033612345678, +33 (0)6..., 0 6 1 2 ... */
const frenchPhone = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 9 }), pairs(4)).map(([first, [ps, s]]) => `0${first}${s}${ps.join(s)}`),
  fc
    .tuple(fc.constantFrom("+33 ", "+33", "0033 ", "0033", "+33 (0)", "+33(0)"), fc.integer({ min: 1, max: 9 }), pairs(4))
    .map(([prefix, first, [ps, s]]) => `${prefix}${first}${s}${ps.join(s)}`),
  fc.tuple(fc.integer({ min: 1, max: 9 }), digits(8)).map(([first, rest]) => `0 ${first} ${rest.split("").join(" ")}`)
)
/** North-American numbers: (514) 555-1234, 514.555.1234, 514 555 1234, 5145551234, +1 514-555-1234, 1-800-555-1234. */
const northAmericanPhone = fc
  .tuple(
    fc.constantFrom("", "+1 ", "+1-", "1-", "001 ", "+1"),
    digits(3),
    digits(3),
    digits(4),
    fc.constantFrom(" ", ".", "-", ""),
    fc.boolean()
  )
  .map(([prefix, area, exchange, line, s, parens]) => `${prefix}${parens ? `(${area}) ` : `${area}${s}`}${exchange}${s}${line}`)
const phone = fc.oneof(frenchPhone, northAmericanPhone)

const letters = (min: number, max: number) =>
  fc.array(fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz"), { minLength: min, maxLength: max }).map((l) => l.join(""))
const local = fc
  .tuple(letters(1, 8), fc.constantFrom("", ".", "_", "-", "+"), letters(0, 6), fc.option(digits(2), { nil: "" }))
  .map(([a, s, b, d]) => (b === "" ? `${a}${d}` : `${a}${s}${b}${d}`))
const domain = fc.tuple(letters(2, 10), fc.constantFrom("com", "fr", "ca", "net", "org", "io", "qc"))
const email = fc.tuple(local, domain).map(([l, [d, tld]]) => `${l}@${d}.${tld}`)
const spelledEmail = fc
  .tuple(
    local,
    domain,
    fc.constantFrom(" arobase ", " at ", " (at) ", "[at]", " [arobase] ", " @ ", "(@)", " AT "),
    fc.constantFrom(" point ", " dot ", " (dot) ", "[dot]", " . ", ".", " POINT ")
  )
  .map(([l, [d, tld], at, dot]) => `${l}${at}${d}${dot}${tld}`)
const serviceMention = fc.oneof(
  fc
    .tuple(fc.constantFrom("https://wa.me/", "wa.me/", "t.me/", "https://t.me/", "m.me/", "https://signal.me/#p/"), letters(3, 10))
    .map(([link, handle]) => `${link}${handle}`),
  fc
    .tuple(fc.constantFrom("instagram.com/", "https://www.instagram.com/", "snapchat.com/add/", "discord.gg/"), letters(3, 10))
    .map(([link, handle]) => `${link}${handle}`),
  fc
    .tuple(
      fc.constantFrom("WhatsApp", "whatsapp", "Telegram", "Instagram", "insta", "Snapchat", "Skype", "Messenger", "Viber"),
      letters(3, 8)
    )
    .map(([name, handle]) => `${name} @${handle}`),
  fc.constantFrom("sur Signal", "on signal", "via Signal", "skype live:marie.d")
)

// ---- Obfuscations people use to slip a detail past a filter (issue 23, item 9) ----------------

const FRENCH_UNITS = ["zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf"]
const FRENCH_TEENS = ["dix", "onze", "douze", "treize", "quatorze", "quinze", "seize", "dix-sept", "dix-huit", "dix-neuf"]
const FRENCH_TENS = ["", "", "vingt", "trente", "quarante", "cinquante", "soixante"]
/** 0 to 99 as French writes them: "trente-quatre", "vingt et un", "soixante-dix-huit", "quatre-vingt-onze". */
const frenchNumber = (n: number): string => {
  if (n < 10) return FRENCH_UNITS[n]!
  if (n < 20) return FRENCH_TEENS[n - 10]!
  if (n >= 80) return n === 80 ? "quatre-vingts" : `quatre-vingt-${frenchNumber(n - 80)}`
  if (n >= 70) return n === 71 ? "soixante et onze" : `soixante-${FRENCH_TEENS[n - 70]}`
  const tens = FRENCH_TENS[Math.floor(n / 10)]!
  const unit = n % 10
  return unit === 0 ? tens : unit === 1 ? `${tens} et un` : `${tens}-${FRENCH_UNITS[unit]}`
}
const ENGLISH_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
const wordSeparator = fc.constantFrom(" ", ", ", " - ", "  ")
/** A French number read the French way: "zéro six, douze, trente-quatre…", some pairs left as digits. */
const frenchPhoneInWords = fc
  .tuple(
    fc.integer({ min: 1, max: 9 }),
    fc.array(fc.tuple(fc.integer({ min: 0, max: 99 }), fc.boolean()), { minLength: 4, maxLength: 4 }),
    wordSeparator
  )
  .map(([first, pairs, s]) =>
    [first, ...pairs.map(([n, inWords]) => (inWords ? n : String(n).padStart(2, "0")))]
      .map((pair) => (typeof pair === "string" ? pair : pair < 10 ? `zéro ${FRENCH_UNITS[pair]}` : frenchNumber(pair)))
      .join(s)
  )
/** A North-American number read digit by digit in English: "five one four, five five five, …". */
const englishPhoneInWords = fc
  .tuple(digits(10), wordSeparator)
  .map(([number, s]) =>
    [number.slice(0, 3), number.slice(3, 6), number.slice(6)]
      .map((group) => [...group].map((d) => ENGLISH_UNITS[Number(d)]).join(" "))
      .join(s)
  )
const fullWidth = (text: string) => text.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d)))
/** Every digit apart, whatever the separators. */
const spacedDigits = fc.tuple(digits(10), fc.constantFrom(" ", ".", "-", " - ", "  ", " . ")).map(([number, s]) => [...number].join(s))
const withInvisible = fc
  .tuple(fc.oneof(email, phone), fc.constantFrom("\u200b", "\u200c", "\u2060", "\ufeff", "\u00ad"))
  .map(([found, invisible]) => (found.includes("@") ? found.replace("@", `${invisible}@`) : found.replace(/(\d)(\d)/, `$1${invisible}$2`)))
const handle = fc
  .tuple(fc.constantFrom("IG @", "ig: @", "IG@", "@", "TikTok @"), letters(3, 8), fc.constantFrom("", "_", "."), letters(0, 4))
  .map(([before, a, s, b]) => `${before}${a}${b === "" ? "" : `${s}${b}`}`)
const plainLink = fc
  .tuple(
    fc.constantFrom("", "https://", "http://", "www.", "https://www."),
    letters(2, 8),
    fc.option(letters(2, 8), { nil: "" }),
    fc.constantFrom("com", "fr", "ca", "net", "org", "qc"),
    fc.constantFrom("", "/contact", "/fr/devis?id=3")
  )
  .map(([scheme, a, b, ending, path]) => `${scheme}${a}${b === "" ? "" : `-${b}`}.${ending}${path}`)
const obfuscated = fc.oneof(frenchPhoneInWords, englishPhoneInWords, phone.map(fullWidth), spacedDigits, withInvisible, handle, plainLink)
const contact = fc.oneof(phone, email, spelledEmail, serviceMention, obfuscated)

/** What people write about a job that is no contact detail: prices, dates, times, postcodes, amounts. */
const price = fc.oneof(
  fc.integer({ min: 1, max: 999_999 }).map((n) => `${n.toLocaleString("fr-FR").replace(/\u202f/g, " ")} €`),
  fc.tuple(fc.integer({ min: 1, max: 99_999 }), digits(2)).map(([n, c]) => `${n},${c} €`),
  fc.tuple(fc.integer({ min: 1, max: 999_999 }), digits(2)).map(([n, c]) => `$${n.toLocaleString("en-US")}.${c}`),
  fc.integer({ min: 1, max: 500 }).map((n) => `${n} $/h`),
  fc.integer({ min: 1, max: 100 }).map((n) => `${n} %`)
)
const two = (min: number, max: number) => fc.integer({ min, max }).map((n) => String(n).padStart(2, "0"))
const date = fc
  .tuple(two(1, 28), two(1, 12), fc.integer({ min: 1990, max: 2099 }))
  .chain(([d, m, y]) =>
    fc.constantFrom(`${d}/${m}/${y}`, `${y}-${m}-${d}`, `${d}.${m}.${y}`, `${d}-${m}-${y}`, `${d}/${m}`, `le ${d} mai ${y}`)
  )
const time = fc
  .tuple(two(0, 23), two(0, 59))
  .chain(([h, m]) => fc.constantFrom(`${h}:${m}`, `${h}h${m}`, `${h}h`, `${h} h ${m}`, `de ${h}:${m} à ${h}:${m}`))
const postcode = fc.oneof(
  fc.integer({ min: 1000, max: 98_999 }).map((n) => String(n).padStart(5, "0")),
  fc.constantFrom("H2X 1Y4", "G1R 4P5", "75001 Paris", "13008 Marseille")
)
const word = fc.constantFrom(
  "bonjour",
  "merci",
  "demain",
  "le",
  "cours",
  "hello",
  "see",
  "you",
  "rendez-vous",
  "à",
  "ok",
  "!",
  "?",
  ",",
  "🙂",
  // Counting is no number: a number word says how many of something.
  "deux heures",
  "trois séances",
  "une fois",
  "vingt minutes",
  "quarante-cinq minutes",
  "one hour",
  "two or three times",
  "at nine",
  "ok.",
  "etc."
)
const harmless = fc.array(fc.oneof(word, price, date, time, postcode), { minLength: 0, maxLength: 8 }).map((parts) => parts.join(" "))

// ---- Properties ------------------------------------------------------------------------------

describe("maskContactDetails", () => {
  it("masks a phone number, an email (literal or spelled) or another messaging service wherever it stands", () => {
    fc.assert(
      // Set apart by punctuation: digits of a time right before a number ("07 h 06 01 00 00 00 00") may
      // read as part of it, which is no leak, but then the text around the mask is not the context's own.
      fc.property(harmless, contact, harmless, (before, found, after) => {
        const text = `${before} ; ${found} ; ${after}`
        const result = mask(text)
        expect(result.masked).toBe(true)
        expect(result.text).toBe(`${mask(before).text} ; ${MASK} ; ${mask(after).text}`)
        expect(result.text).not.toContain(found)
      }),
      { numRuns: 1000 }
    )
  })

  it("leaves no digit of a phone number nor any @ of an address among plain words", () => {
    const plain = fc.array(word, { maxLength: 6 }).map((w) => w.join(" "))
    fc.assert(
      fc.property(plain, fc.array(fc.oneof(phone, email), { minLength: 1, maxLength: 3 }), plain, (before, found, after) => {
        const result = mask(`${before} ${found.join(" et ")} ${after}`).text
        expect(result).not.toMatch(/\d|@/)
      }),
      { numRuns: 300 }
    )
  })

  it("never touches prices, dates, times and postcodes", () => {
    fc.assert(
      fc.property(harmless, (text) => {
        expect(mask(text)).toEqual({ text, masked: false })
      }),
      { numRuns: 2000 }
    )
  })

  it("is idempotent: masking masked text changes nothing more", () => {
    fc.assert(
      // Glued as well as spaced: a detail masked late can free one an earlier pattern skipped ("5145551234insta").
      fc.property(fc.array(fc.oneof(harmless, contact, fc.string()), { maxLength: 6 }), fc.constantFrom(" ", ""), (parts, glue) => {
        const once = mask(parts.join(glue)).text
        expect(mask(once)).toEqual({ text: once, masked: false })
      }),
      { numRuns: 1000 }
    )
  })

  it("examples: what it masks and what it leaves", () => {
    for (const text of [
      "Appelle-moi au 06 12 34 56 78",
      "mon numéro: +33 6 12 34 56 78",
      "0033 (0)6 12 34 56 78",
      "call (514) 555-1234 tonight",
      "514.555.1234",
      "+1 418 555 0199",
      "+44 20 7946 0958",
      "écris à marie.dubois@gmail.com",
      "marie arobase gmail point com",
      "marie (at) hotmail (dot) fr",
      "on continue sur WhatsApp",
      "https://wa.me/33612345678",
      "t.me/mariedubois",
      "ajoute-moi sur insta @marie_d",
      "5145551234insta",
      // Obfuscations (issue 23, item 9)
      "0 6 1 2 3 4 5 6 7 8",
      "5 1 4 - 5 5 5 - 1 2 3 4",
      "zéro six douze trente-quatre cinquante-six soixante-dix-huit",
      "zero six, 12, 34, cinquante-six, quatre-vingt-dix-neuf",
      "five one four five five five one two three four",
      "０６ １２ ３４ ５６ ７８",
      "marie\u200b@gmail.com",
      "IG @marie_d",
      "suis-moi @marie.plomberie",
      "marie-plomberie.fr",
      "https://exemple.com/contact",
      "www.plomberie-dubois.ca"
    ]) {
      expect(mask(text).masked, text).toBe(true)
    }
    expect(mask("5145551234insta").text).toBe(`${MASK}${MASK}`)
    for (const text of [
      "Le cours coûte 45 € de l'heure, soit 1 350,00 € pour le mois.",
      "Rendez-vous le 12/05/2026 à 14h30, ou le 2026-05-13 à 09:15.",
      "I am at home, see you at 5 pm. That's the point.",
      "Je vais signaler le problème, c'est un bon signal.",
      "Adresse : 12 rue de Rivoli, 75001 Paris. Montréal H2X 1Y4.",
      "Total $1,200.00 for 3 sessions (20 %).",
      "Snapshot: 3 photos of the kitchen",
      "Deux heures, trois séances, vingt minutes chacune, le 12 mai 2026.",
      "Salut.Me voici, ok.Merci",
      "Merci 👨\u200d👩\u200d👧 à bientôt"
    ]) {
      expect(mask(text), text).toEqual({ text, masked: false })
    }
  })
})

describe("readMessage", () => {
  const message = { senderId: "a", content: "06 12 34 56 78" }
  it("masks for the other participant of a private conversation only", () => {
    expect(readMessage(message, { id: "b", isAdmin: false }, true)).toEqual({ content: MASK, masked: true, maskedForRecipient: true })
    expect(readMessage(message, { id: "a", isAdmin: false }, true)).toEqual({
      content: message.content,
      masked: false,
      maskedForRecipient: true
    })
    expect(readMessage(message, { id: "z", isAdmin: true }, true)).toEqual({
      content: message.content,
      masked: false,
      maskedForRecipient: true
    })
    expect(readMessage(message, { id: "b", isAdmin: false }, false)).toEqual({
      content: message.content,
      masked: false,
      maskedForRecipient: false
    })
    expect(readMessage({ senderId: "a", content: "à demain" }, { id: "b", isAdmin: false }, true)).toEqual({
      content: "à demain",
      masked: false,
      maskedForRecipient: false
    })
  })
})
