import { SqlClient } from "@effect/sql"
import { Effect, Either, Layer, ManagedRuntime, Option } from "effect"
import * as crypto from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { OneTimeTokenStoreLive, RefreshTokenStoreLive, UserRepositoryLive } from "../../src/modules/identity/adapters/postgres"
import { OneTimeTokenStore, RefreshTokenStore, UserRepository, type UserRepositoryShape } from "../../src/modules/identity/ports"
import { MailTransport, Outbox } from "../../src/modules/notifications"
import { ContactRepositoryLive, OutboxReaderLive, OutboxTransportLive } from "../../src/modules/notifications/adapters/postgres"
import { ContactRepository } from "../../src/modules/notifications/ports"
import { runMigrations } from "../../src/platform/migrations"
import { SqlTransactional, Transactional } from "../../src/platform/transaction"
import { emptyTestDatabase } from "../support/database"
import { type RuntimeOf, type ServicesOf } from "../support/layers"

/** PGlite always; the real PostgreSQL server too when TEST_DATABASE_URL is set. */
const kinds: ReadonlyArray<"pglite" | "postgres"> = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"]

const adapters = Layer.mergeAll(
  UserRepositoryLive,
  RefreshTokenStoreLive,
  OneTimeTokenStoreLive,
  OutboxTransportLive,
  OutboxReaderLive,
  ContactRepositoryLive,
  SqlTransactional
)
const stackOn = (kind: (typeof kinds)[number]) => adapters.pipe(Layer.provideMerge(emptyTestDatabase(kind)))

let sequence = 0
const newAccount = (overrides: Partial<Parameters<UserRepositoryShape["insert"]>[0]> = {}) => ({
  email: `user${++sequence}.${crypto.randomBytes(3).toString("hex")}@example.com`,
  passwordHash: "hash",
  firstName: "Léa",
  lastName: "Côté",
  phoneNumber: "5145550100",
  role: "CLIENT" as const,
  isEmailVerified: false,
  preferredLanguage: "fr" as const,
  ...overrides
})

const ms = (hours: number) => hours * 3600_000
const at = (base: Date, hours: number) => new Date(base.getTime() + ms(hours))
/** A whole number of milliseconds (timestamptz keeps microseconds, JavaScript milliseconds). */
const NOW = new Date(Math.floor(Date.now() / 1000) * 1000)

describe.each(kinds)("Postgres adapters on %s", (kind) => {
  let runtime: RuntimeOf<ReturnType<typeof stackOn>>
  const run = <A, E>(effect: Effect.Effect<A, E, ServicesOf<ReturnType<typeof stackOn>>>) => runtime.runPromise(effect)
  const either = <A, E>(effect: Effect.Effect<A, E, ServicesOf<ReturnType<typeof stackOn>>>) => run(Effect.either(effect))
  const count = (table: string, where = "true") =>
    run(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`))
    ).then((rows) => rows[0]!.n)
  const users = () => run(UserRepository)
  const insertUser = (overrides: Parameters<typeof newAccount>[0] = {}) =>
    run(Effect.flatMap(UserRepository, (repo) => repo.insert(newAccount(overrides))))

  beforeAll(async () => {
    runtime = ManagedRuntime.make(stackOn(kind))
    const applied = await run(runMigrations)
    expect(applied.map(([id]) => id)).toContain(1)
  })
  afterAll(() => runtime?.dispose())

  it("migrations are recorded and running them again applies nothing", async () => {
    expect(await run(runMigrations)).toEqual([])
  })

  describe("UserRepositoryLive", () => {
    it("inserts an account and reads it back by id and by email (with the hash only by email)", async () => {
      const repo = await users()
      const account = newAccount({ role: "PROVIDER", preferredLanguage: "en", isEmailVerified: true })
      const user = await run(repo.insert(account))
      expect(user).toMatchObject({
        email: account.email,
        firstName: "Léa",
        lastName: "Côté",
        phoneNumber: "5145550100",
        role: "PROVIDER",
        isEmailVerified: true,
        isActive: true,
        preferredLanguage: "en"
      })
      expect(user.id).toMatch(/^[0-9a-f-]{36}$/)
      expect(user.createdAt).toBeInstanceOf(Date)
      expect(Math.abs(user.createdAt.getTime() - Date.now())).toBeLessThan(60_000)
      expect("passwordHash" in user).toBe(false)

      const byId = Option.getOrThrow(await run(repo.findById(user.id)))
      expect(byId).toEqual(user)
      const byEmail = Option.getOrThrow(await run(repo.findByEmail(account.email)))
      expect(byEmail).toEqual({ ...user, passwordHash: "hash" })
      expect(Option.isNone(await run(repo.findById(crypto.randomUUID())))).toBe(true)
      expect(Option.isNone(await run(repo.findByEmail("nobody@example.com")))).toBe(true)
    })

    it("emails are unique whatever their case: a second insert fails with Conflict EMAIL_TAKEN", async () => {
      const repo = await users()
      const first = await insertUser({ email: "unique@example.com" })
      const again = await either(repo.insert(newAccount({ email: "UNIQUE@Example.com" })))
      expect(Either.isLeft(again) && [again.left._tag, again.left.code]).toEqual(["Conflict", "EMAIL_TAKEN"])
      expect(await count("users", "email = 'unique@example.com'")).toBe(1)
      expect(Option.getOrThrow(await run(repo.findByEmail("Unique@EXAMPLE.com"))).id).toBe(first.id)
    })

    it("concurrent inserts of one email: exactly one wins, the others get EMAIL_TAKEN", async () => {
      const repo = await users()
      const results = await run(
        Effect.all(
          Array.from({ length: 4 }, () => Effect.either(repo.insert(newAccount({ email: "race@example.com" })))),
          {
            concurrency: "unbounded"
          }
        )
      )
      expect(results.filter(Either.isRight)).toHaveLength(1)
      for (const r of results.filter(Either.isLeft)) expect(r.left.code).toBe("EMAIL_TAKEN")
    })

    it("updates verification, password hash, language, role and activity of one account only", async () => {
      const repo = await users()
      const user = await insertUser()
      const bystander = await insertUser()
      await run(repo.markEmailVerified(user.id))
      await run(repo.setPasswordHash(user.id, "new-hash"))
      await run(repo.setPreferredLanguage(user.id, "en"))
      await run(repo.setRole(user.id, "ADMIN"))
      await run(repo.setActive(user.id, false))
      expect(Option.getOrThrow(await run(repo.findById(user.id)))).toMatchObject({
        isEmailVerified: true,
        preferredLanguage: "en",
        role: "ADMIN",
        isActive: false
      })
      expect(Option.getOrThrow(await run(repo.findPasswordHash(user.id)))).toBe("new-hash")
      expect(Option.isNone(await run(repo.findPasswordHash(crypto.randomUUID())))).toBe(true)
      await run(repo.setActive(user.id, true))
      expect(Option.getOrThrow(await run(repo.findById(user.id))).isActive).toBe(true)

      expect(Option.getOrThrow(await run(repo.findById(bystander.id)))).toEqual(bystander)
      expect(Option.getOrThrow(await run(repo.findPasswordHash(bystander.id)))).toBe("hash")
    })
  })

  describe("RefreshTokenStoreLive", () => {
    it("stores a token by its hash and reads its record back", async () => {
      const store = await run(RefreshTokenStore)
      const user = await insertUser()
      const familyId = crypto.randomUUID()
      await run(store.insert({ tokenHash: "rt-1", userId: user.id, familyId, expiresAt: at(NOW, 720) }))
      expect(Option.getOrThrow(await run(store.find("rt-1")))).toEqual({
        userId: user.id,
        familyId,
        expiresAt: at(NOW, 720),
        rotatedAt: null,
        revokedAt: null
      })
      expect(Option.isNone(await run(store.find("unknown")))).toBe(true)
    })

    it("markRotated succeeds once; a revoked token cannot be rotated", async () => {
      const store = await run(RefreshTokenStore)
      const user = await insertUser()
      const familyId = crypto.randomUUID()
      await run(store.insert({ tokenHash: "rt-rot", userId: user.id, familyId, expiresAt: at(NOW, 1) }))
      expect(await run(store.markRotated("rt-rot", NOW))).toBe(true)
      expect(await run(store.markRotated("rt-rot", at(NOW, 0.5)))).toBe(false)
      expect(Option.getOrThrow(await run(store.find("rt-rot"))).rotatedAt).toEqual(NOW)
      expect(await run(store.markRotated("never-issued", NOW))).toBe(false)

      await run(store.insert({ tokenHash: "rt-rev", userId: user.id, familyId, expiresAt: at(NOW, 1) }))
      await run(store.revokeFamily(familyId, NOW))
      expect(await run(store.markRotated("rt-rev", NOW))).toBe(false)
    })

    it("concurrent markRotated of one token: exactly one wins", async () => {
      const store = await run(RefreshTokenStore)
      const user = await insertUser()
      await run(store.insert({ tokenHash: "rt-race", userId: user.id, familyId: crypto.randomUUID(), expiresAt: at(NOW, 1) }))
      const wins = await run(
        Effect.all(
          Array.from({ length: 6 }, () => store.markRotated("rt-race", NOW)),
          { concurrency: "unbounded" }
        )
      )
      expect(wins.filter(Boolean)).toHaveLength(1)
    })

    it("revokeFamily revokes that family only, and keeps the first revocation time", async () => {
      const store = await run(RefreshTokenStore)
      const user = await insertUser()
      const [f1, f2] = [crypto.randomUUID(), crypto.randomUUID()]
      for (const [hash, familyId] of [
        ["f1-a", f1],
        ["f1-b", f1],
        ["f2-a", f2]
      ] as const) {
        await run(store.insert({ tokenHash: hash, userId: user.id, familyId, expiresAt: at(NOW, 1) }))
      }
      await run(store.revokeFamily(f1, NOW))
      await run(store.revokeFamily(f1, at(NOW, 1)))
      expect(Option.getOrThrow(await run(store.find("f1-a"))).revokedAt).toEqual(NOW)
      expect(Option.getOrThrow(await run(store.find("f1-b"))).revokedAt).toEqual(NOW)
      expect(Option.getOrThrow(await run(store.find("f2-a"))).revokedAt).toBeNull()
    })

    it("revokeAllOfUser revokes every family of that user only", async () => {
      const store = await run(RefreshTokenStore)
      const alice = await insertUser()
      const bob = await insertUser()
      await run(store.insert({ tokenHash: "alice-1", userId: alice.id, familyId: crypto.randomUUID(), expiresAt: at(NOW, 1) }))
      await run(store.insert({ tokenHash: "alice-2", userId: alice.id, familyId: crypto.randomUUID(), expiresAt: at(NOW, 1) }))
      await run(store.insert({ tokenHash: "bob-1", userId: bob.id, familyId: crypto.randomUUID(), expiresAt: at(NOW, 1) }))
      await run(store.revokeAllOfUser(alice.id, NOW))
      expect(Option.getOrThrow(await run(store.find("alice-1"))).revokedAt).toEqual(NOW)
      expect(Option.getOrThrow(await run(store.find("alice-2"))).revokedAt).toEqual(NOW)
      expect(Option.getOrThrow(await run(store.find("bob-1"))).revokedAt).toBeNull()
    })
  })

  describe("OneTimeTokenStoreLive", () => {
    it("consumes a live token once, for its purpose only, before its expiry only", async () => {
      const store = await run(OneTimeTokenStore)
      const user = await insertUser()
      await run(store.insert({ tokenHash: "ott-verify", userId: user.id, purpose: "VERIFY_EMAIL", expiresAt: at(NOW, 24) }))
      await run(store.insert({ tokenHash: "ott-reset", userId: user.id, purpose: "RESET_PASSWORD", expiresAt: at(NOW, 1) }))

      expect(Option.isNone(await run(store.consume("ott-verify", "RESET_PASSWORD", NOW)))).toBe(true)
      expect(await run(store.consume("ott-verify", "VERIFY_EMAIL", NOW))).toEqual(Option.some(user.id))
      expect(Option.isNone(await run(store.consume("ott-verify", "VERIFY_EMAIL", NOW)))).toBe(true)

      // Exactly at its expiry a token is dead.
      expect(Option.isNone(await run(store.consume("ott-reset", "RESET_PASSWORD", at(NOW, 1))))).toBe(true)
      expect(await run(store.consume("ott-reset", "RESET_PASSWORD", at(NOW, 0.99)))).toEqual(Option.some(user.id))
      expect(Option.isNone(await run(store.consume("never-issued", "VERIFY_EMAIL", NOW)))).toBe(true)
    })

    it("concurrent consumption of one token: exactly one succeeds", async () => {
      const store = await run(OneTimeTokenStore)
      const user = await insertUser()
      await run(store.insert({ tokenHash: "ott-race", userId: user.id, purpose: "RESET_PASSWORD", expiresAt: at(NOW, 1) }))
      const results = await run(
        Effect.all(
          Array.from({ length: 6 }, () => store.consume("ott-race", "RESET_PASSWORD", NOW)),
          { concurrency: "unbounded" }
        )
      )
      expect(results.filter(Option.isSome)).toHaveLength(1)
    })
  })

  describe("outbox transport and reader", () => {
    it("reads mails written in one statement (one instant) in the order they were written, newest first", async () => {
      const mailer = await run(MailTransport)
      const outbox = await run(Outbox)
      const tag = crypto.randomBytes(4).toString("hex")
      const mails = Array.from({ length: 6 }, (_, n) => ({
        to: `same-${n}-${tag}@example.com`,
        subject: `S ${n}`,
        text: `t ${n}`,
        html: `<p>${n}</p>`
      }))
      await run(mailer.sendAll(mails))
      const latest = await run(outbox.latest(6))
      expect(latest.map((m) => m.to)).toEqual(mails.map((m) => m.to).reverse())
    })

    it("stores mails as rows and reads the newest first, up to the limit", async () => {
      const mailer = await run(MailTransport)
      const outbox = await run(Outbox)
      const tag = crypto.randomBytes(4).toString("hex")
      for (const n of [1, 2, 3]) {
        await run(mailer.send({ to: `r${n}-${tag}@example.com`, subject: `Sujet ${n} é`, text: `texte ${n}`, html: `<p>${n}</p>` }))
      }
      const latest = await run(outbox.latest(2))
      expect(latest).toHaveLength(2)
      expect(latest.map((m) => m.to)).toEqual([`r3-${tag}@example.com`, `r2-${tag}@example.com`])
      expect(latest[0]).toMatchObject({ subject: "Sujet 3 é", text: "texte 3", html: "<p>3</p>" })
      expect(latest[0]!.id).toMatch(/^[0-9a-f-]{36}$/)
      expect(latest[0]!.createdAt).toBeInstanceOf(Date)
      expect((await run(outbox.latest(100))).length).toBeGreaterThanOrEqual(3)
    })
  })

  describe("ContactRepositoryLive", () => {
    it("stores a message, anonymous or from an account", async () => {
      const contacts = await run(ContactRepository)
      const user = await insertUser()
      await run(contacts.insert({ name: "Anne", email: "anne@example.com", subject: "general", message: "Bonjour", userId: null }))
      await run(contacts.insert({ name: "Léa", email: user.email, subject: "bug", message: "Ça plante", userId: user.id }))
      const rows = await run(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) =>
            sql<{ name: string; email: string; subject: string; message: string; userId: string | null }>`
            SELECT name, email, subject, message, user_id AS "userId" FROM contact_messages
            WHERE email IN (${"anne@example.com"}, ${user.email}) ORDER BY name`
        )
      )
      expect(rows).toEqual([
        { name: "Anne", email: "anne@example.com", subject: "general", message: "Bonjour", userId: null },
        { name: "Léa", email: user.email, subject: "bug", message: "Ça plante", userId: user.id }
      ])
    })
  })

  describe("SqlTransactional", () => {
    it("a failure inside run leaves no row behind (account, token, mail, contact)", async () => {
      const tx = await run(Transactional)
      const email = `rollback-${crypto.randomBytes(4).toString("hex")}@example.com`
      const work = Effect.gen(function* () {
        const repo = yield* UserRepository
        const user = yield* repo.insert(newAccount({ email }))
        yield* (yield* OneTimeTokenStore).insert({
          tokenHash: `tx-${email}`,
          userId: user.id,
          purpose: "VERIFY_EMAIL",
          expiresAt: at(NOW, 1)
        })
        yield* (yield* MailTransport).send({ to: email, subject: "s", text: "t", html: "h" })
        yield* (yield* ContactRepository).insert({ name: "n", email, subject: "general", message: "m", userId: user.id })
        // Visible inside the transaction...
        expect(Option.isSome(yield* repo.findByEmail(email))).toBe(true)
        return yield* Effect.fail("boom" as const)
      })
      expect(await either(tx.run(work))).toEqual(Either.left("boom"))
      // ...and gone after it.
      expect(await count("users", `email = '${email}'`)).toBe(0)
      expect(await count("one_time_tokens", `token_hash = 'tx-${email}'`)).toBe(0)
      expect(await count("mail_outbox", `recipient = '${email}'`)).toBe(0)
      expect(await count("contact_messages", `email = '${email}'`)).toBe(0)
    })

    it("a domain failure (duplicate email) rolls back the writes before it", async () => {
      const tx = await run(Transactional)
      const repo = await users()
      const taken = await insertUser()
      const fresh = `fresh-${crypto.randomBytes(4).toString("hex")}@example.com`
      const result = await either(
        tx.run(Effect.zipRight(repo.insert(newAccount({ email: fresh })), repo.insert(newAccount({ email: taken.email }))))
      )
      expect(Either.isLeft(result) && result.left.code).toBe("EMAIL_TAKEN")
      expect(await count("users", `email = '${fresh}'`)).toBe(0)
    })

    it("a defect inside run rolls back too", async () => {
      const tx = await run(Transactional)
      const repo = await users()
      const email = `defect-${crypto.randomBytes(4).toString("hex")}@example.com`
      const exit = await run(Effect.exit(tx.run(Effect.zipRight(repo.insert(newAccount({ email })), Effect.dieMessage("bug")))))
      expect(exit._tag).toBe("Failure")
      expect(await count("users", `email = '${email}'`)).toBe(0)
    })

    it("a successful run commits every write", async () => {
      const tx = await run(Transactional)
      const email = `commit-${crypto.randomBytes(4).toString("hex")}@example.com`
      await run(
        tx.run(
          Effect.gen(function* () {
            yield* (yield* UserRepository).insert(newAccount({ email }))
            yield* (yield* MailTransport).send({ to: email, subject: "s", text: "t", html: "h" })
          })
        )
      )
      expect(await count("users", `email = '${email}'`)).toBe(1)
      expect(await count("mail_outbox", `recipient = '${email}'`)).toBe(1)
    })
  })
})
