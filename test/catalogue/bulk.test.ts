import { SqlClient } from "@effect/sql"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { generateServices } from "../../src/modules/catalogue/adapters/bulk"
import { runMigrations } from "../../src/platform/migrations"
import { freshTestDatabase, testDatabaseKind } from "../support/database"

// The bulk generator's reads (database kind, provider ids, counts, index definitions) go through
// row schemas: a small load reports what the table holds.

describe(`bulk service generation (${testDatabaseKind})`, () => {
  let runtime: ManagedRuntime.ManagedRuntime<SqlClient.SqlClient, unknown>
  beforeAll(async () => {
    runtime = ManagedRuntime.make(freshTestDatabase())
    await runtime.runPromise(runMigrations)
  }, 120_000)
  afterAll(() => runtime?.dispose())

  it("inserts the services asked for under new providers and counts them", async () => {
    const report = await runtime.runPromise(generateServices({ services: 30, providers: 3 }))
    expect(report).toMatchObject({ inserted: 30, providers: 3, totalServices: 30, indexesRebuilt: false })
    const again = await runtime.runPromise(generateServices({ services: 10, providers: 3 }))
    expect(again.totalServices).toBe(40)
    const [row] = await runtime.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe("SELECT count(DISTINCT user_id) AS n FROM services"))
    )
    expect(row).toEqual({ n: 3 })
  }, 120_000)
})
