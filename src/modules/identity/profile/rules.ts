// The profile's age rule, in a file that imports nothing: the profile's and the application's
// validations and the UI's date field share it.

/** A provider is at least this old (on the profile and when applying). */
export const MINIMUM_PROVIDER_AGE = 18

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** Whole years between a birth date `YYYY-MM-DD` and `now` (UTC); -1 for an impossible date, one before 1900 or after now. */
export const ageOn = (dateOfBirth: string, now: Date): number => {
  const match = ISO_DATE.exec(dateOfBirth)
  if (!match) return -1
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return -1
  if (year < 1900 || date.getTime() > now.getTime()) return -1
  const passed = now.getUTCMonth() > month - 1 || (now.getUTCMonth() === month - 1 && now.getUTCDate() >= day)
  return now.getUTCFullYear() - year - (passed ? 0 : 1)
}

/** The latest birth date, `YYYY-MM-DD`, of someone MINIMUM_PROVIDER_AGE years old on `now` (a date field's max). */
export const latestProviderBirthDate = (now: Date): string => {
  const year = now.getUTCFullYear() - MINIMUM_PROVIDER_AGE
  const sameDay = new Date(Date.UTC(year, now.getUTCMonth(), now.getUTCDate()))
  // 29 February of a year that has none: the 28th (born on the 29th, one is not yet of age).
  const date = sameDay.getUTCMonth() === now.getUTCMonth() ? sameDay : new Date(Date.UTC(year, now.getUTCMonth() + 1, 0))
  return date.toISOString().slice(0, 10)
}
