import { Effect, Layer } from "effect"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseUrlLayer } from "../../src/platform/database"
import { runMigrations } from "../../src/platform/migrations"
import { createExtensions, extensionStatements } from "../support/global-setup"

const base = process.env.TEST_DATABASE_URL

/**
 * A first CI run on a new machine failed once with `Migration "1_identity" failed`: two test files
 * migrated their schemas at once on a database without the extensions, and both ran CREATE
 * EXTENSION. createExtensions creates them first; this proves it on a brand-new database.
 */
describe.skipIf(!base)("a brand-new PostgreSQL database", () => {
  const name = `fresh_${process.pid}_${Date.now()}`
  const admin = new pg.Client({ connectionString: base })
  const urlOf = (database: string, schema?: string) => {
    const url = new URL(base!)
    url.pathname = `/${database}`
    if (schema) url.searchParams.set("options", `-c search_path=${schema},public`)
    return url.toString()
  }

  beforeAll(async () => {
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
  })
  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.end()
  })

  it("gets every extension the migrations name from createExtensions, then migrates many schemas at once", async () => {
    const named = extensionStatements("migrations").map((s) => /CREATE EXTENSION IF NOT EXISTS (\w+)/i.exec(s)![1]!)
    expect(named).toEqual(expect.arrayContaining(["citext", "unaccent", "pg_trgm", "btree_gist", "cube", "earthdistance"]))

    await createExtensions(urlOf(name))
    const fresh = new pg.Client({ connectionString: urlOf(name) })
    await fresh.connect()
    const installed = (await fresh.query<{ extname: string }>("SELECT extname FROM pg_extension")).rows.map((r) => r.extname)
    for (const schema of ["a", "b", "c", "d"]) await fresh.query(`CREATE SCHEMA ${schema}`)
    await fresh.end()
    expect(installed).toEqual(expect.arrayContaining(named))

    const migrate = (schema: string) =>
      Effect.runPromise(
        Effect.scoped(
          Layer.build(databaseUrlLayer(urlOf(name, schema), 2)).pipe(Effect.flatMap((context) => Effect.provide(runMigrations, context)))
        )
      )
    const applied = await Promise.all(["a", "b", "c", "d"].map(migrate))
    for (const migrations of applied) expect(migrations.length).toBeGreaterThan(5)
  })
})
