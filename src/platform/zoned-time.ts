import { TZDate, tzOffset } from "@date-fns/tz"

// Instants shown in a time zone, and zones named, in French or English. Imports nothing of the server
// (only @date-fns/tz, the one zone-aware date library): server views, mails and the UI (ui/format.ts)
// share it, so a mail and a screen write the same instant the same way. Formatting is the platform's
// Intl (with the zone given); wall-clock times in a zone are @date-fns/tz's (TZDate, and the zone's
// offsets from tzOffset): no zone rule or offset is written here. src/platform/time-zones.ts re-exports it
// beside the `TimeZone` schema (server side).

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

/** The zone to show a user's times in: theirs when known, else the platform's default. */
export const zoneOf = (zone: string | null | undefined): string => (zone && isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE)

type Instant = Date | string | number
const toDate = (instant: Instant) => (instant instanceof Date ? instant : new Date(instant))

/** "fr" for a French locale ("fr", "fr-FR", "fr-CA"), else "en": the two languages zones are named in. */
const languageOf = (locale: string): "fr" | "en" => (locale.toLowerCase().startsWith("fr") ? "fr" : "en")

// ---- Formatting --------------------------------------------------------------------------------

// Intl formatters are costly to build (20 to 45 µs each) and immutable: one per locale, zone and options.
const formats = new Map<string, Intl.DateTimeFormat>()
const formatOf = (locale: string, zone: string, options: Intl.DateTimeFormatOptions) => {
  const key = `${locale}|${zone}|${JSON.stringify(options)}`
  let format = formats.get(key)
  if (format === undefined) {
    // French times are 24-hour ("15:00"); a caller's own hourCycle wins.
    const hourCycle = languageOf(locale) === "fr" && (options.timeStyle || options.hour) ? { hourCycle: "h23" as const } : {}
    format = new Intl.DateTimeFormat(locale, { ...hourCycle, ...options, timeZone: zoneOf(zone) })
    if (formats.size > 500) formats.clear()
    formats.set(key, format)
  }
  return format
}

/**
 * An instant written in a zone with Intl's options (`{ dateStyle: "long", timeStyle: "short" }`):
 * `formatInZone("fr", "2026-11-29T14:00:00Z", "Europe/Paris", { timeStyle: "short" })` is "15:00". An
 * unknown zone falls back to the default zone (DEFAULT_TIME_ZONE), never throws.
 */
export const formatInZone = (locale: string, instant: Instant, zone: string, options: Intl.DateTimeFormatOptions): string =>
  formatOf(locale, zone, options).format(toDate(instant))

/** A range of two instants in a zone ("29 novembre 2026, 15:00 – 16:30"), Intl's formatRange. */
export const formatRangeInZone = (
  locale: string,
  start: Instant,
  end: Instant,
  zone: string,
  options: Intl.DateTimeFormatOptions
): string => {
  const format = formatOf(locale, zone, options)
  try {
    return format.formatRange(toDate(start), toDate(end))
  } catch {
    return `${format.format(toDate(start))} – ${format.format(toDate(end))}`
  }
}

// ---- Naming a zone -------------------------------------------------------------------------------

/** Cities whose French name differs from the IANA spelling (its English one, without accents). */
const FRENCH_CITIES: Readonly<Record<string, string>> = {
  Montreal: "Montréal",
  Quebec: "Québec",
  Mexico_City: "Mexico",
  Sao_Paulo: "São Paulo",
  Bogota: "Bogotá",
  Brussels: "Bruxelles",
  London: "Londres",
  Lisbon: "Lisbonne",
  Vienna: "Vienne",
  Warsaw: "Varsovie",
  Athens: "Athènes",
  Moscow: "Moscou",
  Copenhagen: "Copenhague",
  Algiers: "Alger",
  Cairo: "Le Caire",
  Noumea: "Nouméa",
  Reunion: "La Réunion",
  Zurich: "Zurich",
  Geneva: "Genève",
  Singapore: "Singapour",
  Beijing: "Pékin",
  New_York: "New York"
}

/**
 * The city of a zone as its name says it, in a language: "America/Toronto" → "Toronto",
 * "America/Argentina/Buenos_Aires" → "Buenos Aires", "America/Montreal" → "Montréal" in French; null
 * for a zone that names no place ("UTC", "Etc/GMT+5").
 */
export const zoneCity = (locale: string, zone: string): string | null => {
  const parts = zone.split("/")
  if (parts.length < 2 || parts[0] === "Etc") return null
  const last = parts[parts.length - 1]!
  if (languageOf(locale) === "fr" && FRENCH_CITIES[last] !== undefined) return FRENCH_CITIES[last]
  return last.replace(/_/g, " ")
}

const VOWEL = /^[AEIOUYÀÂÉÈÊÎÔÛaeiouy]/

/**
 * A zone's name in a language, the city part of its IANA name: "heure de Montréal" / "Montreal time",
 * "heure d’Amsterdam"; a zone naming no place is named by its offset as Intl writes it ("heure UTC",
 * "UTC time"; "heure GMT-5"). The same text on every platform: no ICU display name is used for places
 * (their wording differs between Node and browsers, and between zones of one country).
 */
export const zoneName = (locale: string, zone: string): string => {
  const known = zoneOf(zone)
  const city = zoneCity(locale, known)
  const french = languageOf(locale) === "fr"
  if (city !== null) return french ? `heure ${VOWEL.test(city) ? "d’" : "de "}${city}` : `${city} time`
  const offset =
    known === "UTC" || known === "Etc/UTC" || known === "Etc/GMT" || known === "GMT"
      ? "UTC"
      : (new Intl.DateTimeFormat("en", { timeZone: known, timeZoneName: "shortOffset" })
          .formatToParts(new Date(0))
          .find((part) => part.type === "timeZoneName")?.value ?? known)
  return french ? `heure ${offset}` : `${offset} time`
}

/**
 * An instant in a zone, followed by the zone's name: "29 novembre 2026 à 15:00, heure de Paris",
 * "November 29, 2026 at 3:00 PM, Paris time" (the default options: the long date and the time).
 */
export const formatWithZone = (
  locale: string,
  instant: Instant,
  zone: string,
  options: Intl.DateTimeFormatOptions = { dateStyle: "long", timeStyle: "short" }
): string => `${formatInZone(locale, instant, zone, options)}, ${zoneName(locale, zone)}`

// ---- Wall-clock times in a zone --------------------------------------------------------------------

/** True when two zones write this instant the same (same offset then): one time is enough to show. */
export const sameTimeIn = (zoneA: string, zoneB: string, instant: Instant): boolean =>
  zoneOf(zoneA) === zoneOf(zoneB) || tzOffset(zoneOf(zoneA), toDate(instant)) === tzOffset(zoneOf(zoneB), toDate(instant))

const pad = (n: number) => String(n).padStart(2, "0")

/** The wall-clock time of an instant in a zone, as a `datetime-local` input holds it ("2026-11-29T15:00"). */
export const wallTimeOf = (instant: Instant, zone: string): string => {
  const t = new TZDate(toDate(instant).getTime(), zoneOf(zone))
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}T${pad(t.getHours())}:${pad(t.getMinutes())}`
}

/** The day of an instant in a zone ("2026-11-29"). */
export const dayOf = (instant: Instant, zone: string): string => wallTimeOf(instant, zone).slice(0, 10)

/**
 * The instant a wall-clock time ("2026-11-29T15:00", or a day "2026-11-29" for its midnight) stands for
 * in a zone, or null when the text is no such time. As Temporal's "compatible" reading: a time skipped
 * by a spring-forward change is moved forward by the gap (02:30 → 03:30 in Paris on 29 March 2026); a
 * time repeated at fall-back is its earlier occurrence. The same answer whatever the platform's own zone:
 * the zone's offsets on either side come from @date-fns/tz (tzOffset), each candidate is checked by
 * writing it back in the zone.
 */
export const instantOf = (wallTime: string, zone: string): Date | null => {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/.exec(wallTime)
  if (!match) return null
  const [year, month, day, hours, minutes] = [match[1], match[2], match[3], match[4] ?? "0", match[5] ?? "0"].map(Number) as [
    number,
    number,
    number,
    number,
    number
  ]
  if (hours > 23 || minutes > 59) return null
  // The wall-clock fields read as if they were UTC; 31 February rolls over into March: not a date.
  const asUtc = new Date(Date.UTC(year, month - 1, day, hours, minutes))
  if (asUtc.getUTCFullYear() !== year || asUtc.getUTCMonth() !== month - 1 || asUtc.getUTCDate() !== day) return null
  const known = zoneOf(zone)
  const wanted = `${match[1]}-${match[2]}-${match[3]}T${pad(hours)}:${pad(minutes)}`
  const DAY = 86_400_000
  const offsetBefore = tzOffset(known, new Date(asUtc.getTime() - DAY))
  const offsetAfter = tzOffset(known, new Date(asUtc.getTime() + DAY))
  const candidates = [...new Set([offsetBefore, offsetAfter])]
    .map((offset) => new Date(asUtc.getTime() - offset * 60_000))
    .filter((instant) => wallTimeOf(instant, known) === wanted)
    .sort((a, b) => a.getTime() - b.getTime())
  // None: the time falls in a spring-forward gap; the offset in force before it moves it forward.
  return candidates[0] ?? new Date(asUtc.getTime() - offsetBefore * 60_000)
}

/** The IANA zone of this platform (the browser's in the UI), or the default when it has none. */
export const platformTimeZone = (): string => {
  try {
    return zoneOf(Intl.DateTimeFormat().resolvedOptions().timeZone)
  } catch {
    return DEFAULT_TIME_ZONE
  }
}
