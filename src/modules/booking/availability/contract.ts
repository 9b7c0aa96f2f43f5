import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Authentication } from "../../../platform/http/authentication"
import { Ok, PathId, Payload, PayloadNumber, PayloadText } from "../../../platform/http/schemas"
import { ServiceId, UserId } from "../../../platform/ids"
import { ExceptionKinds } from "./rules"

const ProviderIdParam = PathId(UserId, { code: "PROVIDER_NOT_FOUND", key: "profile.notFound" })
const ServiceIdParam = PathId(ServiceId, { code: "SERVICE_NOT_FOUND", key: "catalogue.serviceNotFound" })

// Availability's HTTP contract (issue 12): a provider's plan (public), the caller's plan (PUT), a
// service's free slots. Pure: the UI imports its types.

/** A provider's plan: the weekly ranges ("HH:MM", every weekday listed), exceptions, notice, buffer. */
export const AvailabilityView = Schema.Struct({
  /** The zone the weekly ranges are read in (the provider's). */
  timeZone: Schema.String,
  /** No plan set: open 08:00–20:00 every day. */
  isDefault: Schema.Boolean,
  weekly: Schema.Array(
    Schema.Struct({
      /** ISO weekday, 1 = Monday. */
      weekday: Schema.Number,
      ranges: Schema.Array(Schema.Struct({ start: Schema.String, end: Schema.String }))
    })
  ),
  exceptions: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      kind: Schema.Literal(...ExceptionKinds),
      startTime: Schema.Date,
      endTime: Schema.Date,
      note: Schema.NullOr(Schema.String)
    })
  ),
  noticeMinutes: Schema.Number,
  bufferMinutes: Schema.Number
})
export type AvailabilityView = typeof AvailabilityView.Type

/**
 * Free start times of a service for a duration (every 15 minutes). A slot ends `duration` minutes after
 * its start: the answer does not repeat it (half the bytes and date encodings of a month's slots).
 */
export const SlotsView = Schema.Struct({
  /** The provider's zone (where the plan lies). */
  timeZone: Schema.String,
  duration: Schema.Number,
  slots: Schema.Array(Schema.Struct({ startTime: Schema.Date }))
})
export type SlotsView = typeof SlotsView.Type

// Loose on purpose: the rules answer 422 per field in the user's language; only a wrong JSON shape is a 400.
const Loose = Schema.optional(Schema.Unknown)
const NumberLike = Schema.optional(Schema.NullOr(Schema.Union(PayloadNumber, PayloadText)))

/** The plan as PUT: the view's fields (an exception's id and isDefault, when sent back, are ignored). */
export const AvailabilityPayload = Payload({
  timeZone: Schema.optional(Schema.NullOr(PayloadText)),
  isDefault: Loose,
  weekly: Schema.optional(
    Schema.NullOr(Schema.Array(Schema.Struct({ weekday: Loose, ranges: Schema.Array(Schema.Struct({ start: Loose, end: Loose })) })))
  ),
  exceptions: Schema.optional(
    Schema.NullOr(
      Schema.Array(
        Schema.Struct({
          id: Loose,
          kind: Loose,
          startTime: Loose,
          endTime: Loose,
          note: Schema.optional(Schema.NullOr(PayloadText))
        })
      )
    )
  ),
  noticeMinutes: NumberLike,
  bufferMinutes: NumberLike
})

export const SlotParams = Schema.Struct({
  /** ISO instants bounding the start times (at most 62 days apart). */
  from: Schema.optional(Schema.String),
  to: Schema.optional(Schema.String),
  /** Minutes, a multiple of 15. */
  duration: Schema.optional(Schema.String)
})

export class AvailabilityApi extends HttpApiGroup.make("availability")
  .add(HttpApiEndpoint.get("ofProvider")`/providers/${ProviderIdParam}/availability`.addSuccess(Ok(AvailabilityView)))
  .add(HttpApiEndpoint.get("slots")`/services/${ServiceIdParam}/slots`.setUrlParams(SlotParams).addSuccess(Ok(SlotsView))) {}

export class MyAvailabilityApi extends HttpApiGroup.make("myAvailability")
  .add(HttpApiEndpoint.put("replace", "/providers/me/availability").setPayload(AvailabilityPayload).addSuccess(Ok(AvailabilityView)))
  .middleware(Authentication) {}
