import { SqlClient } from "@effect/sql"
import { type Clock, Effect, Layer, ManagedRuntime, Logger, LogLevel, Option, Redacted } from "effect"
import * as fs from "node:fs"
import * as net from "node:net"
import { applicationOn } from "../../src/app/application"
import { AppConfigOf, type AppConfigShape } from "../../src/platform/config"
import { existingTestDatabase, testDatabaseFrom, testTemplates } from "./database"
import { testServerConfig } from "./templates"
import { scratchDir } from "./scratch"

/** A port nobody listens on right now. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })

/** Runs SQL (`$1`... parameters) on a test server's database: its rows. */
export const sqlOn =
  (server: Pick<TestServer, "run">) =>
  <A extends object>(text: string, params: ReadonlyArray<unknown> = []) =>
    server.run(Effect.flatMap(SqlClient.SqlClient, (db) => db.unsafe<A>(text, params)))

/** What a test server's effects may use: every service, adapter and the database of the application. */
export type ServerServices = Layer.Layer.Success<ReturnType<typeof applicationOn<never, never>>>

export interface TestServer {
  readonly url: string
  readonly port: number
  /** Its DATA_DIR (uploads, the token secret; on PGlite the database's socket, where a CLI attaches). */
  readonly dataDir: string
  /** Its database's URL on PostgreSQL (for a second server on the same data); none on PGlite. */
  readonly databaseUrl: string | undefined
  readonly stop: () => Promise<void>
  /** Runs an effect against the server's own services and database. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, ServerServices>) => Promise<A>
}

/**
 * The real application on a free port with a database of its own copied from the run's seeded
 * template (the demo data a first start leaves, its photos in a copy of the template's data folder),
 * or the migrated one when `seedDemoData` is false; or with `databaseUrl` on another test server's
 * database (its start finds nothing to do; the first server drops it). On PostgreSQL the server
 * knows its database URL, so socket.io runs the PostgreSQL adapter as in production: servers on one
 * database share events and presence.
 */
export const startTestServer = async (
  overrides: Partial<AppConfigShape> = {},
  options: { readonly clock?: Clock.Clock; readonly databaseUrl?: string } = {}
): Promise<TestServer> => {
  // A port of the test's own (PUBLIC_URL naming the server's address, say) or a free one.
  const port = overrides.port ?? (await freePort())
  const dataDir = overrides.dataDir ?? scratchDir("server")
  const template = overrides.seedDemoData === false ? "migrated" : "seeded"
  if (template === "seeded") fs.cpSync(testTemplates().seededDataDir, dataDir, { recursive: true })
  const database =
    options.databaseUrl === undefined
      ? testDatabaseFrom(template, { runDir: dataDir })
      : { layer: existingTestDatabase(options.databaseUrl), url: options.databaseUrl }
  const onPostgres =
    database.url === undefined
      ? { databaseUrl: Option.none(), realtimeAdapter: "local" as const }
      : { databaseUrl: Option.some(Redacted.make(database.url)), realtimeAdapter: "postgres" as const }
  const layer = applicationOn(database.layer).pipe(
    Layer.provide(AppConfigOf({ ...testServerConfig(dataDir, port), ...onPostgres, ...overrides })),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning)),
    Layer.provide(options.clock ? Layer.setClock(options.clock) : Layer.empty)
  )
  const runtime = ManagedRuntime.make(layer)
  await runtime.runPromise(Effect.void)
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    databaseUrl: database.url,
    stop: () => runtime.dispose(),
    run: (effect) => runtime.runPromise(effect)
  }
}
