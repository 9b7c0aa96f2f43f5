import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  Currencies,
  currencyDecimals,
  currencySymbol,
  formatApproxMoney,
  formatMoney,
  isCurrency,
  majorText,
  toMajor,
  toMinor
} from "../../src/platform/money"

// The one money toolkit (src/platform/money.ts): conversions between integer minor units and major
// units are exact for every currency, and amounts are written in the reader's language.

const currency = fc.constantFrom(...Currencies)
const minor = fc.integer({ min: -2_147_483_648, max: 2_147_483_647 })

describe("money conversions", () => {
  it("knows the decimals of every currency the product accepts", () => {
    expect(Currencies).toEqual(["EUR", "CAD", "USD", "GBP", "CHF", "JPY", "XOF", "XAF"])
    expect(Currencies.map(currencyDecimals)).toEqual([2, 2, 2, 2, 2, 0, 0, 0])
    expect(isCurrency("EUR")).toBe(true)
    expect(isCurrency("eur")).toBe(false)
    expect(isCurrency("toString")).toBe(false)
    expect(currencySymbol("XAF")).toBe("FCFA")
    expect(currencySymbol("CAD")).toBe("CA$")
    expect(currencySymbol("USD")).toBe("US$")
    expect(currencySymbol("ABC")).toBe("ABC")
  })

  it("minor → major → minor is the identity for every currency", () => {
    fc.assert(fc.property(currency, minor, (code, amount) => toMinor(toMajor(amount, code), code) === amount))
  })

  it("agrees with Intl on each currency's decimals", () => {
    for (const code of Currencies) {
      const intl = new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits
      expect(currencyDecimals(code)).toBe(intl)
    }
  })

  it("rounds major amounts to the nearest minor unit, despite binary floating point", () => {
    expect(toMinor(19.99, "EUR")).toBe(1999)
    expect(toMinor(0.1 + 0.2, "EUR")).toBe(30)
    expect(toMinor(1.005 * 1000, "CAD")).toBe(100500)
    expect(toMinor(5000, "JPY")).toBe(5000)
    expect(toMinor(12.6, "XOF")).toBe(13)
    expect(toMajor(4550, "EUR")).toBe(45.5)
    expect(toMajor(5000, "JPY")).toBe(5000)
  })

  it("writes the major amount with exactly the currency's decimals", () => {
    expect(majorText(4550, "EUR")).toBe("45.50")
    expect(majorText(5000, "JPY")).toBe("5000")
    expect(majorText(-5, "EUR")).toBe("-0.05")
    expect(majorText(0, "CAD")).toBe("0.00")
    fc.assert(fc.property(currency, minor, (code, amount) => Number(majorText(amount, code)) === toMajor(amount, code)))
    // Exact for any safe integer, beyond what a division keeps: its digits are the amount's.
    fc.assert(
      fc.property(currency, fc.maxSafeInteger(), (code, amount) => {
        const text = majorText(amount, code)
        return BigInt(text.replace(".", "")) === BigInt(amount) && (text.split(".")[1]?.length ?? 0) === currencyDecimals(code)
      })
    )
  })
})

describe("formatMoney", () => {
  // Intl's spaces before the symbol are narrow no-break spaces in French: normalised to compare.
  const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ")

  it("formats minor units in French", () => {
    expect(plain(formatMoney("fr-FR", 4550, "EUR"))).toBe("45,50 €")
    expect(plain(formatMoney("fr-FR", 123456, "EUR"))).toBe("1 234,56 €")
    expect(plain(formatMoney("fr-FR", 5000, "JPY"))).toBe("5 000 JPY")
    // Never a bare "$" (issue 14): Canadian French writes CAD "35,00 $", which names no currency.
    expect(plain(formatMoney("fr-CA", 3500, "CAD"))).toBe("35,00 $CA")
    expect(plain(formatMoney("fr", 3500, "CAD"))).toBe("35,00 $CA")
    expect(plain(formatMoney("fr", 7000, "USD"))).toBe("70,00 $US")
    expect(plain(formatMoney("fr", 2500, "XOF"))).toBe("2 500 F CFA")
  })

  it("formats minor units in English", () => {
    // Never a bare "$" (issue 14): Intl writes CAD "$35.00" in en-CA and USD "$70.00" in en.
    expect(formatMoney("en-CA", 3500, "CAD")).toBe("CA$35.00")
    expect(formatMoney("en", 7000, "CAD")).toBe("CA$70.00")
    expect(formatMoney("en", 7000, "USD")).toBe("US$70.00")
    expect(formatMoney("en-CA", 7000, "USD")).toBe("US$70.00")
    expect(formatMoney("en", 3500, "CAD")).toBe("CA$35.00")
    expect(formatMoney("en", 4550, "EUR")).toBe("€45.50")
    expect(formatMoney("en", 5000, "JPY")).toBe("¥5,000")
    expect(plain(formatMoney("en", 8000, "CHF"))).toBe("CHF 80.00")
  })

  it("writes no bare dollar sign in any language, for any amount", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("en", "en-US", "en-CA", "en-GB", "fr", "fr-FR", "fr-CA"),
        fc.constantFrom("CAD", "USD"),
        minor,
        (locale, code, amount) => {
          for (const text of [formatMoney(locale, amount, code), formatApproxMoney(locale, amount, code)]) {
            expect(plain(text), text).toMatch(/(CA|US)\$|\$ ?(CA|US)/)
          }
        }
      )
    )
  })

  it("writes approximate amounts in whole units", () => {
    expect(plain(formatApproxMoney("fr", 5234, "CAD"))).toBe("52 $CA")
    expect(formatApproxMoney("en", 5250, "CAD")).toBe("CA$53")
    expect(formatApproxMoney("en", 5234, "JPY")).toBe("¥5,234")
  })

  it("writes an unknown code plainly rather than failing", () => {
    expect(formatMoney("en", 1250, "ZZZZ")).toBe("12.5 ZZZZ")
  })
})
