// Pure rules of the place filter (issue 14): the radii offered, and how a place is named on screen.
import type { Place } from "../api/contract"
import { SEARCH_RADIUS_KM } from "./rules"

/** The radii a search around a place offers, in km (the spec's 100 by default). */
export const RADIUS_CHOICES = [5, 10, 25, 50, 100] as const
export const toRadius = (value: string | null | undefined): number => {
  const n = Number(value)
  return (RADIUS_CHOICES as ReadonlyArray<number>).includes(n) ? n : SEARCH_RADIUS_KM
}

/** "Montréal (QC), Canada" in French, "Montréal (QC), Canada" in English; the country in the screen's language. */
export const placeLabel = (place: Pick<Place, "name" | "region" | "countryCode">, locale: string): string => {
  let country = place.countryCode
  try {
    country = new Intl.DisplayNames([locale], { type: "region" }).of(place.countryCode) ?? place.countryCode
  } catch {
    // An unknown code is shown as is.
  }
  return `${place.name}${place.region ? ` (${place.region})` : ""}, ${country}`
}

/** A chosen place as the list screens keep it in their URL: a gazetteer place, or the visitor's own position. */
export interface ChosenPlace {
  readonly label: string
  /** The gazetteer's id (`near`), for a place picked from the suggestions. */
  readonly near?: string | undefined
  /** The browser's position ("near me"), searched around exactly. */
  readonly lat?: number | undefined
  readonly lng?: number | undefined
}

const coordinate = (value: string | null, bound: number) => {
  const n = value === null || value.trim() === "" ? Number.NaN : Number(value)
  return Number.isFinite(n) && Math.abs(n) <= bound ? n : undefined
}

/** The place of a list screen's URL (`near` or `lat`/`lng`, with `placeName`), or null. */
export const placeFromParams = (params: URLSearchParams): ChosenPlace | null => {
  const label = params.get("placeName") ?? ""
  const near = params.get("near")?.trim()
  if (near) return { label: label || near, near }
  const lat = coordinate(params.get("lat"), 90)
  const lng = coordinate(params.get("lng"), 180)
  return lat !== undefined && lng !== undefined ? { label, lat, lng } : null
}

/** The URL changes that keep `place` (null clears it). */
export const placeToParams = (place: ChosenPlace | null): Record<string, string | undefined> => ({
  near: place?.near,
  lat: place?.near === undefined && place?.lat !== undefined ? String(place.lat) : undefined,
  lng: place?.near === undefined && place?.lng !== undefined ? String(place.lng) : undefined,
  placeName: place?.label || undefined
})

/** What GET /api/services is asked for a place and a radius. */
export const placeCriteria = (place: ChosenPlace | null, radius: number) =>
  place === null ? {} : place.near !== undefined ? { near: place.near, radius } : { lat: place.lat, lng: place.lng, radius }
