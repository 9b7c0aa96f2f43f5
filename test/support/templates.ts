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
 * The test world, built once for a given state of the code: a database with every migration applied
 * (`migrated`), and one where the application has also started once and seeded the demo data
 * (`seeded`, with the data folder that start wrote: demo photos and the token secret). Each test file
 * copies the one it needs (test/support/database.ts) instead of migrating and seeding its own. The
 * templates are kept under a key of the files they are made of, so the next project of `make test`
 * and the next run reuse them instead of building them again (read-only: files only copy them).
 */
export type Template = "migrated" | "seeded"

export interface TestTemplates {
  /** Names this run's copies on PostgreSQL start with (its leftovers are found by it). */
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
 * Copies made by one global setup of vitest process `pid` (a run of several projects sets up each, in
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

/** Builds the PostgreSQL templates named `names`: migrated, then a copy of it seeded. No connection stays, so each can be copied. */
const buildOnPostgres = async (base: string, names: Readonly<Record<Template, string>>, seededDataDir: string) => {
  await withClient(base, (admin) => admin.query(`CREATE DATABASE ${names.migrated}`))
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

const root = path.resolve(import.meta.dirname, "../..")
/** What the templates are made of: the schema, the seed and the code that starts the application. */
const templateSources = ["migrations", "src", "package-lock.json", "test/support/templates.ts"]

const filesOf = (entry: string): Array<string> =>
  fs.statSync(path.join(root, entry)).isDirectory()
    ? fs
        .readdirSync(path.join(root, entry), { recursive: true, withFileTypes: true })
        .filter((file) => file.isFile())
        .map((file) => path.relative(root, path.join(file.parentPath, file.name)))
    : [entry]

/** A key of the templates' sources and of where they live (PGlite alone, or which PostgreSQL server). */
const templateKey = (base: string | undefined) => {
  const hash = crypto.createHash("sha256").update(base ? `postgres ${new URL(base).host}` : "pglite")
  for (const file of templateSources.flatMap(filesOf).sort()) hash.update(file).update(fs.readFileSync(path.join(root, file)))
  return hash.digest("hex").slice(0, 16)
}

const cacheRoot = os.tmpdir()
const cacheDirPrefix = "mkt-templates-"
/** The file that says a cache folder is complete, written last: the templates it holds. */
const MARKER = "templates.json"
/**
 * The demo data is dated from its seeding (bookings in so many days, holds expiring in seven): templates
 * are built again after this long, so no file meets demo dates more than this off its own clock.
 */
const MAX_AGE_MS = 30 * 60_000
/** Unused this long, templates and folders no run reads any more are dropped. */
const STALE_MS = 2 * 3600_000

const postgresTemplatesExist = (base: string, names: Readonly<Record<Template, string>>) =>
  withClient(base, (admin) =>
    admin
      .query<{ n: number }>("SELECT count(*)::int AS n FROM pg_database WHERE datistemplate AND datname = ANY($1)", [Object.values(names)])
      .then(({ rows }) => rows[0]!.n === Object.values(names).length)
  )

/** What a cache folder's marker records; the files are at fixed places in the folder (`keptFiles`). */
interface Marker {
  readonly postgres: Readonly<Record<Template, string>> | undefined
  readonly pgliteSeeded: boolean
  /** When the demo data was seeded (ms). */
  readonly builtAt: number
}
type Kept = Omit<TestTemplates, "prefix">

const keptFiles = (dir: string, marker: Marker): Kept => ({
  postgres: marker.postgres,
  pglite: { migrated: path.join(dir, "migrated.tar"), seeded: marker.pgliteSeeded ? path.join(dir, "seeded.tar") : undefined },
  seededDataDir: path.join(dir, "seeded-data")
})

const markerOf = (dir: string): Marker | undefined => {
  const file = path.join(dir, MARKER)
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined
}

/** The templates a complete cache folder holds, if they are all still there (and marks the folder used). */
const keptIn = async (dir: string, base: string | undefined): Promise<Kept | undefined> => {
  const marker = markerOf(dir)
  if (!marker || Date.now() - marker.builtAt > MAX_AGE_MS) return undefined
  if (base && !(marker.postgres && (await postgresTemplatesExist(base, marker.postgres)))) return undefined
  const now = new Date()
  fs.utimesSync(dir, now, now)
  return keptFiles(dir, marker)
}

/**
 * Builds the templates into a new folder beside `dir` and publishes it as `dir` with one rename, its
 * marker written last: a reader sees all of it or nothing.
 */
const buildInto = async (dir: string, base: string | undefined): Promise<Kept> => {
  const startedAt = Date.now()
  const building = fs.mkdtempSync(`${dir}.building-`)
  const seededDataDir = path.join(building, "seeded-data")
  fs.mkdirSync(seededDataDir)
  const stamp = `${path.basename(dir).slice(cacheDirPrefix.length)}_${Date.now().toString(36)}`
  const names = base ? { migrated: `mkt_tpl_${stamp}_migrated`, seeded: `mkt_tpl_${stamp}_seeded` } : undefined
  const [, pglite] = await Promise.all([
    base && names ? buildOnPostgres(base, names, seededDataDir) : Promise.resolve(),
    buildOnPglite(building, base ? undefined : seededDataDir)
  ])
  for (const entry of fs.readdirSync(building))
    if (entry.startsWith("run-")) fs.rmSync(path.join(building, entry), { recursive: true, force: true })
  const marker: Marker = { postgres: names, pgliteSeeded: pglite.seeded !== undefined, builtAt: startedAt }
  fs.writeFileSync(path.join(building, MARKER), JSON.stringify(marker))
  // Another run of the same sources may have published first: its templates serve, ours go.
  const theirs = await keptIn(dir, base)
  if (theirs) {
    await dropKept(building, base)
    return theirs
  }
  // An outdated folder moves aside (a run started earlier may still read it) and goes when stale.
  if (fs.existsSync(dir)) fs.renameSync(dir, `${dir}.retired-${Date.now().toString(36)}`)
  fs.renameSync(building, dir)
  return keptFiles(dir, marker)
}

const dropDatabase = (admin: pg.Client, name: string) =>
  admin
    .query(`ALTER DATABASE ${name} IS_TEMPLATE false`)
    .then(() => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
    .catch(() => undefined)

/** Drops a cache folder and the PostgreSQL templates it names. */
const dropKept = async (dir: string, base: string | undefined) => {
  const names = markerOf(dir)?.postgres
  if (base && names)
    await withClient(base, async (admin) => {
      for (const name of Object.values(names)) await dropDatabase(admin, name)
    })
  fs.rmSync(dir, { recursive: true, force: true })
}

const unusedFor = (file: string) => Date.now() - fs.statSync(file).mtimeMs

/** Drops other keys' templates unused for STALE_MS, and the databases and copies of runs killed before their teardown. */
const dropStale = async (base: string | undefined, current: string) => {
  for (const name of fs.readdirSync(cacheRoot))
    if (name.startsWith(cacheDirPrefix) && path.join(cacheRoot, name) !== current && unusedFor(path.join(cacheRoot, name)) > STALE_MS)
      await dropKept(path.join(cacheRoot, name), base)
  if (!base) return
  const named = new Set(
    fs
      .readdirSync(cacheRoot)
      .filter((name) => name.startsWith(cacheDirPrefix))
      .flatMap((name) => Object.values(markerOf(path.join(cacheRoot, name))?.postgres ?? {}))
  )
  await withClient(base, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname ~ '^mkt_t(pl_|[0-9]+_)'")
    for (const { datname } of rows) if (isLeftover(datname, named)) await dropDatabase(admin, datname)
  })
}

/** A copy of a run whose vitest process is gone, or a template no cache folder names, made over STALE_MS ago (not one being built). */
const isLeftover = (database: string, named: ReadonlySet<string>) => {
  const copy = /^mkt_t(\d+)_/.exec(database)
  if (copy) return Number(copy[1]) !== process.pid && !isAlive(Number(copy[1]))
  const built = /^mkt_tpl_[0-9a-f]+_([0-9a-z]+)_/.exec(database)
  return !named.has(database) && built !== null && Date.now() - Number.parseInt(built[1]!, 36) > STALE_MS
}

/**
 * This run's templates (PostgreSQL when `base` is set; PGlite always, for the tests that run on both):
 * those kept for the current sources, else built now and kept.
 */
export const buildTemplates = async (base: string | undefined): Promise<TestTemplates> => {
  const dir = path.join(cacheRoot, `${cacheDirPrefix}${templateKey(base)}`)
  await dropStale(base, dir)
  const kept = (await keptIn(dir, base)) ?? (await buildInto(dir, base))
  return { prefix: databaseNamePrefix(process.pid), ...kept }
}

/** Drops this run's copies (the templates stay for the next run). */
export const dropTemplates = async (templates: TestTemplates, base: string | undefined) => {
  if (base && templates.postgres)
    await withClient(base, async (admin) => {
      const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE starts_with(datname, $1)", [
        `${templates.prefix}_`
      ])
      for (const { datname } of rows) await dropDatabase(admin, datname)
    })
}
