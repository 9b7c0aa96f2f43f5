import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import * as crypto from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { UserRepositoryLive } from "../../src/modules/identity/adapters/postgres"
import { UserRepository } from "../../src/modules/identity/ports"
import {
  composeMail,
  Mailer,
  NotificationSettings,
  NotificationSettingsLive,
  Outbox,
  PreferenceAwareMailerLive
} from "../../src/modules/notifications"
import { DigestRepository, PreferenceRepository } from "../../src/modules/notifications/ports"
import {
  DigestRepositoryLive,
  OutboxReaderLive,
  OutboxTransportLive,
  PreferenceRepositoryLive
} from "../../src/modules/notifications/adapters/postgres"
import { HmacUnsubscribeTokensLive } from "../../src/modules/notifications/adapters/tokens"
import { defaultPreferences } from "../../src/modules/notifications/preferences"
import { AppConfigOf } from "../../src/platform/config"
import { InMemoryJobQueue } from "../../src/platform/jobs"
import { runMigrations } from "../../src/platform/migrations"
import { SqlTransactional } from "../../src/platform/transaction"
import { freshTestDatabase } from "../support/database"
import type { RuntimeOf, ServicesOf } from "../support/layers"
import { scratchDir } from "../support/scratch"

/** PGlite always; the real PostgreSQL server too when TEST_DATABASE_URL is set. */
const kinds: ReadonlyArray<"pglite" | "postgres"> = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"]

const DAY = 86_400_000

const stack = Layer.mergeAll(NotificationSettingsLive, PreferenceAwareMailerLive).pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      PreferenceRepositoryLive,
      DigestRepositoryLive,
      OutboxTransportLive,
      OutboxReaderLive,
      UserRepositoryLive,
      SqlTransactional,
      HmacUnsubscribeTokensLive,
      InMemoryJobQueue()
    )
  ),
  Layer.provideMerge(AppConfigOf({ publicUrl: "https://market.test", dataDir: scratchDir("notifications") }))
)

const stackOn = (kind: (typeof kinds)[number]) => stack.pipe(Layer.provideMerge(freshTestDatabase(kind)))

describe.each(kinds)("notification adapters on %s", (kind) => {
  let runtime: RuntimeOf<ReturnType<typeof stackOn>>
  const run = <A, E>(effect: Effect.Effect<A, E, ServicesOf<ReturnType<typeof stackOn>>>) => runtime.runPromise(effect)
  const newUser = (language: "fr" | "en" = "fr", timeZone: string | null = null) =>
    run(
      Effect.flatMap(UserRepository, (users) =>
        users.insert({
          email: `Digest.${crypto.randomBytes(4).toString("hex")}@Example.com`,
          passwordHash: "hash",
          firstName: "Léa",
          lastName: "Côté",
          phoneNumber: "5145550100",
          role: "CLIENT",
          isEmailVerified: true,
          preferredLanguage: language,
          timeZone
        })
      )
    )

  beforeAll(async () => {
    runtime = ManagedRuntime.make(stackOn(kind))
    await run(runMigrations)
  }, 60_000)
  afterAll(() => runtime?.dispose())

  it("preferences: the defaults until stored, in the account's zone; saved and updated in place; recipients matched case-insensitively", async () => {
    const user = await newUser("en", "America/Montreal")
    const store = await run(PreferenceRepository)
    const defaults = { ...defaultPreferences, timeZone: "America/Montreal" }
    expect(await run(store.find(user.id))).toEqual(Option.some(defaults))
    expect(await run(store.find(crypto.randomUUID()))).toEqual(Option.none())
    const [recipient] = await run(store.recipients([user.email.toUpperCase(), "nobody@example.com"]))
    expect(recipient).toEqual({ userId: user.id, email: user.email, firstName: "Léa", language: "en", preferences: defaults })
    const weekly = {
      ...defaults,
      emailFrequency: "weekly" as const,
      quietHoursEnabled: true,
      quietHoursStart: "23:15",
      quietHoursEnd: "06:45"
    }
    await run(store.save(user.id, weekly))
    await run(store.save(user.id, { ...weekly, emailNotifications: false }))
    expect(await run(store.find(user.id))).toEqual(Option.some({ ...weekly, emailNotifications: false }))
    // The zone is the account's, read with it: changing the account's moves the quiet hours.
    await run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE users SET time_zone = 'Asia/Tokyo' WHERE id = ${user.id}`))
    expect(Option.map(await run(store.recipientById(user.id)), (r) => r.preferences.timeZone)).toEqual(Option.some("Asia/Tokyo"))
  })

  it("the database refuses a window whose start equals its end", async () => {
    const user = await newUser()
    const store = await run(PreferenceRepository)
    await expect(run(store.save(user.id, { ...defaultPreferences, quietHoursStart: "07:00", quietHoursEnd: "07:00" }))).rejects.toThrow()
  })

  it("the Mailer writes digest items and suppressions in the caller's transaction", async () => {
    const daily = await newUser()
    const never = await newUser()
    const store = await run(PreferenceRepository)
    await run(store.save(daily.id, { ...defaultPreferences, emailFrequency: "daily" }))
    await run(store.save(never.id, { ...defaultPreferences, emailFrequency: "never" }))
    const mail = (email: string) =>
      composeMail(
        "booking",
        { email, firstName: "Léa", preferredLanguage: "fr" },
        "Réservation confirmée",
        ["Le 12 mars."],
        { label: "Voir", link: "https://market.test/bookings" },
        "Atelier Test"
      )
    await run(Effect.flatMap(Mailer, (mailer) => mailer.sendAll([mail(daily.email), mail(never.email)])))
    const pending = await run(Effect.flatMap(DigestRepository, (d) => d.pending(daily.id)))
    expect(pending.map((i) => [i.kind, i.subject, i.body, i.link])).toEqual([
      ["booking", "Réservation confirmée", "Le 12 mars.", "https://market.test/bookings"]
    ])
    expect(await run(store.suppressed(never.id))).toEqual([
      { userId: never.id, recipient: never.email, kind: "booking", subject: "Réservation confirmée", reason: "never" }
    ])
    const outbox = await run(Effect.flatMap(Outbox, (o) => o.latest(1000)))
    expect(outbox.filter((m) => m.to === daily.email || m.to === never.email)).toEqual([])
  })

  it("two digest workers at once: each recipient gets one digest, each item is sent once", async () => {
    const recipients = await Promise.all(Array.from({ length: 6 }, () => newUser()))
    const store = await run(PreferenceRepository)
    const digests = await run(DigestRepository)
    const createdAt = new Date(Date.now() - 2 * DAY)
    for (const user of recipients) {
      await run(store.save(user.id, { ...defaultPreferences, emailFrequency: "daily" }))
      for (const n of [1, 2, 3]) {
        await run(
          digests.add({
            userId: user.id,
            kind: "booking",
            subject: `Événement ${n}`,
            body: `Détail ${n}`,
            link: "https://market.test/bookings",
            createdAt: new Date(createdAt.getTime() + n * 1000)
          })
        )
      }
    }
    const settings = await run(NotificationSettings)
    const runs = await run(
      Effect.all([settings.sendDueDigests, settings.sendDueDigests, settings.sendDueDigests], { concurrency: "unbounded" })
    )
    expect(runs.reduce((sum, r) => sum + r.items, 0)).toBeGreaterThanOrEqual(18)
    const outbox = await run(Effect.flatMap(Outbox, (o) => o.latest(1000)))
    for (const user of recipients) {
      const mails = outbox.filter((m) => m.to === user.email)
      // One digest normally; with a race, the items split across digests but none is listed twice.
      const listed = mails.flatMap((m) => [1, 2, 3].filter((n) => m.text.includes(`Événement ${n}`)))
      expect(listed.sort()).toEqual([1, 2, 3])
      expect(await run(digests.pending(user.id))).toEqual([])
    }
    const sent = await run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql<{
            n: number
          }>`SELECT count(*)::int AS n FROM notification_digest_items WHERE sent_at IS NOT NULL AND user_id IN ${sql.in(recipients.map((r) => r.id))}`
      )
    )
    expect(sent[0]!.n).toBe(18)
    expect((await run(settings.sendDueDigests)).digests).toBe(0)
  })

  it("claiming twice at once never answers the same item", async () => {
    const user = await newUser()
    const digests = await run(DigestRepository)
    for (let n = 0; n < 20; n++) {
      await run(
        digests.add({
          userId: user.id,
          kind: "message",
          subject: `m${n}`,
          body: "",
          link: "https://market.test",
          createdAt: new Date(Date.now() - DAY)
        })
      )
    }
    const tx = await run(Effect.map(SqlClient.SqlClient, (sql) => sql.withTransaction))
    const claim = tx(digests.claim(user.id, new Date(), new Date()))
    const [a, b] = await run(Effect.all([claim, claim], { concurrency: "unbounded" }))
    const ids = [...a, ...b].map((i) => i.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toHaveLength(20)
  })
})
