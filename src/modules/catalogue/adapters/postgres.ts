import { SqlClient, Statement } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { Currencies } from "../../../platform/money"
import { findAll, findOne, single } from "../../../platform/rows"
import { DEFAULT_TIME_ZONE } from "../../../platform/time-zones"
import { type Category, type ServiceListing, type ServiceStatus, ServiceStatuses, slugify } from "../domain"
import { cellsCovering, chordOf, EARTH_RADIUS_M, earthPoint } from "../geography"
import { resultWindow, toTsQuery } from "../search"
import type { CurrencyRange, RateTable } from "../rates/domain"
import { CategoryRepository, ServicePhotoRepository, type ServiceQuery, ServiceRepository } from "../ports"

/*
 * The search design (src/modules/catalogue/README.md), measured on 1,000,000 services:
 * - text: the stored `search_vector` (GIN) matched with to_tsquery('simple', ...) over unaccented
 *   lower-case words, the last word as a prefix;
 * - category + position + price: ONE GiST index on (category_id, f_ll_to_earth(lat, lng), price_cents),
 *   used as earth_box(centre, r) @> point (written `point <@ cube_enlarge(centre, chord, 3)`), then
 *   the exact distance check, and ordered by `point <-> centre` for nearest first;
 * - words around a place (no category): the text index's second column, grid cells, instead of the
 *   GiST box; nearest first, the nearest KNN_CANDIDATES services from the GiST index first;
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
  providerAvatarAt: Schema.NullOr(Schema.DateFromSelf),
  providerIdentityPhotoAt: Schema.NullOr(Schema.DateFromSelf),
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
    timeZone: row.providerTimeZone,
    photo:
      row.providerAvatarAt !== null
        ? { source: "avatar", updatedAt: row.providerAvatarAt }
        : row.providerIdentityPhotoAt !== null
          ? { source: "identity", updatedAt: row.providerIdentityPhotoAt }
          : null
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
  coalesce(u.time_zone, '${DEFAULT_TIME_ZONE}') AS "providerTimeZone",
  CASE WHEN u.profile_visibility = 'PUBLIC' AND u.avatar_key IS NOT NULL THEN u.avatar_updated_at END AS "providerAvatarAt",
  CASE WHEN u.profile_visibility = 'PUBLIC' AND u.identity_photo_key IS NOT NULL THEN u.identity_photo_updated_at END AS "providerIdentityPhotoAt"`
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
  "providerTimeZone",
  "providerAvatarAt",
  "providerIdentityPhotoAt"
]
  .map((alias) => `k."${alias}"`)
  .join(", ")

const pageColumnsOf = (alias: string) => Statement.unsafeFragment(pageColumns.replace(/k\./g, `${alias}.`))

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

/**
 * The grid cells of s.lat, s.lng (geography.ts `cellsOf`), exactly as the second column of
 * services_search_idx is written (migrations/0033), so that the planner matches it with the index.
 */
export const CELLS = Statement.unsafeFragment(
  "ARRAY[(floor(s.lat * 4)::int + 360) * 1441 + (floor(s.lng * 4)::int + 720), " +
    "2000000 + (floor(s.lat)::int + 90) * 361 + (floor(s.lng)::int + 180), " +
    "3000000 + (floor(s.lat * 0.25)::int + 23) * 91 + (floor(s.lng * 0.25)::int + 45)]"
)

/** Words around a place, nearest first: how many of the nearest services are read before the cells. */
export const KNN_CANDIDATES = 3000

/** How long search results reuse a category's names (categories are rarely renamed). */
export const CATEGORY_CACHE_MS = 60_000

const PRICE_OUTER_ASC = `k."priceKey" ASC NULLS LAST, k."priceCents" ASC, k.id ASC`
const PRICE_OUTER_DESC = `k."priceKey" DESC NULLS LAST, k."priceCents" DESC, k.id DESC`

/** `currency = X` matched against the char(3) column as char, so that services_currency_price_idx applies. */
const currencyIs = (sql: SqlClient.SqlClient, currency: string) => sql`s.currency = ${currency}::bpchar`

/** One inclusive range of price_cents per currency, ORed (a bitmap OR of services_currency_price_idx ranges). */
const priceRangesCondition = (sql: SqlClient.SqlClient, ranges: ReadonlyArray<CurrencyRange>) =>
  // No range at all matches nothing (sql.or of nothing would be true).
  ranges.length === 0
    ? sql.literal("false")
    : sql.or(
        ranges.map((r) =>
          sql.and([
            currencyIs(sql, r.currency),
            sql`s.price_cents >= ${r.minCents}::bigint`,
            ...(r.maxCents === undefined ? [] : [sql`s.price_cents <= ${r.maxCents}::bigint`])
          ])
        )
      )

/**
 * Price sorts in euros: a price's key is its euro cents, `round(price_cents × 10^6 / rate)` half up
 * (rates/domain.ts referenceCents), then price_cents and id. Converting keeps each currency's order,
 * so the window is the merge of each currency's first `window` rows in its own price order (a short
 * range of services_currency_price_idx each) instead of a sort of every match.
 */
const priceWindow = (
  sql: SqlClient.SqlClient,
  sort: "price_asc" | "price_desc",
  rates: RateTable,
  ranges: ReadonlyArray<CurrencyRange> | undefined,
  parts: {
    readonly columns: Statement.Fragment
    readonly from: Statement.Fragment
    readonly where: Statement.Fragment
    readonly distanceKey: Statement.Fragment
    readonly window: number
    readonly hasText: boolean
  }
) => {
  const direction = sql.literal(sort === "price_asc" ? "ASC" : "DESC")
  const nulls = sql.literal("NULLS LAST")
  // One probe per currency the product accepts (services are created in no other): its first rows in
  // price order within its own range (an index range). A currency without a rate cannot be compared:
  // its services come after every priced one (NULL key). A currency a price range leaves out is not probed.
  const probes = Currencies.flatMap((currency) => {
    const range = ranges?.find((r) => r.currency === currency)
    if (ranges !== undefined && range === undefined) return []
    return [{ currency, micro: rates.get(currency) ?? null, lo: range?.minCents ?? 0, hi: range?.maxCents ?? Number.MAX_SAFE_INTEGER }]
  })
  const order = sql`ORDER BY k."priceKey" ${direction} ${nulls}, k."priceCents" ${direction}, k.id ${direction} LIMIT ${parts.window}`
  if (!parts.hasText) {
    // Without words: one lateral subquery over the probes, planned once (a UNION ALL of 8 branches
    // spent 4 ms planning, 3 times the execution).
    return sql`SELECT k.* FROM unnest(${probes.map((p) => p.currency)}::bpchar[], ${probes.map((p) => p.micro)}::bigint[],
          ${probes.map((p) => p.lo)}::bigint[], ${probes.map((p) => p.hi)}::bigint[]) AS r(currency, micro, lo, hi)
        CROSS JOIN LATERAL (
          SELECT ${parts.columns}, (s.price_cents * 2000000 + r.micro) / (2 * r.micro) AS "priceKey", s.price_cents AS "priceCents"${parts.distanceKey}
          FROM ${parts.from} WHERE ${parts.where} AND s.currency = r.currency AND s.price_cents >= r.lo AND s.price_cents <= r.hi
          ORDER BY s.price_cents ${direction}, s.id ${direction} LIMIT ${parts.window}) k
      ${order}`
  }
  // With words: one branch per currency, each planned knowing its currency (a generic plan walks a
  // common currency's whole price range filtering the words: a second at 200,000 services).
  const branches = probes.map(
    (p) =>
      sql`(SELECT ${parts.columns}, ${p.micro === null ? sql`NULL::bigint` : sql`(s.price_cents * 2000000 + ${p.micro}::bigint) / ${2 * p.micro}::bigint`} AS "priceKey",
          s.price_cents AS "priceCents"${parts.distanceKey}
        FROM ${parts.from} WHERE ${parts.where} AND ${currencyIs(sql, p.currency)}
          AND s.price_cents >= ${p.lo}::bigint AND s.price_cents <= ${p.hi}::bigint
        ORDER BY s.price_cents ${direction}, s.id ${direction} LIMIT ${parts.window})`
  )
  // A range no currency reaches: one empty branch keeps the statement's shape.
  if (branches.length === 0)
    branches.push(
      sql`(SELECT ${parts.columns}, NULL::bigint AS "priceKey", s.price_cents AS "priceCents"${parts.distanceKey} FROM ${parts.from} WHERE false)`
    )
  return sql`SELECT k.* FROM (${sql.join(" UNION ALL ", false)(branches)}) k ${order}`
}

/**
 * The one statement of a search (test/bench/catalogue.mjs runs the same text bare): a window `w` of
 * the first matches in the requested order, found through an index and carrying their columns; the
 * page cut from it; and the window's size, which is the total when below the window. Nothing is
 * joined after the window: one relation to plan, the planning being a third of this query's cost.
 */
export const searchStatement = (sql: SqlClient.SqlClient, query: ServiceQuery, knnCandidates = KNN_CANDIDATES) => {
  const conditions: Array<Statement.Fragment> = [sql.literal(`s.status = 'ACTIVE' AND s.archived_at IS NULL AND u.is_active`)]
  // The criteria a public service must meet, besides being public (and within the radius, below).
  const filters: Array<Statement.Fragment> = []
  const tsquery = query.text ? toTsQuery(query.text) : undefined
  if (tsquery !== undefined) filters.push(sql`s.search_vector @@ to_tsquery('pg_catalog.simple', ${tsquery})`)
  if (query.categoryId !== undefined) filters.push(sql`s.category_id = ${query.categoryId}`)
  if (query.providerId !== undefined) filters.push(sql`s.user_id = ${query.providerId}`)
  if (query.minPriceCents !== undefined) filters.push(sql`s.price_cents >= ${query.minPriceCents}::bigint`)
  if (query.maxPriceCents !== undefined) filters.push(sql`s.price_cents <= ${query.maxPriceCents}::bigint`)
  // A range in the viewer's currency: each currency's own range (rates/domain.ts), within the envelope above.
  // (A price sort applies each currency's range in that currency's own branch: see priceWindow.)
  const sortsByPrice = (query.sort === "price_asc" || query.sort === "price_desc") && query.rates !== undefined
  if (query.priceRanges !== undefined && !sortsByPrice) filters.push(priceRangesCondition(sql, query.priceRanges))
  conditions.push(...filters)
  const geo = query.geo
  // The centre as a cube literal and the radius as a chord, computed here: the planner then has no
  // SQL function to inline (earth_box, earth_distance, ll_to_earth each cost a parse per query).
  const centre = geo ? sql`${`(${earthPoint(geo).join(", ")})`}::public.cube` : undefined
  // Words around a place, in any category: the text index's grid cells (its second column) cover
  // the circle, so that one GIN scan finds the services with these words in these cells. The GiST
  // box is left out on purpose: the planner estimates any box at 0.1 % of the rows, so it would
  // prefer reading the whole box (every service of a city, 123,000 around Montréal in the bench)
  // and filtering the words there (0.5 – 2 s at 1M services, against 10 – 30 ms through the cells).
  const cells = geo && tsquery !== undefined && query.categoryId === undefined ? cellsCovering(geo) : undefined
  if (geo && centre) {
    const chord = chordOf(geo.radiusKm * 1000)
    // earth_box(centre, r) @> point: candidates from the GiST index (or the cells); then the exact
    // great-circle check (a chord is shorter exactly when the arc is) removes the box's corners.
    const within = sql`public.cube_distance(${POINT}, ${centre}) <= ${chord}::float8`
    filters.push(within)
    conditions.push(
      cells ? sql`${CELLS} && ${cells}::int[]` : sql`${POINT} OPERATOR(public.<@) public.cube_enlarge(${centre}, ${chord}::float8, 3)`,
      within
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
  } else if (query.sort === "distance" && centre && cells) {
    // Words around a place, nearest first. First the nearest public services straight from the
    // GiST index (KNN, at most KNN_CANDIDATES of them, WITH TIES so that none at the last one's
    // distance is left out), filtered as they come: when the window fills among them, no match
    // outside them can be nearer, and this is the answer (a few hundred rows read in a city).
    // Otherwise (rare words, far pages) the matches in the cells, sorted (the same order written
    // as cube_distance, what `<->` computes, which the GiST index cannot serve without a box).
    windowSql = sql`WITH near AS MATERIALIZED (
          SELECT ${pageColumnsOf("n")}, n.distance FROM (
            SELECT ${columns}, ${POINT} OPERATOR(public.<->) ${centre} AS distance, (${sql.and(filters)}) AS hit
            FROM ${from} WHERE s.status = 'ACTIVE' AND s.archived_at IS NULL AND u.is_active
            ORDER BY distance FETCH FIRST ${knnCandidates} ROWS WITH TIES) n
          WHERE n.hit ORDER BY n.distance FETCH FIRST ${window} ROWS WITH TIES)
        SELECT * FROM near WHERE (SELECT count(*) FROM near) >= ${window}
        UNION ALL (
          SELECT ${columns}${distanceKey} FROM ${from} WHERE ${where} AND (SELECT count(*) FROM near) < ${window}
          ORDER BY public.cube_distance(${POINT}, ${centre}) FETCH FIRST ${window} ROWS WITH TIES)`
    outer = "k.distance, k.id"
  } else if (query.sort === "distance" && centre) {
    // Nearest first straight from the GiST index (KNN); WITH TIES keeps every row as far as the
    // window's last one, so the id tiebreak below is applied to complete groups.
    windowSql = sql`SELECT ${columns}${distanceKey} FROM ${from} WHERE ${where}
        ORDER BY ${POINT} OPERATOR(public.<->) ${centre}
        FETCH FIRST ${window} ROWS WITH TIES`
    outer = "k.distance, k.id"
  } else if ((query.sort === "price_asc" || query.sort === "price_desc") && query.rates !== undefined) {
    windowSql = priceWindow(sql, query.sort, query.rates, query.priceRanges, {
      columns,
      from,
      where,
      distanceKey,
      window,
      hasText: tsquery !== undefined
    })
    outer = query.sort === "price_asc" ? PRICE_OUTER_ASC : PRICE_OUTER_DESC
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
