import { SqlClient } from "@effect/sql"
import { Effect, Either, Layer, ManagedRuntime } from "effect"
import fc from "fast-check"
import * as crypto from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CataloguePostgresAdapters } from "../../src/modules/catalogue/adapters/postgres"
import { type ServiceListing, wordsOf } from "../../src/modules/catalogue/domain"
import { distanceKm } from "../../src/modules/catalogue/geography"
import { matchesText, paging, parseSearch, type SearchInput, type Sort } from "../../src/modules/catalogue/search"
import { ServiceRepository } from "../../src/modules/catalogue/ports"
import { runMigrations } from "../../src/platform/migrations"
import { toMajor } from "../../src/platform/money"
import { freshTestDatabase } from "../support/database"
import type { RuntimeOf, ServicesOf } from "../support/layers"

/**
 * Properties of the search against the real database (PGlite always, PostgreSQL too when
 * TEST_DATABASE_URL is set): a fixed random catalogue with awkward data (ties on price, position and
 * date, hidden services of every kind), then random searches checked against the domain's own
 * predicates evaluated in JavaScript.
 */
const kinds: ReadonlyArray<"pglite" | "postgres"> = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"]

const CENTRE = { lat: 45.5019, lng: -73.5674 }
const WORDS = [
  "Ménage",
  "ménage",
  "Réparation",
  "vélo",
  "jardinage",
  "Cours",
  "piano",
  "plomberie",
  "Élégant",
  "cleaning",
  "repair",
  "garden",
  "lessons",
  "déménagement"
]
const CURRENCIES = ["CAD", "EUR", "JPY", "XOF"] as const

interface Row {
  readonly id: string
  readonly userId: string
  readonly categoryId: number
  readonly title: string
  readonly description: string
  readonly priceMinor: number
  readonly currency: string
  readonly lat: number
  readonly lng: number
  readonly status: "ACTIVE" | "INACTIVE"
  readonly archived: boolean
  readonly providerActive: boolean
  readonly rating: number
  readonly reviewCount: number
  readonly createdAt: Date
}

/** A catalogue of 120 services, generated once from a fixed seed. */
const catalogue = (providers: ReadonlyArray<{ id: string; active: boolean }>): ReadonlyArray<Row> => {
  const base = Date.UTC(2025, 0, 1)
  const row = fc.record({
    provider: fc.constantFrom(...providers),
    categoryId: fc.integer({ min: 1, max: 9 }),
    titleWords: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
    descriptionWords: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }),
    // Few distinct prices, positions and dates: ties everywhere.
    priceMajor: fc.constantFrom(10, 25, 49.5, 50, 75, 100, 150, 200, 250, 1000),
    currency: fc.constantFrom(...CURRENCIES),
    spot: fc.oneof(
      fc.constant({ dLat: 0, dLng: 0 }),
      fc.constant({ dLat: 0.1, dLng: -0.1 }),
      fc.record({ dLat: fc.double({ min: -1.2, max: 1.2, noNaN: true }), dLng: fc.double({ min: -1.6, max: 1.6, noNaN: true }) })
    ),
    status: fc.constantFrom("ACTIVE", "ACTIVE", "ACTIVE", "ACTIVE", "INACTIVE"),
    archived: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    rating: fc.constantFrom(0, 3.5, 4, 4.5, 5),
    reviewCount: fc.constantFrom(0, 1, 10),
    day: fc.integer({ min: 0, max: 20 })
  })
  return fc.sample(row, { numRuns: 120, seed: 20260301 }).map((r) => {
    const zero = r.currency === "JPY" || r.currency === "XOF"
    const major = zero ? Math.round(r.priceMajor) : r.priceMajor
    return {
      id: crypto.randomUUID(),
      userId: r.provider.id,
      categoryId: r.categoryId,
      title: r.titleWords.join(" "),
      description: r.descriptionWords.join(" "),
      priceMinor: Math.round(major * (zero ? 1 : 100)),
      currency: r.currency,
      lat: CENTRE.lat + r.spot.dLat,
      lng: CENTRE.lng + r.spot.dLng,
      status: r.status as Row["status"],
      archived: r.archived,
      providerActive: r.provider.active,
      rating: r.rating,
      reviewCount: r.reviewCount,
      createdAt: new Date(base + r.day * 86_400_000)
    }
  })
}

const criteria = fc.record(
  {
    search: fc.oneof(
      fc.constantFrom("menage", "MÉNAGE", "reparation", "velo", "jardin", "cours piano", "plomb", "elegant", "clean", "zzz"),
      fc.constant(undefined)
    ),
    categoryId: fc.option(fc.integer({ min: 1, max: 9 }), { nil: undefined }),
    price: fc.option(
      fc.constantFrom<[number | undefined, number | undefined]>(
        [0, 50],
        [50, 100],
        [100, 200],
        [200, undefined],
        [25, 25],
        [undefined, 49.5]
      ),
      { nil: undefined }
    ),
    radius: fc.option(fc.constantFrom(1, 10, 25, 60, 150), { nil: undefined }),
    sortBy: fc.constantFrom<Sort>("newest", "price_asc", "price_desc", "rating", "distance", "relevance"),
    limit: fc.integer({ min: 1, max: 9 })
  },
  { requiredKeys: ["sortBy", "limit"] }
)
type Criteria = typeof criteria extends fc.Arbitrary<infer A> ? A : never

const toInput = (c: Criteria, page = 1): SearchInput => ({
  ...(c.search === undefined ? {} : { search: c.search }),
  ...(c.categoryId === undefined ? {} : { categoryId: String(c.categoryId) }),
  ...(c.price?.[0] === undefined ? {} : { minPrice: String(c.price[0]) }),
  ...(c.price?.[1] === undefined ? {} : { maxPrice: String(c.price[1]) }),
  ...(c.radius === undefined ? {} : { lat: String(CENTRE.lat), lng: String(CENTRE.lng), radius: String(c.radius) }),
  sortBy: c.sortBy,
  limit: String(c.limit),
  page: String(page)
})

const cents = (r: Pick<Row, "priceMinor" | "currency">) => Math.round(toMajor(r.priceMinor, r.currency) * 100)
/** Within one metre of the radius, JavaScript and PostgreSQL may round differently: such rows are left out of set comparisons. */
const BORDER_KM = 0.001

const stackOn = (kind: (typeof kinds)[number]) => CataloguePostgresAdapters.pipe(Layer.provideMerge(freshTestDatabase(kind)))

describe.each(kinds)("search properties on %s", (kind) => {
  let runtime: RuntimeOf<ReturnType<typeof stackOn>>
  const run = <A, E>(effect: Effect.Effect<A, E, ServicesOf<ReturnType<typeof stackOn>>>) => runtime.runPromise(effect)
  let rows: ReadonlyArray<Row> = []

  /** What the service layer sends the repository for these URL parameters. */
  const search = (input: SearchInput) => {
    const c = Either.getOrThrow(parseSearch(input))
    return run(
      Effect.flatMap(ServiceRepository, (repo) =>
        repo.search({
          text: c.text,
          categoryId: c.category?._tag === "Id" ? c.category.id : undefined,
          minPriceCents: c.minPriceCents,
          maxPriceCents: c.maxPriceCents,
          geo: c.geo,
          sort: c.sort,
          limit: c.limit,
          offset: paging(c.page, c.limit).offset,
          withTotal: true
        })
      )
    )
  }

  /** Every page until a short one. */
  const allPages = async (c: Criteria) => {
    const seen: Array<ServiceListing> = []
    for (let page = 1; page <= 200; page++) {
      const result = await search(toInput(c, page))
      seen.push(...result.services)
      if (result.services.length < c.limit) return seen
    }
    throw new Error("more than 200 pages")
  }

  /** The matches as the domain defines them, evaluated in JavaScript. */
  const expected = (c: Criteria) => {
    const parsed = Either.getOrThrow(parseSearch(toInput(c)))
    return rows.filter((r) => {
      if (r.status !== "ACTIVE" || r.archived || !r.providerActive) return false
      if (parsed.text && !matchesText(new Set([...wordsOf(r.title), ...wordsOf(r.description)]), parsed.text)) return false
      if (c.categoryId !== undefined && r.categoryId !== c.categoryId) return false
      if (parsed.minPriceCents !== undefined && cents(r) < parsed.minPriceCents) return false
      if (parsed.maxPriceCents !== undefined && cents(r) > parsed.maxPriceCents) return false
      if (parsed.geo && distanceKm(parsed.geo, r) > parsed.geo.radiusKm) return false
      return true
    })
  }
  const nearBorder = (c: Criteria, r: { lat: number; lng: number }) =>
    c.radius !== undefined && Math.abs(distanceKm(CENTRE, r) - c.radius) < BORDER_KM

  beforeAll(async () => {
    runtime = ManagedRuntime.make(stackOn(kind))
    await run(runMigrations)
    const providers = await run(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.forEach([true, true, true, false], (active, i) =>
          sql<{
            id: string
          }>`INSERT INTO users (email, password_hash, first_name, last_name, phone_number, role, is_email_verified, is_active)
            VALUES (${`provider${i}.${crypto.randomBytes(3).toString("hex")}@example.com`}, '!', 'Léa', 'Côté', '5145550100', 'PROVIDER', true, ${active})
            RETURNING id`.pipe(Effect.map((r) => ({ id: r[0]!.id, active })))
        )
      )
    )
    rows = catalogue(providers)
    await run(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.forEach(
          rows,
          (r) => sql`INSERT INTO services (id, user_id, category_id, title, description, price_minor, currency, duration_minutes,
              location, lat, lng, status, archived_at, rating, review_count, created_at, updated_at)
            VALUES (${r.id}, ${r.userId}, ${r.categoryId}, ${r.title}, ${r.description}, ${r.priceMinor}, ${r.currency}, 60,
              'Montréal', ${r.lat}, ${r.lng}, ${r.status}, ${r.archived ? new Date() : null}, ${r.rating}, ${r.reviewCount},
              ${r.createdAt}, ${r.createdAt})`,
          { discard: true }
        )
      )
    )
    expect(rows.filter((r) => r.status === "ACTIVE" && !r.archived && r.providerActive).length).toBeGreaterThan(40)
  }, 120_000)
  afterAll(() => runtime?.dispose())

  it("never answers a service outside the requested price range, category or radius, nor a hidden one", async () => {
    await fc.assert(
      fc.asyncProperty(criteria, async (c) => {
        const result = await search(toInput(c))
        const parsed = Either.getOrThrow(parseSearch(toInput(c)))
        for (const s of result.services) {
          const where = `${s.title} ${s.priceMinor} ${s.currency} (${s.lat}, ${s.lng})`
          expect(s.status, where).toBe("ACTIVE")
          expect(s.archivedAt, where).toBeNull()
          expect(s.provider.isActive, where).toBe(true)
          if (c.categoryId !== undefined) expect(s.categoryId, where).toBe(c.categoryId)
          if (parsed.minPriceCents !== undefined) expect(cents(s), where).toBeGreaterThanOrEqual(parsed.minPriceCents)
          if (parsed.maxPriceCents !== undefined) expect(cents(s), where).toBeLessThanOrEqual(parsed.maxPriceCents)
          if (c.radius !== undefined) {
            expect(distanceKm(CENTRE, s), where).toBeLessThanOrEqual(c.radius + BORDER_KM)
            expect(s.distanceKm, where).toBeCloseTo(distanceKm(CENTRE, s), 3)
          }
          if (parsed.text) expect(matchesText(new Set([...wordsOf(s.title), ...wordsOf(s.description)]), parsed.text), where).toBe(true)
        }
      }),
      { numRuns: 150 }
    )
  })

  it("paging returns every matching service exactly once", async () => {
    await fc.assert(
      fc.asyncProperty(criteria, async (c) => {
        const seen = await allPages(c)
        const ids = seen.map((s) => s.id)
        expect(new Set(ids).size, "no service twice").toBe(ids.length)
        const want = new Set(
          expected(c)
            .filter((r) => !nearBorder(c, r))
            .map((r) => r.id)
        )
        const got = new Set(seen.filter((s) => !nearBorder(c, s)).map((s) => s.id))
        expect([...got].sort()).toEqual([...want].sort())
        // The first page's total is exact when the matches end within the pages read ahead.
        const first = await search(toInput(c, 1))
        if (first.exact) expect(first.total).toBe(seen.length)
        else expect(first.total).toBeLessThanOrEqual(seen.length)
      }),
      { numRuns: 60 }
    )
  })

  it("the requested order is respected across pages, ties broken by id", async () => {
    const compare: Record<Exclude<Sort, "relevance">, (a: ServiceListing, b: ServiceListing) => number> = {
      newest: (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0),
      price_asc: (a, b) => cents(a) - cents(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      price_desc: (a, b) => cents(b) - cents(a) || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0),
      rating: (a, b) => b.rating - a.rating || b.reviewCount - a.reviewCount || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0),
      // The database's own distances (checked against JavaScript's in the first property).
      distance: (a, b) => a.distanceKm! - b.distanceKm! || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
    }
    await fc.assert(
      fc.asyncProperty(
        criteria.filter((c) => c.sortBy !== "relevance"),
        async (c) => {
          const seen = await allPages(c)
          // Distance needs a position; without one the list falls back to newest (documented).
          const sort = c.sortBy === "distance" && c.radius === undefined ? "newest" : (c.sortBy as Exclude<Sort, "relevance">)
          for (let i = 1; i < seen.length; i++) {
            expect(
              compare[sort](seen[i - 1]!, seen[i]!),
              `${sort}: ${JSON.stringify([seen[i - 1], seen[i]].map((s) => [s!.id, s!.distanceKm, s!.createdAt, s!.priceMinor, s!.currency, s!.rating]))}`
            ).toBeLessThan(0)
          }
        }
      ),
      { numRuns: 60 }
    )
  })
})
