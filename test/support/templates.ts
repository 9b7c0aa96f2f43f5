import type { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import pg from "pg"
import { startup } from "../../src/app/application"
import { domainOn } from "../../src/app/layers"
import { AppConfigOf } from "../../src/platform/config"
import { databaseUrlLayer, InMemoryDatabase } from "../../src/platform/database"
import { runMigrations } from "../../src/platform/migrations"

/**
 * The test world, built once per run by the global setup: a database with every migration applied
 * (`migrated`), and one where the application has also started once and seeded the demo data
 * (`seeded`, with the data folder that start wrote: demo photos and the token secret). Each test file
 * copies the one it needs (test/support/database.ts) instead of migrating and seeding its own.
 */
export type Template = "migrated" | "seeded"

export interface TestTemplates {
  /** Names this run's databases on PostgreSQL start with (its leftovers are found by it). */
  readonly prefix: string
  /** Template databases on TEST_DATABASE_URL's server, when it is set. */
  readonly postgres: Readonly<Record<Template, string>> | undefined
  /** PGlite data directories dumped to files; `seeded` only when the servers run on PGlite. */
  readonly pglite: { readonly migrated: string; readonly seeded: string | undefined }
  /** The data folder the seeded start left (uploads, jwt-secret): every test server starts from a copy. */
  readonly seededDataDir: string
}

declare module "vitest" {
  export interface ProvidedContext {
    testTemplates: TestTemplates
  }
}

/**
 * Databases of one global setup of vitest process `pid` (a run of several projects sets up each, in
 * one process): the pid finds a killed run's leftovers, the random part keeps two setups apart.
 */
const databaseNamePrefix = (pid: number) => `mkt_t${pid}_${crypto.randomBytes(3).toString("hex")}`

export const urlOfDatabase = (base: string, database: string) => {
  const url = new URL(base)
  url.pathname = `/${database}`
  return url.toString()
}

/** The configuration every test server starts with (before a test's own overrides). */
export const testServerConfig = (dataDir: string, port = 0) => ({
  port,
  host: "127.0.0.1",
  dataDir,
  authRateLimit: 10_000,
  devMail: true
})

const quiet = Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))

const migrateOn = (database: Layer.Layer<SqlClient.SqlClient, unknown>) =>
  Effect.runPromise(Effect.scoped(Effect.flatMap(Layer.build(database), (context) => Effect.provide(runMigrations, context))))

/** What a test server's first start does (migrate, seed), on `database`, writing its files to `dataDir`. */
const seedOn = (database: Layer.Layer<SqlClient.SqlClient, unknown>, dataDir: string) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(Layer.build(domainOn(database).pipe(Layer.provideMerge(AppConfigOf(testServerConfig(dataDir))), quiet)), (context) =>
        Effect.provide(startup, context)
      )
    ) as Effect.Effect<void, unknown>
  )

const withClient = async <A>(url: string, use: (client: pg.Client) => Promise<A>): Promise<A> => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await use(client)
  } finally {
    await client.end()
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Drops the databases of runs whose vitest process is gone (a run killed before its teardown). */
const dropLeftovers = (admin: pg.Client) =>
  admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname ~ '^mkt_t[0-9]+_'").then(async ({ rows }) => {
    for (const { datname } of rows) {
      const pid = Number(/^mkt_t(\d+)_/.exec(datname)![1])
      if (pid === process.pid || isAlive(pid)) continue
      await admin.query(`ALTER DATABASE ${datname} IS_TEMPLATE false`)
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`)
    }
  })

/** Builds the PostgreSQL templates: migrated, then a copy of it seeded. No connection stays, so each can be copied. */
const buildOnPostgres = async (base: string, prefix: string, seededDataDir: string) => {
  const names = { migrated: `${prefix}_tpl_migrated`, seeded: `${prefix}_tpl_seeded` }
  await withClient(base, async (admin) => {
    await dropLeftovers(admin)
    await admin.query(`CREATE DATABASE ${names.migrated}`)
  })
  await migrateOn(databaseUrlLayer(urlOfDatabase(base, names.migrated), 2))
  await withClient(base, (admin) => admin.query(`CREATE DATABASE ${names.seeded} TEMPLATE ${names.migrated}`))
  await seedOn(databaseUrlLayer(urlOfDatabase(base, names.seeded), 5), seededDataDir)
  await withClient(base, async (admin) => {
    for (const name of Object.values(names)) {
      // A pool that outlived its layer by a moment would make every copy fail ("being accessed by other users").
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [name])
      await admin.query(`ALTER DATABASE ${name} IS_TEMPLATE true`)
    }
  })
  return names
}

/** Builds the PGlite templates as dumps of their data directories. */
const buildOnPglite = async (dir: string, seededDataDir: string | undefined) => {
  const migrated = path.join(dir, "migrated.tar")
  await migrateOn(InMemoryDatabase(fs.mkdtempSync(path.join(dir, "run-")), { dumpTo: migrated }))
  if (!seededDataDir) return { migrated, seeded: undefined }
  const seeded = path.join(dir, "seeded.tar")
  await seedOn(InMemoryDatabase(fs.mkdtempSync(path.join(dir, "run-")), { loadFrom: migrated, dumpTo: seeded }), seededDataDir)
  return { migrated, seeded }
}

/** Builds this run's templates (PostgreSQL when `base` is set; PGlite always, for the tests that run on both). */
export const buildTemplates = async (base: string | undefined): Promise<TestTemplates> => {
  const prefix = databaseNamePrefix(process.pid)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mkt-templates-"))
  const seededDataDir = path.join(dir, "seeded-data")
  fs.mkdirSync(seededDataDir)
  const [postgres, pglite] = await Promise.all([
    base ? buildOnPostgres(base, prefix, seededDataDir) : Promise.resolve(undefined),
    buildOnPglite(dir, base ? undefined : seededDataDir)
  ])
  return { prefix, postgres, pglite, seededDataDir }
}

/** Drops this run's databases and files. */
export const dropTemplates = async (templates: TestTemplates, base: string | undefined) => {
  if (base && templates.postgres)
    await withClient(base, async (admin) => {
      const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE starts_with(datname, $1)", [
        `${templates.prefix}_`
      ])
      for (const { datname } of rows) {
        await admin.query(`ALTER DATABASE ${datname} IS_TEMPLATE false`)
        await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`)
      }
    })
  fs.rmSync(path.dirname(templates.pglite.migrated), { recursive: true, force: true })
}
