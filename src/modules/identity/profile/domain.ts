import { Either } from "effect"
import { type FieldIssue, Forbidden, invalid, issue, NotFound, type ValidationFailed } from "../../../platform/errors"
import { Languages, type Language, type MessageKey } from "../../../platform/messages"
import { type Currency, isCurrency } from "../../../platform/money"
import { decimalPlaces, isStorableNumber } from "../../../platform/numbers"
import { isTimeZone } from "../../../platform/time-zones"
import { isValidPhone, NAME_MAX, type Role } from "../domain"
import { ProfileVisibilities, type ProfileVisibility } from "../rules"
import { hasContactDetails } from "../../messaging/contact-details/rules"
import { ageOn, MINIMUM_PROVIDER_AGE } from "./rules"

/**
 * Profiles (spec client-and-provider sections 2, 3, 5 and 6): the public and own views of an account,
 * the rules of a profile edit, who may see a profile, and badges. Pure functions only.
 */

export { ProfileVisibilities, type ProfileVisibility } from "../rules"

export { type Currency } from "../../../platform/money"

export const SocialNetworks = ["website", "linkedin", "facebook", "instagram", "twitter", "github", "youtube", "tiktok"] as const
export type SocialNetwork = (typeof SocialNetworks)[number]

export const LIMITS = {
  bio: 500,
  description: 2000,
  availability: 500,
  location: 200,
  address: 200,
  city: 100,
  postalCode: 20,
  country: 100,
  listItem: 60,
  listLength: 30,
  url: 300,
  experienceMin: 0,
  experienceMax: 50,
  hourlyRateMax: 1_000_000,
  minimumProviderAge: MINIMUM_PROVIDER_AGE
} as const

/** A stored file of a profile (avatar, or the identity photo taken from an approved application). */
export interface ProfileFile {
  readonly key: string
  readonly contentType: string
  readonly size: number
  readonly updatedAt: Date
}

/** What a profile adds to an account (stored beside it). */
export interface Profile {
  readonly bio: string
  readonly description: string
  readonly specialities: ReadonlyArray<string>
  readonly experienceYears: number | null
  readonly languages: ReadonlyArray<string>
  readonly certifications: ReadonlyArray<string>
  readonly socialLinks: Readonly<Partial<Record<SocialNetwork, string>>>
  readonly availability: string
  readonly profileVisibility: ProfileVisibility
  readonly location: string
  readonly address: string
  readonly city: string
  readonly postalCode: string
  readonly country: string
  /** Hourly rate in major units (49.5), or none. */
  readonly hourlyRate: number | null
  readonly currency: Currency
  /** ISO date `YYYY-MM-DD`, declared by the user (see profile/README.md, "Age"). */
  readonly dateOfBirth: string | null
  readonly avatar: ProfileFile | null
  readonly identityPhoto: ProfileFile | null
  /** When an admin verified the identity document of the user's provider application (null: not, or no longer). */
  readonly identityVerifiedAt: Date | null
}

export const emptyProfile: Profile = {
  bio: "",
  description: "",
  specialities: [],
  experienceYears: null,
  languages: [],
  certifications: [],
  socialLinks: {},
  availability: "",
  profileVisibility: "PUBLIC",
  location: "",
  address: "",
  city: "",
  postalCode: "",
  country: "",
  hourlyRate: null,
  currency: "EUR",
  dateOfBirth: null,
  avatar: null,
  identityPhoto: null,
  identityVerifiedAt: null
}

/** Figures computed from the catalogue and the bookings (0 or null while there is no data). */
export interface ProfileStatistics {
  readonly servicesCount: number
  /** Average of the reviews of the user's services (0 without reviews), two decimals. */
  readonly averageRating: number
  readonly totalReviews: number
  readonly totalBookings: number
  readonly completedBookings: number
  /** Completed bookings over bookings (0 to 1; 0 without bookings). */
  readonly completionRate: number
  /** Median minutes to a first answer; null while no such data exists. */
  readonly responseTime: number | null
  /** The provider's cancellations of bookings they had confirmed (issue 13). */
  readonly cancellationRate: CancellationRate
}

/**
 * A provider's public cancellation rate: their cancellations of bookings they had confirmed over the
 * bookings they confirmed. A rate over a handful of bookings says little, so it is shown (`rate`) only
 * from CANCELLATION_RATE_MIN_BOOKINGS confirmed bookings ("not enough bookings yet" before).
 */
export interface CancellationRate {
  readonly confirmedBookings: number
  readonly providerCancellations: number
  /** 0 to 1, three decimals; null below the minimum. */
  readonly rate: number | null
}
export const CANCELLATION_RATE_MIN_BOOKINGS = 5
export const cancellationRateOf = (confirmedBookings: number, providerCancellations: number): CancellationRate => ({
  confirmedBookings,
  providerCancellations,
  rate:
    confirmedBookings < CANCELLATION_RATE_MIN_BOOKINGS
      ? null
      : Math.round((Math.min(providerCancellations, confirmedBookings) / confirmedBookings) * 1000) / 1000
})

export const noStatistics: ProfileStatistics = {
  servicesCount: 0,
  averageRating: 0,
  totalReviews: 0,
  totalBookings: 0,
  completedBookings: 0,
  completionRate: 0,
  responseTime: null,
  cancellationRate: cancellationRateOf(0, 0)
}

// ---- Edit rules ------------------------------------------------------------------------------

/** The fields a profile edit may send (only the changed ones); `null` clears a clearable field. */
export interface ProfilePatchInput {
  readonly firstName?: string | undefined
  readonly lastName?: string | undefined
  readonly phoneNumber?: string | undefined
  readonly preferredLanguage?: string | undefined
  /** An IANA zone (Europe/Paris), chosen on /settings. */
  readonly timeZone?: string | undefined
  readonly bio?: string | null | undefined
  readonly description?: string | null | undefined
  readonly specialities?: ReadonlyArray<string> | null | undefined
  readonly experienceYears?: number | string | null | undefined
  readonly languages?: ReadonlyArray<string> | null | undefined
  readonly certifications?: ReadonlyArray<string> | null | undefined
  readonly socialLinks?: Readonly<Record<string, string | null>> | null | undefined
  readonly availability?: string | null | undefined
  readonly profileVisibility?: string | undefined
  readonly location?: string | null | undefined
  readonly address?: string | null | undefined
  readonly city?: string | null | undefined
  readonly postalCode?: string | null | undefined
  readonly country?: string | null | undefined
  readonly hourlyRate?: number | string | null | undefined
  readonly currency?: string | undefined
  readonly dateOfBirth?: string | null | undefined
}

export interface AccountPatch {
  readonly firstName?: string
  readonly lastName?: string
  readonly phoneNumber?: string
  readonly preferredLanguage?: Language
  readonly timeZone?: string
}

export type ProfilePatch = Partial<Omit<Profile, "avatar" | "identityPhoto">>

/** Trimmed, blanks and duplicates (ignoring case) dropped, order kept. */
export const cleanList = (items: ReadonlyArray<string>): ReadonlyArray<string> => {
  const seen = new Set<string>()
  const out: Array<string> = []
  for (const raw of items) {
    const item = raw.trim().replace(/\s+/g, " ")
    const folded = item.toLocaleLowerCase()
    if (item === "" || seen.has(folded)) continue
    seen.add(folded)
    out.push(item)
  }
  return out
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** A real calendar date `YYYY-MM-DD`, as a UTC midnight; undefined otherwise. */
export const parseIsoDate = (value: string): Date | undefined => {
  const match = ISO_DATE.exec(value.trim())
  if (!match) return undefined
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : undefined
}

/**
 * Checks a declared date of birth: a real date, not in the future, not before 1900; and, when the
 * account is (or is becoming) a provider, at least 18 years before `now`.
 */
export const checkDateOfBirth = (field: string, value: string, now: Date, mustBeAdult: boolean): ReadonlyArray<FieldIssue> => {
  const date = parseIsoDate(value)
  if (!date || date.getTime() > now.getTime() || date.getUTCFullYear() < 1900) return [issue(field, "profile.dateOfBirthInvalid")]
  if (mustBeAdult && ageOn(value, now) < LIMITS.minimumProviderAge) return [issue(field, "profile.minimumAge")]
  return []
}

/** A number given as a number or a string, undefined when it is none or outside what the database stores. */
const numberOf = (value: number | string): number | undefined => {
  const trimmed = typeof value === "number" ? "" : value.trim().replace(",", ".")
  const parsed = typeof value === "number" ? value : /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN
  return isStorableNumber(parsed) ? parsed : undefined
}

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value)
    return url.protocol === "https:" || url.protocol === "http:"
  } catch {
    return false
  }
}

const isLanguage = (value: string): value is Language => (Languages as ReadonlyArray<string>).includes(value)

/**
 * Validates a profile edit. Strings are trimmed; lists are cleaned (see cleanList); every problem is
 * reported per field (422). `role` is the account's role: a provider must stay at least 18.
 */
export const validateProfilePatch = (
  input: ProfilePatchInput,
  context: { readonly role: Role; readonly now: Date }
): Either.Either<{ readonly account: AccountPatch; readonly profile: ProfilePatch }, ValidationFailed> => {
  const issues: Array<FieldIssue> = []
  const account: { -readonly [K in keyof AccountPatch]: AccountPatch[K] } = {}
  const profile: { -readonly [K in keyof ProfilePatch]: ProfilePatch[K] } = {}

  for (const field of ["firstName", "lastName"] as const) {
    const value = input[field]
    if (value === undefined) continue
    const trimmed = value.trim()
    if (trimmed === "") issues.push(issue(field, "validation.required"))
    else if (trimmed.length > NAME_MAX) issues.push(issue(field, "validation.tooLong"))
    else account[field] = trimmed
  }
  if (input.phoneNumber !== undefined) {
    const phone = input.phoneNumber.trim()
    if (phone === "") issues.push(issue("phoneNumber", "validation.required"))
    else if (!isValidPhone(phone)) issues.push(issue("phoneNumber", "validation.phone"))
    else account.phoneNumber = phone
  }
  if (input.preferredLanguage !== undefined) {
    if (isLanguage(input.preferredLanguage)) account.preferredLanguage = input.preferredLanguage
    else issues.push(issue("preferredLanguage", "validation.language"))
  }
  if (input.timeZone !== undefined) {
    // A zone, once set, is changed, never cleared: a blank one is a 422 too.
    const zone = input.timeZone.trim()
    if (isTimeZone(zone)) account.timeZone = zone
    else issues.push(issue("timeZone", "validation.timeZone"))
  }

  // What anyone reads on the public profile: contact details there would go round the booking.
  const PUBLIC_TEXTS = new Set<string>(["bio", "description"])
  const texts: ReadonlyArray<readonly [keyof ProfilePatchInput & keyof Profile, number, MessageKey]> = [
    ["bio", LIMITS.bio, "profile.bioTooLong"],
    ["description", LIMITS.description, "profile.descriptionTooLong"],
    ["availability", LIMITS.availability, "validation.tooLong"],
    ["location", LIMITS.location, "validation.tooLong"],
    ["address", LIMITS.address, "validation.tooLong"],
    ["city", LIMITS.city, "validation.tooLong"],
    ["postalCode", LIMITS.postalCode, "validation.tooLong"],
    ["country", LIMITS.country, "validation.tooLong"]
  ]
  for (const [field, max, tooLong] of texts) {
    const value = input[field] as string | null | undefined
    if (value === undefined) continue
    const trimmed = (value ?? "").trim()
    if (trimmed.length > max) issues.push(issue(field, tooLong))
    else if (PUBLIC_TEXTS.has(field) && hasContactDetails(trimmed)) issues.push(issue(field, "validation.contactDetails"))
    else (profile as Record<string, unknown>)[field] = trimmed
  }

  for (const field of ["specialities", "languages", "certifications"] as const) {
    const value = input[field]
    if (value === undefined) continue
    const list = cleanList(value ?? [])
    if (list.length > LIMITS.listLength) issues.push(issue(field, "profile.listTooLong"))
    else if (list.some((item) => item.length > LIMITS.listItem)) issues.push(issue(field, "profile.listItemTooLong"))
    else profile[field] = list
  }

  if (input.experienceYears !== undefined) {
    if (input.experienceYears === null || (typeof input.experienceYears === "string" && input.experienceYears.trim() === "")) {
      profile.experienceYears = null
    } else {
      const years = numberOf(input.experienceYears)
      if (years === undefined || !Number.isInteger(years) || years < LIMITS.experienceMin || years > LIMITS.experienceMax) {
        issues.push(issue("experienceYears", "profile.experienceRange"))
      } else profile.experienceYears = years
    }
  }

  if (input.hourlyRate !== undefined) {
    if (input.hourlyRate === null || (typeof input.hourlyRate === "string" && input.hourlyRate.trim() === "")) profile.hourlyRate = null
    else {
      const rate = numberOf(input.hourlyRate)
      if (rate === undefined || rate <= 0 || rate > LIMITS.hourlyRateMax || decimalPlaces(rate) > 2) {
        issues.push(issue("hourlyRate", "profile.hourlyRateInvalid"))
      } else profile.hourlyRate = rate
    }
  }
  if (input.currency !== undefined) {
    const currency = input.currency.trim().toUpperCase()
    if (isCurrency(currency)) profile.currency = currency
    else issues.push(issue("currency", "profile.currencyInvalid"))
  }

  if (input.profileVisibility !== undefined) {
    const visibility = input.profileVisibility.trim().toUpperCase()
    if ((ProfileVisibilities as ReadonlyArray<string>).includes(visibility)) profile.profileVisibility = visibility as ProfileVisibility
    else issues.push(issue("profileVisibility", "profile.visibilityInvalid"))
  }

  if (input.socialLinks !== undefined) {
    const links: Partial<Record<SocialNetwork, string>> = {}
    let ok = true
    for (const [network, raw] of Object.entries(input.socialLinks ?? {})) {
      if (!(SocialNetworks as ReadonlyArray<string>).includes(network)) {
        ok = false
        issues.push(issue(`socialLinks.${network.slice(0, 40)}`, "profile.socialNetworkUnknown"))
        continue
      }
      const url = (raw ?? "").trim()
      if (url === "") continue
      if (url.length > LIMITS.url || !isHttpUrl(url)) {
        ok = false
        issues.push(issue(`socialLinks.${network}`, "profile.urlInvalid"))
      } else links[network as SocialNetwork] = url
    }
    if (ok) profile.socialLinks = links
  }

  if (input.dateOfBirth !== undefined) {
    if (input.dateOfBirth === null || input.dateOfBirth.trim() === "") {
      // A provider's age stays on record: it was the condition of becoming one.
      if (context.role === "PROVIDER") issues.push(issue("dateOfBirth", "profile.minimumAge"))
      else profile.dateOfBirth = null
    } else {
      const found = checkDateOfBirth("dateOfBirth", input.dateOfBirth, context.now, context.role === "PROVIDER")
      if (found.length > 0) issues.push(...found)
      else profile.dateOfBirth = input.dateOfBirth.trim()
    }
  }

  return issues.length > 0 ? Either.left(invalid(issues)) : Either.right({ account, profile })
}

// ---- Who may see a profile -------------------------------------------------------------------

export interface Viewer {
  readonly id: string
  readonly role: Role
}

export const ProfileNotFound = new NotFound({ code: "PROFILE_NOT_FOUND", key: "profile.notFound" })
export const ProfileNotAccessible = new Forbidden({ code: "PROFILE_NOT_ACCESSIBLE", key: "profile.notAccessible" })

/**
 * PUBLIC: everyone, anonymous visitors included. FRIENDS_ONLY: the owner, admins, and users who
 * share a booking or a conversation with the owner (`connected`). PRIVATE: the owner and admins.
 * A deactivated account's profile is not found, except for admins.
 */
export const profileAccess = (
  owner: { readonly id: string; readonly isActive: boolean; readonly visibility: ProfileVisibility },
  viewer: Viewer | undefined,
  connected: boolean
): Either.Either<"owner" | "admin" | "visitor", NotFound | Forbidden> => {
  if (viewer?.id === owner.id) return Either.right("owner")
  if (viewer?.role === "ADMIN") return Either.right("admin")
  if (!owner.isActive) return Either.left(ProfileNotFound)
  switch (owner.visibility) {
    case "PUBLIC":
      return Either.right("visitor")
    case "FRIENDS_ONLY":
      return viewer !== undefined && connected ? Either.right("visitor") : Either.left(ProfileNotAccessible)
    case "PRIVATE":
      return Either.left(ProfileNotAccessible)
  }
}

/** Whether the answer depends on a relation between viewer and owner (only then is it looked up). */
export const needsRelation = (visibility: ProfileVisibility, viewer: Viewer | undefined, ownerId: string) =>
  visibility === "FRIENDS_ONLY" && viewer !== undefined && viewer.id !== ownerId && viewer.role !== "ADMIN"

// ---- Badges ----------------------------------------------------------------------------------

export const BadgeIds = ["EMAIL_VERIFIED", "VERIFIED_PROVIDER", "PROFILE_COMPLETE", "EXPERIENCED", "TEN_BOOKINGS", "TOP_RATED"] as const
export type BadgeId = (typeof BadgeIds)[number]

export interface BadgeDefinition {
  readonly id: BadgeId
  readonly icon: string
  readonly color: string
}

const BADGES: Record<BadgeId, BadgeDefinition> = {
  EMAIL_VERIFIED: { id: "EMAIL_VERIFIED", icon: "mail-check", color: "#2563eb" },
  VERIFIED_PROVIDER: { id: "VERIFIED_PROVIDER", icon: "shield-check", color: "#16a34a" },
  PROFILE_COMPLETE: { id: "PROFILE_COMPLETE", icon: "user-check", color: "#7c3aed" },
  EXPERIENCED: { id: "EXPERIENCED", icon: "award", color: "#d97706" },
  TEN_BOOKINGS: { id: "TEN_BOOKINGS", icon: "briefcase", color: "#0891b2" },
  TOP_RATED: { id: "TOP_RATED", icon: "star", color: "#eab308" }
}

export const BADGE_RULES = {
  experiencedYears: 5,
  completedBookings: 10,
  topRating: 4.5,
  topRatingReviews: 5
} as const

/** The badges an account has earned, by rule, from its data (in a fixed order). */
export const badgesOf = (input: {
  readonly role: Role
  readonly isEmailVerified: boolean
  readonly profile: Profile
  readonly statistics: ProfileStatistics
}): ReadonlyArray<BadgeDefinition> => {
  const { profile, statistics } = input
  const earned: Record<BadgeId, boolean> = {
    EMAIL_VERIFIED: input.isEmailVerified,
    VERIFIED_PROVIDER: input.role === "PROVIDER" && input.isEmailVerified,
    PROFILE_COMPLETE:
      profile.bio !== "" &&
      profile.specialities.length > 0 &&
      profile.languages.length > 0 &&
      (profile.avatar !== null || profile.identityPhoto !== null),
    EXPERIENCED: (profile.experienceYears ?? 0) >= BADGE_RULES.experiencedYears,
    TEN_BOOKINGS: statistics.completedBookings >= BADGE_RULES.completedBookings,
    TOP_RATED: statistics.totalReviews >= BADGE_RULES.topRatingReviews && statistics.averageRating >= BADGE_RULES.topRating
  }
  return BadgeIds.filter((id) => earned[id]).map((id) => BADGES[id])
}

// ---- Favorites -------------------------------------------------------------------------------

export const CannotFavoriteYourself = invalid([issue("favoritedId", "favorites.self")])
export const FavoriteNotFound = new NotFound({ code: "FAVORITE_NOT_FOUND", key: "favorites.notFound" })

// ---- Pages -----------------------------------------------------------------------------------
