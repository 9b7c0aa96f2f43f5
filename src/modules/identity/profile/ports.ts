import { Context, type Effect, type Option } from "effect"
import type { User } from "../domain"
import type { Profile, ProfileFile, ProfilePatch, ProfileStatistics } from "./domain"

/** Profiles, stored beside their accounts. */
export interface ProfileRepositoryShape {
  readonly find: (userId: string) => Effect.Effect<Option.Option<Profile>>
  /** Applies an edit of the profile fields (account fields go through UserRepository.updateAccount). */
  readonly update: (userId: string, profile: ProfilePatch) => Effect.Effect<void>
  /** Sets (or clears) the avatar; answers the storage key it replaced, if any. */
  readonly setAvatar: (userId: string, file: ProfileFile | null) => Effect.Effect<Option.Option<string>>
  /** Sets the identity photo (an approved application's profile picture); answers the key it replaced. */
  readonly setIdentityPhoto: (userId: string, file: ProfileFile | null) => Effect.Effect<Option.Option<string>>
  /** Records a date of birth declared elsewhere (the application form) when the profile has none. */
  readonly setDateOfBirthIfMissing: (userId: string, dateOfBirth: string) => Effect.Effect<void>
  /** Records that an admin verified the user's identity document (a date), or that it is verified no more (null). */
  readonly setIdentityVerified: (userId: string, at: Date | null) => Effect.Effect<void>
}
export class ProfileRepository extends Context.Tag("identity/ProfileRepository")<ProfileRepository, ProfileRepositoryShape>() {}

export interface FavoriteEntry {
  readonly favoritedId: string
  readonly createdAt: Date
  readonly user: User
  readonly profile: Profile
}

/** Favorites: one row per (user, favorited user), never oneself (also a database constraint). */
export interface FavoriteRepositoryShape {
  /** False when the pair was already there. */
  readonly add: (userId: string, favoritedId: string) => Effect.Effect<boolean>
  /** False when there was no such favorite. */
  readonly remove: (userId: string, favoritedId: string) => Effect.Effect<boolean>
  readonly has: (userId: string, favoritedId: string) => Effect.Effect<boolean>
  /** Newest first; favorites of deactivated accounts are left out. */
  readonly list: (
    userId: string,
    page: { readonly limit: number; readonly offset: number }
  ) => Effect.Effect<{ readonly entries: ReadonlyArray<FavoriteEntry>; readonly total: number }>
}
export class FavoriteRepository extends Context.Tag("identity/FavoriteRepository")<FavoriteRepository, FavoriteRepositoryShape>() {}

/**
 * Figures of a profile that other modules own (services in the catalogue, bookings and reviews
 * later): the Postgres adapter reads their tables when they exist, and 0/null otherwise.
 */
export interface ProfileStatisticsSourceShape {
  readonly of: (userId: string) => Effect.Effect<ProfileStatistics>
}
export class ProfileStatisticsSource extends Context.Tag("identity/ProfileStatisticsSource")<
  ProfileStatisticsSource,
  ProfileStatisticsSourceShape
>() {}

/** Whether two users share a booking or a conversation (FRIENDS_ONLY profiles). */
export interface ProfileRelationsShape {
  readonly connected: (viewerId: string, ownerId: string) => Effect.Effect<boolean>
}
export class ProfileRelations extends Context.Tag("identity/ProfileRelations")<ProfileRelations, ProfileRelationsShape>() {}

/** A provider's payout account as the own profile shows it ("activate payments"). */
export interface PayoutAccountSummary {
  readonly accountId: string
  readonly chargesEnabled: boolean
  readonly payoutsEnabled: boolean
  readonly detailsSubmitted: boolean
}
/** Implemented over the payments module by the application (src/app/layers.ts); none in memory. */
export interface PayoutAccountLookupShape {
  readonly of: (userId: string) => Effect.Effect<Option.Option<PayoutAccountSummary>>
}
export class PayoutAccountLookup extends Context.Tag("identity/PayoutAccountLookup")<PayoutAccountLookup, PayoutAccountLookupShape>() {}
