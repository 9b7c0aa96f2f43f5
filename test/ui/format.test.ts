import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  currencyDecimals,
  formatDate,
  formatDateTime,
  formatApproxPrice,
  formatDistance,
  formatMinor,
  formatMinorCompact,
  formatMonthYear,
  formatNumber,
  formatPercent,
  formatPrice,
  formatTime,
  formatUtcDay,
  formatRating,
  shortFileName
} from "../../ui/format"

// The UI's one formatting module: prices from the API (major units) and the back-office's figures
// (minor units) agree, through the shared money toolkit, for every currency's decimals.
const graphemesOf = (text: string) =>
  Array.from(new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text), (part) => part.segment)
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ")

describe("ui/format", () => {
  it("writes a series' UTC day or month as that day, whatever the process's zone, and short amounts for an axis", () => {
    expect(formatUtcDay("fr", "2026-01-01", "day")).toBe("1 janv.")
    expect(formatUtcDay("en", "2026-01-01", "day")).toBe("Jan 1")
    expect(plain(formatUtcDay("fr", "2026-11-26", "date"))).toBe("26 nov. 2026")
    expect(formatUtcDay("en", "2026-11-01", "month")).toBe("Nov 2026")
    expect(plain(formatMinorCompact("en", 123_400, "EUR"))).toBe("€1.2K")
    expect(plain(formatMinorCompact("fr", 123_400, "JPY"))).toBe("123,4 k JPY")
  })

  it("formats major and minor amounts alike, in French and English", () => {
    expect(plain(formatPrice("fr", 35.5, "EUR"))).toBe("35,50 €")
    expect(plain(formatMinor("fr", 3550, "EUR"))).toBe("35,50 €")
    expect(formatPrice("en", 35.5, "CAD")).toBe("CA$35.50")
    expect(formatMinor("en", 3550, "CAD")).toBe("CA$35.50")
    expect(formatPrice("en", 5000, "JPY")).toBe("¥5,000")
    expect(plain(formatMinor("fr", 5000, "XAF"))).toBe("5 000 FCFA")
    expect(currencyDecimals("XOF")).toBe(0)
  })

  it("names the dollar's country, never a bare $ (issue 14)", () => {
    expect(formatPrice("en", 70, "CAD")).toBe("CA$70.00")
    expect(formatPrice("en", 70, "USD")).toBe("US$70.00")
    expect(formatPrice("en-CA", 70, "CAD")).toBe("CA$70.00")
    expect(plain(formatPrice("fr", 70, "CAD"))).toBe("70,00 $CA")
    expect(plain(formatPrice("fr-CA", 70, "CAD"))).toBe("70,00 $CA")
    expect(plain(formatApproxPrice("fr", 52.34, "CAD"))).toBe("52 $CA")
    expect(formatApproxPrice("en", 52.34, "CAD")).toBe("CA$52")
  })

  it("formats dates, times and numbers in the reader's language", () => {
    expect(formatDate("fr", "2025-06-02T09:00:00Z", "long")).toBe("2 juin 2025")
    expect(formatDate("en", "2025-06-02T09:00:00Z", "long")).toBe("June 2, 2025")
    expect(formatDate("en", null)).toBe("—")
    expect(formatDateTime("fr", new Date(2025, 5, 2, 9, 5))).toBe("2 juin 2025, 09:05")
    expect(formatTime("fr", new Date(2025, 5, 2, 9, 5))).toBe("09:05")
    expect(formatTime("en", new Date(2025, 5, 2, 9, 5), "2-digit")).toBe("09:05 AM")
    expect(formatNumber("fr", 4.25, 1, 1)).toBe("4,3")
    expect(formatNumber("en", 12.256, 2)).toBe("12.26")
    expect(formatDistance("en", 2.54)).toBe("2.5 km")
    expect(plain(formatDistance("fr", 12.4))).toBe("12 km")
  })

  it("formats ratings with one decimal, percentages and months in the reader's language", () => {
    expect(formatRating("fr", 4.5)).toBe("4,5")
    expect(formatRating("en", 4.5)).toBe("4.5")
    expect(formatRating("fr", 5)).toBe("5,0")
    expect(formatRating("en", 4.449)).toBe("4.4")
    expect(plain(formatPercent("fr", 0.95))).toBe("95 %")
    expect(formatPercent("en", 0.955, 1)).toBe("95.5%")
    expect(formatMonthYear("fr", "2024-03-15T12:00:00Z")).toBe("mars 2024")
    expect(formatMonthYear("en", "2024-03-15T12:00:00Z")).toBe("March 2024")
  })

  it("writes any rating from 0 to 5 with exactly one decimal, within 0.05 of it", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 5, noNaN: true }), fc.constantFrom("fr", "en"), (rating, locale) => {
        const text = formatRating(locale, rating)
        expect(text).toMatch(locale === "fr" ? /^\d,\d$/ : /^\d\.\d$/)
        expect(Math.abs(Number(text.replace(",", ".")) - rating)).toBeLessThanOrEqual(0.05 + 1e-9)
      })
    )
  })

  it("cuts a long file name to its limit, keeping the extension, and leaves a short one alone", () => {
    expect(shortFileName("facture.pdf", 30)).toBe("facture.pdf")
    expect(shortFileName("justificatif-de-domicile-hydro-quebec-janvier-2026.pdf", 30)).toBe("justificatif-de-domicile-….pdf")
    expect(shortFileName("Nguyễn-Thị-Minh-Khai-pièce-d'identité-recto-verso.png", 40)).toBe("Nguyễn-Thị-Minh-Khai-pièce-d'identi….png")
    expect(shortFileName("sans-extension-mais-vraiment-beaucoup-trop-long", 30)).toBe("sans-extension-mais-vraiment-…")
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme-composite", maxLength: 80 }).filter((name) => !name.includes("…")),
        fc.constantFrom(30, 40),
        (name, max) => {
          const short = shortFileName(name, max)
          expect(graphemesOf(short).length).toBeLessThanOrEqual(max)
          if (graphemesOf(name).length <= max) expect(short).toBe(name)
          else {
            // Whole characters only: what precedes the ellipsis is the name's first characters.
            const cut = graphemesOf(short.slice(0, short.lastIndexOf("…")))
            expect(graphemesOf(name).slice(0, cut.length)).toEqual(cut)
          }
        }
      )
    )
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z-]{40,80}$/), fc.constantFrom(".pdf", ".png", ".jpeg"), (stem, extension) => {
        const short = shortFileName(`${stem}${extension}`, 30)
        expect(short.endsWith(`…${extension}`)).toBe(true)
        expect(`${stem}${extension}`.startsWith(short.slice(0, short.indexOf("…")))).toBe(true)
      })
    )
  })
})
