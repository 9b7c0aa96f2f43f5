import { SqlClient, Statement } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { findAll, findOne, single } from "../../../platform/rows"
import { DEFAULT_TIME_ZONE } from "../../../platform/time-zones"
import { type Category, type ServiceListing, type ServiceStatus, ServiceStatuses, slugify } from "../domain"
import { chordOf, EARTH_RADIUS_M, earthPoint } from "../geography"
import { resultWindow, toTsQuery } from "../search"
import { CategoryRepository, ServicePhotoRepository, type ServiceQuery, ServiceRepository } from "../ports"

/*
 * The search design (src/modules/catalogue/README.md), measured on 1,000,000 services:
 * - text: the stored `search_vector` (GIN) matched with to_tsquery('simple', ...) over unaccented
 *   lower-case words, the last word as a prefix;
 * - category + position + price: ONE GiST index on (category_id, f_ll_to_earth(lat, lng), price_cents),
 *   used as earth_box(centre, r) @> point (written `point <@ cube_enlarge(centre, chord, 3)`), then
 *   the exact distance check, and ordered by `point <-> centre` for nearest first;
 * - relevance: ts_rank over a bounded candidate set (the newest RELEVANCE_CANDIDATES matches);
 * - one statement per search: a window of the first matches in the requested order (the page and
 *   LOOKAHEAD_PAGES more), the page cut from it, and the window's size as the total.
 * Every query reads only public services: ACTIVE, not archived, of an active account (the partial
 * indexes share that predicate). Results always end with `id`, so pages never overlap or skip.
 */

// Rows as decoded (see platform/database.ts); the search keeps its quoted camelCase aliases, which
// its outer query reads back by name.
const CategoryRow = Schema.Struct({ id: Schema.Number, slug: Schema.String, nameFr: Schema.String, nameEn: Schema.String })
/** A photo as service_photos holds it (its files' JSON keys are stored as written here). */
export const PhotoRow = Schema.Struct({
  id: Schema.String,
  files: Schema.Array(
    Schema.Struct({ size: Schema.Number, width: Schema.Number, height: Schema.Number, key: Schema.String, bytes: Schema.Number })
  )
})
/** A service's photos in order, as one JSON array (a lookup in service_photos_service_idx). */
const photosOf = (serviceId: string) =>
  `coalesce((SELECT jsonb_agg(jsonb_build_object('id', p.id, 'files', p.files) ORDER BY p.position)
    FROM service_photos p WHERE p.service_id = ${serviceId}), '[]'::jsonb) AS photos`
const SearchRow = Schema.Struct({
  id: Schema.String,
  userId: Schema.String,
  categoryId: Schema.Number,
  title: Schema.String,
  description: Schema.String,
  priceMinor: Schema.Number,
  currency: Schema.String,
  durationMinutes: Schema.Number,
  location: Schema.String,
  lat: Schema.Number,
  lng: Schema.Number,
  status: Schema.Literal(...ServiceStatuses),
  archivedAt: Schema.NullOr(Schema.DateFromSelf),
  disabledByAdminAt: Schema.NullOr(Schema.DateFromSelf),
  rating: Schema.Number,
  reviewCount: Schema.Number,
  photos: Schema.Array(PhotoRow),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  firstName: Schema.String,
  lastName: Schema.String,
  providerActive: Schema.Boolean,
  providerVerified: Schema.Boolean,
  providerTimeZone: Schema.String,
  distanceKm: Schema.optional(Schema.NullOr(Schema.Number))
})
type SearchRow = typeof SearchRow.Type
const ListingRow = Schema.extend(
  SearchRow,
  Schema.Struct({
    categorySlug: Schema.String,
    categoryNameFr: Schema.String,
    categoryNameEn: Schema.String
  })
)
type ListingRow = typeof ListingRow.Type
/** A search's rows: the page's services with the total, or one row of the total alone past the end. */
const SearchPageRow = Schema.Union(
  Schema.extend(SearchRow, Schema.Struct({ total: Schema.Number })),
  Schema.Struct({ id: Schema.Null, total: Schema.Number })
)
const CategoryCount = Schema.Struct({ id: Schema.Number, n: Schema.Number })

const toListing = (row: SearchRow, category: Category): ServiceListing => ({
  id: row.id,
  userId: row.userId,
  categoryId: row.categoryId,
  title: row.title,
  description: row.description,
  priceMinor: row.priceMinor,
  currency: row.currency.trim(),
  durationMinutes: row.durationMinutes,
  location: row.location,
  lat: row.lat,
  lng: row.lng,
  status: row.status,
  archivedAt: row.archivedAt,
  disabledByAdminAt: row.disabledByAdminAt,
  rating: row.rating,
  reviewCount: row.reviewCount,
  photos: row.photos,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  category,
  provider: {
    id: row.userId,
    firstName: row.firstName,
    lastName: row.lastName,
    isActive: row.providerActive,
    identityVerified: row.providerVerified,
    timeZone: row.providerTimeZone
  },
  ...(row.distanceKm === undefined || row.distanceKm === null ? {} : { distanceKm: row.distanceKm })
})

const categoryColumns = `id, slug, name_fr, name_en`
const listingOf = (row: ListingRow) =>
  toListing(row, { id: row.categoryId, slug: row.categorySlug, nameFr: row.categoryNameFr, nameEn: row.categoryNameEn })

export const CategoryRepositoryLive = Layer.effect(
  CategoryRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const columns = sql.literal(categoryColumns)
    const byName = (name: string, orSlug: boolean) =>
      findOne(
        "category by name",
        CategoryRow,
        sql`SELECT ${columns} FROM categories
        WHERE ${orSlug ? sql`slug = ${name.trim().toLowerCase()} OR` : sql.literal("")}
          public.f_unaccent(lower(name_fr)) = public.f_unaccent(lower(${name.trim()}))
          OR public.f_unaccent(lower(name_en)) = public.f_unaccent(lower(${name.trim()}))
        ORDER BY id LIMIT 1`
      ).pipe(Effect.orDie)
    const findByName = (name: string) => byName(name, true)
    return {
      list: () => findAll("categories", CategoryRow, sql`SELECT ${columns} FROM categories ORDER BY id`).pipe(Effect.orDie),
      findById: (id) => findOne("category", CategoryRow, sql`SELECT ${columns} FROM categories WHERE id = ${id}`).pipe(Effect.orDie),
      findByName,
      findOrCreate: (name) =>
        Effect.gen(function* () {
          // The same name in either language, ignoring case and accents (not the slug: "C++" is not "C#").
          const existing = yield* byName(name, false)
          if (Option.isSome(existing)) return existing.value
          const base = slugify(name) || "categorie"
          // Another name may already hold the slug ("C++" and "C#"): number the new one.
          for (let n = 1; n <= 20; n++) {
            const slug = n === 1 ? base : `${base}-${n}`
            const inserted = yield* findOne(
              "new category",
              CategoryRow,
              sql`INSERT INTO categories (slug, name_fr, name_en) VALUES (${slug}, ${name}, ${name})
              ON CONFLICT (slug) DO NOTHING RETURNING ${columns}`
            )
            if (Option.isSome(inserted)) return inserted.value
            // A concurrent request may just have created the same category.
            const raced = yield* byName(name, false)
            if (Option.isSome(raced)) return raced.value
          }
          return yield* Effect.dieMessage(`no free slug for category ${name}`)
        }).pipe(Effect.catchTag("SqlError", Effect.die)),
      // Live services per category from the partial index alone (an index-only scan: 150 ms at 1M
      // rows, against 1.5 s joining every row to its provider), minus those of deactivated
      // accounts, which are few and found through services_user_idx.
      publicCounts: () =>
        Effect.zipWith(
          findAll(
            "live services per category",
            CategoryCount,
            sql`SELECT s.category_id AS id, count(*) AS n FROM services s
            WHERE s.status = 'ACTIVE' AND s.archived_at IS NULL GROUP BY s.category_id`
          ),
          findAll(
            "hidden services per category",
            CategoryCount,
            sql`SELECT s.category_id AS id, count(*) AS n FROM services s
            WHERE s.status = 'ACTIVE' AND s.archived_at IS NULL AND s.user_id IN (SELECT id FROM users WHERE NOT is_active)
            GROUP BY s.category_id`
          ),
          (live, hidden) => {
            const counts = new Map(live.map((r) => [r.id, r.n]))
            for (const r of hidden) counts.set(r.id, (counts.get(r.id) ?? 0) - r.n)
            return counts as ReadonlyMap<number, number>
          }
        ).pipe(Effect.orDie)
    }
  })
)

const serviceColumns = `s.id, s.user_id AS "userId", s.category_id AS "categoryId", s.title, s.description,
  s.price_minor::float8 AS "priceMinor", s.currency, s.duration_minutes AS "durationMinutes", s.location, s.lat, s.lng,
  s.status, s.archived_at AS "archivedAt", s.disabled_by_admin_at AS "disabledByAdminAt", s.rating::float8 AS rating, s.review_count AS "reviewCount",
  s.created_at AS "createdAt", s.updated_at AS "updatedAt",
  u.first_name AS "firstName", u.last_name AS "lastName", u.is_active AS "providerActive",
  (u.identity_verified_at IS NOT NULL) AS "providerVerified",
  coalesce(u.time_zone, '${DEFAULT_TIME_ZONE}') AS "providerTimeZone"`
const listingColumns = `${serviceColumns}, ${photosOf("s.id")},
  c.slug AS "categorySlug", c.name_fr AS "categoryNameFr", c.name_en AS "categoryNameEn"`

/** The columns a search answers, by their aliases in serviceColumns. */
const pageColumns = [
  "id",
  "userId",
  "categoryId",
  "title",
  "description",
  "priceMinor",
  "currency",
  "durationMinutes",
  "location",
  "lat",
  "lng",
  "status",
  "archivedAt",
  "disabledByAdminAt",
  "rating",
  "reviewCount",
  "createdAt",
  "updatedAt",
  "firstName",
  "lastName",
  "providerActive",
  "providerVerified",
  "providerTimeZone"
]
  .map((alias) => `k."${alias}"`)
  .join(", ")

/** Each sort: extra keys carried in the window, the window's own order, and the page's order over it (as `k`). */
const SORTS: Record<Exclude<ServiceQuery["sort"], "distance" | "relevance">, { keys: string; inner: string; outer: string }> = {
  newest: { keys: "", inner: "s.created_at DESC, s.id DESC", outer: `k."createdAt" DESC, k.id DESC` },
  price_asc: { keys: `, s.price_cents AS "priceCents"`, inner: "s.price_cents ASC, s.id ASC", outer: `k."priceCents" ASC, k.id ASC` },
  price_desc: { keys: `, s.price_cents AS "priceCents"`, inner: "s.price_cents DESC, s.id DESC", outer: `k."priceCents" DESC, k.id DESC` },
  rating: {
    keys: `, s.rating AS "ratingKey"`,
    inner: "s.rating DESC, s.review_count DESC, s.id DESC",
    outer: `k."ratingKey" DESC, k."reviewCount" DESC, k.id DESC`
  }
}

export const windowOf = (query: Pick<ServiceQuery, "sort" | "text" | "limit" | "offset" | "withTotal">) =>
  resultWindow({ ...query, hasText: query.text !== undefined })

/**
 * public.f_ll_to_earth(s.lat, s.lng) as the planner sees it once inlined (migrations/0003): written
 * out so that matching it with the GiST index costs no inlining. It must stay the exact same
 * expression as that function's body (test/catalogue/adapters.test.ts checks the index is used).
 */
const POINT = Statement.unsafeFragment(
  "public.cube(public.cube(public.cube(6378168::float8 * cos(radians(s.lat)) * cos(radians(s.lng))), " +
    "6378168::float8 * cos(radians(s.lat)) * sin(radians(s.lng))), 6378168::float8 * sin(radians(s.lat)))"
)

/** How long search results reuse a category's names (categories are rarely renamed). */
export const CATEGORY_CACHE_MS = 60_000

/**
 * The one statement of a search (test/bench/catalogue.mjs runs the same text bare): a window `w` of
 * the first matches in the requested order, found through an index and carrying their columns; the
 * page cut from it; and the window's size, which is the total when below the window. Nothing is
 * joined after the window: one relation to plan, the planning being a third of this query's cost.
 */
export const searchStatement = (sql: SqlClient.SqlClient, query: ServiceQuery) => {
  const conditions: Array<Statement.Fragment> = [sql.literal(`s.status = 'ACTIVE' AND s.archived_at IS NULL AND u.is_active`)]
  const tsquery = query.text ? toTsQuery(query.text) : undefined
  if (tsquery !== undefined) conditions.push(sql`s.search_vector @@ to_tsquery('pg_catalog.simple', ${tsquery})`)
  if (query.categoryId !== undefined) conditions.push(sql`s.category_id = ${query.categoryId}`)
  if (query.providerId !== undefined) conditions.push(sql`s.user_id = ${query.providerId}`)
  if (query.minPriceCents !== undefined) conditions.push(sql`s.price_cents >= ${query.minPriceCents}::bigint`)
  if (query.maxPriceCents !== undefined) conditions.push(sql`s.price_cents <= ${query.maxPriceCents}::bigint`)
  const geo = query.geo
  // The centre as a cube literal and the radius as a chord, computed here: the planner then has no
  // SQL function to inline (earth_box, earth_distance, ll_to_earth each cost a parse per query).
  const centre = geo ? sql`${`(${earthPoint(geo).join(", ")})`}::public.cube` : undefined
  if (geo && centre) {
    const chord = chordOf(geo.radiusKm * 1000)
    // earth_box(centre, r) @> point: candidates from the GiST index; then the exact great-circle
    // check (a chord is shorter exactly when the arc is) removes the box's corners.
    conditions.push(
      sql`${POINT} OPERATOR(public.<@) public.cube_enlarge(${centre}, ${chord}::float8, 3)`,
      sql`public.cube_distance(${POINT}, ${centre}) <= ${chord}::float8`
    )
  }
  const where = sql.and(conditions)
  const window = windowOf(query)
  const from = sql.literal(`services s JOIN users u ON u.id = s.user_id`)
  const columns = sql.literal(serviceColumns)
  // Ordered by the chord (what `<->` measures), shown as the arc in km (earth_distance's sec_to_gc).
  const distanceKey = centre ? sql`, public.cube_distance(${POINT}, ${centre}) AS distance` : sql.literal("")
  const distanceColumn = sql.literal(
    centre
      ? `, 2 * ${EARTH_RADIUS_M / 1000}::float8 * asin(least(1::float8, k.distance / ${2 * EARTH_RADIUS_M}::float8)) AS "distanceKm"`
      : ""
  )

  let windowSql: Statement.Fragment
  let outer: string
  if (query.sort === "relevance" && tsquery !== undefined) {
    // Ranking every match of a common word costs hundreds of ms: rank a bounded candidate set (the
    // newest matches, found through the newest index or the text index, whichever the planner prefers).
    windowSql = sql`SELECT ${sql.literal(pageColumns.replace(/k\./g, "c."))}${sql.literal(centre ? ", c.distance" : "")},
        ts_rank(c.vector, to_tsquery('pg_catalog.simple', ${tsquery})) AS rank FROM (
          SELECT ${columns}, s.search_vector AS vector${distanceKey} FROM ${from} WHERE ${where}
          ORDER BY s.created_at DESC, s.id DESC LIMIT ${window}) c`
    outer = `k.rank DESC, k."createdAt" DESC, k.id DESC`
  } else if (query.sort === "distance" && centre) {
    // Nearest first straight from the GiST index (KNN); WITH TIES keeps every row as far as the
    // window's last one, so the id tiebreak below is applied to complete groups.
    windowSql = sql`SELECT ${columns}${distanceKey} FROM ${from} WHERE ${where}
        ORDER BY ${POINT} OPERATOR(public.<->) ${centre}
        FETCH FIRST ${window} ROWS WITH TIES`
    outer = "k.distance, k.id"
  } else {
    const sort = SORTS[query.sort === "distance" || query.sort === "relevance" ? "newest" : query.sort]
    windowSql = sql`SELECT ${columns}${sql.literal(sort.keys)}${distanceKey} FROM ${from} WHERE ${where}
        ORDER BY ${sql.literal(sort.inner)} LIMIT ${window}`
    outer = sort.outer
  }
  const order = sql.literal(outer)
  // One row even for a page past the end (all columns null but the total). Category names come
  // from the repository's own small cache.
  // Photos only for the page's rows, not the whole window.
  return sql`WITH w AS MATERIALIZED (${windowSql})
    SELECT ${sql.literal(pageColumns)}${distanceColumn}, ${sql.literal(photosOf("k.id"))}, t.total
    FROM (SELECT count(*)::int AS total FROM w) t
    LEFT JOIN LATERAL (SELECT * FROM w k ORDER BY ${order} OFFSET ${query.offset} LIMIT ${query.limit}) k ON true
    ORDER BY ${order}`
}

export const ServiceRepositoryLive = Layer.effect(
  ServiceRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const columns = sql.literal(listingColumns)
    const one = (id: string) =>
      findOne(
        "service",
        ListingRow,
        sql`SELECT ${columns} FROM services s JOIN users u ON u.id = s.user_id JOIN categories c ON c.id = s.category_id
        WHERE s.id = ${id}`
      ).pipe(Effect.map(Option.map(listingOf)))
    /**
     * Categories of search results, from a small per-process cache (a category is read again after
     * CATEGORY_CACHE_MS, so a renamed one shows within that delay); unknown ids are read at once.
     */
    const categoryCache = new Map<number, { readonly category: Category; readonly until: number }>()
    const categoriesOf = (ids: ReadonlyArray<number>) =>
      Effect.gen(function* () {
        const now = Date.now()
        const missing = [...new Set(ids)].filter((id) => (categoryCache.get(id)?.until ?? 0) <= now)
        if (missing.length > 0) {
          const rows = yield* findAll(
            "categories of results",
            CategoryRow,
            sql`SELECT ${sql.literal(categoryColumns)} FROM categories WHERE id = ANY(${missing}::int[])`
          )
          for (const c of rows) categoryCache.set(c.id, { category: c, until: now + CATEGORY_CACHE_MS })
        }
        return (id: number) => categoryCache.get(id)!.category
      })
    /** The words of a service's text join the vocabulary used for typo tolerance. */
    const recordWords = (id: string) =>
      sql`INSERT INTO search_terms (term)
        SELECT DISTINCT w FROM services s, unnest(tsvector_to_array(s.search_vector)) AS w
        WHERE s.id = ${id} AND length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
        ON CONFLICT DO NOTHING`

    return {
      search: (query) =>
        Effect.gen(function* () {
          const rows = yield* findAll("service search", SearchPageRow, searchStatement(sql, query))
          const found = rows.flatMap((row) => (row.id === null ? [] : [row]))
          const category = yield* categoriesOf(found.map((row) => row.categoryId))
          const total = query.withTotal ? (rows[0]?.total ?? 0) : 0
          return {
            services: found.map((row) => toListing(row, category(row.categoryId))),
            total,
            exact: !query.withTotal || total < windowOf(query)
          }
        }).pipe(Effect.orDie),

      similarWords: (words) =>
        // A known word is not a typo (the search found nothing because of the other criteria).
        findAll(
          "similar words",
          Schema.Struct({ word: Schema.String, term: Schema.String }),
          sql`SELECT w.word, t.term
          FROM unnest(${words.map((w) => w.word)}::text[], ${words.map((w) => w.prefix)}::boolean[]) AS w(word, prefix)
          CROSS JOIN LATERAL (
            SELECT term FROM search_terms
            WHERE term OPERATOR(public.%) w.word AND term <> w.word
            ORDER BY public.similarity(term, w.word) DESC, term LIMIT 3
          ) t
          WHERE NOT EXISTS (
            SELECT 1 FROM search_terms k
            WHERE k.term = w.word COLLATE "C"
              OR (w.prefix AND k.term >= w.word COLLATE "C" AND k.term < (w.word || chr(1114111)) COLLATE "C")
          )`
        ).pipe(
          Effect.map((rows) => {
            const similar = new Map<string, Array<string>>()
            for (const row of rows) similar.set(row.word, [...(similar.get(row.word) ?? []), row.term])
            return similar as ReadonlyMap<string, ReadonlyArray<string>>
          }),
          Effect.orDie
        ),

      findById: (id) => one(id).pipe(Effect.orDie),

      listOwnedBy: (userId) =>
        findAll(
          "services of a provider",
          ListingRow,
          sql`SELECT ${columns} FROM services s JOIN users u ON u.id = s.user_id JOIN categories c ON c.id = s.category_id
          WHERE s.user_id = ${userId} AND s.archived_at IS NULL
          ORDER BY s.created_at DESC, s.id DESC`
        ).pipe(
          Effect.map((rows) => rows.map(listingOf)),
          Effect.orDie
        ),

      insert: (s) =>
        Effect.gen(function* () {
          const { id } = yield* single(
            "new service",
            Schema.Struct({ id: Schema.String }),
            sql`INSERT INTO services
              (user_id, category_id, title, description, price_minor, currency, duration_minutes, location, lat, lng, status)
            VALUES (${s.userId}, ${s.categoryId}, ${s.title}, ${s.description}, ${s.priceMinor}, ${s.currency}, ${s.durationMinutes},
              ${s.location}, ${s.lat}, ${s.lng}, ${s.status})
            RETURNING id`
          )
          yield* recordWords(id)
          return Option.getOrThrow(yield* one(id))
        }).pipe(Effect.orDie),

      update: (id, patch) =>
        Effect.gen(function* () {
          const columns: Record<string, unknown> = {}
          if (patch.title !== undefined) columns.title = patch.title
          if (patch.description !== undefined) columns.description = patch.description
          if (patch.priceMinor !== undefined) columns.price_minor = patch.priceMinor
          if (patch.currency !== undefined) columns.currency = patch.currency
          if (patch.durationMinutes !== undefined) columns.duration_minutes = patch.durationMinutes
          if (patch.location !== undefined) columns.location = patch.location
          if (patch.lat !== undefined) columns.lat = patch.lat
          if (patch.lng !== undefined) columns.lng = patch.lng
          if (patch.categoryId !== undefined) columns.category_id = patch.categoryId
          if (Object.keys(columns).length === 0) return
          yield* sql`UPDATE services SET ${sql.update(columns)}, updated_at = now() WHERE id = ${id}`
          if (patch.title !== undefined || patch.description !== undefined) yield* recordWords(id)
        }).pipe(Effect.orDie),

      setStatus: (id, status: ServiceStatus, byAdmin) =>
        (byAdmin === undefined
          ? sql`UPDATE services SET status = ${status}, updated_at = now() WHERE id = ${id}`
          : sql`UPDATE services SET status = ${status}, updated_at = now(),
                  disabled_by_admin_at = ${byAdmin && status === "INACTIVE" ? sql`now()` : null}
                WHERE id = ${id}`
        ).pipe(Effect.asVoid, Effect.orDie),

      archive: (id) =>
        sql`UPDATE services SET archived_at = now(), updated_at = now() WHERE id = ${id} AND archived_at IS NULL`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      recordRating: (id, rating) =>
        sql`UPDATE services SET rating = round((rating * review_count + ${rating}) / (review_count + 1), 2), review_count = review_count + 1
            WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
)

export const ServicePhotoRepositoryLive = Layer.effect(
  ServicePhotoRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const list = (serviceId: string) =>
      findAll(
        "service photos",
        PhotoRow,
        sql`SELECT id, files FROM service_photos WHERE service_id = ${serviceId} ORDER BY position, created_at, id`
      ).pipe(Effect.orDie)
    /** Positions 0..n-1 in the given order. */
    const renumber = (serviceId: string, ids: ReadonlyArray<string>) =>
      sql`UPDATE service_photos p SET position = o.n - 1
        FROM unnest(${ids}::uuid[]) WITH ORDINALITY AS o(id, n)
        WHERE p.id = o.id AND p.service_id = ${serviceId}`
    return {
      list,
      add: (serviceId, photo, max) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              // The service's row is the lock: concurrent additions count one after the other.
              yield* sql`SELECT 1 FROM services WHERE id = ${serviceId} FOR UPDATE`
              const { n } = yield* single(
                "photo count",
                Schema.Struct({ n: Schema.Number }),
                sql`SELECT count(*)::int AS n FROM service_photos WHERE service_id = ${serviceId}`
              )
              if (n >= max) return false
              yield* sql`INSERT INTO service_photos (id, service_id, position, files)
              VALUES (${photo.id}, ${serviceId}, ${n}, ${JSON.stringify(photo.files)}::jsonb)`
              return true
            })
          )
          .pipe(Effect.orDie),
      remove: (serviceId, photoId) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              const removed = yield* findOne(
                "removed photo",
                PhotoRow,
                sql`DELETE FROM service_photos WHERE id = ${photoId} AND service_id = ${serviceId} RETURNING id, files`
              )
              if (Option.isSome(removed)) {
                const rest = yield* list(serviceId)
                yield* renumber(
                  serviceId,
                  rest.map((p) => p.id)
                )
              }
              return removed
            })
          )
          .pipe(Effect.orDie),
      reorder: (serviceId, photoIds) => renumber(serviceId, photoIds).pipe(Effect.asVoid, Effect.orDie),
      removeAll: (serviceId) =>
        findAll("removed photos", PhotoRow, sql`DELETE FROM service_photos WHERE service_id = ${serviceId} RETURNING id, files`).pipe(
          Effect.orDie
        )
    }
  })
)

export const CataloguePostgresAdapters = Layer.mergeAll(CategoryRepositoryLive, ServiceRepositoryLive, ServicePhotoRepositoryLive)
