import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import * as crypto from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CalendarFeedRepositoryLive } from "../../src/modules/booking/adapters/postgres"
import { CalendarFeedRepository } from "../../src/modules/booking/ports"
import { runMigrations, runMigrationsThrough } from "../../src/platform/migrations"
import { emptyTestDatabase } from "../support/database"

const kinds: ReadonlyArray<"pglite" | "postgres"> = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"]
const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex")

// Migration 0037 (issue 23, item 10): a feed made when tokens were stored as they are keeps its URL
// working, now through the token's SHA-256, until its provider asks for a new address.
describe.each(kinds)("calendar feeds made before tokens were hashed, on %s", (kind) => {
  const runtime = ManagedRuntime.make(CalendarFeedRepositoryLive.pipe(Layer.provideMerge(emptyTestDatabase(kind))))
  const sql = <A extends object>(text: string, params: ReadonlyArray<unknown> = []) =>
    runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (db) => db.unsafe<A>(text, params)))
  const feeds = () => runtime.runPromise(CalendarFeedRepository)
  const legacyToken = crypto.randomBytes(32).toString("base64url")
  let providerId: string

  beforeAll(async () => {
    await runtime.runPromise(runMigrationsThrough(36))
    const [row] = await sql<{ id: string }>(
      `INSERT INTO users (email, password_hash, first_name, last_name, phone_number, role, is_email_verified, preferred_language)
       VALUES ($1, 'x', 'Léa', 'Côté', '5145550100', 'PROVIDER', true, 'fr') RETURNING id`,
      [`feed.${crypto.randomBytes(4).toString("hex")}@example.com`]
    )
    providerId = row!.id
    await sql("INSERT INTO calendar_feeds (provider_id, token) VALUES ($1, $2)", [providerId, legacyToken])
    await runtime.runPromise(runMigrations)
  })
  afterAll(() => runtime.dispose())

  it("drops the token, keeps the old URL opening the feed, and adds the derived one beside it", async () => {
    expect(JSON.stringify(await sql("SELECT * FROM calendar_feeds"))).not.toContain(legacyToken)
    const repo = await feeds()
    expect(await runtime.runPromise(repo.providerOf(sha256(legacyToken)))).toEqual(Option.some(providerId))
    // The provider's next visit stores a key; the old URL still works beside the new one.
    const nonce = await runtime.runPromise(repo.nonceOf(providerId, { nonce: "n".repeat(24), tokenHash: sha256("derived") }))
    expect(nonce).toBe("n".repeat(24))
    expect(await runtime.runPromise(repo.nonceOf(providerId, { nonce: "m".repeat(24), tokenHash: sha256("other") }))).toBe(nonce)
    expect(await runtime.runPromise(repo.providerOf(sha256("derived")))).toEqual(Option.some(providerId))
    expect(await runtime.runPromise(repo.providerOf(sha256(legacyToken)))).toEqual(Option.some(providerId))
  })

  it("a new address retires every earlier one, the old URL's too", async () => {
    const repo = await feeds()
    await runtime.runPromise(repo.replace(providerId, { nonce: "p".repeat(24), tokenHash: sha256("fresh") }))
    expect(await runtime.runPromise(repo.providerOf(sha256(legacyToken)))).toEqual(Option.none())
    expect(await runtime.runPromise(repo.providerOf(sha256("derived")))).toEqual(Option.none())
    expect(await runtime.runPromise(repo.providerOf(sha256("fresh")))).toEqual(Option.some(providerId))
  })
})
