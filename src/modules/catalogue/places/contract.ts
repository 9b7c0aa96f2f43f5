import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Ok } from "../../../platform/http/schemas"

/** A place as the API shows it; screens name the country in their language from its code. */
export const PlaceView = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  region: Schema.NullOr(Schema.String),
  countryCode: Schema.String,
  lat: Schema.Number,
  lng: Schema.Number
})
export type PlaceView = typeof PlaceView.Type

// Loose on purpose: the rules answer 422 per field in the user's language.
const Param = Schema.optional(Schema.String)

export class PlacesApi extends HttpApiGroup.make("places")
  .add(
    HttpApiEndpoint.get("suggest", "/places")
      .setUrlParams(Schema.Struct({ q: Param, limit: Param }))
      .addSuccess(Ok(Schema.Struct({ places: Schema.Array(PlaceView) })))
  )
  .add(
    HttpApiEndpoint.get("reverse", "/places/reverse")
      .setUrlParams(Schema.Struct({ lat: Param, lng: Param }))
      .addSuccess(Ok(Schema.Struct({ place: Schema.NullOr(PlaceView) })))
  ) {}
