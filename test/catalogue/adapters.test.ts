import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import { AppConfigOf } from "../../src/platform/config"
import * as crypto from "node:crypto"
import { describe, expect, it } from "vitest"
import { CatalogueMemoryAdapters } from "../../src/modules/catalogue/adapters/memory"
import { CataloguePostgresAdapters, CELLS, searchStatement } from "../../src/modules/catalogue/adapters/postgres"
import { cellsOf, distanceKm } from "../../src/modules/catalogue/geography"
import { parseTextQuery } from "../../src/modules/catalogue/search"
import { CategoryRepository, ServiceRepository } from "../../src/modules/catalogue/ports"
import { UserRepository } from "../../src/modules/identity"
import { IdentityMemoryAdapters } from "../../src/modules/identity/adapters/memory"
import { IdentityPostgresAdapters } from "../../src/modules/identity/adapters/postgres"
import { freshTestDatabase, storeKinds } from "../support/database"
import { contractStores } from "../support/contract"

/** One contract for the catalogue's stores: in memory, PGlite, and PostgreSQL when TEST_DATABASE_URL is set. */
const memoryStores = CatalogueMemoryAdapters.pipe(Layer.provideMerge(IdentityMemoryAdapters))
const postgresStores = (kind: "pglite" | "postgres") =>
  Layer.mergeAll(CataloguePostgresAdapters, IdentityPostgresAdapters).pipe(
    Layer.provideMerge(freshTestDatabase(kind)),
    Layer.provide(AppConfigOf())
  )
describe.each(storeKinds)("catalogue stores on %s", (kind) => {
  const { run, onPostgres } = contractStores(kind, memoryStores, postgresStores)
  const categories = () => run(CategoryRepository)
  const services = () => run(ServiceRepository)

  const newUser = (active = true) =>
    run(
      Effect.gen(function* () {
        const users = yield* UserRepository
        const user = yield* users.insert({
          email: `p.${crypto.randomBytes(5).toString("hex")}@example.com`,
          passwordHash: "!",
          firstName: "Léa",
          lastName: "Côté",
          phoneNumber: "5145550100",
          role: "PROVIDER",
          isEmailVerified: true,
          preferredLanguage: "fr"
        })
        if (!active) yield* users.setActive(user.id, false)
        return user.id
      })
    )
  const newService = async (userId: string, overrides: Record<string, unknown> = {}) =>
    (await services())
      .insert({
        userId,
        categoryId: 7,
        title: "Plomberie générale",
        description: "Réparation de fuites et de robinets.",
        priceMinor: 8500,
        currency: "CAD",
        durationMinutes: 60,
        location: "Montréal, QC",
        lat: 45.5,
        lng: -73.57,
        status: "ACTIVE",
        ...overrides
      })
      .pipe(run)
  const publicSearch = async (text: string) =>
    (await services()).search({ text: parseTextQuery(text), sort: "newest", limit: 50, offset: 0, withTotal: true }).pipe(run)

  it("categories: the nine seeded ones, found by id, slug or either name whatever the case and accents", async () => {
    const repo = await categories()
    const all = await run(repo.list())
    expect(all.slice(0, 9).map((c) => c.nameEn)).toEqual([
      "IT",
      "Design",
      "Marketing",
      "Consulting",
      "Cleaning",
      "Gardening",
      "Repair",
      "Transport",
      "Training"
    ])
    expect(Option.getOrThrow(await run(repo.findById(7)))).toEqual({ id: 7, slug: "reparation", nameFr: "Réparation", nameEn: "Repair" })
    for (const name of ["MÉNAGE", "menage", "Cleaning", " cleaning"])
      expect(Option.map(await run(repo.findByName(name.trim())), (c) => c.id)).toEqual(Option.some(5))
    expect(Option.map(await run(repo.findByName("reparation")), (c) => c.id)).toEqual(Option.some(7))
    expect(await run(repo.findByName("astrologie"))).toEqual(Option.none())
    expect(await run(repo.findById(424242))).toEqual(Option.none())
  })

  it("findOrCreate: one category per name whatever its case and accents, even when created concurrently", async () => {
    const repo = await categories()
    const created = await run(repo.findOrCreate("Photographie d'événements"))
    expect(created).toMatchObject({
      slug: "photographie-d-evenements",
      nameFr: "Photographie d'événements",
      nameEn: "Photographie d'événements"
    })
    expect(created.id).toBeGreaterThanOrEqual(100)
    expect((await run(repo.findOrCreate("PHOTOGRAPHIE D'EVENEMENTS"))).id).toBe(created.id)
    expect((await run(repo.findOrCreate("Jardinage"))).id).toBe(6)
    // Names that make the same slug are still two categories.
    const plus = await run(repo.findOrCreate("C++"))
    const sharp = await run(repo.findOrCreate("C#"))
    expect(plus.id).not.toBe(sharp.id)
    expect([plus.slug, sharp.slug]).toEqual(["c", "c-2"])
    const racing = await run(
      Effect.all(
        Array.from({ length: 5 }, () => repo.findOrCreate("Cours de yoga")),
        { concurrency: 5 }
      )
    )
    expect(new Set(racing.map((c) => c.id)).size).toBe(1)
  })

  it("services: insert, read with category and provider, update, status, archive", async () => {
    const userId = await newUser()
    const repo = await services()
    const inserted = await newService(userId)
    const found = Option.getOrThrow(await run(repo.findById(inserted.id)))
    expect(found).toMatchObject({
      userId,
      title: "Plomberie générale",
      priceMinor: 8500,
      currency: "CAD",
      durationMinutes: 60,
      status: "ACTIVE",
      archivedAt: null,
      rating: 0,
      reviewCount: 0,
      photos: [],
      category: { id: 7, slug: "reparation" },
      provider: { id: userId, firstName: "Léa", lastName: "Côté", isActive: true }
    })
    await run(repo.update(inserted.id, { title: "Plomberie d'urgence", priceMinor: 9900, categoryId: 4 }))
    expect(Option.getOrThrow(await run(repo.findById(inserted.id)))).toMatchObject({
      title: "Plomberie d'urgence",
      priceMinor: 9900,
      categoryId: 4
    })
    await run(repo.setStatus(inserted.id, "INACTIVE"))
    expect((await publicSearch("urgence")).services).toEqual([])
    expect((await run(repo.listOwnedBy(userId))).map((s) => s.status)).toEqual(["INACTIVE"])
    await run(repo.setStatus(inserted.id, "ACTIVE"))
    expect((await publicSearch("urgence")).services.map((s) => s.id)).toEqual([inserted.id])
    await run(repo.archive(inserted.id))
    expect(Option.getOrThrow(await run(repo.findById(inserted.id))).archivedAt).toBeInstanceOf(Date)
    expect(await run(repo.listOwnedBy(userId))).toEqual([])
    expect((await publicSearch("urgence")).services).toEqual([])
    expect(await run(repo.findById(crypto.randomUUID()))).toEqual(Option.none())
  })

  it("search: accents and case ignored, the last word a prefix; inactive providers hidden; totals", async () => {
    const active = await newUser()
    const inactive = await newUser(false)
    const a = await newService(active, { title: "Réparation de vélos électriques", description: "Freins, vitesses, batteries." })
    await newService(inactive, { title: "Réparation de vélos anciens", description: "Restauration." })
    expect((await publicSearch("REPARATION velo")).services.map((s) => s.id)).toEqual([a.id])
    expect((await publicSearch("vélos électr")).services.map((s) => s.id)).toEqual([a.id])
    expect((await publicSearch("batterie")).services.map((s) => s.id)).toEqual([a.id])
    const page = await (await services())
      .search({ text: parseTextQuery("velos"), sort: "price_asc", limit: 1, offset: 5, withTotal: true })
      .pipe(run)
    expect(page).toEqual({ services: [], total: 1, exact: true })
  })

  it("search by words around a place: nearest first, ties by id, across pages, the same on every store", async () => {
    // Around Lyon (no other test's services there); positions on both sides of cell borders (0.1° and 1°).
    const centre = { lat: 45.764, lng: 4.8357 }
    const userId = await newUser()
    const hidden = await newUser(false)
    const spots = [
      [0, 0],
      [0, 0],
      [0.027, 0],
      [0.09, 0.01],
      [0.09, 0.01],
      [0.236, -0.02],
      [-0.2, 0.2],
      [0.1, -0.3],
      [0.3, 0.1]
    ] as const
    const at = (i: number) => ({ lat: centre.lat + spots[i]![0], lng: centre.lng + spots[i]![1] })
    const made = await Promise.all(
      spots.map((_, i) => newService(userId, { title: `Astiquage ${i}`, categoryId: 1 + (i % 9), location: "Lyon, France", ...at(i) }))
    )
    await newService(userId, { title: "Repassage", location: "Lyon, France", ...at(0) })
    await newService(hidden, { title: "Astiquage caché", location: "Lyon, France", ...at(0) })
    const radiusKm = 25
    const expected = made
      .map((s, i) => ({ id: s.id, km: distanceKm(centre, at(i)) }))
      .filter((s) => s.km <= radiusKm)
      .sort((a, b) => a.km - b.km || (a.id < b.id ? -1 : 1))
      .map((s) => s.id)
    expect(expected.length).toBeGreaterThan(4)
    expect(expected.length).toBeLessThan(spots.length)
    const repo = await services()
    for (const text of ["astiquage", "ASTIQ"]) {
      const pages = []
      for (let offset = 0; offset < 12; offset += 2) {
        const page = await run(
          repo.search({ text: parseTextQuery(text), geo: { ...centre, radiusKm }, sort: "distance", limit: 2, offset, withTotal: true })
        )
        pages.push(...page.services)
      }
      expect(pages.map((s) => s.id)).toEqual(expected)
      for (const s of pages) expect(s.distanceKm).toBeCloseTo(distanceKm(centre, s), 6)
      const newest = await run(
        repo.search({ text: parseTextQuery(text), geo: { ...centre, radiusKm }, sort: "newest", limit: 20, offset: 0, withTotal: true })
      )
      expect(newest.services.map((s) => s.id).sort()).toEqual([...expected].sort())
      expect(newest.total).toBe(expected.length)
    }
    if (kind !== "memory") {
      // The nearest services read first (KNN) whatever their number: too few to fill the window
      // (then the cells decide), some at the same distance as the last one read, or all of them.
      const page = (knn: number, offset: number, limit: number) =>
        onPostgres(
          Effect.flatMap(SqlClient.SqlClient, (sql) => {
            const [text, params] = searchStatement(
              sql,
              { text: parseTextQuery("astiquage"), geo: { ...centre, radiusKm }, sort: "distance", limit, offset, withTotal: true },
              knn
            ).compile()
            return sql.unsafe<{ id: string | null; total: number }>(text, params)
          })
        ).then((rows) => ({ ids: rows.flatMap((r) => (r.id === null ? [] : [r.id])), total: rows[0]?.total }))
      for (const [offset, limit] of [
        [0, 1],
        [1, 1],
        [3, 1],
        [0, 2],
        [2, 2],
        [0, 20]
      ] as const) {
        const all = await page(10_000, offset, limit)
        expect(all.ids).toEqual(expected.slice(offset, offset + limit))
        for (const knn of [1, 2, 3, 4, 5, 6, 8])
          expect(await page(knn, offset, limit), `${knn} nearest, ${limit} from ${offset}`).toEqual(all)
      }
    }
  })

  it("similarWords: near spellings from the vocabulary of titles and descriptions", async () => {
    const userId = await newUser()
    await newService(userId, { title: "Plomberie et chauffage", description: "Installation de chaudières et de radiateurs." })
    const words = ["plombrie", "radiateurz", "qwxzv"].map((word) => ({ word, prefix: false }))
    const similar = await run((await services()).similarWords(words))
    expect(similar.get("plombrie")).toContain("plomberie")
    expect(similar.get("radiateurz")).toContain("radiateurs")
    expect(similar.has("qwxzv")).toBe(false)
    for (const near of similar.values()) expect(near.length).toBeLessThanOrEqual(3)
    // A known word, or the start of one when typed as a prefix, is not a typo.
    const known = await run(
      (await services()).similarWords([
        { word: "plomberie", prefix: false },
        { word: "chauff", prefix: true },
        { word: "chauff", prefix: false },
        { word: "radiat", prefix: true }
      ])
    )
    expect([...known.keys()]).toEqual(["chauff"])
  })

  if (kind !== "memory") {
    /** The plan of a search for "menage" within 25 km of Montréal, nearest first (`filters` added), sequential scans off. */
    const planOfMenageNearby = (
      sql: SqlClient.SqlClient,
      filters: { categoryId?: number; minPriceCents?: number; maxPriceCents?: number } = {}
    ) =>
      Effect.gen(function* () {
        yield* sql.unsafe("SET LOCAL enable_seqscan = off")
        const [text, params] = searchStatement(sql, {
          text: parseTextQuery("menage"),
          ...filters,
          geo: { lat: 45.5019, lng: -73.5674, radiusKm: 25 },
          sort: "distance",
          limit: 20,
          offset: 0,
          withTotal: true
        }).compile()
        return yield* sql.unsafe<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, params)
      })

    it("a distance search reads the one GiST index, nearest first (its point expression is the indexed one)", async () => {
      const plan = await onPostgres(
        Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql.withTransaction(planOfMenageNearby(sql, { categoryId: 5, minPriceCents: 5000, maxPriceCents: 10000 }))
        )
      )
      const lines = plan.map((row) => row["QUERY PLAN"]).join("\n")
      expect(lines).toMatch(/Index Scan using services_geo_idx/)
      expect(lines).toMatch(/Index Cond: \(\(category_id = 5\) AND .*<@.* AND \(price_cents >= /)
      expect(lines).toMatch(/Order By: .*<->/)
    })

    it("words around a place can be found through the text index's grid cells (the query writes the indexed expression)", async () => {
      // At 1M services the planner picks this index for these searches (docs/benchmarks.md); a test
      // table is too small for a choice to mean anything, so the other indexes are dropped for the
      // time of one rolled-back transaction and the plan must still use the cells as an index condition.
      const plan = await onPostgres(
        Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql
            .withTransaction(
              Effect.gen(function* () {
                const others = yield* sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes
                  WHERE schemaname = current_schema() AND tablename = 'services'
                    AND indexname NOT IN ('services_pkey', 'services_search_idx')`
                for (const { name } of others) yield* sql.unsafe(`DROP INDEX ${name}`)
                const plan = yield* planOfMenageNearby(sql)
                return yield* Effect.fail({ rolledBack: plan })
              })
            )
            .pipe(Effect.catchAll((e) => ("rolledBack" in e ? Effect.succeed(e.rolledBack) : Effect.fail(e))))
        )
      )
      const lines = plan.map((row) => row["QUERY PLAN"]).join("\n")
      expect(lines).toMatch(/Bitmap Index Scan on services_search_idx/)
      expect(lines).toMatch(/Index Cond: \(\(search_vector @@ .* AND \(ARRAY\[.*&&/)
      expect(lines).not.toMatch(/services_geo_idx/)
      // Cell borders, both signs, the poles and the antimeridian; values whose product by 10 rounds.
      const positions = [
        [45.5019, -73.5674],
        [45.1, -0.1],
        [0, 0],
        [-0.05, -0.05],
        [0.3, 0.7],
        [-33.9, 151.2],
        [90, 180],
        [-90, -180],
        [12.999999999999998, -179.9999999]
      ]
      const rows = await onPostgres(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) =>
            sql<{ cells: ReadonlyArray<number> }>`SELECT ${CELLS} AS cells
          FROM unnest(${positions.map((p) => p[0])}::float8[], ${positions.map((p) => p[1])}::float8[]) AS s(lat, lng)`
        )
      )
      expect(rows.map((r) => r.cells)).toEqual(positions.map(([lat, lng]) => cellsOf({ lat: lat!, lng: lng! })))
    })

    it("the indexed functions do not depend on the search_path (autovacuum and pg_restore run with an empty one)", async () => {
      const userId = await newUser()
      await onPostgres(
        Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql.withTransaction(
            Effect.gen(function* () {
              const [current] = yield* sql<{ schema: string }>`SELECT current_schema() AS schema`
              const schema = current!.schema
              yield* sql.unsafe(`SET LOCAL search_path = ''`)
              yield* sql.unsafe(
                `INSERT INTO ${schema}.services (user_id, category_id, title, description, price_minor, currency, duration_minutes, lat, lng)
                VALUES ($1, 5, 'Ménage sans search_path', 'Vérifié', 1000, 'EUR', 60, 45.5, -73.6)`,
                [userId]
              )
              yield* sql.unsafe(`ANALYZE ${schema}.services`)
            })
          )
        )
      )
      expect((await publicSearch("sans search_path")).services.map((s) => s.title)).toEqual(["Ménage sans search_path"])
    })
  }
})
