import { Effect, Layer, Option } from "effect"
import { emptyProfile, noStatistics, type Profile } from "../domain"
import { type FavoriteEntry, FavoriteRepository, ProfileRelations, ProfileRepository, ProfileStatisticsSource } from "../ports"
import { UserRepository } from "../../ports"

/**
 * In-memory profile stores with the contracts of the Postgres ones (they need the in-memory
 * UserRepository of IdentityMemoryAdapters). No statistics and no relations.
 */
export const ProfileMemoryAdapters = Layer.unwrapEffect(
  Effect.gen(function* () {
    const users = yield* UserRepository
    const profiles = new Map<string, Profile>()
    const favorites = new Map<string, Date>()
    const pair = (userId: string, favoritedId: string) => `${userId}|${favoritedId}`
    const current = (userId: string) =>
      Effect.map(
        users.findById(userId),
        Option.map(() => profiles.get(userId) ?? emptyProfile)
      )
    const patch = (userId: string, change: Partial<Profile>) =>
      Effect.map(
        current(userId),
        Option.map((profile) => void profiles.set(userId, { ...profile, ...change }))
      )

    return Layer.mergeAll(
      Layer.succeed(ProfileRepository, {
        find: current,
        update: (userId, change) => Effect.asVoid(patch(userId, change)),
        setAvatar: (userId, file) =>
          Effect.flatMap(current(userId), (found) =>
            Effect.as(
              patch(userId, { avatar: file }),
              Option.flatMap(found, (p) => Option.fromNullable(p.avatar?.key))
            )
          ),
        setIdentityPhoto: (userId, file) =>
          Effect.flatMap(current(userId), (found) =>
            Effect.as(
              patch(userId, { identityPhoto: file }),
              Option.flatMap(found, (p) => Option.fromNullable(p.identityPhoto?.key))
            )
          ),
        setDateOfBirthIfMissing: (userId, dateOfBirth) =>
          Effect.flatMap(current(userId), (found) =>
            Option.isSome(found) && found.value.dateOfBirth === null ? Effect.asVoid(patch(userId, { dateOfBirth })) : Effect.void
          ),
        setIdentityVerified: (userId, at) => Effect.asVoid(patch(userId, { identityVerifiedAt: at }))
      }),
      Layer.succeed(FavoriteRepository, {
        add: (userId, favoritedId) =>
          Effect.sync(() => {
            if (userId === favoritedId) throw new Error("favorites: a user cannot favorite themselves")
            if (favorites.has(pair(userId, favoritedId))) return false
            favorites.set(pair(userId, favoritedId), new Date())
            return true
          }),
        remove: (userId, favoritedId) => Effect.sync(() => favorites.delete(pair(userId, favoritedId))),
        has: (userId, favoritedId) => Effect.sync(() => favorites.has(pair(userId, favoritedId))),
        list: (userId, page) =>
          Effect.gen(function* () {
            const entries: Array<FavoriteEntry> = []
            for (const [key, createdAt] of favorites) {
              const [owner, favoritedId] = key.split("|") as [string, string]
              if (owner !== userId) continue
              const user = yield* users.findById(favoritedId)
              if (Option.isNone(user) || !user.value.isActive) continue
              entries.push({ favoritedId, createdAt, user: user.value, profile: profiles.get(favoritedId) ?? emptyProfile })
            }
            entries.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
            return { total: entries.length, entries: entries.slice(page.offset, page.offset + page.limit) }
          })
      }),
      Layer.succeed(ProfileStatisticsSource, { of: () => Effect.succeed(noStatistics) }),
      Layer.succeed(ProfileRelations, { connected: () => Effect.succeed(false) })
    )
  })
)
