import { pagination, paging as platformPaging } from "../../platform/paging"
import { Either } from "effect"
import { BadRequest, Conflict, type FieldIssue, Forbidden, invalid, issue, NotFound, ValidationFailed } from "../../platform/errors"
import type { Language, MessageKey } from "../../platform/messages"
import { currencyDecimals, isCurrency, toMajor, toMinor } from "../../platform/money"
import { decimalPlaces, isInt4, isStorableNumber } from "../../platform/numbers"
import { type ServiceStatus, type Sort, Sorts } from "./rules"

// ---- Entities --------------------------------------------------------------------------------

export { ServiceStatuses, type ServiceStatus } from "./rules"

export interface Category {
  readonly id: number
  readonly slug: string
  readonly nameFr: string
  readonly nameEn: string
}

export const categoryName = (category: Pick<Category, "nameFr" | "nameEn">, language: Language) =>
  language === "en" ? category.nameEn : category.nameFr

/** A service as stored. Prices are integers in the currency's minor unit. */
export interface ServiceRecord {
  readonly id: string
  readonly userId: string
  readonly categoryId: number
  readonly title: string
  readonly description: string
  readonly priceMinor: number
  readonly currency: string
  readonly durationMinutes: number
  readonly location: string
  readonly lat: number
  readonly lng: number
  readonly status: ServiceStatus
  readonly archivedAt: Date | null
  readonly rating: number
  readonly reviewCount: number
  readonly images: ReadonlyArray<string>
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** A service with what its views show beside it: its category and its provider. */
export interface ServiceListing extends ServiceRecord {
  readonly category: Category
  readonly provider: { readonly id: string; readonly firstName: string; readonly lastName: string; readonly isActive: boolean }
  /** Great-circle distance from the searched point, when one was given. */
  readonly distanceKm?: number | undefined
}

/** Shown in public lists and to anyone: active, not archived, offered by an active account. */
export const isPublic = (s: { readonly status: string; readonly archivedAt: Date | null; readonly provider: { readonly isActive: boolean } }) =>
  s.status === "ACTIVE" && s.archivedAt === null && s.provider.isActive

/** What a caller may see: public services, and the owner's own services unless archived (deleted). */
export const isVisibleTo = (s: ServiceListing, viewerId: string | undefined) =>
  s.archivedAt === null && (isPublic(s) || (viewerId !== undefined && s.userId === viewerId))

// ---- Identifiers -----------------------------------------------------------------------------

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export const isUuid = (value: string) => UUID.test(value)
/** Category ids are small positive integers. */
export const parseCategoryId = (value: string): number | undefined =>
  /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : undefined

// ---- Money -----------------------------------------------------------------------------------

// The currencies and their conversions are the platform's (platform/money.ts).
export const DEFAULT_CURRENCY = "EUR"
export const PRICE_MAX = 1_000_000

// ---- Loose payload values --------------------------------------------------------------------

/** A payload value as the contract accepts it: a JSON number, a string, null or absent. */
export type Loose = number | string | null | undefined

const isBlank = (value: Loose) => value === undefined || value === null || (typeof value === "string" && value.trim() === "")

/** A decimal number given as a number or a string ("19.99", "19,99"); undefined when blank; NaN when not a number. */
export const looseNumber = (value: Loose): number | undefined => {
  if (isBlank(value)) return undefined
  const text = typeof value === "number" ? "" : (value as string).trim().replace(/^(-?\d+),(\d+)$/, "$1.$2")
  const parsed = typeof value === "number" ? value : /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN
  // Outside what the database stores (5e-324, "0.000…1", 1e300): not a number we take.
  return isStorableNumber(parsed) ? parsed : Number.NaN
}

/** The number of decimals a number is written with (0.1 + 0.2 counts as 1: floating noise is ignored; 1e-7 as 7). */
const decimalsOf = (value: Loose, parsed: number) => {
  if (typeof value === "string") {
    const match = /[.,](\d+)$/.exec(value.trim())
    return match ? match[1]!.replace(/0+$/, "").length : 0
  }
  return decimalPlaces(parsed)
}

/** A price in major units to minor units, or the message key of what is wrong with it. */
export const parsePrice = (value: Loose, currency: string): Either.Either<number, MessageKey> => {
  const parsed = looseNumber(value)
  if (parsed === undefined) return Either.left("validation.required")
  if (Number.isNaN(parsed) || parsed <= 0) return Either.left("catalogue.priceInvalid")
  const decimals = currencyDecimals(currency)
  if (decimalsOf(value, parsed) > decimals) return Either.left(decimals === 0 ? "catalogue.priceNoDecimals" : "catalogue.priceInvalid")
  if (parsed > PRICE_MAX) return Either.left("catalogue.priceTooHigh")
  const minor = toMinor(parsed, currency)
  // The column holds at least one minor unit, as an int.
  return minor >= 1 && isInt4(minor) ? Either.right(minor) : Either.left("catalogue.priceInvalid")
}

// ---- Service input (spec section 5) ----------------------------------------------------------

export const TITLE_MAX = 120
export const DESCRIPTION_MAX = 5000
export const LOCATION_MAX = 200
export const CATEGORY_NAME_MIN = 2
export const CATEGORY_NAME_MAX = 60
export const DURATION_MAX = 7 * 24 * 60
export const EDIT_DURATION_STEP = 15

export interface ServiceInput {
  readonly title?: string | null | undefined
  readonly description?: string | null | undefined
  readonly price?: Loose
  readonly currency?: string | null | undefined
  readonly duration?: Loose
  readonly location?: string | null | undefined
  readonly lat?: Loose
  readonly lng?: Loose
  readonly categoryId?: Loose
  readonly newCategoryName?: string | null | undefined
}

export type CategoryChoice =
  | { readonly _tag: "Existing"; readonly id: number }
  | { readonly _tag: "New"; readonly name: string }

export interface NewService {
  readonly title: string
  readonly description: string
  readonly priceMinor: number
  readonly currency: string
  readonly durationMinutes: number
  readonly location: string
  readonly lat: number
  readonly lng: number
  readonly category: CategoryChoice
}

export interface ServicePatch {
  readonly title?: string
  readonly description?: string
  readonly priceMinor?: number
  readonly currency?: string
  readonly durationMinutes?: number
  readonly location?: string
  readonly lat?: number
  readonly lng?: number
  readonly category?: CategoryChoice
}

const text = (field: string, value: string | null | undefined, max: number, tooLong: MessageKey, issues: Array<FieldIssue>) => {
  const trimmed = (value ?? "").trim()
  if (trimmed === "") issues.push(issue(field, "validation.required"))
  else if (trimmed.length > max) issues.push(issue(field, tooLong))
  return trimmed
}

const currencyOf = (value: string | null | undefined, issues: Array<FieldIssue>) => {
  if (isBlank(value)) return undefined
  const code = value!.trim().toUpperCase()
  if (!isCurrency(code)) {
    issues.push(issue("currency", "catalogue.currency"))
    return undefined
  }
  return code
}

const durationOf = (value: Loose, mode: "create" | "edit", issues: Array<FieldIssue>) => {
  const parsed = looseNumber(value)
  if (parsed === undefined) {
    issues.push(issue("duration", "validation.required"))
    return 0
  }
  const key: MessageKey = mode === "create" ? "catalogue.durationCreate" : "catalogue.durationEdit"
  if (Number.isNaN(parsed) || !Number.isInteger(parsed) || parsed < 1) issues.push(issue("duration", key))
  else if (mode === "edit" && (parsed < EDIT_DURATION_STEP || parsed % EDIT_DURATION_STEP !== 0)) issues.push(issue("duration", key))
  else if (parsed > DURATION_MAX) issues.push(issue("duration", "catalogue.durationTooLong"))
  return parsed
}

/** Latitude or longitude: optional, 0 when blank (spec), within range. */
const coordinateOf = (field: "lat" | "lng", value: Loose, issues: Array<FieldIssue>) => {
  const parsed = looseNumber(value)
  if (parsed === undefined) return 0
  const bound = field === "lat" ? 90 : 180
  if (Number.isNaN(parsed) || parsed < -bound || parsed > bound) {
    issues.push(issue(field, field === "lat" ? "catalogue.latitude" : "catalogue.longitude"))
    return 0
  }
  return parsed
}

/**
 * An existing category or a new one, never both (the spec's message), and on creation one of them
 * (selectOrCreateCategory). `undefined` when neither is given on an edit (the category is kept).
 */
const categoryOf = (input: ServiceInput, required: boolean, issues: Array<FieldIssue>): CategoryChoice | undefined => {
  const hasId = !isBlank(input.categoryId)
  const hasName = !isBlank(input.newCategoryName)
  if (hasId && hasName) {
    issues.push(issue("newCategoryName", "catalogue.categoryChoiceBoth"))
    return undefined
  }
  if (hasId) {
    const id = looseNumber(input.categoryId)
    if (id === undefined || Number.isNaN(id) || !Number.isInteger(id) || id < 1 || id > 2_147_483_647) {
      issues.push(issue("categoryId", "catalogue.categoryUnknown"))
      return undefined
    }
    return { _tag: "Existing", id }
  }
  if (hasName) {
    const name = input.newCategoryName!.trim().replace(/\s+/g, " ")
    if (name.length < CATEGORY_NAME_MIN || name.length > CATEGORY_NAME_MAX || slugify(name) === "") {
      issues.push(issue("newCategoryName", "catalogue.categoryNameLength"))
      return undefined
    }
    return { _tag: "New", name }
  }
  if (required) issues.push(issue("categoryId", "catalogue.categoryRequired"))
  return undefined
}

/** The one 422 of a service form: the category rule's own message leads when it is broken. */
const failed = (issues: ReadonlyArray<FieldIssue>) => {
  const category = issues.find((i) => i.key === "catalogue.categoryChoiceBoth" || i.key === "catalogue.categoryRequired")
  return category ? new ValidationFailed({ code: "VALIDATION_ERROR", key: category.key, details: issues }) : invalid(issues)
}

export const validateNewService = (input: ServiceInput): Either.Either<NewService, ValidationFailed> => {
  const issues: Array<FieldIssue> = []
  const title = text("title", input.title, TITLE_MAX, "catalogue.titleTooLong", issues)
  const description = text("description", input.description, DESCRIPTION_MAX, "catalogue.descriptionTooLong", issues)
  const currency = currencyOf(input.currency, issues) ?? DEFAULT_CURRENCY
  const price = parsePrice(input.price, currency)
  if (Either.isLeft(price)) issues.push(issue("price", price.left))
  const durationMinutes = durationOf(input.duration, "create", issues)
  const location = text("location", input.location, LOCATION_MAX, "catalogue.locationTooLong", issues)
  const lat = coordinateOf("lat", input.lat, issues)
  const lng = coordinateOf("lng", input.lng, issues)
  const category = categoryOf(input, true, issues)
  if (issues.length > 0) return Either.left(failed(issues))
  return Either.right({
    title,
    description,
    priceMinor: Either.getOrThrow(price),
    currency,
    durationMinutes,
    location,
    lat,
    lng,
    category: category!
  })
}

/**
 * A partial update: only the fields present are checked, with the creation rules, except the edit
 * form's duration rule (at least 15 minutes, by steps of 15). A price is checked against the
 * currency the service will have; a currency change alone re-expresses the current price.
 */
export const validateServicePatch = (
  input: ServiceInput,
  current: Pick<ServiceRecord, "priceMinor" | "currency">
): Either.Either<ServicePatch, ValidationFailed> => {
  const issues: Array<FieldIssue> = []
  const patch: { -readonly [K in keyof ServicePatch]: ServicePatch[K] } = {}
  if (input.title !== undefined) patch.title = text("title", input.title, TITLE_MAX, "catalogue.titleTooLong", issues)
  if (input.description !== undefined) {
    patch.description = text("description", input.description, DESCRIPTION_MAX, "catalogue.descriptionTooLong", issues)
  }
  if (input.location !== undefined) patch.location = text("location", input.location, LOCATION_MAX, "catalogue.locationTooLong", issues)
  const currency = input.currency !== undefined ? currencyOf(input.currency, issues) : undefined
  if (input.currency !== undefined && isBlank(input.currency)) issues.push(issue("currency", "validation.required"))
  const targetCurrency = currency ?? current.currency
  if (input.price !== undefined) {
    const price = parsePrice(input.price, targetCurrency)
    if (Either.isLeft(price)) issues.push(issue("price", price.left))
    else patch.priceMinor = price.right
  } else if (currency !== undefined && currency !== current.currency) {
    const price = parsePrice(toMajor(current.priceMinor, current.currency), targetCurrency)
    if (Either.isLeft(price)) issues.push(issue("price", price.left))
    else patch.priceMinor = price.right
  }
  if (currency !== undefined) patch.currency = currency
  if (input.duration !== undefined) patch.durationMinutes = durationOf(input.duration, "edit", issues)
  if (input.lat !== undefined) patch.lat = coordinateOf("lat", input.lat, issues)
  if (input.lng !== undefined) patch.lng = coordinateOf("lng", input.lng, issues)
  const category = categoryOf(input, false, issues)
  if (category !== undefined) patch.category = category
  return issues.length > 0 ? Either.left(failed(issues)) : Either.right(patch)
}

// ---- Text -------------------------------------------------------------------------------------

const LIGATURES: Record<string, string> = { œ: "oe", æ: "ae", ß: "ss", ø: "o", ł: "l", đ: "d", ð: "d", þ: "th", ı: "i" }

/** Lower case without accents, as the database's f_unaccent(lower(...)) sees words. */
export const normalizeText = (value: string) =>
  value
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[œæßøłđðþı]/g, (c) => LIGATURES[c]!)

/** A URL-safe slug: "Réparation vélo" gives "reparation-velo". */
export const slugify = (value: string) =>
  normalizeText(value)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)

/** Words of a text as the search indexes them (letters and digits; modifier letters excluded). */
export const wordsOf = (value: string): ReadonlyArray<string> => normalizeText(value).match(/[\p{Ll}\p{Lu}\p{Lt}\p{Lo}\p{Nd}]+/gu) ?? []

export interface TermAlternative {
  readonly word: string
  /** Matches every word that starts with `word` (the last word typed, still being typed). */
  readonly prefix: boolean
}
/** One word of a query: a document matches when it contains any of the alternatives. */
export interface QueryTerm {
  readonly alternatives: ReadonlyArray<TermAlternative>
}
export interface TextQuery {
  readonly terms: ReadonlyArray<QueryTerm>
}

export const SEARCH_MAX_LENGTH = 200
export const SEARCH_MAX_WORDS = 8
const WORD_MAX = 40
const PREFIX_MIN = 3

/**
 * The words of a search (accents and case ignored). One-letter words ("à", "l'") are dropped when
 * longer ones exist; the last word also matches as a prefix once it has 3 letters.
 */
export const parseTextQuery = (raw: string): TextQuery | undefined => {
  const all = wordsOf(raw.slice(0, SEARCH_MAX_LENGTH)).map((w) => w.slice(0, WORD_MAX))
  const long = all.filter((w) => w.length > 1)
  const words = [...new Set(long.length > 0 ? long : all)].slice(0, SEARCH_MAX_WORDS)
  if (words.length === 0) return undefined
  return {
    terms: words.map((word, i) => ({
      alternatives: [{ word, prefix: i === words.length - 1 && word.length >= PREFIX_MIN }]
    }))
  }
}

/** Queries of at most this many words get typo tolerance when they find nothing. */
export const TYPO_MAX_WORDS = 3
export const TYPO_MIN_LENGTH = 3

/** The words worth correcting: in a short query, those long enough for trigrams to mean something. */
export const correctableWords = (query: TextQuery): ReadonlyArray<TermAlternative> =>
  query.terms.length > TYPO_MAX_WORDS ? [] : query.terms.flatMap((t) => t.alternatives.filter((a) => a.word.length >= TYPO_MIN_LENGTH))

/** The query with each word widened to its near spellings found in the catalogue's vocabulary. */
export const widenQuery = (query: TextQuery, suggestions: ReadonlyMap<string, ReadonlyArray<string>>): TextQuery => ({
  terms: query.terms.map((term) => {
    const extra = term.alternatives.flatMap((a) => suggestions.get(a.word) ?? [])
    const seen = new Set(term.alternatives.map((a) => a.word))
    return {
      alternatives: [
        ...term.alternatives,
        ...extra.filter((w) => !seen.has(w) && seen.add(w)).map((word) => ({ word, prefix: false }))
      ]
    }
  })
})

export const isWidened = (before: TextQuery, after: TextQuery) =>
  after.terms.some((t, i) => t.alternatives.length !== before.terms[i]!.alternatives.length)

/**
 * The PostgreSQL tsquery text of a query: `('menage':* | 'menages') & 'domicile'`. Words hold only
 * letters and digits (see wordsOf), so quoting them is enough.
 */
export const toTsQuery = (query: TextQuery) =>
  query.terms
    .map((term) => {
      const alternatives = term.alternatives.map((a) => `'${a.word}'${a.prefix ? ":*" : ""}`)
      return alternatives.length === 1 ? alternatives[0]! : `(${alternatives.join(" | ")})`
    })
    .join(" & ")

/** Whether a document's words satisfy a query (the in-memory twin of `search_vector @@ query`). */
export const matchesText = (documentWords: ReadonlySet<string>, query: TextQuery) =>
  query.terms.every((term) =>
    term.alternatives.some((a) => (a.prefix ? [...documentWords].some((w) => w.startsWith(a.word)) : documentWords.has(a.word)))
  )

// ---- Search criteria -------------------------------------------------------------------------

export { Sorts, type Sort } from "./rules"

export const DEFAULT_LIMIT = 20
export const MAX_LIMIT = 100
export const DEFAULT_RADIUS_KM = 100
export const MAX_RADIUS_KM = 20_000
/** Relevance ranks at most this many candidates: the newest matches, then ordered by rank. */
export const RELEVANCE_CANDIDATES = 500
/**
 * A search reads its page plus this many pages more (and one row): the total is exact when the
 * matches end within that window, otherwise it is a lower bound (`exactTotal: false`), which grows
 * as the visitor pages on. Counting every match of a broad search costs more than the search.
 */
export const LOOKAHEAD_PAGES = 1
/** Pages start at most this far into a result list (deeper pages: refine the search). */
export const MAX_OFFSET = 10_000

/** How many of the first matches a search reads (see LOOKAHEAD_PAGES and RELEVANCE_CANDIDATES). */
export const resultWindow = (q: { readonly sort: Sort; readonly hasText: boolean; readonly offset: number; readonly limit: number; readonly withTotal: boolean }) =>
  q.sort === "relevance" && q.hasText
    ? RELEVANCE_CANDIDATES
    : q.withTotal
      ? q.offset + q.limit * (LOOKAHEAD_PAGES + 1) + 1
      : q.offset + q.limit

export interface SearchInput {
  readonly search?: string | undefined
  readonly category?: string | undefined
  readonly categoryId?: string | undefined
  readonly sortBy?: string | undefined
  readonly page?: string | undefined
  readonly limit?: string | undefined
  readonly lat?: string | undefined
  readonly lng?: string | undefined
  readonly radius?: string | undefined
  readonly minPrice?: string | undefined
  readonly maxPrice?: string | undefined
  readonly provider?: string | undefined
}

export type CategoryFilter = { readonly _tag: "Id"; readonly id: number } | { readonly _tag: "Name"; readonly name: string }

export interface Geo {
  readonly lat: number
  readonly lng: number
  readonly radiusKm: number
}

export interface SearchCriteria {
  readonly text: TextQuery | undefined
  readonly category: CategoryFilter | undefined
  readonly providerId: string | undefined
  /** Inclusive bounds in hundredths of the major unit (price ranges are given in major units). */
  readonly minPriceCents: number | undefined
  readonly maxPriceCents: number | undefined
  readonly geo: Geo | undefined
  readonly sort: Sort
  readonly page: number
  readonly limit: number
}

/**
 * The sort actually used: distance needs a position and relevance needs words, otherwise newest
 * (the UI offers distance only when it knows the position, so a fallback beats an error).
 * Without an explicit sort, a text search is ordered by relevance and a list by newest.
 */
export const chooseSort = (requested: Sort | undefined, hasText: boolean, hasGeo: boolean): Sort => {
  const sort = requested ?? (hasText ? "relevance" : "newest")
  if (sort === "distance" && !hasGeo) return "newest"
  if (sort === "relevance" && !hasText) return "newest"
  return sort
}

/** A page number and size: limit between 1 and 100 (default 20), page from 1. */
export const paging = (page: number | undefined, limit: number | undefined, defaultLimit = DEFAULT_LIMIT) => platformPaging(page, limit, defaultLimit)
export { pagination }

/** A UI price range ("0-50", "50-100", "100-200", "200+") as inclusive bounds in cents. */
export const priceRange = (min: number | undefined, max: number | undefined) => ({
  minPriceCents: min === undefined ? undefined : Math.round(min * 100),
  maxPriceCents: max === undefined ? undefined : Math.round(max * 100)
})

const numberParam = (field: string, value: string | undefined, issues: Array<FieldIssue>, check: (n: number) => boolean) => {
  if (value === undefined || value.trim() === "") return undefined
  const parsed = looseNumber(value)
  if (parsed === undefined || Number.isNaN(parsed) || !check(parsed)) {
    issues.push(issue(field, "catalogue.invalidNumber"))
    return undefined
  }
  return parsed
}

export const parseSearch = (input: SearchInput, defaultLimit = DEFAULT_LIMIT): Either.Either<SearchCriteria, ValidationFailed> => {
  const issues: Array<FieldIssue> = []
  const raw = input.search?.trim() ?? ""
  if (raw.length > SEARCH_MAX_LENGTH) issues.push(issue("search", "catalogue.searchTooLong"))
  const text = raw === "" ? undefined : parseTextQuery(raw)

  let category: CategoryFilter | undefined
  const categoryId = input.categoryId?.trim() || undefined
  const categoryText = input.category?.trim() || undefined
  if (categoryId !== undefined) {
    const id = parseCategoryId(categoryId)
    if (id === undefined) issues.push(issue("categoryId", "catalogue.invalidNumber"))
    else category = { _tag: "Id", id }
  } else if (categoryText !== undefined && categoryText !== "all") {
    const id = parseCategoryId(categoryText)
    category = id !== undefined ? { _tag: "Id", id } : { _tag: "Name", name: categoryText.slice(0, CATEGORY_NAME_MAX) }
  }

  let sort: Sort | undefined
  const sortBy = input.sortBy?.trim() || undefined
  if (sortBy !== undefined) {
    if ((Sorts as ReadonlyArray<string>).includes(sortBy)) sort = sortBy as Sort
    else issues.push(issue("sortBy", "catalogue.sortBy"))
  }

  const page = numberParam("page", input.page, issues, (n) => Number.isInteger(n) && n >= 1 && n <= 1_000_000)
  const limit = numberParam("limit", input.limit, issues, (n) => Number.isInteger(n) && n >= 1)
  if (page !== undefined && paging(page, limit, defaultLimit).offset > MAX_OFFSET) issues.push(issue("page", "catalogue.pageTooFar"))
  const lat = numberParam("lat", input.lat, issues, (n) => n >= -90 && n <= 90)
  const lng = numberParam("lng", input.lng, issues, (n) => n >= -180 && n <= 180)
  const radius = numberParam("radius", input.radius, issues, (n) => n > 0 && n <= MAX_RADIUS_KM)
  if ((lat === undefined) !== (lng === undefined) && !issues.some((i) => i.field === "lat" || i.field === "lng")) {
    issues.push(issue(lat === undefined ? "lat" : "lng", "catalogue.coordinatesPair"))
  }
  const minPrice = numberParam("minPrice", input.minPrice, issues, (n) => n >= 0 && n <= PRICE_MAX)
  const maxPrice = numberParam("maxPrice", input.maxPrice, issues, (n) => n >= 0 && n <= PRICE_MAX)
  if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice) issues.push(issue("maxPrice", "catalogue.priceRange"))

  const provider = input.provider?.trim() || undefined
  if (provider !== undefined && !isUuid(provider)) issues.push(issue("provider", "catalogue.invalidId"))

  if (issues.length > 0) return Either.left(invalid(issues))
  const geo = lat !== undefined && lng !== undefined ? { lat, lng, radiusKm: radius ?? DEFAULT_RADIUS_KM } : undefined
  const pages = paging(page, limit, defaultLimit)
  return Either.right({
    text,
    category,
    providerId: provider?.toLowerCase(),
    ...priceRange(minPrice, maxPrice),
    geo,
    sort: chooseSort(sort, text !== undefined, geo !== undefined),
    page: pages.page,
    limit: pages.limit
  })
}

/** No criterion at all: the plain catalogue list (the one the home page asks for most). */
export const isUnfiltered = (c: SearchCriteria) =>
  c.text === undefined &&
  c.category === undefined &&
  c.providerId === undefined &&
  c.minPriceCents === undefined &&
  c.maxPriceCents === undefined &&
  c.geo === undefined

// ---- Geography -------------------------------------------------------------------------------

/** The sphere radius earthdistance uses (earth(), in metres). */
export const EARTH_RADIUS_M = 6_378_168

/** A position as earthdistance's 3-D point (metres from the Earth's centre), like ll_to_earth(). */
export const earthPoint = (p: { readonly lat: number; readonly lng: number }): readonly [number, number, number] => {
  const rad = Math.PI / 180
  return [
    EARTH_RADIUS_M * Math.cos(p.lat * rad) * Math.cos(p.lng * rad),
    EARTH_RADIUS_M * Math.cos(p.lat * rad) * Math.sin(p.lng * rad),
    EARTH_RADIUS_M * Math.sin(p.lat * rad)
  ]
}
/** The straight-line (chord) length of a great-circle distance in metres, like earthdistance's gc_to_sec(). */
export const chordOf = (metres: number) => 2 * EARTH_RADIUS_M * Math.sin(Math.min(metres, Math.PI * EARTH_RADIUS_M) / (2 * EARTH_RADIUS_M))
/** The great-circle distance in metres of a chord, like earthdistance's sec_to_gc(). */
export const arcOf = (chord: number) => 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, chord / (2 * EARTH_RADIUS_M)))

/** Great-circle distance in km, as earth_distance(ll_to_earth(a), ll_to_earth(b)) computes it. */
export const distanceKm = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) => {
  const [x1, y1, z1] = earthPoint(a)
  const [x2, y2, z2] = earthPoint(b)
  return arcOf(Math.hypot(x1 - x2, y1 - y2, z1 - z2)) / 1000
}

// ---- Duplicates ------------------------------------------------------------------------------

/** The title of a copy: the original with a suffix, cut so that the whole fits the title limit. */
export const copyTitle = (title: string, suffix: string) => {
  const tail = ` ${suffix}`
  return title.length + tail.length <= TITLE_MAX ? title + tail : title.slice(0, TITLE_MAX - tail.length).trimEnd() + tail
}

// ---- Errors ----------------------------------------------------------------------------------

export const ServiceNotFound = new NotFound({ code: "SERVICE_NOT_FOUND", key: "catalogue.serviceNotFound" })
export const CategoryNotFound = new NotFound({ code: "CATEGORY_NOT_FOUND", key: "catalogue.categoryNotFound" })
export const ProviderNotFound = new NotFound({ code: "PROVIDER_NOT_FOUND", key: "catalogue.providerNotFound" })
export const NotServiceOwner = new Forbidden({ code: "NOT_SERVICE_OWNER", key: "catalogue.notOwner" })
/** An administrator cannot list a service whose provider cannot be paid yet. */
export const ProviderNotPayable = new Conflict({ code: "PROVIDER_NOT_PAYABLE", key: "admin.providerNotPayable" })
export const PaymentAccountRequired = new BadRequest({ code: "PAYMENT_ACCOUNT_REQUIRED", key: "catalogue.paymentAccountRequired" })
export const UnknownCategory = invalid([issue("categoryId", "catalogue.categoryUnknown")])
