import { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Layer, Option, Redacted, String } from "effect"
import * as path from "node:path"
import pg from "pg"
import { AppConfig } from "./config"
import { startEmbedded } from "./embedded-postgres"
import { CONNECT_TIMEOUT_MS, guardedPool } from "./pg-pool"

const INT8_OID = 20

/**
 * int8 (count(*), bigint columns) as a number when it is exact (below 2^53), as the rows' schemas
 * expect; a larger value stays text, so its row fails to decode (loudly) instead of losing digits.
 * numeric stays text: it is decimal (rating, hourly_rate), read through an explicit cast.
 */
export const parseInt8 = (text: string): number | string => {
  const value = Number(text)
  return Number.isSafeInteger(value) ? value : text
}

/** The type parsers of the application's connections: node-postgres's, int8 aside. */
export const rowTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8_OID && format !== "binary"
      ? parseInt8
      : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"]
}

/**
 * The application's PgClient over a pool of our own making (PgClient.layer would build one whose
 * checked-out clients are not guarded: see pg-pool.ts), checked once at start as PgClient.layer does.
 */
const pgLayer = (connection: { url: Redacted.Redacted } | { host: string }, maxConnections: number) =>
  PgClient.layerFromPool({
    applicationName: "@effect/sql-pg",
    acquire: Effect.acquireRelease(
      Effect.sync(() =>
        guardedPool("application", {
          ...("url" in connection
            ? { connectionString: Redacted.value(connection.url), connectionTimeoutMillis: CONNECT_TIMEOUT_MS }
            : { host: connection.host }),
          // node-postgres needs a user name when USER is unset (as in CI).
          ...("url" in connection ? {} : { user: "postgres", database: "postgres" }),
          max: maxConnections,
          application_name: "@effect/sql-pg",
          types: rowTypes
        })
      ),
      // As PgClient.layer: a pool that does not end within a second is left behind (interruptible, or the timeout could not cut it).
      (pool) => Effect.promise(() => pool.end().catch(() => undefined)).pipe(Effect.interruptible, Effect.timeoutOption(1000))
    ).pipe(
      Effect.tap((pool) =>
        Effect.tryPromise({
          try: () => pool.query("SELECT 1"),
          catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
        }).pipe(
          Effect.timeoutFail({
            duration: Duration.millis(CONNECT_TIMEOUT_MS),
            onTimeout: () => new SqlError({ cause: new Error("Connection timed out"), message: "PgClient: Connection timed out" })
          })
        )
      )
    ),
    // Rows come back with camelCase keys (snake_case columns need no alias); JSON values keep
    // their keys as stored. Statements run `withoutTransform` (pg-boss's) are left as they are.
    transformResultNames: String.snakeToCamel,
    transformJson: false
  })

/**
 * PGlite runs one query at a time, and its socket server interleaves the extended-protocol messages
 * (Parse/Bind/Execute) of concurrent connections, so one connection's unnamed statement or portal
 * can be replaced by another's ("unnamed prepared statement does not exist", a 500 under load).
 * One connection per process keeps each query's messages together (PGlite serializes queries anyway).
 */
const EMBEDDED_POOL_SIZE = 1

/**
 * The one SqlClient of the process: PostgreSQL when DATABASE_URL is set, otherwise the embedded
 * PGlite database on disk under DATA_DIR (attachToRunning lets the CLI share a running server's).
 */
export const DatabaseLive = (options: { readonly attachToRunning: boolean }) =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const config = yield* AppConfig
      if (Option.isSome(config.databaseUrl)) {
        return pgLayer({ url: config.databaseUrl.value }, config.databasePoolSize)
      }
      const dataDir = path.resolve(config.dataDir)
      const embedded = yield* startEmbedded({
        dataDir: path.join(dataDir, "pglite"),
        runDir: dataDir,
        maxConnections: config.databasePoolSize + 10,
        attachToRunning: options.attachToRunning
      })
      yield* Effect.logInfo(embedded.owner ? `embedded database ready in ${dataDir}` : `attached to the running server's database`)
      return pgLayer({ host: embedded.socketDir }, EMBEDDED_POOL_SIZE)
    })
  )

/**
 * An in-memory PGlite (tests that have no TEST_DATABASE_URL), empty or loaded from a dump that another
 * one wrote when it closed (`dumpTo`).
 */
export const InMemoryDatabase = (runDir: string, dump: { readonly loadFrom?: string; readonly dumpTo?: string } = {}) =>
  Layer.unwrapScoped(
    Effect.map(startEmbedded({ dataDir: undefined, runDir, maxConnections: 20, attachToRunning: false, ...dump }), (embedded) =>
      pgLayer({ host: embedded.socketDir }, EMBEDDED_POOL_SIZE)
    )
  )

export const databaseUrlLayer = (url: string, maxConnections = 10) => pgLayer({ url: Redacted.make(url) }, maxConnections)
