import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { findAll, single } from "../../../platform/rows"

const ServiceCount = Schema.Struct({ n: Schema.Number })

/*
 * Bulk generation of realistic services for benchmarks (`bin/run seed:bulk --services N`).
 * Rows are generated inside PostgreSQL (INSERT ... SELECT over generate_series, in batches on two
 * connections), deterministic for a given row number. A large load drops the secondary indexes of
 * `services` first and rebuilds them afterwards (always, even when the load fails), which is several
 * times faster than maintaining a GIN and a GiST index row by row.
 */

interface City {
  readonly name: string
  readonly lat: number
  readonly lng: number
  readonly currency: string
  readonly language: "fr" | "en"
  /** Relative share of the providers (roughly the population). */
  readonly weight: number
}

export const bulkCities: ReadonlyArray<City> = [
  { name: "Montréal, QC", lat: 45.5019, lng: -73.5674, currency: "CAD", language: "fr", weight: 14 },
  { name: "Québec, QC", lat: 46.8139, lng: -71.208, currency: "CAD", language: "fr", weight: 6 },
  { name: "Laval, QC", lat: 45.6066, lng: -73.7124, currency: "CAD", language: "fr", weight: 3 },
  { name: "Gatineau, QC", lat: 45.4765, lng: -75.7013, currency: "CAD", language: "fr", weight: 2 },
  { name: "Sherbrooke, QC", lat: 45.4042, lng: -71.8929, currency: "CAD", language: "fr", weight: 2 },
  { name: "Trois-Rivières, QC", lat: 46.343, lng: -72.543, currency: "CAD", language: "fr", weight: 1 },
  { name: "Moncton, NB", lat: 46.0878, lng: -64.7782, currency: "CAD", language: "fr", weight: 1 },
  { name: "Toronto, ON", lat: 43.6532, lng: -79.3832, currency: "CAD", language: "en", weight: 14 },
  { name: "Ottawa, ON", lat: 45.4215, lng: -75.6972, currency: "CAD", language: "en", weight: 4 },
  { name: "Hamilton, ON", lat: 43.2557, lng: -79.8711, currency: "CAD", language: "en", weight: 2 },
  { name: "Vancouver, BC", lat: 49.2827, lng: -123.1207, currency: "CAD", language: "en", weight: 8 },
  { name: "Victoria, BC", lat: 48.4284, lng: -123.3656, currency: "CAD", language: "en", weight: 2 },
  { name: "Calgary, AB", lat: 51.0447, lng: -114.0719, currency: "CAD", language: "en", weight: 5 },
  { name: "Edmonton, AB", lat: 53.5461, lng: -113.4938, currency: "CAD", language: "en", weight: 4 },
  { name: "Winnipeg, MB", lat: 49.8951, lng: -97.1384, currency: "CAD", language: "en", weight: 3 },
  { name: "Halifax, NS", lat: 44.6488, lng: -63.5752, currency: "CAD", language: "en", weight: 2 },
  { name: "Paris, France", lat: 48.8566, lng: 2.3522, currency: "EUR", language: "fr", weight: 14 },
  { name: "Lyon, France", lat: 45.764, lng: 4.8357, currency: "EUR", language: "fr", weight: 5 },
  { name: "Marseille, France", lat: 43.2965, lng: 5.3698, currency: "EUR", language: "fr", weight: 5 },
  { name: "Bordeaux, France", lat: 44.8378, lng: -0.5792, currency: "EUR", language: "fr", weight: 4 },
  { name: "Toulouse, France", lat: 43.6047, lng: 1.4442, currency: "EUR", language: "fr", weight: 4 },
  { name: "Lille, France", lat: 50.6292, lng: 3.0573, currency: "EUR", language: "fr", weight: 3 },
  { name: "Nantes, France", lat: 47.2184, lng: -1.5536, currency: "EUR", language: "fr", weight: 3 },
  { name: "Nice, France", lat: 43.7102, lng: 7.262, currency: "EUR", language: "fr", weight: 3 },
  { name: "Strasbourg, France", lat: 48.5734, lng: 7.7521, currency: "EUR", language: "fr", weight: 2 },
  { name: "Montpellier, France", lat: 43.6108, lng: 3.8767, currency: "EUR", language: "fr", weight: 2 },
  { name: "Rennes, France", lat: 48.1173, lng: -1.6778, currency: "EUR", language: "fr", weight: 2 },
  { name: "Grenoble, France", lat: 45.1885, lng: 5.7245, currency: "EUR", language: "fr", weight: 1 },
  { name: "Bruxelles, Belgique", lat: 50.8503, lng: 4.3517, currency: "EUR", language: "fr", weight: 3 },
  { name: "Liège, Belgique", lat: 50.6326, lng: 5.5797, currency: "EUR", language: "fr", weight: 1 },
  { name: "Genève, Suisse", lat: 46.2044, lng: 6.1432, currency: "CHF", language: "fr", weight: 2 },
  { name: "Lausanne, Suisse", lat: 46.5197, lng: 6.6323, currency: "CHF", language: "fr", weight: 1 }
]

/** Six service names per category (ids 1 to 9), in French and in English. */
const titles: Record<"fr" | "en", ReadonlyArray<ReadonlyArray<string>>> = {
  fr: [
    [
      "Dépannage informatique",
      "Développement web",
      "Installation réseau Wi-Fi",
      "Récupération de données",
      "Création d'application mobile",
      "Maintenance de serveurs"
    ],
    ["Création de logo", "Design graphique", "Retouche photo", "Maquettes UX/UI", "Illustration sur mesure", "Mise en page de brochures"],
    [
      "Gestion des réseaux sociaux",
      "Référencement SEO",
      "Campagnes publicitaires",
      "Rédaction de contenu",
      "Stratégie marketing",
      "Marketing par courriel"
    ],
    [
      "Conseil en gestion",
      "Consultation juridique",
      "Conseil fiscal",
      "Coaching d'entreprise",
      "Conseil en décoration",
      "Planification financière"
    ],
    ["Ménage", "Grand ménage", "Nettoyage de vitres", "Repassage", "Nettoyage après déménagement", "Entretien de bureaux"],
    ["Jardinage", "Tonte de pelouse", "Taille de haies", "Aménagement paysager", "Déneigement", "Entretien de potager"],
    [
      "Réparation de vélos",
      "Plomberie",
      "Électricité",
      "Réparation d'électroménagers",
      "Petits travaux de menuiserie",
      "Réparation de téléphones"
    ],
    ["Déménagement", "Transport de meubles", "Livraison de colis", "Navette aéroport", "Chauffeur privé", "Transport d'animaux"],
    ["Cours de piano", "Cours de français", "Soutien scolaire en mathématiques", "Cours d'anglais", "Formation Excel", "Cours de cuisine"]
  ],
  en: [
    ["Computer repair", "Web development", "Wi-Fi network setup", "Data recovery", "Mobile app development", "Server maintenance"],
    ["Logo design", "Graphic design", "Photo retouching", "UX/UI mockups", "Custom illustration", "Brochure layout"],
    ["Social media management", "SEO optimisation", "Ad campaigns", "Content writing", "Marketing strategy", "Email marketing"],
    ["Management consulting", "Legal consultation", "Tax advice", "Business coaching", "Interior design advice", "Financial planning"],
    ["House cleaning", "Deep cleaning", "Window cleaning", "Ironing", "Move-out cleaning", "Office cleaning"],
    ["Gardening", "Lawn mowing", "Hedge trimming", "Landscaping", "Snow removal", "Vegetable garden care"],
    ["Bike repair", "Plumbing", "Electrical work", "Appliance repair", "Carpentry repairs", "Phone repair"],
    ["Moving help", "Furniture transport", "Parcel delivery", "Airport shuttle", "Private driver", "Pet transport"],
    ["Piano lessons", "French lessons", "Math tutoring", "English lessons", "Excel training", "Cooking classes"]
  ]
}

const qualifiers: Record<"fr" | "en", ReadonlyArray<string>> = {
  fr: [
    "à domicile",
    "professionnel",
    "rapide et soigné",
    "sur mesure",
    "pour particuliers",
    "pour entreprises",
    "express",
    "de qualité",
    "haut de gamme",
    "à petit prix"
  ],
  en: [
    "at home",
    "by a professional",
    "fast and reliable",
    "made to measure",
    "for households",
    "for businesses",
    "express",
    "quality",
    "premium",
    "affordable"
  ]
}

/** Description sentences; {s} is the service name (lower case), {c} the city. */
const sentences: Record<"fr" | "en", ReadonlyArray<string>> = {
  fr: [
    "{s} proposé par un prestataire expérimenté à {c} et dans les environs.",
    "Devis gratuit sous 24 heures, matériel fourni et satisfaction garantie.",
    "Intervention le soir et le week-end possible, sur rendez-vous.",
    "Plus de dix ans d'expérience et de nombreux clients satisfaits.",
    "Tarif horaire transparent, sans frais de déplacement dans un rayon de 15 km.",
    "Je m'adapte à vos besoins : ponctuel ou régulier, particuliers comme entreprises.",
    "Assurance responsabilité civile professionnelle incluse.",
    "Réservez en ligne, paiement sécurisé après la prestation."
  ],
  en: [
    "{s} offered by an experienced provider in {c} and the surrounding area.",
    "Free quote within 24 hours, equipment provided and satisfaction guaranteed.",
    "Evening and weekend appointments available on request.",
    "Over ten years of experience and many happy customers.",
    "Clear hourly rate, no travel fee within 15 km.",
    "One-off or regular visits, for households and businesses alike.",
    "Fully insured for professional liability.",
    "Book online and pay securely once the job is done."
  ]
}

/** Hourly price ranges (major units) per category id 1 to 9. */
const priceLow = [50, 40, 50, 60, 20, 25, 40, 30, 25]
const priceHigh = [150, 120, 150, 250, 60, 70, 120, 150, 80]

const firstNames = [
  "Camille",
  "Louis",
  "Chloé",
  "Gabriel",
  "Léa",
  "Noah",
  "Emma",
  "Thomas",
  "Olivia",
  "Liam",
  "Zoé",
  "Nathan",
  "Alice",
  "Hugo",
  "Sarah",
  "Jacob",
  "Maëlle",
  "William",
  "Inès",
  "Ethan"
]
const lastNames = [
  "Tremblay",
  "Gagnon",
  "Roy",
  "Côté",
  "Bouchard",
  "Martin",
  "Bernard",
  "Dubois",
  "Lefebvre",
  "Moreau",
  "Smith",
  "Brown",
  "Wilson",
  "Taylor",
  "Lavoie",
  "Fortin",
  "Girard",
  "Bélanger",
  "Nguyen",
  "Pelletier"
]

/** Every word the generator can write (its vocabulary feeds typo tolerance). */
export const bulkVocabulary = () =>
  [
    ...titles.fr.flat(),
    ...titles.en.flat(),
    ...qualifiers.fr,
    ...qualifiers.en,
    ...sentences.fr,
    ...sentences.en,
    ...bulkCities.map((c) => c.name)
  ].join(" ")

export interface BulkOptions {
  readonly services: number
  readonly providers: number
  readonly batchSize?: number
  readonly onProgress?: (done: number, total: number) => void
}

export interface BulkReport {
  readonly inserted: number
  readonly providers: number
  readonly totalServices: number
  readonly indexesRebuilt: boolean
  readonly seconds: { readonly insert: number; readonly indexes: number; readonly analyze: number; readonly total: number }
}

/** Loads this many rows or more by dropping and rebuilding the secondary indexes. */
export const REBUILD_THRESHOLD = 100_000

const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10

export const generateServices = (options: BulkOptions) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const started = performance.now()
    const { pglite } = yield* single(
      "database kind",
      Schema.Struct({ pglite: Schema.Boolean }),
      sql`SELECT version() LIKE '%PGlite%' AS pglite`
    )
    const batchSize = options.batchSize ?? (pglite ? 5_000 : 50_000)

    // Bulk providers: created when missing (they cannot log in: no password).
    const weights = bulkCities.map((c) => c.weight)
    const totalWeight = weights.reduce((a, b) => a + b, 0)
    const cityOfProvider = (k: number) => {
      let target = ((k + 0.5) / options.providers) * totalWeight
      for (let i = 0; i < bulkCities.length; i++) {
        target -= weights[i]!
        if (target <= 0) return i + 1
      }
      return bulkCities.length
    }
    const providerRows = Array.from({ length: options.providers }, (_, k) => ({
      email: `bulk.provider.${k + 1}@bulk.marketplace.local`,
      firstName: firstNames[k % firstNames.length]!,
      lastName: lastNames[Math.floor(k / firstNames.length) % lastNames.length]!,
      city: cityOfProvider(k)
    }))
    yield* sql`INSERT INTO users (email, password_hash, first_name, last_name, phone_number, role, is_email_verified, preferred_language)
      SELECT e, '!', f, l, '5145550000', 'PROVIDER', true, 'fr'
      FROM unnest(${providerRows.map((p) => p.email)}::text[], ${providerRows.map((p) => p.firstName)}::text[],
        ${providerRows.map((p) => p.lastName)}::text[]) AS t(e, f, l)
      ON CONFLICT (email) DO NOTHING`
    const ids = yield* findAll(
      "bulk providers",
      Schema.Struct({ email: Schema.String, id: Schema.String }),
      sql`SELECT email::text AS email, id FROM users
      WHERE email = ANY(${providerRows.map((p) => p.email)}::text[])`
    )
    const idOf = new Map(ids.map((r) => [r.email, r.id]))
    const providerIds = providerRows.map((p) => idOf.get(p.email)!)
    const providerCities = providerRows.map((p) => p.city)

    const offset = (yield* single("services count", ServiceCount, sql`SELECT count(*) AS n FROM services`)).n
    const rebuild = options.services >= REBUILD_THRESHOLD

    const random = (n: number) => sql.literal(`(hashint8(g * 16 + ${n}) & 2147483647)::float8 / 2147483648 AS r${n}`)
    const insertBatch = (from: number, to: number) =>
      sql`
      INSERT INTO services (user_id, category_id, title, description, price_minor, currency, duration_minutes, location,
        lat, lng, status, archived_at, rating, review_count, created_at, updated_at)
      SELECT p.user_id, y.cat,
        t.name || ' ' || t.qualifier || ' – ' || c.city,
        replace(replace(t.sentences[1], '{s}', t.name), '{c}', c.city) || ' ' ||
          t.sentences[2 + floor(y.r5 * 3)::int] || ' ' || t.sentences[5 + floor(y.r6 * 4)::int],
        (round((c.low + (c.high - c.low) * y.r11) * 2) * 50)::bigint,
        c.currency, y.duration, c.name,
        greatest(-90, least(90, c.lat + y.dlat)),
        greatest(-180, least(180, c.lng + y.dlng / greatest(0.2, cos(radians(c.lat))))),
        CASE WHEN y.r9 < 0.03 THEN 'INACTIVE' ELSE 'ACTIVE' END,
        CASE WHEN y.r10 < 0.01 THEN y.created_at + interval '1 day' END,
        CASE WHEN y.reviews > 0 THEN round((3 + 2 * y.r13)::numeric, 2) ELSE 0 END,
        y.reviews, y.created_at, y.created_at
      FROM (
        SELECT x.*,
          1 + floor(x.r2 * 9)::int AS cat,
          1 + floor(x.r1 * ${options.providers})::int AS provider,
          (x.r5 + x.r6 + x.r7 - 1.5) * 0.2 AS dlat,
          (x.r6 - x.r7 + x.r8 - 0.5) * 0.2 AS dlng,
          (${[30, 60, 60, 90, 120, 120, 180, 240]}::int[])[1 + floor(x.r15 * 8)::int] AS duration,
          CASE WHEN x.r12 < 0.6 THEN floor(x.r12 * 80)::int ELSE 0 END AS reviews,
          -- Rows arrive in creation order over two years, as a real table fills (older rows first).
          now() - ((${offset + options.services}::bigint - g)::float8 / ${offset + options.services}) * interval '730 days'
            - x.r3 * interval '1 hour' AS created_at
        FROM (
          SELECT g, ${random(1)}, ${random(2)}, ${random(3)}, ${random(4)}, ${random(5)}, ${random(6)}, ${random(7)},
            ${random(8)}, ${random(9)}, ${random(10)}, ${random(11)}, ${random(12)}, ${random(13)}, ${random(14)}, ${random(15)}
          FROM generate_series(${from}::bigint, ${to}::bigint) AS g
        ) x
      ) y
      CROSS JOIN LATERAL (SELECT
        (${providerIds}::uuid[])[y.provider] AS user_id,
        (${providerCities}::int[])[y.provider] AS city) p
      CROSS JOIN LATERAL (SELECT
        (${bulkCities.map((c) => c.name)}::text[])[p.city] AS name,
        split_part((${bulkCities.map((c) => c.name)}::text[])[p.city], ',', 1) AS city,
        (${bulkCities.map((c) => c.lat)}::float8[])[p.city] AS lat,
        (${bulkCities.map((c) => c.lng)}::float8[])[p.city] AS lng,
        (${bulkCities.map((c) => c.currency)}::text[])[p.city] AS currency,
        (${priceLow}::float8[])[y.cat] AS low,
        (${priceHigh}::float8[])[y.cat] AS high,
        CASE WHEN y.r4 < 0.8 THEN (${bulkCities.map((c) => c.language)}::text[])[p.city]
          WHEN (${bulkCities.map((c) => c.language)}::text[])[p.city] = 'fr' THEN 'en' ELSE 'fr' END AS language) c
      CROSS JOIN LATERAL (SELECT
        CASE c.language WHEN 'fr' THEN (${titles.fr.flat()}::text[])[(y.cat - 1) * 6 + 1 + floor(y.r14 * 6)::int]
          ELSE (${titles.en.flat()}::text[])[(y.cat - 1) * 6 + 1 + floor(y.r14 * 6)::int] END AS name,
        CASE c.language WHEN 'fr' THEN (${qualifiers.fr}::text[])[1 + floor(y.r8 * 10)::int]
          ELSE (${qualifiers.en}::text[])[1 + floor(y.r8 * 10)::int] END AS qualifier,
        CASE c.language WHEN 'fr' THEN ${sentences.fr}::text[] ELSE ${sentences.en}::text[] END AS sentences) t`.pipe(Effect.asVoid)

    // Secondary indexes of services, rebuilt from their own definitions.
    const dropIndexes = Effect.gen(function* () {
      const defs = yield* findAll(
        "services indexes",
        Schema.Struct({ name: Schema.String, def: Schema.String }),
        sql`SELECT indexname AS name, indexdef AS def FROM pg_indexes
        WHERE schemaname = current_schema() AND tablename = 'services' AND indexname <> 'services_pkey'`
      )
      for (const d of defs) yield* sql.unsafe(`DROP INDEX IF EXISTS ${d.name}`)
      return defs
    })
    const createIndexes = (defs: ReadonlyArray<{ name: string; def: string }>) =>
      Effect.forEach(
        // The slow ones first, so the two connections finish together.
        [...defs].sort((a, b) => Number(/USING (gin|gist)/.test(b.def)) - Number(/USING (gin|gist)/.test(a.def))),
        (d) =>
          sql.withTransaction(
            Effect.gen(function* () {
              if (!pglite) yield* sql.unsafe(`SET LOCAL maintenance_work_mem = '512MB'`)
              yield* sql.unsafe(d.def.replace(/^CREATE (UNIQUE )?INDEX /, "CREATE $1INDEX IF NOT EXISTS "))
            })
          ),
        { concurrency: pglite ? 1 : 2, discard: true }
      )

    const batches: Array<[number, number]> = []
    for (let from = 1; from <= options.services; from += batchSize) {
      batches.push([offset + from, offset + Math.min(options.services, from + batchSize - 1)])
    }
    let done = 0
    const insertAll = Effect.zipRight(
      Effect.sync(() => options.onProgress?.(0, options.services)),
      Effect.forEach(
        batches,
        ([from, to]) =>
          Effect.tap(insertBatch(from, to), () =>
            Effect.sync(() => {
              done += to - from + 1
              options.onProgress?.(done, options.services)
            })
          ),
        { concurrency: pglite ? 1 : 2, discard: true }
      )
    )

    let insertSeconds = 0
    let indexSeconds = 0
    if (rebuild) {
      yield* Effect.acquireUseRelease(
        dropIndexes,
        () =>
          Effect.gen(function* () {
            const t = performance.now()
            yield* insertAll
            insertSeconds = seconds(t)
          }),
        (defs) =>
          Effect.gen(function* () {
            const t = performance.now()
            yield* createIndexes(defs)
            indexSeconds = seconds(t)
          }).pipe(Effect.orDie)
      )
    } else {
      const t = performance.now()
      yield* insertAll
      insertSeconds = seconds(t)
    }

    // The generator's words join the vocabulary of typo tolerance.
    yield* sql`INSERT INTO search_terms (term)
      SELECT DISTINCT w FROM unnest(tsvector_to_array(to_tsvector('pg_catalog.simple', public.f_unaccent(lower(${bulkVocabulary()}))))) AS w
      WHERE length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
      ON CONFLICT DO NOTHING`
    const t = performance.now()
    // Statistics for the planner, and the visibility map for index-only scans.
    yield* sql.unsafe(pglite ? "ANALYZE services" : "VACUUM (ANALYZE) services")
    yield* sql.unsafe("ANALYZE users")
    const analyzeSeconds = seconds(t)
    const total = (yield* single("services count", ServiceCount, sql`SELECT count(*) AS n FROM services`)).n
    return {
      inserted: options.services,
      providers: options.providers,
      totalServices: total,
      indexesRebuilt: rebuild,
      seconds: { insert: insertSeconds, indexes: indexSeconds, analyze: analyzeSeconds, total: seconds(started) }
    } satisfies BulkReport
  })
