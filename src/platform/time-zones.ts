import { Schema } from "effect"
import { isTimeZone } from "./zoned-time"

// Time zones (IANA names, "America/Toronto"). Instants are stored and sent in UTC; a zone only says how
// to show them, and where a provider's weekly plan lies. The import-free toolkit (validity, formatting
// in a zone, zone names, wall-clock times) is ./zoned-time.ts, which the UI bundles too; this file adds
// the `TimeZone` schema for the server's contracts and rows (effect stays out of the UI bundle).

export {
  DEFAULT_TIME_ZONE,
  dayOf,
  formatInZone,
  formatRangeInZone,
  formatWithZone,
  instantOf,
  isTimeZone,
  platformTimeZone,
  sameTimeIn,
  wallTimeOf,
  zoneCity,
  zoneName,
  zoneOf
} from "./zoned-time"

/** An IANA zone name (decoding refuses anything else). */
export const TimeZone = Schema.String.pipe(
  Schema.filter(isTimeZone, { message: () => "an IANA time zone name" }),
  Schema.annotations({ description: "An IANA time zone name (Europe/Paris)", examples: ["Europe/Paris", "America/Toronto"] })
)
