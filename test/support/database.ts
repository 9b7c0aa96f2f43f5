import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { databaseUrlLayer, InMemoryDatabase } from "../../src/platform/database"

/** Which database the adapter tests run on: PostgreSQL when TEST_DATABASE_URL is set, else PGlite. */
export const testDatabaseKind = process.env.TEST_DATABASE_URL ? "postgres" : "pglite"

/**
 * A fresh, isolated database for one test file: its own schema on the PostgreSQL server
 * (TEST_DATABASE_URL), or an in-memory PGlite. Extensions live in `public` and are shared.
 */
export const freshTestDatabase = (kind: "postgres" | "pglite" = testDatabaseKind): Layer.Layer<SqlClient.SqlClient, unknown> => {
  if (kind === "postgres") {
    const base = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"
    const schema = `t_${crypto.randomBytes(6).toString("hex")}`
    const url = new URL(base)
    url.searchParams.set("options", `-c search_path=${schema},public`)
    const admin = databaseUrlLayer(base, 1)
    const createSchema = Layer.scopedDiscard(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.acquireRelease(sql.unsafe(`CREATE SCHEMA ${schema}`), () =>
          // `<schema>_jobs` is where the job queue (pg-boss) installs itself for this schema.
          sql.unsafe(`DROP SCHEMA IF EXISTS ${schema}_jobs CASCADE`).pipe(
            Effect.zipRight(sql.unsafe(`DROP SCHEMA ${schema} CASCADE`)),
            Effect.orDie
          )
        )
      )
    ).pipe(Layer.provide(admin))
    return Layer.provideMerge(databaseUrlLayer(url.toString(), 5), createSchema) as any
  }
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), "mkt-pglite-"))
  return InMemoryDatabase(runDir)
}
