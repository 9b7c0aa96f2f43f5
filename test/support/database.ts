import type { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import * as crypto from "node:crypto"
import pg from "pg"
import { inject } from "vitest"
import { databaseUrlLayer, InMemoryDatabase } from "../../src/platform/database"
import { type Template, type TestTemplates, urlOfDatabase } from "./templates"
import { scratchDir } from "./scratch"

/** Which database the adapter tests run on: PostgreSQL when TEST_DATABASE_URL is set, else PGlite. */
export const testDatabaseKind = process.env.TEST_DATABASE_URL ? "postgres" : "pglite"

/** The stores a contract suite runs on: in memory, PGlite, and PostgreSQL when TEST_DATABASE_URL is set. */
export const storeKinds: ReadonlyArray<"memory" | "pglite" | "postgres"> = process.env.TEST_DATABASE_URL
  ? ["memory", "pglite", "postgres"]
  : ["memory", "pglite"]

export interface TestDatabase {
  readonly layer: Layer.Layer<SqlClient.SqlClient, unknown>
  /** Its URL on PostgreSQL (another server or a CLI can connect to it); none on PGlite. */
  readonly url: string | undefined
}

/** The templates the global setup built for this run (test/support/global-setup.ts). */
export const testTemplates = (): TestTemplates => {
  const templates = inject("testTemplates")
  if (!templates) throw new Error("no test templates: run the tests through vitest (its global setup builds them)")
  return templates
}

const adminQuery = async (text: string) => {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
  await admin.connect()
  try {
    await admin.query(text)
  } finally {
    await admin.end()
  }
}

/**
 * A database of its own on TEST_DATABASE_URL's server, copied from a template database (or new and
 * empty), dropped with the layer.
 */
const copyOnPostgres = (prefix: string, template: string | undefined): TestDatabase => {
  const name = `${prefix}_${crypto.randomBytes(6).toString("hex")}`
  const url = urlOfDatabase(process.env.TEST_DATABASE_URL!, name)
  const created = Layer.scopedDiscard(
    Effect.acquireRelease(
      Effect.promise(() => adminQuery(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`)),
      () => Effect.promise(() => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
    )
  )
  return { layer: Layer.provideMerge(databaseUrlLayer(url, 5), created), url }
}

/**
 * A fresh, isolated database for one test file, copied in milliseconds from the run's template:
 * `migrated` (every migration, no rows) or `seeded` (the demo data too, as a first start leaves it).
 * On PostgreSQL (TEST_DATABASE_URL) a database of its own, dropped with the layer; on PGlite an
 * in-memory instance loaded from the template's dump, its socket in `runDir` (a CLI can attach there).
 */
export const testDatabaseFrom = (
  template: Template,
  options: { readonly kind?: "postgres" | "pglite"; readonly runDir?: string } = {}
): TestDatabase => {
  const templates = testTemplates()
  const kind = options.kind ?? testDatabaseKind
  if (kind === "postgres") {
    const database = templates.postgres?.[template]
    if (!database) throw new Error("no PostgreSQL template: TEST_DATABASE_URL was not set when the run started")
    return copyOnPostgres(templates.prefix, database)
  }
  const dump = templates.pglite[template]
  if (!dump) throw new Error(`no PGlite template "${template}" in this run`)
  const runDir = options.runDir ?? scratchDir("pglite")
  return { layer: InMemoryDatabase(runDir, { loadFrom: dump }), url: undefined }
}

/** A database with no migration applied, for the tests of migrating itself. */
export const emptyTestDatabase = (kind: "postgres" | "pglite" = testDatabaseKind): Layer.Layer<SqlClient.SqlClient, unknown> => {
  if (kind === "postgres") return copyOnPostgres(testTemplates().prefix, undefined).layer
  return InMemoryDatabase(scratchDir("pglite"))
}

/** A migrated, empty database for one test file (see testDatabaseFrom). */
export const freshTestDatabase = (kind: "postgres" | "pglite" = testDatabaseKind): Layer.Layer<SqlClient.SqlClient, unknown> =>
  testDatabaseFrom("migrated", { kind }).layer

/** Another connection pool on a database that a fresh test database made (the other owns and drops it). */
export const existingTestDatabase = (url: string): Layer.Layer<SqlClient.SqlClient, unknown> => databaseUrlLayer(url, 5)
