import { Either } from "effect"
import { BadRequest, Conflict, type FieldIssue, Forbidden, invalid, issue, NotFound, ValidationFailed } from "../../platform/errors"
import type { Language, MessageKey } from "../../platform/messages"
import { currencyDecimals, isCurrency, toMajor, toMinor } from "../../platform/money"
import { decimalPlaces, isInt4, isStorableNumber } from "../../platform/numbers"
import { hasContactDetails } from "../messaging/contact-details/rules"
import { MAX_SERVICE_PHOTOS, type ServiceStatus } from "./rules"

// ---- Entities --------------------------------------------------------------------------------

export { ServiceStatuses, type ServiceStatus } from "./rules"

export interface Category {
  readonly id: number
  readonly slug: string
  readonly nameFr: string
  readonly nameEn: string
}

export const categoryName = (category: Pick<Category, "nameFr" | "nameEn">, language: Language) =>
  language === "en" ? category.nameEn : category.nameFr

/** A service as stored. Prices are integers in the currency's minor unit. */
export interface ServiceRecord {
  readonly id: string
  readonly userId: string
  readonly categoryId: number
  readonly title: string
  readonly description: string
  readonly priceMinor: number
  readonly currency: string
  readonly durationMinutes: number
  readonly location: string
  readonly lat: number
  readonly lng: number
  readonly status: ServiceStatus
  readonly archivedAt: Date | null
  /** Set while an admin holds the service disabled: its provider cannot publish it again. */
  readonly disabledByAdminAt: Date | null
  readonly rating: number
  readonly reviewCount: number
  /** Its photos in order (the first is the cover). */
  readonly photos: ReadonlyArray<ServicePhoto>
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** One stored WebP rendition of a photo: `size` is the square it fits in (PHOTO_SIZES), `key` its storage key. */
export interface PhotoFile {
  readonly size: number
  readonly width: number
  readonly height: number
  readonly key: string
  readonly bytes: number
}

/** A service photo: its renditions, smallest first. A new picture is a new photo (a new id). */
export interface ServicePhoto {
  readonly id: string
  readonly files: ReadonlyArray<PhotoFile>
}

/** A service with what its views show beside it: its category and its provider. */
export interface ServiceListing extends ServiceRecord {
  readonly category: Category
  readonly provider: {
    readonly id: string
    readonly firstName: string
    readonly lastName: string
    readonly isActive: boolean
    /** An admin verified the provider's identity document (users.identity_verified_at, set by onboarding). */
    readonly identityVerified: boolean
    /** The provider's IANA zone (DEFAULT_TIME_ZONE while unknown): the service is offered in it. */
    readonly timeZone: string
    /**
     * The provider's profile photo (their avatar, else their approved application's picture), only
     * when their profile is public: anyone may load it then, cards included.
     */
    readonly photo: { readonly source: "avatar" | "identity"; readonly updatedAt: Date } | null
  }
  /** Great-circle distance from the searched point, when one was given. */
  readonly distanceKm?: number | undefined
}

/** Shown in public lists and to anyone: active, not archived, offered by an active account. */
export const isPublic = (s: {
  readonly status: string
  readonly archivedAt: Date | null
  readonly provider: { readonly isActive: boolean }
}) => s.status === "ACTIVE" && s.archivedAt === null && s.provider.isActive

/** What a caller may see: public services, and the owner's own services unless archived (deleted). */
export const isVisibleTo = (s: ServiceListing, viewerId: string | undefined) =>
  s.archivedAt === null && (isPublic(s) || (viewerId !== undefined && s.userId === viewerId))

// ---- Identifiers -----------------------------------------------------------------------------

/** Category ids are small positive integers. */
export const parseCategoryId = (value: string): number | undefined => (/^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : undefined)

// ---- Money -----------------------------------------------------------------------------------

// The currencies and their conversions are the platform's (platform/money.ts).
export const DEFAULT_CURRENCY = "EUR"
export const PRICE_MAX = 1_000_000

// ---- Loose payload values --------------------------------------------------------------------

/** A payload value as the contract accepts it: a JSON number, a string, null or absent. */
export type Loose = number | string | null | undefined

const isBlank = (value: Loose) => value === undefined || value === null || (typeof value === "string" && value.trim() === "")

/** A decimal number given as a number or a string ("19.99", "19,99"); undefined when blank; NaN when not a number. */
export const looseNumber = (value: Loose): number | undefined => {
  if (isBlank(value)) return undefined
  const text = typeof value === "number" ? "" : (value as string).trim().replace(/^(-?\d+),(\d+)$/, "$1.$2")
  const parsed = typeof value === "number" ? value : /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN
  // Outside what the database stores (5e-324, "0.000…1", 1e300): not a number we take.
  return isStorableNumber(parsed) ? parsed : Number.NaN
}

/** The number of decimals a number is written with (0.1 + 0.2 counts as 1: floating noise is ignored; 1e-7 as 7). */
const decimalsOf = (value: Loose, parsed: number) => {
  if (typeof value === "string") {
    const match = /[.,](\d+)$/.exec(value.trim())
    return match ? match[1]!.replace(/0+$/, "").length : 0
  }
  return decimalPlaces(parsed)
}

/** A price in major units to minor units, or the message key of what is wrong with it. */
export const parsePrice = (value: Loose, currency: string): Either.Either<number, MessageKey> => {
  const parsed = looseNumber(value)
  if (parsed === undefined) return Either.left("validation.required")
  if (Number.isNaN(parsed) || parsed <= 0) return Either.left("catalogue.priceInvalid")
  const decimals = currencyDecimals(currency)
  if (decimalsOf(value, parsed) > decimals) return Either.left(decimals === 0 ? "catalogue.priceNoDecimals" : "catalogue.priceInvalid")
  if (parsed > PRICE_MAX) return Either.left("catalogue.priceTooHigh")
  const minor = toMinor(parsed, currency)
  // The column holds at least one minor unit, as an int.
  return minor >= 1 && isInt4(minor) ? Either.right(minor) : Either.left("catalogue.priceInvalid")
}

// ---- Service input (spec section 5) ----------------------------------------------------------

export const TITLE_MAX = 120
export const DESCRIPTION_MAX = 5000
export const LOCATION_MAX = 200
export const CATEGORY_NAME_MIN = 2
export const CATEGORY_NAME_MAX = 60
export const DURATION_MAX = 7 * 24 * 60
export const EDIT_DURATION_STEP = 15

export interface ServiceInput {
  readonly title?: string | null | undefined
  readonly description?: string | null | undefined
  readonly price?: Loose
  readonly currency?: string | null | undefined
  readonly duration?: Loose
  readonly location?: string | null | undefined
  readonly lat?: Loose
  readonly lng?: Loose
  readonly categoryId?: Loose
  readonly newCategoryName?: string | null | undefined
}

export type CategoryChoice = { readonly _tag: "Existing"; readonly id: number } | { readonly _tag: "New"; readonly name: string }

export interface NewService {
  readonly title: string
  readonly description: string
  readonly priceMinor: number
  readonly currency: string
  readonly durationMinutes: number
  readonly location: string
  readonly lat: number
  readonly lng: number
  readonly category: CategoryChoice
}

export interface ServicePatch {
  readonly title?: string
  readonly description?: string
  readonly priceMinor?: number
  readonly currency?: string
  readonly durationMinutes?: number
  readonly location?: string
  readonly lat?: number
  readonly lng?: number
  readonly category?: CategoryChoice
}

const text = (field: string, value: string | null | undefined, max: number, tooLong: MessageKey, issues: Array<FieldIssue>) => {
  const trimmed = (value ?? "").trim()
  if (trimmed === "") issues.push(issue(field, "validation.required"))
  else if (trimmed.length > max) issues.push(issue(field, tooLong))
  return trimmed
}

/** A service's title and description are public: contact details in them would go round the booking. */
const listingText = (field: string, value: string | null | undefined, max: number, tooLong: MessageKey, issues: Array<FieldIssue>) => {
  const trimmed = text(field, value, max, tooLong, issues)
  if (trimmed.length <= max && hasContactDetails(trimmed)) issues.push(issue(field, "validation.contactDetails"))
  return trimmed
}

const currencyOf = (value: string | null | undefined, issues: Array<FieldIssue>) => {
  if (isBlank(value)) return undefined
  const code = value!.trim().toUpperCase()
  if (!isCurrency(code)) {
    issues.push(issue("currency", "catalogue.currency"))
    return undefined
  }
  return code
}

const durationOf = (value: Loose, mode: "create" | "edit", issues: Array<FieldIssue>) => {
  const parsed = looseNumber(value)
  if (parsed === undefined) {
    issues.push(issue("duration", "validation.required"))
    return 0
  }
  const key: MessageKey = mode === "create" ? "catalogue.durationCreate" : "catalogue.durationEdit"
  if (Number.isNaN(parsed) || !Number.isInteger(parsed) || parsed < 1) issues.push(issue("duration", key))
  else if (mode === "edit" && (parsed < EDIT_DURATION_STEP || parsed % EDIT_DURATION_STEP !== 0)) issues.push(issue("duration", key))
  else if (parsed > DURATION_MAX) issues.push(issue("duration", "catalogue.durationTooLong"))
  return parsed
}

/** Latitude or longitude: optional, 0 when blank (spec), within range. */
const coordinateOf = (field: "lat" | "lng", value: Loose, issues: Array<FieldIssue>) => {
  const parsed = looseNumber(value)
  if (parsed === undefined) return 0
  const bound = field === "lat" ? 90 : 180
  if (Number.isNaN(parsed) || parsed < -bound || parsed > bound) {
    issues.push(issue(field, field === "lat" ? "catalogue.latitude" : "catalogue.longitude"))
    return 0
  }
  return parsed
}

/**
 * An existing category or a new one, never both (the spec's message), and on creation one of them
 * (selectOrCreateCategory). `undefined` when neither is given on an edit (the category is kept).
 */
const categoryOf = (input: ServiceInput, required: boolean, issues: Array<FieldIssue>): CategoryChoice | undefined => {
  const hasId = !isBlank(input.categoryId)
  const hasName = !isBlank(input.newCategoryName)
  if (hasId && hasName) {
    issues.push(issue("newCategoryName", "catalogue.categoryChoiceBoth"))
    return undefined
  }
  if (hasId) {
    const id = looseNumber(input.categoryId)
    if (id === undefined || Number.isNaN(id) || !Number.isInteger(id) || id < 1 || id > 2_147_483_647) {
      issues.push(issue("categoryId", "catalogue.categoryUnknown"))
      return undefined
    }
    return { _tag: "Existing", id }
  }
  if (hasName) {
    const name = input.newCategoryName!.trim().replace(/\s+/g, " ")
    if (name.length < CATEGORY_NAME_MIN || name.length > CATEGORY_NAME_MAX || slugify(name) === "") {
      issues.push(issue("newCategoryName", "catalogue.categoryNameLength"))
      return undefined
    }
    return { _tag: "New", name }
  }
  if (required) issues.push(issue("categoryId", "catalogue.categoryRequired"))
  return undefined
}

/** The one 422 of a service form: the category rule's own message leads when it is broken. */
const failed = (issues: ReadonlyArray<FieldIssue>) => {
  const category = issues.find((i) => i.key === "catalogue.categoryChoiceBoth" || i.key === "catalogue.categoryRequired")
  return category ? new ValidationFailed({ code: "VALIDATION_ERROR", key: category.key, details: issues }) : invalid(issues)
}

export const validateNewService = (input: ServiceInput): Either.Either<NewService, ValidationFailed> => {
  const issues: Array<FieldIssue> = []
  const title = listingText("title", input.title, TITLE_MAX, "catalogue.titleTooLong", issues)
  const description = listingText("description", input.description, DESCRIPTION_MAX, "catalogue.descriptionTooLong", issues)
  const currency = currencyOf(input.currency, issues) ?? DEFAULT_CURRENCY
  const price = parsePrice(input.price, currency)
  if (Either.isLeft(price)) issues.push(issue("price", price.left))
  const durationMinutes = durationOf(input.duration, "create", issues)
  const location = text("location", input.location, LOCATION_MAX, "catalogue.locationTooLong", issues)
  const lat = coordinateOf("lat", input.lat, issues)
  const lng = coordinateOf("lng", input.lng, issues)
  const category = categoryOf(input, true, issues)
  if (issues.length > 0) return Either.left(failed(issues))
  return Either.right({
    title,
    description,
    priceMinor: Either.getOrThrow(price),
    currency,
    durationMinutes,
    location,
    lat,
    lng,
    category: category!
  })
}

/**
 * A partial update: only the fields present are checked, with the creation rules, except the edit
 * form's duration rule (at least 15 minutes, by steps of 15). A price is checked against the
 * currency the service will have; a currency change alone re-expresses the current price.
 */
export const validateServicePatch = (
  input: ServiceInput,
  current: Pick<ServiceRecord, "priceMinor" | "currency">
): Either.Either<ServicePatch, ValidationFailed> => {
  const issues: Array<FieldIssue> = []
  const patch: { -readonly [K in keyof ServicePatch]: ServicePatch[K] } = {}
  if (input.title !== undefined) patch.title = listingText("title", input.title, TITLE_MAX, "catalogue.titleTooLong", issues)
  if (input.description !== undefined) {
    patch.description = listingText("description", input.description, DESCRIPTION_MAX, "catalogue.descriptionTooLong", issues)
  }
  if (input.location !== undefined) patch.location = text("location", input.location, LOCATION_MAX, "catalogue.locationTooLong", issues)
  const currency = input.currency !== undefined ? currencyOf(input.currency, issues) : undefined
  if (input.currency !== undefined && isBlank(input.currency)) issues.push(issue("currency", "validation.required"))
  const targetCurrency = currency ?? current.currency
  if (input.price !== undefined) {
    const price = parsePrice(input.price, targetCurrency)
    if (Either.isLeft(price)) issues.push(issue("price", price.left))
    else patch.priceMinor = price.right
  } else if (currency !== undefined && currency !== current.currency) {
    const price = parsePrice(toMajor(current.priceMinor, current.currency), targetCurrency)
    if (Either.isLeft(price)) issues.push(issue("price", price.left))
    else patch.priceMinor = price.right
  }
  if (currency !== undefined) patch.currency = currency
  if (input.duration !== undefined) patch.durationMinutes = durationOf(input.duration, "edit", issues)
  if (input.lat !== undefined) patch.lat = coordinateOf("lat", input.lat, issues)
  if (input.lng !== undefined) patch.lng = coordinateOf("lng", input.lng, issues)
  const category = categoryOf(input, false, issues)
  if (category !== undefined) patch.category = category
  return issues.length > 0 ? Either.left(failed(issues)) : Either.right(patch)
}

// ---- Text -------------------------------------------------------------------------------------

const LIGATURES: Record<string, string> = { œ: "oe", æ: "ae", ß: "ss", ø: "o", ł: "l", đ: "d", ð: "d", þ: "th", ı: "i" }

/** Lower case without accents, as the database's f_unaccent(lower(...)) sees words. */
export const normalizeText = (value: string) =>
  value
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[œæßøłđðþı]/g, (c) => LIGATURES[c]!)

/** A URL-safe slug: "Réparation vélo" gives "reparation-velo". */
export const slugify = (value: string) =>
  normalizeText(value)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)

/** Words of a text as the search indexes them (letters and digits; modifier letters excluded). */
export const wordsOf = (value: string): ReadonlyArray<string> => normalizeText(value).match(/[\p{Ll}\p{Lu}\p{Lt}\p{Lo}\p{Nd}]+/gu) ?? []

// ---- Duplicates ------------------------------------------------------------------------------

/** The title of a copy: the original with a suffix, cut so that the whole fits the title limit. */
export const copyTitle = (title: string, suffix: string) => {
  const tail = ` ${suffix}`
  return title.length + tail.length <= TITLE_MAX ? title + tail : title.slice(0, TITLE_MAX - tail.length).trimEnd() + tail
}

// ---- Photos --------------------------------------------------------------------------------

/**
 * A new order of a service's photos: the ids given must be exactly the service's photos, each once
 * (ids compared in lower case). Answers the ids in their new order, or the issue.
 */
export const photoOrder = (current: ReadonlyArray<string>, given: ReadonlyArray<string> | null | undefined) => {
  if (given === undefined || given === null) return Either.left(invalid([issue("photoIds", "validation.required")]))
  const ids = given.map((id) => id.trim().toLowerCase())
  const same = ids.length === current.length && new Set(ids).size === ids.length && ids.every((id) => current.includes(id))
  return same ? Either.right(ids) : Either.left(invalid([issue("photoIds", "catalogue.photoOrderMismatch")]))
}

// ---- Errors ----------------------------------------------------------------------------------

export const ServiceNotFound = new NotFound({ code: "SERVICE_NOT_FOUND", key: "catalogue.serviceNotFound" })
export const CategoryNotFound = new NotFound({ code: "CATEGORY_NOT_FOUND", key: "catalogue.categoryNotFound" })
export const ProviderNotFound = new NotFound({ code: "PROVIDER_NOT_FOUND", key: "catalogue.providerNotFound" })
export const NotServiceOwner = new Forbidden({ code: "NOT_SERVICE_OWNER", key: "catalogue.notOwner" })
/** An administrator cannot list a service whose provider cannot be paid yet. */
export const ProviderNotPayable = new Conflict({ code: "PROVIDER_NOT_PAYABLE", key: "admin.providerNotPayable" })
/** An administrator disabled the service: only an administrator publishes it again. */
export const DisabledByAdmin = new Conflict({ code: "SERVICE_DISABLED_BY_ADMIN", key: "catalogue.disabledByAdmin" })
export const PaymentAccountRequired = new BadRequest({ code: "PAYMENT_ACCOUNT_REQUIRED", key: "catalogue.paymentAccountRequired" })
export const PhotoNotFound = new NotFound({ code: "PHOTO_NOT_FOUND", key: "catalogue.photoNotFound" })
export const TooManyPhotos = invalid([issue("photo", "catalogue.tooManyPhotos", { max: String(MAX_SERVICE_PHOTOS) })])
export const UnknownCategory = invalid([issue("categoryId", "catalogue.categoryUnknown")])
