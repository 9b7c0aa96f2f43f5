import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { MarketplaceApi } from "../../../app/api"
import { localized, ok, requestLanguage } from "../../../platform/http/envelope"
import { pageOf, pagination } from "../../../platform/paging"
import { readMultipart } from "../../../platform/uploads"
import { CurrentUser, optionalCaller } from "../../../platform/http/authentication"
import { type Viewer } from "./domain"
import { photoUrl, toAvatarView, toBadgeView, toOwnProfileView, toPublicProfileView } from "./views"
import { type PhotoSource, Profiles } from "./service"
import { Identity } from "../service"

/** Favorites per page when the request names no size. */
const FAVORITES_PAGE_SIZE = 20

const sourceOf = (value: string | undefined): PhotoSource | undefined => (value === "avatar" || value === "identity" ? value : undefined)

export const UsersHttpLive = HttpApiBuilder.group(MarketplaceApi, "users", (handlers) =>
  Effect.gen(function* () {
    const profiles = yield* Profiles
    const viewer = Effect.map(optionalCaller((yield* Identity).authenticate), (user): Viewer | undefined =>
      user === undefined ? undefined : { id: user.id, role: user.role }
    )
    const ownAnswer = (key?: "profile.updated") =>
      Effect.gen(function* () {
        const own = yield* profiles.own(yield* CurrentUser)
        return ok({ user: toOwnProfileView(own, yield* requestLanguage) }, key === undefined ? undefined : yield* localized(key))
      })

    return handlers
      .handle("getMe", () => ownAnswer())
      .handle("updateMe", ({ payload }) =>
        Effect.gen(function* () {
          const own = yield* profiles.update(yield* CurrentUser, payload)
          return ok({ user: toOwnProfileView(own, yield* requestLanguage) }, yield* localized("profile.updated"))
        })
      )
      .handle("myFavorites", ({ urlParams }) =>
        Effect.gen(function* () {
          const page = pageOf(urlParams, FAVORITES_PAGE_SIZE)
          const found = yield* profiles.favorites(yield* CurrentUser, page)
          return ok({
            favorites: found.entries.map((entry) => ({
              favoritedId: entry.favoritedId,
              createdAt: entry.createdAt,
              accessible: entry.accessible,
              user: entry.accessible
                ? {
                    id: entry.user.id,
                    firstName: entry.user.firstName,
                    lastName: entry.user.lastName,
                    role: entry.user.role,
                    profilePhotoUrl:
                      photoUrl(entry.user.id, "avatar", entry.profile.avatar) ??
                      photoUrl(entry.user.id, "identity", entry.profile.identityPhoto),
                    city: entry.profile.city,
                    specialities: entry.profile.specialities
                  }
                : null
            })),
            pagination: pagination(found.total, page.page, page.limit)
          })
        })
      )
      .handle("addFavorite", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          const { created } = yield* profiles.addFavorite(user, payload.favoritedId)
          return ok(
            { favorite: { favoritedId: payload.favoritedId!.trim().toLowerCase(), created } },
            yield* localized(created ? "favorites.added" : "favorites.alreadyThere")
          )
        })
      )
      .handle("removeFavorite", ({ path }) =>
        Effect.gen(function* () {
          yield* profiles.removeFavorite(yield* CurrentUser, path.id)
          return ok({}, yield* localized("favorites.removed"))
        })
      )
      .handle("publicProfile", ({ path }) =>
        Effect.gen(function* () {
          const visible = yield* profiles.view(yield* viewer, path.id)
          return ok({ user: toPublicProfileView(visible, yield* requestLanguage) })
        })
      )
      .handle("badges", ({ path }) =>
        Effect.gen(function* () {
          const badges = yield* profiles.badges(yield* viewer, path.id)
          const language = yield* requestLanguage
          return ok({ badges: badges.map((b) => toBadgeView(b, language)) })
        })
      )
      .handle("profilePhoto", ({ path }) =>
        Effect.gen(function* () {
          const photo = yield* profiles.photo(yield* viewer, path.id)
          return ok({
            profilePhotoUrl: photo.source === null ? null : photoUrl(path.id.toLowerCase(), photo.source, photo.file),
            hasProfilePhoto: photo.source !== null,
            photoSource: photo.source
          })
        })
      )
      .handleRaw("profilePhotoFile", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const { bytes, file } = yield* profiles.photoFile(yield* viewer, path.id, sourceOf(urlParams.source))
          return HttpServerResponse.uint8Array(bytes, {
            contentType: file.contentType,
            headers: {
              "content-disposition": "inline",
              // Versioned URLs (?v=): a private cache may keep the answer for a day.
              "cache-control": "private, max-age=86400"
            }
          })
        })
      )
  })
)

export const UploadsHttpLive = HttpApiBuilder.group(MarketplaceApi, "uploads", (handlers) =>
  Effect.gen(function* () {
    const profiles = yield* Profiles
    return (
      handlers
        // The body is read by readMultipart (the declared MultipartStream payload documents it and is not run).
        .handle("uploadAvatar", () =>
          Effect.gen(function* () {
            const user = yield* CurrentUser
            const form = yield* readMultipart({ files: ["avatar"], fields: [] })
            const stored = yield* profiles.uploadAvatar(user, form.files.avatar)
            return ok(toAvatarView(user.id, stored), yield* localized("profile.avatarUpdated"))
          })
        )
        .handle("deleteAvatar", () =>
          Effect.gen(function* () {
            const user = yield* CurrentUser
            const removed = yield* profiles.deleteAvatar(user)
            return ok(toAvatarView(user.id, null), yield* localized(removed ? "profile.avatarDeleted" : "profile.noAvatar"))
          })
        )
        .handle("getAvatar", () =>
          Effect.gen(function* () {
            const user = yield* CurrentUser
            return ok(toAvatarView(user.id, yield* profiles.avatarOf(user)))
          })
        )
    )
  })
)
