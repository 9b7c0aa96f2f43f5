import * as fs from "node:fs"
import * as path from "node:path"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { amountParam, catalogs, dayParam, type MessageKey, translate } from "../../src/platform/messages"
import { Currencies, formatMoney } from "../../src/platform/money"

/**
 * Amounts and dates in the server's messages are written for people, in the reader's language (issue 23
 * item 3): "dépasse ce qui reste remboursable (76,00 €)", never "(76.00 EUR)", "(3800)" or an ISO date.
 */

const languages = ["fr", "en"] as const
const keys = Object.keys(catalogs.fr) as ReadonlyArray<MessageKey>
const placeholders = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
/** Intl writes amounts with no-break spaces. */
const spaced = (text: string) => text.replace(/\s/g, " ")

describe("a message's amount and day params", () => {
  it("are written in the reader's language in every message that takes a param, in both languages", () => {
    for (const language of languages) {
      for (const key of keys) {
        const names = placeholders(catalogs[language][key])
        if (names.length === 0) continue
        const asAmount = translate(language, key, Object.fromEntries(names.map((n) => [n, amountParam(7_600, "EUR")])))
        expect(spaced(asAmount), `${language} ${key}`).toContain(language === "fr" ? "76,00 €" : "€76.00")
        const asDay = translate(language, key, Object.fromEntries(names.map((n) => [n, dayParam(new Date("2026-08-15T12:00:00Z"))])))
        expect(asDay, `${language} ${key}`).toContain(language === "fr" ? "15 août 2026" : "August 15, 2026")
        for (const text of [asAmount, asDay]) {
          expect(text, `${language} ${key}`).not.toMatch(/\uE000|EUR|2026-08-15|7600/)
        }
      }
    }
  })

  it("an amount is the money formatter's text for any amount and currency", () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.constantFrom(...Currencies), (minor, currency) => {
        expect(translate("fr", "booking.refundAboveRefundable", { max: amountParam(minor, currency) })).toContain(
          formatMoney("fr-FR", minor, currency)
        )
        expect(translate("en", "booking.refundAboveRefundable", { max: amountParam(minor, currency) })).toContain(
          formatMoney("en-CA", minor, currency)
        )
      })
    )
  })

  it("text a person typed stays as typed, even where it looks like a param", () => {
    for (const typed of ["amount:7600:EUR", "day:2026-08-15", "{max}", "76.00 EUR"]) {
      expect(translate("en", "booking.refundAboveRefundable", { max: typed })).toBe(
        `The refund is above what is left to refund (${typed}).`
      )
    }
  })
})

describe("the server's messages are given amounts and days, never raw figures", () => {
  // Every params object in src that passes minor units or an ISO date as text: a sentence would read
  // "(3800)" or "2026-12-10". Amounts go through amountParam, days through dayParam.
  const sources = (dir: string): ReadonlyArray<string> =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name)
      return entry.isDirectory() ? sources(file) : file.endsWith(".ts") ? [file] : []
    })
  const raw = /params:\s*\{[^}]*(String\(\s*[\w.]*(Minor|Cents|due|refundable)\b|majorText\(|toISOString\(\))/

  it("no params object in src passes minor units, major-unit text or an ISO date", () => {
    const offenders = sources(path.resolve(import.meta.dirname, "../../src")).filter((file) => raw.test(fs.readFileSync(file, "utf8")))
    expect(offenders).toEqual([])
  })
})
