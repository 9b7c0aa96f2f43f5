import { Context, Effect, Layer, Option } from "effect"
import { now } from "../../../platform/clock"
import {
  type Forbidden,
  invalid,
  issue,
  NotFound,
  type PayloadTooLarge,
  type UnsupportedMediaType,
  type ValidationFailed
} from "../../../platform/errors"
import { isUuid } from "../../../platform/ids"
import { newStorageKey, removeAll, Storage } from "../../../platform/storage"
import { Transactional } from "../../../platform/transaction"
import { checkFile, ImageTypes, type IncomingFile, isAbsent, normalizeFile, type DecodeFailure } from "../../../platform/uploads"
import type { User } from "../domain"
import {
  type BadgeDefinition,
  badgesOf,
  CannotFavoriteYourself,
  FavoriteNotFound,
  needsRelation,
  type Profile,
  profileAccess,
  type ProfileFile,
  ProfileNotFound,
  type ProfilePatchInput,
  type ProfileStatistics,
  validateProfilePatch,
  type Viewer
} from "./domain"
import {
  type FavoriteEntry,
  FavoriteRepository,
  PayoutAccountLookup,
  type PayoutAccountSummary,
  ProfileRelations,
  ProfileRepository,
  ProfileStatisticsSource
} from "./ports"
import { UserRepository } from "../ports"

export interface ProfileBundle {
  readonly user: User
  readonly profile: Profile
  readonly statistics: ProfileStatistics
  readonly badges: ReadonlyArray<BadgeDefinition>
}

export interface OwnProfile extends ProfileBundle {
  /** The payout account of a provider (None until created); undefined for other roles. */
  readonly payout: Option.Option<PayoutAccountSummary> | undefined
}

export interface VisibleProfile extends ProfileBundle {
  readonly access: "owner" | "admin" | "visitor"
  /** Whether the viewer has this profile among its favorites (false for anonymous visitors). */
  readonly isFavorite: boolean
}

export type PhotoSource = "avatar" | "identity"

export interface ProfilePhoto {
  readonly source: PhotoSource | null
  readonly file: ProfileFile | null
}

export const PhotoNotFound = new NotFound({ code: "PHOTO_NOT_FOUND", key: "profile.photoNotFound" })

type UploadError = DecodeFailure | ValidationFailed

/** Profiles: own view and edits, public views by visibility, badges, avatars and favorites. */
export class Profiles extends Context.Tag("identity/Profiles")<
  Profiles,
  {
    readonly own: (user: User) => Effect.Effect<OwnProfile>
    readonly update: (user: User, input: ProfilePatchInput) => Effect.Effect<OwnProfile, ValidationFailed>
    readonly view: (viewer: Viewer | undefined, userId: string) => Effect.Effect<VisibleProfile, NotFound | Forbidden>
    readonly badges: (viewer: Viewer | undefined, userId: string) => Effect.Effect<ReadonlyArray<BadgeDefinition>, NotFound | Forbidden>
    /** Which photo a profile shows: its avatar, else the identity photo of its approved application. */
    readonly photo: (viewer: Viewer | undefined, userId: string) => Effect.Effect<ProfilePhoto, NotFound | Forbidden>
    readonly photoFile: (
      viewer: Viewer | undefined,
      userId: string,
      source: PhotoSource | undefined
    ) => Effect.Effect<{ readonly bytes: Uint8Array; readonly file: ProfileFile }, NotFound | Forbidden>
    readonly uploadAvatar: (user: User, file: IncomingFile | undefined) => Effect.Effect<ProfileFile, UploadError>
    /** False when there was no avatar. */
    readonly deleteAvatar: (user: User) => Effect.Effect<boolean>
    readonly avatarOf: (user: User) => Effect.Effect<ProfileFile | null>
    readonly addFavorite: (
      user: User,
      favoritedId: string | undefined
    ) => Effect.Effect<{ readonly created: boolean }, ValidationFailed | NotFound | Forbidden>
    readonly removeFavorite: (user: User, favoritedId: string) => Effect.Effect<void, NotFound>
    readonly favorites: (
      user: User,
      page: { readonly page: number; readonly limit: number }
    ) => Effect.Effect<{ readonly entries: ReadonlyArray<FavoriteEntry & { readonly accessible: boolean }>; readonly total: number }>
  }
>() {}

export const ProfilesLive = Layer.effect(
  Profiles,
  Effect.gen(function* () {
    const users = yield* UserRepository
    const profiles = yield* ProfileRepository
    const favorites = yield* FavoriteRepository
    const statisticsSource = yield* ProfileStatisticsSource
    const relations = yield* ProfileRelations
    const payouts = yield* PayoutAccountLookup
    const storage = yield* Storage
    const tx = yield* Transactional

    const bundleOf = (user: User) =>
      Effect.gen(function* () {
        const [profile, statistics] = yield* Effect.all([profiles.find(user.id), statisticsSource.of(user.id)], {
          concurrency: "unbounded"
        })
        if (Option.isNone(profile)) return yield* Effect.dieMessage(`no profile for user ${user.id}`)
        const badges = badgesOf({ role: user.role, isEmailVerified: user.isEmailVerified, profile: profile.value, statistics })
        return { user, profile: profile.value, statistics, badges } satisfies ProfileBundle
      })

    const own = (user: User) =>
      Effect.gen(function* () {
        const fresh = Option.getOrElse(yield* users.findById(user.id), () => user)
        const bundle = yield* bundleOf(fresh)
        const payout = fresh.role === "PROVIDER" ? yield* payouts.of(fresh.id) : undefined
        return { ...bundle, payout } satisfies OwnProfile
      })

    /** The account and profile behind an id (a UUID: decoded at the HTTP edge, checked by addFavorite), and what the viewer may do with it. */
    const access = (viewer: Viewer | undefined, userId: string) =>
      Effect.gen(function* () {
        const user = yield* users.findById(userId.toLowerCase())
        if (Option.isNone(user)) return yield* ProfileNotFound
        const profile = Option.getOrThrow(yield* profiles.find(user.value.id))
        const owner = { id: user.value.id, isActive: user.value.isActive, visibility: profile.profileVisibility }
        const connected = needsRelation(profile.profileVisibility, viewer, owner.id)
          ? yield* relations.connected(viewer!.id, owner.id)
          : false
        const granted = yield* profileAccess(owner, viewer, connected)
        return { user: user.value, profile, granted }
      })

    const photoOf = (profile: Profile, source: PhotoSource | undefined): ProfilePhoto => {
      if (source === "avatar") return { source: profile.avatar ? "avatar" : null, file: profile.avatar }
      if (source === "identity") return { source: profile.identityPhoto ? "identity" : null, file: profile.identityPhoto }
      if (profile.avatar) return { source: "avatar", file: profile.avatar }
      if (profile.identityPhoto) return { source: "identity", file: profile.identityPhoto }
      return { source: null, file: null }
    }

    return {
      own,

      update: (user, input) =>
        Effect.gen(function* () {
          const current = Option.getOrElse(yield* users.findById(user.id), () => user)
          const { account, profile } = yield* validateProfilePatch(input, { role: current.role, now: yield* now })
          yield* tx.run(Effect.zipRight(users.updateAccount(user.id, account), profiles.update(user.id, profile)))
          return yield* own(current)
        }),

      view: (viewer, userId) =>
        Effect.gen(function* () {
          const { user, granted } = yield* access(viewer, userId)
          const bundle = yield* bundleOf(user)
          const isFavorite = viewer !== undefined && viewer.id !== user.id ? yield* favorites.has(viewer.id, user.id) : false
          return { ...bundle, access: granted, isFavorite }
        }),

      badges: (viewer, userId) =>
        Effect.gen(function* () {
          const { user } = yield* access(viewer, userId)
          return (yield* bundleOf(user)).badges
        }),

      photo: (viewer, userId) => Effect.map(access(viewer, userId), ({ profile }) => photoOf(profile, undefined)),

      photoFile: (viewer, userId, source) =>
        Effect.gen(function* () {
          const { profile } = yield* access(viewer, userId)
          const { file } = photoOf(profile, source)
          if (file === null) return yield* PhotoNotFound
          const bytes = yield* storage.get(file.key)
          if (Option.isNone(bytes)) return yield* PhotoNotFound
          return { bytes: bytes.value, file }
        }),

      uploadAvatar: (user, file) =>
        Effect.gen(function* () {
          if (isAbsent(file)) return yield* invalid([issue("avatar", "upload.required")])
          const rules = { allowed: ImageTypes, unsupported: "upload.unsupportedImage" } as const
          const type = yield* checkFile("avatar", file, rules)
          const bytes = yield* normalizeFile("avatar", type, file.bytes, rules.unsupported)
          // Written only once valid, under a generated key; removed again if the database refuses it.
          const stored: ProfileFile = { key: newStorageKey("avatars"), contentType: type, size: bytes.length, updatedAt: yield* now }
          yield* storage.put(stored.key, bytes)
          const previous = yield* profiles.setAvatar(user.id, stored).pipe(Effect.onError(() => removeAll(storage, [stored.key])))
          yield* removeAll(storage, Option.toArray(previous))
          return stored
        }),

      deleteAvatar: (user) =>
        Effect.gen(function* () {
          const previous = yield* profiles.setAvatar(user.id, null)
          yield* removeAll(storage, Option.toArray(previous))
          return Option.isSome(previous)
        }),

      avatarOf: (user) =>
        Effect.map(profiles.find(user.id), (p) => Option.getOrNull(Option.flatMapNullable(p, (profile) => profile.avatar))),

      addFavorite: (user, favoritedId) =>
        Effect.gen(function* () {
          const id = (favoritedId ?? "").trim()
          if (id === "") return yield* invalid([issue("favoritedId", "validation.required")])
          if (!isUuid(id)) return yield* ProfileNotFound
          if (id.toLowerCase() === user.id) return yield* CannotFavoriteYourself
          yield* access({ id: user.id, role: user.role }, id)
          return { created: yield* favorites.add(user.id, id.toLowerCase()) }
        }),

      removeFavorite: (user, favoritedId) =>
        Effect.gen(function* () {
          if (!(yield* favorites.remove(user.id, favoritedId.toLowerCase()))) return yield* FavoriteNotFound
        }),

      favorites: (user, page) =>
        Effect.gen(function* () {
          const found = yield* favorites.list(user.id, { limit: page.limit, offset: (page.page - 1) * page.limit })
          const viewer = { id: user.id, role: user.role }
          const entries = yield* Effect.forEach(found.entries, (entry) =>
            Effect.gen(function* () {
              const owner = { id: entry.user.id, isActive: entry.user.isActive, visibility: entry.profile.profileVisibility }
              const connected = needsRelation(owner.visibility, viewer, owner.id) ? yield* relations.connected(viewer.id, owner.id) : false
              return { ...entry, accessible: profileAccess(owner, viewer, connected)._tag === "Right" }
            })
          )
          return { entries, total: found.total }
        })
    }
  })
)
