import { Either, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isJsonContentType, jsonDepth } from "../../src/platform/http/body"
import { PayloadLongText, PayloadNumber, PayloadText } from "../../src/platform/http/envelope"
import { decimalPlaces, isStorableNumber } from "../../src/platform/numbers"
import { hasForbiddenControl } from "../../src/platform/text"

/** The pure rules behind the input hardening (issue 10), as properties. */

const isControl = (c: string) => {
  const code = c.codePointAt(0)!
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f)
}
const controlChar = fc
  .integer({ min: 0, max: 0x9f })
  .filter((n) => n <= 0x1f || n >= 0x7f)
  .map((n) => String.fromCharCode(n))
/** Text with control characters mixed in now and then. */
const mixedText = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.fullUnicode() }, { weight: 1, arbitrary: controlChar }))
  .map((cs) => cs.join(""))

const decodeLine = Schema.decodeUnknownEither(PayloadText)
const decodeLong = Schema.decodeUnknownEither(PayloadLongText)

describe("control characters in text fields", () => {
  it("a one-line text is accepted exactly when it holds no C0, DEL or C1 character, and then unchanged", () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        const clean = ![...text].some(isControl)
        expect(hasForbiddenControl(text, "line")).toBe(!clean)
        const decoded = decodeLine(text)
        expect(Either.isRight(decoded)).toBe(clean)
        if (Either.isRight(decoded)) expect(decoded.right).toBe(text)
      })
    )
  })

  it("a long text keeps line breaks and tabs (CR LF and CR become LF) and refuses every other control character", () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        const allowed = ![...text].some((c) => isControl(c) && c !== "\n" && c !== "\t" && c !== "\r")
        const decoded = decodeLong(text)
        expect(Either.isRight(decoded)).toBe(allowed)
        if (Either.isRight(decoded)) {
          expect(decoded.right).not.toContain("\r")
          expect(decoded.right.replace(/\n/g, "")).toBe(text.replace(/\r\n?|\n/g, ""))
          expect(decoded.right.split("\n").length).toBe(text.split(/\r\n?|\n/).length)
        }
      })
    )
  })

  it("ANSI escapes and NUL are refused in both kinds", () => {
    for (const text of ["\u001b[31mred", "a\u0000b", "\u009b2J", "\u0007"]) {
      expect(Either.isLeft(decodeLine(text))).toBe(true)
      expect(Either.isLeft(decodeLong(text))).toBe(true)
    }
  })
})

describe("JSON nesting depth", () => {
  const depthOf = (value: unknown): number =>
    value !== null && typeof value === "object" ? 1 + Math.max(0, ...Object.values(value as object).map(depthOf)) : 0

  it("matches the depth of the parsed value, brackets inside strings not counted", () => {
    const withBrackets = fc.oneof(fc.string(), fc.constantFrom("[", "]", "{", "}", '\\"[', '"', "\\"))
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small" }, withBrackets, fc.integer(), fc.constant(null), tie("array"), tie("object")),
      array: fc.array(tie("value"), { maxLength: 3 }),
      object: fc.dictionary(withBrackets, tie("value"), { maxKeys: 3 })
    })).value
    fc.assert(
      fc.property(json, (value) => {
        const text = JSON.stringify(value)
        expect(jsonDepth(text)).toBe(depthOf(value))
      })
    )
  })

  it("stops scanning once past the limit", () => {
    expect(jsonDepth("[".repeat(100_000), 32)).toBe(33)
    expect(jsonDepth(`{"a":"${"[".repeat(50)}"}`, 32)).toBe(1)
  })

  it("JSON content types", () => {
    for (const type of [undefined, "", "application/json", "Application/JSON; charset=utf-8", "application/problem+json"])
      expect(isJsonContentType(type)).toBe(true)
    for (const type of [
      "application/xml",
      "text/plain",
      "multipart/form-data; boundary=x",
      "application/x-www-form-urlencoded",
      "application/jsonp"
    ]) {
      expect(isJsonContentType(type)).toBe(false)
    }
  })
})

describe("numbers bounded to what the database stores", () => {
  const decodeNumber = Schema.decodeUnknownEither(PayloadNumber)

  it("a payload number is accepted exactly when it is 0 or within [1e-9, 2^53 - 1] in magnitude", () => {
    fc.assert(
      fc.property(fc.double(), (n) => {
        const storable = n === 0 || (Number.isFinite(n) && Math.abs(n) >= 1e-9 && Math.abs(n) <= Number.MAX_SAFE_INTEGER)
        expect(isStorableNumber(n)).toBe(storable)
        expect(Either.isRight(decodeNumber(n))).toBe(storable)
      })
    )
    for (const n of [5e-324, -5e-324, 1e-10, 2 ** 53, Infinity, NaN]) expect(isStorableNumber(n)).toBe(false)
  })

  it("decimal places: exact for numbers written with up to 9 decimals, floating noise ignored", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), fc.integer({ min: 0, max: 6 }), (units, decimals) => {
        const n = units / 10 ** decimals
        let [u, written] = [Math.abs(units), decimals]
        while (written > 0 && u % 10 === 0) [u, written] = [u / 10, written - 1]
        expect(decimalPlaces(n)).toBe(units === 0 ? 0 : written)
      })
    )
    expect(decimalPlaces(0.1 + 0.2)).toBe(1)
    expect(decimalPlaces(1e-7)).toBe(7)
    expect(decimalPlaces(19.99)).toBe(2)
    expect(decimalPlaces(16654908.7)).toBe(1)
    expect(decimalPlaces(5e-324)).toBeGreaterThan(300)
  })
})
