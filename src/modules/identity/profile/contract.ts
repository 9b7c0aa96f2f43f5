import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, Multipart } from "@effect/platform"
import { Schema } from "effect"
import { UserId } from "../../../platform/ids"
import { Ok, PageParams, Pagination, Payload, PayloadLongText, PayloadNumber, PayloadText, PathId } from "../../../platform/http/schemas"
import { multipartLimits } from "../../../platform/upload-limits"
import { Authentication } from "../../../platform/http/authentication"
import { LanguageSchema, Role } from "../contract"
import { ProfileVisibilities } from "../rules"

/** A user's `:id`: a malformed one answers 404 PROFILE_NOT_FOUND (FAVORITE_NOT_FOUND for a favourite), as an unknown one (domain.ts's errors). */
const ProfileIdParam = PathId(UserId, { code: "PROFILE_NOT_FOUND", key: "profile.notFound" })
const FavoriteIdParam = PathId(UserId, { code: "FAVORITE_NOT_FOUND", key: "favorites.notFound" })

// The profile's HTTP contract (/users, /uploads): pure, like the module's ../contract.ts; the views are built in
// views.ts beside it.

// ---- Views -----------------------------------------------------------------------------------

export const BadgeView = Schema.Struct({
  badge: Schema.Struct({ id: Schema.String, name: Schema.String, description: Schema.String, icon: Schema.String, color: Schema.String })
})

const Text = Schema.String
const Nullable = <S extends Schema.Schema.Any>(s: S) => Schema.NullOr(s)

/** The profile fields shared by the own and public views. */
const profileFields = {
  id: Schema.String,
  firstName: Text,
  lastName: Text,
  role: Role,
  isEmailVerified: Schema.Boolean,
  /** A provider whose identity document an admin verified (the "verified identity" mark). */
  identityVerified: Schema.Boolean,
  avatarUrl: Nullable(Text),
  identityPhotoUrl: Nullable(Text),
  profilePhotoUrl: Nullable(Text),
  bio: Text,
  description: Text,
  specialities: Schema.Array(Text),
  experienceYears: Nullable(Schema.Number),
  languages: Schema.Array(Text),
  certifications: Schema.Array(Text),
  socialLinks: Schema.Record({ key: Schema.String, value: Schema.String }),
  availability: Text,
  profileVisibility: Schema.Literal(...ProfileVisibilities),
  location: Text,
  city: Text,
  country: Text,
  hourlyRate: Nullable(Schema.Number),
  currency: Text,
  userCurrency: Schema.Struct({ code: Text }),
  servicesCount: Schema.Number,
  averageRating: Schema.Number,
  totalReviews: Schema.Number,
  totalBookings: Schema.Number,
  completedBookings: Schema.Number,
  completionRate: Schema.Number,
  responseTime: Nullable(Schema.Number),
  /**
   * The provider's cancellations of bookings they had confirmed over their confirmed bookings; `rate`
   * (0 to 1) is null until they have 5 confirmed bookings ("not enough bookings yet").
   */
  cancellationRate: Schema.Struct({
    confirmedBookings: Schema.Number,
    providerCancellations: Schema.Number,
    rate: Nullable(Schema.Number)
  }),
  badges: Schema.Array(BadgeView),
  createdAt: Schema.Date
}

export const PaymentsStateView = Schema.Struct({
  hasAccount: Schema.Boolean,
  accountId: Nullable(Text),
  chargesEnabled: Schema.Boolean,
  payoutsEnabled: Schema.Boolean,
  detailsSubmitted: Schema.Boolean,
  /** The screen that activates payments. */
  setupPath: Text
})

/** GET/PATCH /users/me: every field of the account and its profile (the owner's eyes only). */
export const OwnProfileView = Schema.Struct({
  ...profileFields,
  email: Text,
  phoneNumber: Text,
  preferredLanguage: LanguageSchema,
  /** The account's IANA time zone; null until known. */
  timeZone: Nullable(Text),
  active: Schema.Boolean,
  address: Text,
  postalCode: Text,
  dateOfBirth: Nullable(Text),
  stripeAccountId: Nullable(Text),
  /** Providers only (null for other roles): the "activate payments" state. */
  payments: Nullable(PaymentsStateView)
})

/** GET /users/public/{id}: never the email, phone, address, postal code, birth date or payment ids. */
export const PublicProfileView = Schema.Struct({
  ...profileFields,
  isFavorite: Schema.Boolean,
  isOwner: Schema.Boolean
})

/** A favorite in GET /users/me/favorites: the favorited profile's card (null when no longer visible to you). */
export const FavoriteView = Schema.Struct({
  favoritedId: Schema.String,
  createdAt: Schema.Date,
  accessible: Schema.Boolean,
  user: Nullable(
    Schema.Struct({
      id: Schema.String,
      firstName: Text,
      lastName: Text,
      role: Role,
      profilePhotoUrl: Nullable(Text),
      city: Text,
      specialities: Schema.Array(Text)
    })
  )
})

export const ProfilePhotoView = Schema.Struct({
  profilePhotoUrl: Nullable(Text),
  hasProfilePhoto: Schema.Boolean,
  /** "avatar" (uploaded by the user), "identity" (from the approved provider application) or null. */
  photoSource: Nullable(Schema.Literal("avatar", "identity"))
})

export const AvatarView = Schema.Struct({
  avatarUrl: Nullable(Text),
  hasAvatar: Schema.Boolean,
  contentType: Nullable(Text),
  size: Nullable(Schema.Number),
  updatedAt: Nullable(Schema.Date)
})

// ---- Requests --------------------------------------------------------------------------------

// Loose on purpose (as in the rest of the API): the domain answers 422 per field in the user's
// language; only a wrong JSON shape is a 400.
const OptText = Schema.optional(PayloadText)
const OptNullableText = Schema.optional(Schema.NullOr(PayloadText))
const OptLongText = Schema.optional(Schema.NullOr(PayloadLongText))
const OptList = Schema.optional(Schema.NullOr(Schema.Array(PayloadText)))
const OptNumberLike = Schema.optional(Schema.NullOr(Schema.Union(PayloadNumber, PayloadText)))

export const ProfilePatchPayload = Payload({
  firstName: OptText,
  lastName: OptText,
  phoneNumber: OptText,
  preferredLanguage: OptText,
  /** An IANA zone (Europe/Paris); 422 otherwise. */
  timeZone: OptText,
  bio: OptLongText,
  description: OptLongText,
  specialities: OptList,
  experienceYears: OptNumberLike,
  languages: OptList,
  certifications: OptList,
  socialLinks: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.NullOr(PayloadText) }))),
  availability: OptLongText,
  profileVisibility: OptText,
  location: OptNullableText,
  address: OptNullableText,
  city: OptNullableText,
  postalCode: OptNullableText,
  country: OptNullableText,
  hourlyRate: OptNumberLike,
  currency: OptText,
  dateOfBirth: OptNullableText
})

const OwnProfileData = Schema.Struct({ user: OwnProfileView })
const Empty = Schema.Struct({})
/** A binary answer (image or document); errors still answer the JSON error envelope. */
const Binary = HttpApiSchema.Uint8Array({ contentType: "application/octet-stream" })

// ---- Groups ----------------------------------------------------------------------------------

export class UsersApi extends HttpApiGroup.make("users")
  .add(HttpApiEndpoint.get("getMe", "/me").addSuccess(Ok(OwnProfileData)).middleware(Authentication))
  .add(HttpApiEndpoint.patch("updateMe", "/me").setPayload(ProfilePatchPayload).addSuccess(Ok(OwnProfileData)).middleware(Authentication))
  .add(
    HttpApiEndpoint.get("myFavorites", "/me/favorites")
      .setUrlParams(Schema.Struct(PageParams))
      .addSuccess(Ok(Schema.Struct({ favorites: Schema.Array(FavoriteView), pagination: Pagination })))
      .middleware(Authentication)
  )
  .add(
    HttpApiEndpoint.post("addFavorite", "/favorites")
      .setPayload(Payload({ favoritedId: OptText }))
      .addSuccess(Ok(Schema.Struct({ favorite: Schema.Struct({ favoritedId: Schema.String, created: Schema.Boolean }) })), { status: 201 })
      .middleware(Authentication)
  )
  .add(HttpApiEndpoint.del("removeFavorite")`/favorites/${FavoriteIdParam}`.addSuccess(Ok(Empty)).middleware(Authentication))
  // Public reads: a valid bearer token identifies the viewer (owner, admin, relations), none is a visitor.
  .add(HttpApiEndpoint.get("publicProfile")`/public/${ProfileIdParam}`.addSuccess(Ok(Schema.Struct({ user: PublicProfileView }))))
  .add(HttpApiEndpoint.get("badges")`/${ProfileIdParam}/badges`.addSuccess(Ok(Schema.Struct({ badges: Schema.Array(BadgeView) }))))
  .add(HttpApiEndpoint.get("profilePhoto")`/${ProfileIdParam}/profile-photo`.addSuccess(Ok(ProfilePhotoView)))
  .add(
    HttpApiEndpoint.get("profilePhotoFile")`/${ProfileIdParam}/profile-photo/file`
      .setUrlParams(Schema.Struct({ source: Schema.optional(Schema.String), v: Schema.optional(Schema.String) }))
      .addSuccess(Binary)
  )
  .prefix("/users") {}

export class UploadsApi extends HttpApiGroup.make("uploads")
  .add(
    HttpApiEndpoint.post("uploadAvatar", "/avatar")
      .setPayload(HttpApiSchema.MultipartStream(Schema.Struct({ avatar: Multipart.SingleFileSchema }), multipartLimits(1)))
      .addSuccess(Ok(AvatarView))
  )
  .add(HttpApiEndpoint.del("deleteAvatar", "/avatar").addSuccess(Ok(AvatarView)))
  .add(HttpApiEndpoint.get("getAvatar", "/avatar").addSuccess(Ok(AvatarView)))
  .middleware(Authentication)
  .prefix("/uploads") {}
