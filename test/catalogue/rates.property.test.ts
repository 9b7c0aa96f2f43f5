import { SqlClient } from "@effect/sql"
import { Effect, Either, Layer, ManagedRuntime } from "effect"
import fc from "fast-check"
import * as crypto from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CataloguePostgresAdapters } from "../../src/modules/catalogue/adapters/postgres"
import type { ServiceListing } from "../../src/modules/catalogue/domain"
import { ServiceRepository } from "../../src/modules/catalogue/ports"
import { parseEurofxref } from "../../src/modules/catalogue/rates/adapters/ecb"
import {
  convertCents,
  convertMinor,
  DEMO_RATES,
  parseRate,
  rangesInEachCurrency,
  type RateTable,
  rateTableOf,
  rateText,
  referenceCents,
  validateRates
} from "../../src/modules/catalogue/rates/domain"
import { paging, parseSearch, pricedQuery, type SearchInput } from "../../src/modules/catalogue/search"
import { runMigrations } from "../../src/platform/migrations"
import { Currencies, currencyDecimals, toMajor } from "../../src/platform/money"
import { freshTestDatabase } from "../support/database"
import type { RuntimeOf, ServicesOf } from "../support/layers"

const demo = rateTableOf(DEMO_RATES.map(([currency, perEurMicro]) => ({ currency, perEurMicro })))
const rate = fc.integer({ min: 1_000, max: 2_000_000_000 })
const currency = fc.constantFrom(...Currencies)
const amount = fc.integer({ min: 0, max: 100_000_000 })
const rates = fc
  .tuple(...Currencies.map(() => rate))
  .map((micros): RateTable => new Map(Currencies.map((c, i) => [c, c === "EUR" ? 1_000_000 : micros[i]!])))

describe("the conversion rule (rates/domain.ts)", () => {
  it("converts with one rounding, half up, exactly (no float)", () => {
    expect(convertMinor(4550, "EUR", "CAD", demo)).toBe(7371) // 45.50 × 1.62 = 73.71
    expect(convertMinor(3500, "CAD", "EUR", demo)).toBe(2160) // 35 / 1.62 = 21.604…
    expect(convertMinor(5000, "JPY", "EUR", demo)).toBe(2778) // 5000 ¥ / 180 = 27.777…
    expect(convertMinor(1000, "EUR", "XOF", demo)).toBe(6560) // 10 € = 6559.57 F CFA
    expect(convertMinor(100, "EUR", "EUR", demo)).toBe(100)
    expect(convertMinor(100, "EUR", "ZZZ", demo)).toBeUndefined()
    // A half rounds up: 1 cent at 2 per euro is 0.5 cent.
    expect(convertCents(1, 2_000_000, 1_000_000)).toBe(1)
    expect(referenceCents(3500, 1_620_000)).toBe(2160)
    fc.assert(
      fc.property(amount, currency, currency, rates, (minor, from, to, table) => {
        const converted = convertMinor(minor, from, to, table)
        if (converted === undefined) {
          // Only beyond 2^53, where no number is exact (absurd amounts at absurd rates).
          expect(minor * (table.get(to)! / table.get(from)!) * 10 ** (currencyDecimals(to) - currencyDecimals(from))).toBeGreaterThan(
            2 ** 52
          )
          return
        }
        // The exact value is minor × 10^(dTo − dFrom) × rTo / rFrom: the result is within half a unit, a half going up.
        const shift = currencyDecimals(to) - currencyDecimals(from)
        const num = BigInt(minor) * BigInt(table.get(to)!) * 10n ** BigInt(Math.max(shift, 0))
        const den = BigInt(table.get(from)!) * 10n ** BigInt(Math.max(-shift, 0))
        const c = BigInt(converted)
        expect((2n * c - 1n) * den <= 2n * num).toBe(true)
        expect(2n * num < (2n * c + 1n) * den).toBe(true)
      })
    )
  })

  it("is monotonic: a higher price never converts (nor sorts) below a lower one in the same currency", () => {
    fc.assert(
      fc.property(amount, amount, currency, currency, rates, (a, b, from, to, table) => {
        const [low, high] = a <= b ? [a, b] : [b, a]
        const [cl, ch] = [convertMinor(low, from, to, table), convertMinor(high, from, to, table)]
        if (cl !== undefined && ch !== undefined) expect(cl).toBeLessThanOrEqual(ch)
        expect(referenceCents(low, table.get(from)!)).toBeLessThanOrEqual(referenceCents(high, table.get(from)!))
      })
    )
  })

  it("a range in the viewer's currency is, in each currency, exactly the prices that convert into it", () => {
    fc.assert(
      fc.property(
        rates,
        currency,
        fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: undefined }),
        fc.array(fc.tuple(currency, fc.integer({ min: 1, max: 200_000 })), { minLength: 1, maxLength: 30 }),
        (table, viewer, min, max, prices) => {
          const ranges = rangesInEachCurrency(min, max, viewer, table)
          for (const [c, cents] of prices) {
            const converted = convertCents(cents, table.get(c)!, table.get(viewer)!)
            const wanted = (min === undefined || converted >= min) && (max === undefined || converted <= max)
            const range = ranges.find((r) => r.currency === c)
            const found = range !== undefined && cents >= range.minCents && (range.maxCents === undefined || cents <= range.maxCents)
            expect(found, `${cents} ${c} → ${converted} ${viewer} in [${min}, ${max}]`).toBe(wanted)
          }
        }
      )
    )
  })

  it("reads rates as exact decimal text and writes them back", () => {
    expect(parseRate("1.4567")).toBe(1_456_700)
    expect(parseRate("1,4567")).toBe(1_456_700)
    expect(parseRate("655.957")).toBe(655_957_000)
    for (const junk of ["", "0", "-1", "1e3", "1.2345678", "abc", "1.2.3", "99999999"]) expect(parseRate(junk), junk).toBeUndefined()
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000_000_000 }), (micro) => {
        expect(parseRate(rateText(micro))).toBe(micro)
      })
    )
    expect(rateText(1_620_000)).toBe("1.62")
    expect(rateText(180_000_000)).toBe("180")
  })

  it("validates entered rates field by field", () => {
    expect(validateRates([{ currency: "cad", rate: "1.5" }])).toEqual({ rates: [["CAD", 1_500_000]], issues: [] })
    const { issues } = validateRates([
      { currency: "ABC", rate: "1" },
      { currency: "USD", rate: "-2" },
      { currency: "EUR", rate: "1.1" },
      { currency: "GBP", rate: "0.8" },
      { currency: "GBP", rate: "0.9" }
    ])
    expect(issues.map((i) => [i.field, i.key])).toEqual([
      ["rates.ABC", "rates.currency"],
      ["rates.USD", "rates.invalid"],
      ["rates.EUR", "rates.reference"],
      ["rates.GBP", "rates.duplicate"]
    ])
    expect(validateRates([]).issues.map((i) => i.key)).toEqual(["rates.empty"])
  })

  it("parses the ECB's daily file, keeping the product's currencies", () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <Cube><Cube time='2025-11-25'>
    <Cube currency='USD' rate='1.1561'/><Cube currency='JPY' rate='180.52'/><Cube currency='BGN' rate='1.9558'/>
    <Cube currency='GBP' rate='0.87928'/><Cube currency='CHF' rate='0.9323'/><Cube currency='CAD' rate='1.6283'/>
  </Cube></Cube>
</gesmes:Envelope>`
    expect(parseEurofxref(xml)).toEqual([
      ["USD", 1_156_100],
      ["JPY", 180_520_000],
      ["GBP", 879_280],
      ["CHF", 932_300],
      ["CAD", 1_628_300]
    ])
    expect(parseEurofxref("<html>maintenance</html>")).toEqual([])
  })
})

/**
 * The SQL search against the same rule, on PGlite and PostgreSQL: random prices in every currency,
 * random rates, viewers and ranges; the matches and their order are what the domain says.
 */
const kinds: ReadonlyArray<"pglite" | "postgres"> = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"]

interface Row {
  readonly id: string
  readonly priceMinor: number
  readonly currency: string
}
const cents = (r: Pick<ServiceListing, "priceMinor" | "currency">) => Math.round(toMajor(r.priceMinor, r.currency) * 100)
const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

const stackOn = (kind: (typeof kinds)[number]) => CataloguePostgresAdapters.pipe(Layer.provideMerge(freshTestDatabase(kind)))

describe.each(kinds)("prices compared in euros by the SQL search on %s", (kind) => {
  let runtime: RuntimeOf<ReturnType<typeof stackOn>>
  const run = <A, E>(effect: Effect.Effect<A, E, ServicesOf<ReturnType<typeof stackOn>>>) => runtime.runPromise(effect)
  let providerId = ""
  const rows: Array<Row> = []

  beforeAll(async () => {
    runtime = ManagedRuntime.make(stackOn(kind))
    await run(runMigrations)
    providerId = await run(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ id: string }>`INSERT INTO users (email, password_hash, first_name, last_name, phone_number, role, is_email_verified)
          VALUES (${`rates.${crypto.randomBytes(3).toString("hex")}@example.com`}, '!', 'Léa', 'Côté', '5145550100', 'PROVIDER', true)
          RETURNING id`.pipe(Effect.map((r) => r[0]!.id))
      )
    )
    // Few distinct prices: ties within and across currencies.
    const sample = fc.sample(fc.record({ currency, major: fc.constantFrom(10, 20, 28, 35, 38, 50, 60, 75, 100, 150, 5000) }), {
      numRuns: 90,
      seed: 20261126
    })
    for (const s of sample)
      rows.push({ id: crypto.randomUUID(), currency: s.currency, priceMinor: s.major * 10 ** currencyDecimals(s.currency) })
    await run(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.forEach(
          rows,
          (
            r
          ) => sql`INSERT INTO services (id, user_id, category_id, title, description, price_minor, currency, duration_minutes, location, lat, lng)
            VALUES (${r.id}, ${providerId}, 1, 'Cours', 'Cours', ${r.priceMinor}, ${r.currency}, 60, 'Montréal', 45.5, -73.5)`,
          { discard: true }
        )
      )
    )
  }, 120_000)
  afterAll(() => runtime?.dispose())

  /** Every page of a search, with the query the service builds (search.ts pricedQuery). */
  const allPages = async (input: SearchInput, table: RateTable) => {
    const seen: Array<ServiceListing> = []
    for (let page = 1; page <= 100; page++) {
      const c = Either.getOrThrow(parseSearch({ ...input, provider: providerId, page: String(page) }))
      const prices = pricedQuery(c, table)
      if (prices === undefined) return seen
      const result = await run(
        Effect.flatMap(ServiceRepository, (repo) =>
          repo.search({
            ...prices,
            text: c.text,
            providerId,
            sort: c.sort,
            limit: c.limit,
            offset: paging(c.page, c.limit).offset,
            withTotal: true
          })
        )
      )
      seen.push(...result.services)
      if (result.services.length < c.limit) return seen
    }
    throw new Error("more than 100 pages")
  }

  it("answers exactly the services whose converted price is in the viewer's range, in euro order", async () => {
    await fc.assert(
      fc.asyncProperty(
        rates,
        currency,
        fc.option(fc.constantFrom(0, 20, 50, 100), { nil: undefined }),
        fc.option(fc.constantFrom(30, 50, 100, 200), { nil: undefined }),
        fc.constantFrom("price_asc", "price_desc", "newest"),
        fc.integer({ min: 3, max: 25 }),
        // Every title is "Cours": with words the statement takes its other shape (one branch per currency).
        fc.boolean(),
        async (table, viewer, min, max, sortBy, limit, withWords) => {
          if (min !== undefined && max !== undefined && min > max) return
          const input: SearchInput = {
            sortBy,
            limit: String(limit),
            currency: viewer,
            ...(withWords ? { search: "cours" } : {}),
            ...(min === undefined ? {} : { minPrice: String(min) }),
            ...(max === undefined ? {} : { maxPrice: String(max) })
          }
          const seen = await allPages(input, table)
          const inRange = (r: Row) => {
            const converted = convertCents(cents(r), table.get(r.currency)!, table.get(viewer)!)
            return (min === undefined || converted >= min * 100) && (max === undefined || converted <= max * 100)
          }
          const key = (r: Row) => referenceCents(cents(r), table.get(r.currency)!)
          const wanted = rows.filter(inRange)
          expect(seen.map((s) => s.id).sort()).toEqual(wanted.map((r) => r.id).sort())
          if (sortBy !== "newest") {
            const sign = sortBy === "price_asc" ? 1 : -1
            const ordered = [...wanted].sort((a, b) => sign * (key(a) - key(b) || cents(a) - cents(b) || byId(a, b)))
            expect(seen.map((s) => s.id)).toEqual(ordered.map((r) => r.id))
          }
        }
      ),
      { numRuns: 40 }
    )
  }, 120_000)

  it("a range no currency reaches finds nothing, sorted or not (the statement keeps its shape)", async () => {
    for (const sort of ["price_asc", "price_desc", "newest"] as const) {
      const page = await run(
        Effect.flatMap(ServiceRepository, (repo) =>
          repo.search({ priceRanges: [], rates: demo, providerId, sort, limit: 10, offset: 0, withTotal: true })
        )
      )
      expect(page).toEqual({ services: [], total: 0, exact: true })
    }
  })

  it("uses the currency-and-price index for a price range and for a price sort", async () => {
    const c = Either.getOrThrow(parseSearch({ sortBy: "price_asc", minPrice: "50", maxPrice: "100" }))
    const { searchStatement } = await import("../../src/modules/catalogue/adapters/postgres")
    const plan = await run(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.gen(function* () {
          yield* sql`SET enable_seqscan = off`
          const [text, params] = searchStatement(sql, {
            ...pricedQuery(c, demo)!,
            sort: c.sort,
            limit: 20,
            offset: 0,
            withTotal: true
          }).compile()
          const lines = yield* sql.unsafe<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, params as Array<unknown>)
          yield* sql`RESET enable_seqscan`
          return lines.map((l) => Object.values(l)[0]).join("\n")
        })
      )
    )
    expect(plan).toMatch(/services_currency_price_idx/)
  })
})
