import { Context, type Effect } from "effect"
import { ServiceUnavailable } from "../../../platform/errors"
import type { Place } from "./domain"

/** Where the gazetteer's answers come from: the embedded GeoNames cities, or a geocoding service. */
export class Gazetteer extends Context.Tag("catalogue/Gazetteer")<
  Gazetteer,
  {
    /** Places whose name (or one of its words) starts with the text, best first. */
    readonly suggest: (text: string, limit: number) => Effect.Effect<ReadonlyArray<Place>, ServiceUnavailable>
    /** The place nearest to a position (null: none known near it). */
    readonly nearest: (position: { readonly lat: number; readonly lng: number }) => Effect.Effect<Place | null, ServiceUnavailable>
    /** A place by its id, or by a name as typed ("Montreal", "Paris, France"): the best match. */
    readonly resolve: (idOrName: string) => Effect.Effect<Place | null, ServiceUnavailable>
  }
>() {}

/** The geocoding service did not answer: retry in a moment (the embedded gazetteer never fails). */
export const PlacesUnavailable = new ServiceUnavailable({ code: "PLACES_UNAVAILABLE", key: "places.unavailable", retryAfterSeconds: 5 })
