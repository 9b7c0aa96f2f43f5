import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  isStrongPassword,
  isValidEmail,
  isValidPhone,
  NAME_MAX,
  normalizeEmail,
  PASSWORD_MAX,
  PASSWORD_MIN,
  type RegistrationInput,
  validateNewPassword,
  validateRegistration
} from "../../src/modules/identity/domain"

// ---- Character classes of the password rule (spec section 5) ----------------------------------

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
const LOWER = "abcdefghijklmnopqrstuvwxyz"
const DIGITS = "0123456789"
const SPECIALS = "@$!%*?&"
type CharClass = "upper" | "lower" | "digit" | "special"
const CLASSES: Record<CharClass, string> = { upper: UPPER, lower: LOWER, digit: DIGITS, special: SPECIALS }

const charIn = (chars: string) => fc.constantFrom(...chars.split(""))
/** Single UTF-16 unit characters in none of the four classes: other punctuation, spaces, accents, other scripts' digits. */
const otherChar = fc.oneof(
  charIn(" #^()-_=+[]{};:'\",.<>/\\|`~\t"),
  charIn("éÉàÀçÇßøÆΩЖжĳ٣٤０１ＡＢａｂ€£¥§°·"),
  fc.unicode().filter((c) => !/[A-Za-z0-9@$!%*?&]/.test(c))
)
const charOf = (cls: CharClass) => charIn(CLASSES[cls])
const anyCharExcept = (missing: ReadonlyArray<CharClass>) =>
  fc.oneof(otherChar, ...(Object.keys(CLASSES) as Array<CharClass>).filter((c) => !missing.includes(c)).map(charOf))

/** `required` characters inserted at random places into `filler`. */
const mix = (required: ReadonlyArray<fc.Arbitrary<string>>, filler: fc.Arbitrary<ReadonlyArray<string>>) =>
  fc
    .tuple(fc.tuple(...required), filler, fc.array(fc.nat(), { minLength: required.length, maxLength: required.length }))
    .map(([req, rest, places]) => {
      const chars = [...rest]
      req.forEach((c, i) => chars.splice(places[i]! % (chars.length + 1), 0, c))
      return chars.join("")
    })

const ALL: ReadonlyArray<CharClass> = ["upper", "lower", "digit", "special"]

/** 8 to 128 characters with every class. */
const strongPassword = mix(ALL.map(charOf), fc.array(anyCharExcept([]), { minLength: PASSWORD_MIN - 4, maxLength: PASSWORD_MAX - 4 }))
/** Long enough, but one class is absent. */
const passwordMissing = (cls: CharClass) =>
  mix(
    ALL.filter((c) => c !== cls).map(charOf),
    fc.array(anyCharExcept([cls]), { minLength: PASSWORD_MIN - 3, maxLength: PASSWORD_MAX - 3 })
  )
/** Every class, but fewer than 8 characters. */
const tooShortPassword = mix(ALL.map(charOf), fc.array(anyCharExcept([]), { minLength: 0, maxLength: PASSWORD_MIN - 5 }))
/** Every class, but more than 128 characters. */
const tooLongPassword = mix(ALL.map(charOf), fc.array(anyCharExcept([]), { minLength: PASSWORD_MAX - 3, maxLength: 400 }))

/** An independent statement of the rule: count UTF-16 units and look for each class by hand. */
const passwordOracle = (p: string) => {
  const units = p.split("")
  const has = (chars: string) => units.some((u) => chars.includes(u))
  return units.length >= 8 && units.length <= 128 && has(UPPER) && has(LOWER) && has(DIGITS) && has(SPECIALS)
}

/** `rule` answers `verdict` for every value `values` draws (`numRuns` of them). */
const alwaysAnswers = <T>(rule: (value: T) => boolean, values: fc.Arbitrary<T>, verdict: boolean, numRuns: number) =>
  fc.assert(
    fc.property(values, (value) => {
      expect(rule(value)).toBe(verdict)
    }),
    { numRuns }
  )

describe("password rule (isStrongPassword)", () => {
  it("accepts every password of 8 to 128 characters with an uppercase, a lowercase, a digit and one of @$!%*?&", () => {
    fc.assert(
      fc.property(strongPassword, (p) => {
        expect(p.length).toBeGreaterThanOrEqual(8)
        expect(p.length).toBeLessThanOrEqual(128)
        expect(isStrongPassword(p)).toBe(true)
      }),
      { numRuns: 300 }
    )
  })

  for (const cls of ALL) {
    it(`refuses every password without a ${cls} character`, () => {
      fc.assert(
        fc.property(passwordMissing(cls), (p) => {
          expect(p.split("").some((u) => CLASSES[cls].includes(u))).toBe(false)
          expect(isStrongPassword(p)).toBe(false)
        }),
        { numRuns: 200 }
      )
    })
  }

  it("refuses passwords shorter than 8 characters, even with every class", () =>
    alwaysAnswers(isStrongPassword, tooShortPassword, false, 200))

  it("refuses passwords longer than 128 characters, even with every class", () =>
    alwaysAnswers(isStrongPassword, tooLongPassword, false, 100))

  it("refuses non-ASCII look-alikes of the classes (fullwidth letters and digits, other scripts)", () => {
    expect(isStrongPassword("ＡＢＣdef1!")).toBe(false)
    expect(isStrongPassword("ABCＤＥＦ1!")).toBe(false)
    expect(isStrongPassword("ABCdef١!x")).toBe(false)
    expect(isStrongPassword("ABCdef1#x")).toBe(false)
    expect(isStrongPassword("Abcdef1!")).toBe(true)
  })

  it("agrees with an independent statement of the rule on arbitrary strings", () => {
    const anyString = fc.oneof(
      strongPassword,
      tooShortPassword,
      tooLongPassword,
      ...ALL.map(passwordMissing),
      fc.string({ maxLength: 140 }),
      fc.fullUnicodeString({ maxLength: 140 }),
      fc.array(anyCharExcept([]), { maxLength: 140 }).map((cs) => cs.join(""))
    )
    fc.assert(
      fc.property(anyString, (p) => {
        expect(isStrongPassword(p)).toBe(passwordOracle(p))
      }),
      { numRuns: 1000 }
    )
  })

  it("validateNewPassword never accepts a password the strength rule refuses", () => {
    const candidate = fc.oneof(strongPassword, tooShortPassword, tooLongPassword, ...ALL.map(passwordMissing), fc.string())
    fc.assert(
      fc.property(candidate, fc.option(fc.string(), { nil: undefined }), fc.boolean(), (p, other, same) => {
        const confirmation = same ? p : other
        const result = validateNewPassword(p, confirmation)
        const expected = isStrongPassword(p) && (confirmation === undefined || confirmation === p)
        expect(Either.isRight(result)).toBe(expected)
      }),
      { numRuns: 500 }
    )
  })
})

// ---- Phone rule --------------------------------------------------------------------------------

const digit = charIn(DIGITS)
const digits = (min: number, max: number) => fc.array(digit, { minLength: min, maxLength: max }).map((ds) => ds.join(""))
const nonDigit = fc.oneof(
  charIn(" +-().x/#*\n\t"),
  charIn("٠١٢٣۴５０"),
  fc.unicode().filter((c) => !/[0-9]/.test(c))
)
/** 10 to 15 digits with at least one non-digit character somewhere. */
const phoneWithNonDigit = mix([nonDigit], fc.array(digit, { minLength: 10, maxLength: 15 }))

describe("phone rule (isValidPhone)", () => {
  it("accepts every string of 10 to 15 ASCII digits", () => alwaysAnswers(isValidPhone, digits(10, 15), true, 300))
  it("refuses fewer than 10 digits", () => alwaysAnswers(isValidPhone, digits(0, 9), false, 200))
  it("refuses more than 15 digits (the longest international number)", () => alwaysAnswers(isValidPhone, digits(16, 40), false, 100))
  it("refuses any non-digit character: separators, plus, spaces, newlines, other scripts' digits", () => {
    alwaysAnswers(isValidPhone, phoneWithNonDigit, false, 500)
    for (const p of ["514-555-0100", "+15145550100", "514 555 0100", "5145550100\n", "\n5145550100", "٥١٤٥٥٥٠١٠٠"]) {
      expect(isValidPhone(p), p).toBe(false)
    }
  })
})

// ---- Registration ------------------------------------------------------------------------------

const optional = <A>(arb: fc.Arbitrary<A>) => fc.option(arb, { nil: undefined, freq: 6 })
const padded = (arb: fc.Arbitrary<string>) =>
  fc.tuple(fc.constantFrom("", " ", "  ", "\t"), arb, fc.constantFrom("", " ", "\n")).map(([a, b, c]) => a + b + c)
const name = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.constantFrom("", "   ", "\t"),
  fc.string({ minLength: NAME_MAX - 2, maxLength: NAME_MAX + 5 }),
  padded(fc.string({ minLength: 1, maxLength: 20 }))
)
const email = fc.oneof(
  fc.emailAddress(),
  padded(fc.emailAddress()).map((e) => e.toUpperCase()),
  fc.constantFrom("", "a@b", "a@b.c", "no-at.example.com", "a b@c.de", "@example.com", "x@.com", "a@b.cd"),
  fc.string({ maxLength: 30 }),
  fc.tuple(fc.string({ minLength: 240, maxLength: 260 }), fc.constant("@example.com")).map(([a, b]) => a.replace(/[\s@]/g, "x") + b)
)
const phone = fc.oneof(
  digits(10, 15),
  padded(digits(10, 15)),
  digits(0, 9),
  digits(16, 20),
  phoneWithNonDigit,
  fc.string({ maxLength: 16 })
)
const password = fc.oneof(strongPassword, tooShortPassword, tooLongPassword, ...ALL.map(passwordMissing), fc.string({ maxLength: 20 }))
const registration: fc.Arbitrary<RegistrationInput & { role?: unknown }> = fc
  .record({
    firstName: optional(name),
    lastName: optional(name),
    email: optional(email),
    phoneNumber: optional(phone),
    password: optional(password),
    confirmation: fc.constantFrom("same", "other", "absent"),
    other: fc.string({ maxLength: 12 }),
    role: fc.constantFrom(undefined, "ADMIN", "PROVIDER", "CLIENT", 42)
  })
  .map(({ confirmation, other, ...input }) => ({
    ...input,
    confirmPassword: confirmation === "same" ? input.password : confirmation === "other" ? other : undefined
  }))

const nameOk = (n: string | undefined) => (n ?? "").trim() !== "" && (n ?? "").trim().length <= NAME_MAX
/** Which fields the individual rules refuse. */
const refusedFields = (input: RegistrationInput) => {
  const refused = new Set<string>()
  if (!nameOk(input.firstName)) refused.add("firstName")
  if (!nameOk(input.lastName)) refused.add("lastName")
  if (!isValidEmail(normalizeEmail(input.email ?? ""))) refused.add("email")
  if (!isValidPhone((input.phoneNumber ?? "").trim())) refused.add("phoneNumber")
  if (!input.password || !isStrongPassword(input.password)) refused.add("password")
  if (input.confirmPassword !== undefined && input.confirmPassword !== input.password) refused.add("confirmPassword")
  return refused
}

describe("validateRegistration", () => {
  it("never accepts what an individual rule refuses, and always creates a CLIENT", () => {
    fc.assert(
      fc.property(registration, (input) => {
        const result = validateRegistration(input)
        if (Either.isRight(result)) {
          const account = result.right
          expect(isValidEmail(account.email)).toBe(true)
          expect(account.email).toBe(normalizeEmail(input.email!))
          expect(isValidPhone(account.phoneNumber)).toBe(true)
          expect(isStrongPassword(account.password)).toBe(true)
          expect(account.password).toBe(input.password)
          expect(input.confirmPassword === undefined || input.confirmPassword === input.password).toBe(true)
          expect(nameOk(account.firstName) && nameOk(account.lastName)).toBe(true)
          expect(account.firstName).toBe(account.firstName.trim())
          expect(account.role).toBe("CLIENT")
        }
      }),
      { numRuns: 1000 }
    )
  })

  it("refuses exactly the fields the individual rules refuse, and accepts when none does", () => {
    fc.assert(
      fc.property(registration, (input) => {
        const expected = refusedFields(input)
        const result = validateRegistration(input)
        if (expected.size === 0) expect(Either.isRight(result)).toBe(true)
        else {
          expect(Either.isLeft(result)).toBe(true)
          if (Either.isLeft(result)) {
            expect(result.left.code).toBe("VALIDATION_ERROR")
            expect(new Set(result.left.details.map((d) => d.field))).toEqual(expected)
          }
        }
      }),
      { numRuns: 1000 }
    )
  })
})
