// Pure rules of the catalogue screens (spec client-and-provider sections 2, 5 and 9), free of React,
// Lingui and browser globals so they are unit-tested.

import { currencyDecimals } from "../../src/platform/money"
import type { Sort } from "../api/contract"

// ---- Page sizes and limits (spec section 9) ----

export const LIST_PAGE_SIZE = 20
/** The popular and recent services shown beside the list: the spec's default limit. */
export const HIGHLIGHT_COUNT = 6
export const SEARCH_PAGE_SIZE = 12
export const SEARCH_RADIUS_KM = 100
export const CARD_DESCRIPTION_MAX = 100
export const SHARE_DESCRIPTION_MAX = 160
export const SEARCH_DEBOUNCE_MS = 300
export const COPIED_NOTICE_MS = 1500
/** Edit form: at least 15 minutes, by steps of 15. */
export const EDIT_DURATION_STEP = 15

// ---- Text ----

/**
 * At most `max` characters (counted as code points, so an emoji is never split), cut at the end of
 * the last word that fits when one ends in the second half, followed by "…"; shorter text is kept.
 */
export const cutText = (text: string, max: number): string => {
  const clean = text.replace(/\s+/g, " ").trim()
  const chars = Array.from(clean)
  if (chars.length <= max) return clean
  const head = chars.slice(0, max).join("")
  const lastSpace = head.lastIndexOf(" ")
  const cut = lastSpace >= head.length / 2 ? head.slice(0, lastSpace) : head
  return `${cut.replace(/[\s,;:.!?'’-]+$/u, "")}…`
}

/** "Marie", "Dubois" → "MD"; blanks give "?". */
export const initials = (firstName: string, lastName: string): string => {
  const letter = (name: string) => Array.from(name.trim())[0]?.toLocaleUpperCase() ?? ""
  return letter(firstName) + letter(lastName) || "?"
}

// ---- Duration display (spec admin section 9) ----

export type DurationParts =
  | { readonly unit: "minutes"; readonly minutes: number }
  | { readonly unit: "hours"; readonly hours: number; readonly minutes: number }
  | { readonly unit: "days"; readonly days: number; readonly hours: number }

/** Under 1 hour in minutes, under 24 hours in hours and minutes, then days and hours. */
export const durationParts = (totalMinutes: number): DurationParts => {
  const minutes = Math.max(0, Math.round(totalMinutes))
  if (minutes < 60) return { unit: "minutes", minutes }
  if (minutes < 24 * 60) return { unit: "hours", hours: Math.floor(minutes / 60), minutes: minutes % 60 }
  return { unit: "days", days: Math.floor(minutes / (24 * 60)), hours: Math.floor((minutes % (24 * 60)) / 60) }
}

// ---- Search (spec section 2, Search) ----

/** The search screen's categories: its own ids, their other spelling, and the seeded category slug. */
export const SEARCH_CATEGORIES = [
  { id: "menage", alias: "cleaning", slug: "menage" },
  { id: "jardinage", alias: "gardening", slug: "jardinage" },
  { id: "reparation", alias: "repair", slug: "reparation" },
  { id: "transport", alias: "transport", slug: "transport" },
  { id: "formation", alias: "training", slug: "formation" }
] as const
export type SearchCategory = (typeof SEARCH_CATEGORIES)[number]["id"]

/** "cleaning" or "menage" → "menage"; anything else → undefined. */
export const toSearchCategory = (value: string | null | undefined): SearchCategory | undefined => {
  const wanted = value?.trim().toLowerCase()
  return SEARCH_CATEGORIES.find((c) => c.id === wanted || c.alias === wanted)?.id
}

/** The catalogue slug a search category stands for. */
export const searchCategorySlug = (category: SearchCategory): string => SEARCH_CATEGORIES.find((c) => c.id === category)?.slug ?? category

export const PRICE_RANGES = ["0-50", "50-100", "100-200", "200+"] as const
export type PriceRange = (typeof PRICE_RANGES)[number]

export const toPriceRange = (value: string | null | undefined): PriceRange | undefined => PRICE_RANGES.find((range) => range === value)

/** A price range as query bounds; 200+ sets a minimum only. */
export const priceBounds = (range: PriceRange | undefined): { minPrice?: number; maxPrice?: number } => {
  switch (range) {
    case "0-50":
      return { minPrice: 0, maxPrice: 50 }
    case "50-100":
      return { minPrice: 50, maxPrice: 100 }
    case "100-200":
      return { minPrice: 100, maxPrice: 200 }
    case "200+":
      return { minPrice: 200 }
    default:
      return {}
  }
}

export interface SearchCriteria {
  readonly text: string
  readonly category?: SearchCategory | undefined
  readonly priceRange?: PriceRange | undefined
  /** A place (or the visitor's position) is chosen. */
  readonly place?: boolean | undefined
}

/** The search runs only when the text is non-empty or a category, price range or location is set. */
export const shouldSearch = (criteria: SearchCriteria): boolean =>
  criteria.text.trim() !== "" || criteria.category !== undefined || criteria.priceRange !== undefined || criteria.place === true

export const LIST_SORTS = ["newest", "price_asc", "price_desc", "rating", "distance"] as const satisfies ReadonlyArray<Sort>
export const SEARCH_SORTS = ["relevance", "price_asc", "price_desc", "rating", "distance"] as const satisfies ReadonlyArray<Sort>

/** A sort from the URL among the allowed ones; distance only when the position is known. */
export const pickSort = <S extends Sort>(
  value: string | null | undefined,
  allowed: ReadonlyArray<S>,
  fallback: S,
  hasPosition: boolean
): S => {
  const found = allowed.find((sort) => sort === value)
  if (!found || (found === "distance" && !hasPosition)) return fallback
  return found
}

/** A page number from the URL: a positive integer, else 1. */
export const toPage = (value: string | null | undefined): number => {
  const page = Number(value)
  return Number.isInteger(page) && page >= 1 ? page : 1
}

// ---- Geography ----

export interface Position {
  readonly lat: number
  readonly lng: number
}

/** A service saved without coordinates has 0, 0 (spec: default 0 when blank). */
export const hasCoordinates = (position: Position) => !(position.lat === 0 && position.lng === 0)

/** Great-circle distance in kilometres (haversine, mean Earth radius). */
export const distanceKm = (from: Position, to: Position): number => {
  const rad = (degrees: number) => (degrees * Math.PI) / 180
  const dLat = rad(to.lat - from.lat)
  const dLng = rad(to.lng - from.lng)
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(from.lat)) * Math.cos(rad(to.lat)) * Math.sin(dLng / 2) ** 2
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(a)))
}

// ---- Service form (spec section 5) ----

export type ServiceField = "title" | "description" | "price" | "duration" | "location" | "categoryId" | "newCategoryName" | "lat" | "lng"
export type ServiceProblem =
  | "required"
  | "priceInvalid"
  | "priceWhole"
  | "durationCreate"
  | "durationEdit"
  | "categoryRequired"
  | "latitude"
  | "longitude"

export interface ServiceFormValues {
  readonly title: string
  readonly description: string
  readonly price: string
  readonly duration: string
  readonly location: string
  /** A category id, OTHER_CATEGORY, or "". */
  readonly category: string
  readonly newCategoryName: string
  readonly lat: string
  readonly lng: string
}

export const OTHER_CATEGORY = "other"

const numberOf = (value: string) => (value.trim() === "" ? undefined : Number(value.trim().replace(",", ".")))

/** Client-side checks of the create and edit forms; the server stays the judge. */
export const checkServiceForm = (
  values: ServiceFormValues & { readonly currency?: string },
  mode: "create" | "edit"
): Partial<Record<ServiceField, ServiceProblem>> => {
  const problems: Partial<Record<ServiceField, ServiceProblem>> = {}
  for (const field of ["title", "description", "location"] as const) if (values[field].trim() === "") problems[field] = "required"
  const price = numberOf(values.price)
  // As the server counts them: 2 decimals in euros, none in yen or CFA francs.
  const unit = 10 ** currencyDecimals(values.currency ?? "EUR")
  if (price === undefined) problems.price = "required"
  else if (!Number.isFinite(price) || price <= 0 || Math.round(price * unit) !== Number((price * unit).toFixed(6)))
    problems.price = unit === 1 ? "priceWhole" : "priceInvalid"
  const duration = numberOf(values.duration)
  if (duration === undefined) problems.duration = "required"
  else if (!Number.isInteger(duration) || duration < 1) problems.duration = mode === "create" ? "durationCreate" : "durationEdit"
  else if (mode === "edit" && duration % EDIT_DURATION_STEP !== 0) problems.duration = "durationEdit"
  const other = values.category === OTHER_CATEGORY
  if (values.category === "") problems.categoryId = "categoryRequired"
  else if (other && values.newCategoryName.trim() === "") problems.newCategoryName = "required"
  const lat = numberOf(values.lat)
  if (lat !== undefined && !(Number.isFinite(lat) && lat >= -90 && lat <= 90)) problems.lat = "latitude"
  const lng = numberOf(values.lng)
  if (lng !== undefined && !(Number.isFinite(lng) && lng >= -180 && lng <= 180)) problems.lng = "longitude"
  return problems
}

/**
 * The request body of a checked form: numbers parsed, blank coordinates sent as 0 (spec), and
 * either the existing category or the new name, never both.
 */
export const serviceRequestOf = (values: ServiceFormValues) => {
  const other = values.category === OTHER_CATEGORY
  return {
    title: values.title.trim(),
    description: values.description.trim(),
    price: numberOf(values.price) ?? 0,
    duration: numberOf(values.duration) ?? 0,
    location: values.location.trim(),
    lat: numberOf(values.lat) ?? 0,
    lng: numberOf(values.lng) ?? 0,
    ...(other ? { newCategoryName: values.newCategoryName.trim() } : { categoryId: Number(values.category) })
  }
}

// ---- Payout setup (spec admin section 2) ----

/** Countries where a provider can open a payout account, in the order offered. */
export { ALLOWED_COUNTRIES as PAYOUT_COUNTRIES } from "../../src/modules/payments/rules"
