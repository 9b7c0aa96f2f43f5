import { Schema } from "effect"

// Time zones (IANA names, "America/Toronto"). Pure (imports only effect): contracts, domains, mails and the
// UI share it. Instants are stored and sent in UTC; a zone only says how to show them, and where a
// provider's weekly plan lies.

/** The zone of a user whose zone is not known yet (set from the browser at registration or first login). */
export const DEFAULT_TIME_ZONE = "Europe/Paris"

// Validity is asked of the platform's Intl (the tz database it ships), once per name.
const known = new Map<string, boolean>()

/** True for an IANA zone name the platform knows ("Europe/Paris", "UTC"); false for offsets or junk. */
export const isTimeZone = (zone: unknown): zone is string => {
  if (typeof zone !== "string" || zone.length === 0 || zone.length > 64 || !/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*$/.test(zone)) {
    return false
  }
  let valid = known.get(zone)
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat("en", { timeZone: zone })
      valid = true
    } catch {
      valid = false
    }
    known.set(zone, valid)
  }
  return valid
}

/** An IANA zone name (decoding refuses anything else). */
export const TimeZone = Schema.String.pipe(
  Schema.filter(isTimeZone, { message: () => "an IANA time zone name" }),
  Schema.annotations({ description: "An IANA time zone name (Europe/Paris)", examples: ["Europe/Paris", "America/Toronto"] })
)

/** The zone to show a user's times in: theirs when known, else the platform's default. */
export const zoneOf = (zone: string | null | undefined): string => (zone && isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE)
