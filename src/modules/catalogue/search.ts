import { Either } from "effect"
import { type FieldIssue, invalid, issue, ValidationFailed } from "../../platform/errors"
import { isUuid } from "../../platform/ids"
import { isCurrency } from "../../platform/money"
import { MAX_PAGE_SIZE, pagination, paging as platformPaging } from "../../platform/paging"
import { CATEGORY_NAME_MAX, looseNumber, normalizeText, parseCategoryId, PRICE_MAX, wordsOf } from "./domain"
import { type Sort, Sorts } from "./rules"
import { type CurrencyRange, rangesInEachCurrency, type RateTable } from "./rates/domain"

// The catalogue's search rules: a visitor's words as a text query (with its typo widening) and the
// search criteria read from the query string. The SQL and in-memory adapters run them.

// ---- Text queries ----------------------------------------------------------------------------

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
      alternatives: [...term.alternatives, ...extra.filter((w) => !seen.has(w) && seen.add(w)).map((word) => ({ word, prefix: false }))]
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
export const MAX_LIMIT = MAX_PAGE_SIZE
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
export const resultWindow = (q: {
  readonly sort: Sort
  readonly hasText: boolean
  readonly offset: number
  readonly limit: number
  readonly withTotal: boolean
}) =>
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
  /** A place id or name (issue 14): the centre when lat/lng are not given. */
  readonly near?: string | undefined
  readonly minPrice?: string | undefined
  readonly maxPrice?: string | undefined
  /** The currency minPrice and maxPrice are in (the viewer's; the HTTP layer defaults it from the language). */
  readonly currency?: string | undefined
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
  /** Inclusive bounds in hundredths of the major unit of `currency` (price ranges are given in major units). */
  readonly minPriceCents: number | undefined
  readonly maxPriceCents: number | undefined
  /** The viewer's currency, the bounds' (EUR unless given): services in other currencies are compared once converted. */
  readonly currency: string
  readonly geo: Geo | undefined
  readonly sort: Sort
  readonly page: number
  readonly limit: number
}

/**
 * The sort actually used: distance needs a position and relevance needs words, otherwise newest
 * (the UI offers distance only when it knows the position, so a fallback beats an error).
 * Without an explicit sort, a search around a place is ordered by distance (words or not), a text
 * search by relevance, and a list by newest.
 */
export const chooseSort = (requested: Sort | undefined, hasText: boolean, hasGeo: boolean): Sort => {
  const sort = requested ?? (hasGeo ? "distance" : hasText ? "relevance" : "newest")
  if (sort === "distance" && !hasGeo) return "newest"
  if (sort === "relevance" && !hasText) return "newest"
  return sort
}

/** A page number and size: limit between 1 and 100 (default 20), page from 1. */
export const paging = (page: number | undefined, limit: number | undefined, defaultLimit = DEFAULT_LIMIT) =>
  platformPaging(page, limit, defaultLimit)
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

  const currency = input.currency?.trim().toUpperCase() || "EUR"
  if (!isCurrency(currency)) issues.push(issue("currency", "catalogue.currency"))

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
    currency,
    geo,
    sort: chooseSort(sort, text !== undefined, geo !== undefined),
    page: pages.page,
    limit: pages.limit
  })
}

/** Whether a search needs the exchange rates: a price range or a price sort. */
export const needsRates = (c: Pick<SearchCriteria, "minPriceCents" | "maxPriceCents" | "sort">) =>
  c.minPriceCents !== undefined || c.maxPriceCents !== undefined || c.sort === "price_asc" || c.sort === "price_desc"

/**
 * The price part of a storage query, compared in euros: the viewer's range as one range per currency
 * (rates/domain.ts), with their envelope as plain bounds on price_cents (what the indexes use), and
 * the rates for a price sort. `undefined` when the range matches no currency at all.
 */
export const pricedQuery = (
  c: Pick<SearchCriteria, "minPriceCents" | "maxPriceCents" | "currency" | "sort">,
  rates: RateTable
):
  | {
      readonly minPriceCents: number | undefined
      readonly maxPriceCents: number | undefined
      readonly priceRanges: ReadonlyArray<CurrencyRange> | undefined
      readonly rates: RateTable | undefined
    }
  | undefined => {
  const sortsByPrice = c.sort === "price_asc" || c.sort === "price_desc"
  if (c.minPriceCents === undefined && c.maxPriceCents === undefined) {
    return { minPriceCents: undefined, maxPriceCents: undefined, priceRanges: undefined, rates: sortsByPrice ? rates : undefined }
  }
  const ranges = rangesInEachCurrency(c.minPriceCents, c.maxPriceCents, c.currency, rates)
  if (ranges.length === 0) return undefined
  return {
    minPriceCents: Math.min(...ranges.map((r) => r.minCents)),
    maxPriceCents: ranges.every((r) => r.maxCents !== undefined) ? Math.max(...ranges.map((r) => r.maxCents!)) : undefined,
    priceRanges: ranges,
    rates: sortsByPrice ? rates : undefined
  }
}

/** No criterion at all: the plain catalogue list (the one the home page asks for most). */
export const isUnfiltered = (c: SearchCriteria) =>
  c.text === undefined &&
  c.category === undefined &&
  c.providerId === undefined &&
  c.minPriceCents === undefined &&
  c.maxPriceCents === undefined &&
  c.geo === undefined
