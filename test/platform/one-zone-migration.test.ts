import { SqlClient } from "@effect/sql"
import { Effect, ManagedRuntime } from "effect"
import * as crypto from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runMigrations, runMigrationsThrough } from "../../src/platform/migrations"
import { emptyTestDatabase } from "../support/database"

const kinds: ReadonlyArray<"pglite" | "postgres"> = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"]

// Migration 0035 (issue 23, item 1): the plan's and the quiet hours' zones fold into the account's,
// the one zone left. Existing rows are written as 0034's schema had them, then 0035 runs.
describe.each(kinds)("one zone per account, migrating existing rows on %s", (kind) => {
  const runtime = ManagedRuntime.make(emptyTestDatabase(kind))
  const sql = <A extends object>(text: string, params: ReadonlyArray<unknown> = []) =>
    runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (db) => db.unsafe<A>(text, params)))
  const zones = new Map<string, string | null>()
  const ids: Record<string, string> = {}

  const account = async (name: string, role: string, zone: string | null) => {
    const [row] = await sql<{ id: string }>(
      `INSERT INTO users (email, password_hash, first_name, last_name, phone_number, role, is_email_verified, preferred_language, time_zone)
       VALUES ($1, 'x', 'Léa', 'Côté', '5145550100', $2, true, 'fr', $3) RETURNING id`,
      [`${name}.${crypto.randomBytes(4).toString("hex")}@example.com`, role, zone]
    )
    ids[name] = row!.id
  }
  const plan = (name: string, zone: string) =>
    sql("INSERT INTO availability_plans (provider_id, time_zone) VALUES ($1, $2)", [ids[name], zone])
  const quietHours = (name: string, zone: string) =>
    sql("INSERT INTO notification_preferences (user_id, quiet_hours_enabled, time_zone) VALUES ($1, true, $2)", [ids[name], zone])

  beforeAll(async () => {
    await runtime.runPromise(runMigrationsThrough(34))
    await account("planOnly", "PROVIDER", null)
    await plan("planOnly", "America/Toronto")
    await account("planAndAccount", "PROVIDER", "Europe/Paris")
    await plan("planAndAccount", "America/Vancouver")
    await quietHours("planAndAccount", "Asia/Tokyo")
    await account("quietOnly", "CLIENT", null)
    await quietHours("quietOnly", "America/Halifax")
    await account("quietDefault", "CLIENT", null)
    await quietHours("quietDefault", "Europe/Paris")
    await account("accountWins", "CLIENT", "Asia/Tokyo")
    await quietHours("accountWins", "America/Halifax")
    await account("nothing", "CLIENT", null)
    await runtime.runPromise(runMigrations)
    for (const row of await sql<{ id: string; timeZone: string | null }>("SELECT id, time_zone FROM users WHERE id = ANY($1)", [
      Object.values(ids)
    ]))
      zones.set(row.id, row.timeZone)
  })
  afterAll(() => runtime.dispose())

  it("a provider's plan zone wins, set or not: the slots they offered stay where they were", () => {
    expect(zones.get(ids.planOnly!)).toBe("America/Toronto")
    expect(zones.get(ids.planAndAccount!)).toBe("America/Vancouver")
  })

  it("an account without a zone takes its quiet hours' one when chosen; a set zone and the old default stay", () => {
    expect(zones.get(ids.quietOnly!)).toBe("America/Halifax")
    expect(zones.get(ids.accountWins!)).toBe("Asia/Tokyo")
    expect(zones.get(ids.quietDefault!)).toBeNull()
    expect(zones.get(ids.nothing!)).toBeNull()
  })

  it("leaves no zone anywhere else to drift from the account's", async () => {
    const columns = await sql<{ tableName: string }>(
      `SELECT table_name FROM information_schema.columns
       WHERE column_name = 'time_zone' AND table_schema = current_schema() ORDER BY table_name`
    )
    expect(columns.map((c) => c.tableName)).toEqual(["two_factor_challenges", "users"])
  })
})
