// Places (issue 14): the cities a service is offered in and a search is centred on. Pure rules: how
// a typed place is folded for matching, how suggestions are ranked, and what a place query may be.
import { Either } from "effect"
import { type FieldIssue, invalid, issue, type ValidationFailed } from "../../../platform/errors"

export interface Place {
  /** The gazetteer's id (GeoNames' for the embedded one, `osm:N123` for Nominatim). */
  readonly id: string
  readonly name: string
  /** ISO 3166-1 alpha-2 ("CA"): screens name the country in their own language. */
  readonly countryCode: string
  /** A province or state abbreviation where known ("QC"), else null. */
  readonly region: string | null
  readonly lat: number
  readonly lng: number
  /** Inhabitants where known (0: unknown). */
  readonly population: number
}

/** Accent-, case- and punctuation-insensitive form of a name: "Saint-Jérôme" and "saint jerome" meet. */
export const foldPlaceName = (text: string): string =>
  text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()

/** How well a folded name answers a folded query: 0 exact, 1 the name starts so, 2 one of its words does. */
export const matchRank = (foldedName: string, foldedQuery: string): 0 | 1 | 2 | undefined => {
  if (foldedQuery === "") return undefined
  if (foldedName === foldedQuery) return 0
  if (foldedName.startsWith(foldedQuery)) return 1
  return foldedName.includes(` ${foldedQuery}`) ? 2 : undefined
}

/** Suggestions first by how well they match, then the most populated first, then by name (stable). */
export const comparePlaces = (a: { rank: number; place: Place }, b: { rank: number; place: Place }) =>
  a.rank - b.rank ||
  b.place.population - a.place.population ||
  a.place.name.localeCompare(b.place.name) ||
  a.place.id.localeCompare(b.place.id)

export const PLACE_QUERY_MAX = 100
export const SUGGESTIONS_DEFAULT = 8
export const SUGGESTIONS_MAX = 20

export interface SuggestQuery {
  readonly text: string
  readonly limit: number
}

/** `GET /api/places?q&limit`: a blank query asks for nothing (an empty list), a long one is refused. */
export const parseSuggestQuery = (input: { readonly q?: string | undefined; readonly limit?: string | undefined }) => {
  const issues: Array<FieldIssue> = []
  const text = (input.q ?? "").trim()
  if (text.length > PLACE_QUERY_MAX) issues.push(issue("q", "places.queryTooLong"))
  const rawLimit = input.limit?.trim()
  const limit = rawLimit === undefined || rawLimit === "" ? SUGGESTIONS_DEFAULT : Number(rawLimit)
  if (!Number.isInteger(limit) || limit < 1 || limit > SUGGESTIONS_MAX) issues.push(issue("limit", "catalogue.invalidNumber"))
  return issues.length > 0 ? Either.left<ValidationFailed>(invalid(issues)) : Either.right<SuggestQuery>({ text, limit })
}

/** `GET /api/places/reverse?lat&lng`: both, in range. */
export const parseCoordinates = (input: { readonly lat?: string | undefined; readonly lng?: string | undefined }) => {
  const issues: Array<FieldIssue> = []
  const read = (field: "lat" | "lng", value: string | undefined, bound: number) => {
    const n = value === undefined || value.trim() === "" ? Number.NaN : Number(value)
    if (!Number.isFinite(n) || Math.abs(n) > bound) {
      issues.push(issue(field, value === undefined || value.trim() === "" ? "validation.required" : "catalogue.invalidNumber"))
    }
    return n
  }
  const lat = read("lat", input.lat, 90)
  const lng = read("lng", input.lng, 180)
  return issues.length > 0 ? Either.left<ValidationFailed>(invalid(issues)) : Either.right({ lat, lng })
}
