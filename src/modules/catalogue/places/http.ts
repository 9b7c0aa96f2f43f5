import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { MarketplaceApi } from "../../../app/api"
import { ok } from "../../../platform/http/envelope"
import type { PlaceView } from "./contract"
import type { Place } from "./domain"
import { parseCoordinates, parseSuggestQuery } from "./domain"
import { Gazetteer } from "./ports"

const toPlaceView = (p: Place): PlaceView => ({
  id: p.id,
  name: p.name,
  region: p.region,
  countryCode: p.countryCode,
  lat: p.lat,
  lng: p.lng
})

export const PlacesHttpLive = HttpApiBuilder.group(MarketplaceApi, "places", (handlers) =>
  Effect.gen(function* () {
    const gazetteer = yield* Gazetteer
    return handlers
      .handle("suggest", ({ urlParams }) =>
        Effect.gen(function* () {
          const query = yield* parseSuggestQuery(urlParams)
          const places = query.text === "" ? [] : yield* gazetteer.suggest(query.text, query.limit)
          return ok({ places: places.map(toPlaceView) })
        })
      )
      .handle("reverse", ({ urlParams }) =>
        Effect.gen(function* () {
          const position = yield* parseCoordinates(urlParams)
          const place = yield* gazetteer.nearest(position)
          return ok({ place: place ? toPlaceView(place) : null })
        })
      )
  })
)
