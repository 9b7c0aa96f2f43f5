import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { databaseUrlLayer, InMemoryDatabase } from "../../src/platform/database"

/** Which database the adapter tests run on: PostgreSQL when TEST_DATABASE_URL is set, else PGlite. */
export const testDatabaseKind = process.env.TEST_DATABASE_URL ? "postgres" : "pglite"

export interface TestDatabase {
  readonly layer: Layer.Layer<SqlClient.SqlClient, unknown>
  /** The URL of its schema on PostgreSQL (another server can connect to it); none on PGlite. */
  readonly url: string | undefined
}

/**
 * A fresh, isolated database for one test file: its own schema on the PostgreSQL server
 * (TEST_DATABASE_URL), dropped with the layer, or an in-memory PGlite. Extensions live in `public` and are shared.
 */
export const freshTestSchema = (kind: "postgres" | "pglite" = testDatabaseKind): TestDatabase => {
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
          sql
            .unsafe(`DROP SCHEMA IF EXISTS ${schema}_jobs CASCADE`)
            .pipe(Effect.zipRight(sql.unsafe(`DROP SCHEMA ${schema} CASCADE`)), Effect.orDie)
        )
      )
    ).pipe(Layer.provide(admin))
    return { layer: Layer.provideMerge(databaseUrlLayer(url.toString(), 5), createSchema) as any, url: url.toString() }
  }
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), "mkt-pglite-"))
  return { layer: InMemoryDatabase(runDir), url: undefined }
}

/** The layer of a fresh test database (see freshTestSchema). */
export const freshTestDatabase = (kind: "postgres" | "pglite" = testDatabaseKind): Layer.Layer<SqlClient.SqlClient, unknown> =>
  freshTestSchema(kind).layer

/** Another connection pool on a schema that a fresh test database made (the other owns and drops it). */
export const existingTestDatabase = (url: string): Layer.Layer<SqlClient.SqlClient, unknown> => databaseUrlLayer(url, 5)
