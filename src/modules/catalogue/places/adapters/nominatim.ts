// A geocoding service speaking Nominatim's API (OpenStreetMap's, or a self-hosted one), chosen by
// GEOCODER_URL. Answers are decoded by Schema; a failure or a slow answer (3 s) is a 503 the
// screens present as "places unavailable, retry", never a 500.
import { Effect, Layer, Schema } from "effect"
import type { Place } from "../domain"
import { Gazetteer, PlacesUnavailable } from "../ports"

const Address = Schema.Struct({
  city: Schema.optional(Schema.String),
  town: Schema.optional(Schema.String),
  village: Schema.optional(Schema.String),
  municipality: Schema.optional(Schema.String),
  country_code: Schema.optional(Schema.String),
  "ISO3166-2-lvl4": Schema.optional(Schema.String)
})
const Found = Schema.Struct({
  osm_type: Schema.String,
  osm_id: Schema.Number,
  lat: Schema.NumberFromString,
  lon: Schema.NumberFromString,
  name: Schema.optional(Schema.String),
  address: Schema.optional(Address)
})
const FoundList = Schema.Array(Found)
/** /reverse answers one place, or `{ error }` where there is none. */
const Reverse = Schema.Union(Found, Schema.Struct({ error: Schema.String }))

const OSM_ID = /^osm:([NWR])(\d+)$/

const toPlace = (found: typeof Found.Type): Place => {
  const address = found.address
  const iso = address?.["ISO3166-2-lvl4"]
  return {
    id: `osm:${found.osm_type.charAt(0).toUpperCase()}${found.osm_id}`,
    name: address?.city ?? address?.town ?? address?.village ?? address?.municipality ?? found.name ?? "",
    countryCode: (address?.country_code ?? "").toUpperCase(),
    region: iso?.includes("-") ? iso.slice(iso.indexOf("-") + 1) : null,
    lat: found.lat,
    lng: found.lon,
    population: 0
  }
}

export const NominatimGazetteer = (options: { readonly baseUrl: string; readonly timeoutMs?: number }) =>
  Layer.succeed(
    Gazetteer,
    (() => {
      const get = <A, I>(schema: Schema.Schema<A, I>, path: string, params: Record<string, string>) =>
        Effect.tryPromise({
          try: async (signal) => {
            const url = new URL(path, options.baseUrl.endsWith("/") ? options.baseUrl : `${options.baseUrl}/`)
            for (const [k, v] of Object.entries({ format: "jsonv2", addressdetails: "1", ...params })) url.searchParams.set(k, v)
            const response = await fetch(url, {
              headers: { "user-agent": "marketplace (services marketplace; place search)", accept: "application/json" },
              signal: AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs ?? 3000)])
            })
            if (!response.ok) throw new Error(`geocoder answered ${response.status}`)
            return response.json() as Promise<unknown>
          },
          catch: () => PlacesUnavailable
        }).pipe(Effect.flatMap((body) => Effect.mapError(Schema.decodeUnknown(schema)(body), () => PlacesUnavailable)))
      const search = (text: string, limit: number) =>
        Effect.map(get(FoundList, "search", { q: text, limit: String(limit), featureType: "settlement" }), (list) =>
          list.map(toPlace).filter((p) => p.name !== "")
        )
      return {
        suggest: (text, limit) => (text.trim() === "" ? Effect.succeed([]) : search(text, limit)),
        nearest: (position) =>
          Effect.map(get(Reverse, "reverse", { lat: String(position.lat), lon: String(position.lng), zoom: "10" }), (found) =>
            "error" in found ? null : toPlace(found)
          ),
        resolve: (idOrName) => {
          const id = OSM_ID.exec(idOrName.trim())
          return id
            ? Effect.map(get(FoundList, "lookup", { osm_ids: `${id[1]}${id[2]}` }), (list) => (list[0] ? toPlace(list[0]) : null))
            : idOrName.trim() === ""
              ? Effect.succeed(null)
              : Effect.map(search(idOrName, 1), (list) => list[0] ?? null)
        }
      }
    })()
  )
