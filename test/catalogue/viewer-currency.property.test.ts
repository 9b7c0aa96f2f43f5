import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { currencyForLanguage, currencyForViewer, regionOf } from "../../src/modules/catalogue/rates/rules"
import { Currencies } from "../../src/platform/money"

// The viewer's currency (issue 23, item 2): their choice, else their browser's region, else their language's.

const language = fc.constantFrom("fr", "en")
const base = fc.constantFrom("fr", "en", "de", "es", "it", "ja", "wo", "zh")
/** Regions with the currency they pay in, among the product's. */
const paying = fc.constantFrom(
  ["CA", "CAD"],
  ["US", "USD"],
  ["GB", "GBP"],
  ["CH", "CHF"],
  ["JP", "JPY"],
  ["FR", "EUR"],
  ["BE", "EUR"],
  ["DE", "EUR"],
  ["RE", "EUR"],
  ["SN", "XOF"],
  ["CI", "XOF"],
  ["CM", "XAF"]
)
/** Regions whose currency the product does not take. */
const elsewhere = fc.constantFrom("AU", "BR", "IN", "MX", "MA", "DZ", "TN", "HT", "CN")

describe("currencyForViewer", () => {
  it("the person's choice wins, whatever the browser says, when the product accepts it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Currencies),
        fc.array(fc.tuple(base, paying).map(([b, [r]]) => `${b}-${r}`)),
        language,
        (choice, tags, lang) => {
          expect(currencyForViewer({ choice, browserLanguages: tags, language: lang })).toBe(choice)
        }
      )
    )
  })

  it("without a choice (or with one the product refuses), the first region the browser names decides", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(null, undefined, "", "XYZ", "eur"),
        fc.array(base, { maxLength: 2 }),
        base,
        paying,
        fc.array(
          fc.tuple(base, paying).map(([b, [r]]) => `${b}-${r}`),
          { maxLength: 2 }
        ),
        language,
        (choice, before, tagBase, [region, currency], after, lang) => {
          const browserLanguages = [...before, `${tagBase}-${region}`, ...after]
          expect(currencyForViewer({ choice, browserLanguages, language: lang })).toBe(currency)
        }
      )
    )
  })

  it("a region the product has no currency for, or no region at all, reads the language's currency", () => {
    fc.assert(
      fc.property(
        fc.array(base, { maxLength: 3 }),
        fc.option(elsewhere, { nil: undefined }),
        base,
        language,
        (tags, region, tagBase, lang) => {
          const browserLanguages = region === undefined ? tags : [...tags, `${tagBase}-${region}`, "fr-FR"]
          expect(currencyForViewer({ browserLanguages, language: lang })).toBe(currencyForLanguage(lang))
        }
      )
    )
  })

  it("examples from the issue: fr-CA and en-CA read CAD, fr-FR EUR, a bare fr EUR, a bare en CAD", () => {
    expect(currencyForViewer({ browserLanguages: ["fr-CA", "fr"], language: "fr" })).toBe("CAD")
    expect(currencyForViewer({ browserLanguages: ["en-CA"], language: "en" })).toBe("CAD")
    expect(currencyForViewer({ browserLanguages: ["fr-FR", "en-US"], language: "en" })).toBe("EUR")
    expect(currencyForViewer({ browserLanguages: ["fr"], language: "fr" })).toBe("EUR")
    expect(currencyForViewer({ browserLanguages: [], language: "en" })).toBe("CAD")
    expect(currencyForViewer({ choice: "CHF", browserLanguages: ["fr-CA"], language: "fr" })).toBe("CHF")
    expect(regionOf("zh-Hant-TW")).toBe("TW")
    expect(regionOf("es-419")).toBeUndefined()
    expect(regionOf("en_gb")).toBe("GB")
  })
})
