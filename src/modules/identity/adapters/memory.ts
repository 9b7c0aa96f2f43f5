import { Effect, Layer, Option } from "effect"
import * as crypto from "node:crypto"
import { EmailTaken, type RefreshTokenRecord, type SessionClient, type UserWithPassword } from "../domain"
import {
  OneTimeTokenStore,
  type OneTimePurpose,
  PasswordHasher,
  RefreshTokenStore,
  type TwoFactorRecord,
  TwoFactorStore,
  UserRepository
} from "../ports"

/**
 * In-memory repositories with the same contracts as the Postgres ones: the domain runs
 * against them in tests and in `bin/run` experiments without a database.
 */
export const IdentityMemoryAdapters = Layer.suspend(() => {
  const users = new Map<string, UserWithPassword>()
  const refresh = new Map<string, RefreshTokenRecord & SessionClient & { readonly createdAt: Date }>()
  const oneTime = new Map<
    string,
    { userId: string; purpose: OneTimePurpose; expiresAt: Date; usedAt: Date | null; newEmail?: string | undefined }
  >()
  const update = (id: string, patch: Partial<UserWithPassword>) =>
    Effect.sync(() => {
      const user = users.get(id)
      if (user) users.set(id, { ...user, ...patch })
    })
  const strip = ({ passwordHash: _, ...user }: UserWithPassword) => user
  const twoFactor = new Map<string, TwoFactorRecord>()
  const recoveryCodes = new Map<string, Map<string, Date | null>>()
  const challenges = new Map<string, { userId: string; timeZone: string | null; expiresAt: Date; usedAt: Date | null }>()

  return Layer.mergeAll(
    Layer.succeed(UserRepository, {
      findById: (id) => Effect.sync(() => Option.fromNullable(users.get(id)).pipe(Option.map(strip))),
      findInSession: (id, sessionId) =>
        Effect.sync(() =>
          Option.fromNullable(users.get(id)).pipe(
            Option.map((user) => ({
              user: strip(user),
              sessionEnded: [...refresh.values()].some((r) => r.familyId === sessionId && r.userId === id && r.revokedAt !== null)
            }))
          )
        ),
      findByEmail: (email) => Effect.sync(() => Option.fromNullable([...users.values()].find((u) => u.email === email))),
      insert: (a) =>
        Effect.suspend(() => {
          if ([...users.values()].some((u) => u.email === a.email)) return Effect.fail(EmailTaken)
          const user: UserWithPassword = {
            ...a,
            timeZone: a.timeZone ?? null,
            id: crypto.randomUUID(),
            isActive: true,
            createdAt: new Date()
          }
          users.set(user.id, user)
          return Effect.succeed(strip(user))
        }),
      markEmailVerified: (id) => update(id, { isEmailVerified: true }),
      setPasswordHash: (id, passwordHash) => update(id, { passwordHash }),
      findPasswordHash: (id) => Effect.sync(() => Option.fromNullable(users.get(id)?.passwordHash)),
      setPreferredLanguage: (id, preferredLanguage) => update(id, { preferredLanguage }),
      adoptTimeZone: (id, timeZone) =>
        Effect.sync(() => {
          const user = users.get(id)
          if (!user || user.timeZone !== null) return false
          users.set(id, { ...user, timeZone })
          return true
        }),
      setRole: (id, role) => update(id, { role }),
      setActive: (id, isActive) => update(id, { isActive }),
      setEmail: (id, email) =>
        Effect.suspend(() =>
          [...users.values()].some((u) => u.email === email && u.id !== id)
            ? Effect.fail(EmailTaken)
            : update(id, { email, isEmailVerified: true })
        ),
      updateAccount: (id, patch) => update(id, patch)
    }),
    Layer.succeed(RefreshTokenStore, {
      insert: (t) =>
        Effect.sync(
          () =>
            void refresh.set(t.tokenHash, {
              userId: t.userId,
              familyId: t.familyId,
              expiresAt: t.expiresAt,
              rotatedAt: null,
              revokedAt: null,
              createdAt: new Date(),
              userAgent: t.client?.userAgent ?? null,
              coarseAddress: t.client?.coarseAddress ?? null
            })
        ),
      find: (hash) => Effect.sync(() => Option.fromNullable(refresh.get(hash))),
      markRotated: (hash, at) =>
        Effect.sync(() => {
          const record = refresh.get(hash)
          if (!record || record.rotatedAt || record.revokedAt) return false
          refresh.set(hash, { ...record, rotatedAt: at })
          return true
        }),
      revokeFamily: (familyId, at) =>
        Effect.sync(() => {
          for (const [hash, r] of refresh) if (r.familyId === familyId && !r.revokedAt) refresh.set(hash, { ...r, revokedAt: at })
        }),
      revokeAllOfUser: (userId, at, keepFamily) =>
        Effect.sync(() => {
          for (const [hash, r] of refresh) {
            if (r.userId === userId && !r.revokedAt && r.familyId !== keepFamily) refresh.set(hash, { ...r, revokedAt: at })
          }
        }),
      listSessions: (userId, at) =>
        Effect.sync(() => {
          const families = new Map<string, Array<RefreshTokenRecord & SessionClient & { readonly createdAt: Date }>>()
          for (const r of refresh.values()) if (r.userId === userId) families.set(r.familyId, [...(families.get(r.familyId) ?? []), r])
          return [...families.entries()]
            .filter(([, rows]) => rows.every((r) => r.revokedAt === null))
            .map(([id, rows]) => {
              const sorted = [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
              const newest = sorted[sorted.length - 1]!
              return { id, openedAt: sorted[0]!.createdAt, lastUsedAt: newest.createdAt, newest }
            })
            .filter(({ newest }) => newest.expiresAt > at)
            .map(({ newest, ...session }) => ({ ...session, userAgent: newest.userAgent, coarseAddress: newest.coarseAddress }))
            .sort((a, b) => b.lastUsedAt.getTime() - a.lastUsedAt.getTime())
        }),
      revokeSession: (userId, familyId, at) =>
        Effect.sync(() => {
          let found = false
          for (const [hash, r] of refresh)
            if (r.userId === userId && r.familyId === familyId && !r.revokedAt) {
              refresh.set(hash, { ...r, revokedAt: at })
              found = true
            }
          return found
        })
    }),
    Layer.succeed(OneTimeTokenStore, {
      insert: (t) => Effect.sync(() => void oneTime.set(t.tokenHash, { ...t, usedAt: null })),
      consume: (hash, purpose, at) =>
        Effect.sync(() => {
          const t = oneTime.get(hash)
          if (!t || t.purpose !== purpose || t.usedAt || t.expiresAt <= at) return Option.none()
          oneTime.set(hash, { ...t, usedAt: at })
          return Option.some(t.userId)
        }),
      retireAll: (userId, purpose, at) =>
        Effect.sync(() => {
          for (const [hash, t] of oneTime)
            if (t.userId === userId && t.purpose === purpose && !t.usedAt) oneTime.set(hash, { ...t, usedAt: at })
        }),
      consumeEmailChange: (hash, at) =>
        Effect.sync(() => {
          const t = oneTime.get(hash)
          if (!t || t.purpose !== "CHANGE_EMAIL" || t.usedAt || t.expiresAt <= at || t.newEmail === undefined) return Option.none()
          oneTime.set(hash, { ...t, usedAt: at })
          return Option.some({ userId: t.userId, newEmail: t.newEmail })
        })
    }),
    Layer.succeed(TwoFactorStore, {
      find: (userId) => Effect.sync(() => Option.fromNullable(twoFactor.get(userId))),
      begin: (userId, secret) =>
        Effect.sync(() => {
          if (twoFactor.get(userId)?.enabledAt) return false
          twoFactor.set(userId, { secret, enabledAt: null, lastStep: null })
          return true
        }),
      enable: (userId, at, step, digests) =>
        Effect.sync(() => {
          const record = twoFactor.get(userId)
          if (!record || record.enabledAt) return false
          twoFactor.set(userId, { ...record, enabledAt: at, lastStep: step })
          recoveryCodes.set(userId, new Map(digests.map((d) => [d, null])))
          return true
        }),
      useStep: (userId, step) =>
        Effect.sync(() => {
          const record = twoFactor.get(userId)
          if (!record || (record.lastStep !== null && record.lastStep >= step)) return false
          twoFactor.set(userId, { ...record, lastStep: step })
          return true
        }),
      useRecoveryCode: (userId, digest, at) =>
        Effect.sync(() => {
          const codes = recoveryCodes.get(userId)
          if (!codes || !codes.has(digest) || codes.get(digest) !== null) return false
          codes.set(digest, at)
          return true
        }),
      recoveryCodesLeft: (userId) => Effect.sync(() => [...(recoveryCodes.get(userId)?.values() ?? [])].filter((u) => u === null).length),
      remove: (userId) =>
        Effect.sync(() => {
          twoFactor.delete(userId)
          recoveryCodes.delete(userId)
        }),
      insertChallenge: (c) => Effect.sync(() => void challenges.set(c.tokenHash, { ...c, usedAt: null })),
      findChallenge: (hash, at) =>
        Effect.sync(() => {
          const c = challenges.get(hash)
          return c && !c.usedAt && c.expiresAt > at ? Option.some({ userId: c.userId, timeZone: c.timeZone }) : Option.none()
        }),
      consumeChallenge: (hash, at) =>
        Effect.sync(() => {
          const c = challenges.get(hash)
          if (!c || c.usedAt || c.expiresAt <= at) return false
          challenges.set(hash, { ...c, usedAt: at })
          return true
        })
    })
  )
})

/** A fast, deterministic hasher for domain tests (scrypt is deliberately slow). */
export const PlainTestHasher = Layer.succeed(PasswordHasher, {
  hash: (password) => Effect.succeed(`test$${password}`),
  verify: (password, hash) => Effect.succeed(hash === `test$${password}`),
  dummyHash: "test$"
})
