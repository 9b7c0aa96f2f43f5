/**
 * Phone numbers written out in words, in French and English ("zéro six douze trente-quatre…",
 * "five one four, five five five…"), alone or mixed with digits. A run of number words and digit
 * groups is a number once it reads as nine digits or more: a sentence that counts ("deux heures,
 * trois séances") never strings that many together.
 */

const UNITS: Record<string, number> = {
  zero: 0,
  un: 1,
  une: 1,
  deux: 2,
  trois: 3,
  quatre: 4,
  cinq: 5,
  six: 6,
  sept: 7,
  huit: 8,
  neuf: 9,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  seven: 7,
  eight: 8,
  nine: 9
}
const TEENS = new Set(
  "dix onze douze treize quatorze quinze seize ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split(" ")
)
/** Tens words, with the Belgian and Swiss ones; "quatre-vingt(s)" is read as one below. */
const TENS = new Set(
  "vingt vingts trente quarante cinquante soixante septante huitante octante nonante twenty thirty forty fifty sixty seventy eighty ninety".split(
    " "
  )
)
const CONNECTORS = new Set(["et", "and"])

/** Lower case without accents ("Zéro" → "zero"), as the tables above are written. */
const plain = (word: string) => word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()

const WORDS = [...Object.keys(UNITS), ...TEENS, ...TENS, "zéro"].sort((a, b) => b.length - a.length)
const WORD = `(?:${WORDS.join("|")})(?![\\p{L}\\p{N}])`
/** Digits in pairs at most, as French numbers are read ("zéro six 12 34…"): a year or a postcode ends a run. */
const TOKEN = String.raw`(?:\d{1,2}(?!\p{N})|${WORD})`
const SEPARATOR = String.raw`[\s,.\-]+(?:(?:et|and)[\s,.\-]+)?`
/** A run of number words and digit groups, each set apart from the next (no glued tokens: no backtracking blow-up). */
export const NUMBER_RUN = new RegExp(String.raw`(?<![\p{L}\p{N}])${TOKEN}(?:${SEPARATOR}${TOKEN})*`, "giu")
/** Cheap test: a run worth reading holds at least one number word. */
export const MAY_HOLD_NUMBER_WORD = new RegExp(WORD, "iu")

const isNumberWord = (token: string) => token in UNITS || TEENS.has(token) || TENS.has(token)
const isUnit = (token: string | undefined) => token !== undefined && token in UNITS
const isTeen = (token: string | undefined) => token !== undefined && TEENS.has(token)

/**
 * How many digits a run's tokens read as: a digit group its length, a unit one, a teen two, a tens
 * word two with the unit or teen that completes it ("trente-quatre", "soixante-dix-huit",
 * "quatre-vingt-dix-neuf", "vingt et un", "forty two"). Connectors count nothing.
 */
export const digitsRead = (tokens: ReadonlyArray<string>): number => {
  let digits = 0
  let i = 0
  while (i < tokens.length) {
    const token = tokens[i]!
    if (/^\d+$/.test(token)) {
      digits += token.length
      i++
    } else if (token === "quatre" && (tokens[i + 1] === "vingt" || tokens[i + 1] === "vingts")) {
      i = completeTens(tokens, i + 2, true)
      digits += 2
    } else if (TENS.has(token)) {
      i = completeTens(tokens, i + 1, token === "soixante")
      digits += 2
    } else if (token === "dix" && ["sept", "huit", "neuf"].includes(tokens[i + 1] ?? "")) {
      digits += 2
      i += 2
    } else if (isTeen(token)) {
      digits += 2
      i++
    } else {
      if (isUnit(token)) digits++
      i++
    }
  }
  return digits
}

/**
 * After a tens word at `i`: skip the unit that completes it, with its "et" ("vingt et un"), or the
 * teen after "soixante" and "quatre-vingt" ("soixante-dix-huit", "quatre-vingt-onze"), the only
 * tens French completes with one.
 */
const completeTens = (tokens: ReadonlyArray<string>, i: number, takesTeens: boolean) => {
  const at = CONNECTORS.has(tokens[i] ?? "") ? i + 1 : i
  const next = tokens[at]
  if (takesTeens && next === "dix" && ["sept", "huit", "neuf"].includes(tokens[at + 1] ?? "")) return at + 2
  if ((takesTeens && isTeen(next)) || (isUnit(next) && UNITS[next!] !== 0)) return at + 1
  return i
}

/** The run's tokens in the tables' spelling. */
export const tokensOf = (run: string): ReadonlyArray<string> =>
  run
    .split(/[\s,.\-]+/)
    .filter((token) => token !== "")
    .map(plain)

/** A run that holds a number word and reads as a phone number's nine digits or more. */
export const isSpelledNumber = (run: string) => {
  const tokens = tokensOf(run)
  return tokens.some(isNumberWord) && digitsRead(tokens) >= 9
}
