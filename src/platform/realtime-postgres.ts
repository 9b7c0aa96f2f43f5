import { createAdapter } from "@socket.io/postgres-adapter"
import { Duration, Effect, Redacted, Schedule, type Scope } from "effect"
import * as crypto from "node:crypto"
import pg from "pg"
import type { Server } from "socket.io"
import { CONNECT_TIMEOUT_MS, guardPool } from "./pg-pool"

/**
 * The NOTIFY channel prefix of one database: processes configured with the same URL share it, and
 * servers on other databases (or other schemas of one database, as the tests run) never hear them.
 */
export const channelPrefixOf = (databaseUrl: string) => `sio_${crypto.createHash("sha256").update(databaseUrl).digest("hex").slice(0, 12)}`

/** Rows of `socket_io_attachments` (payloads over NOTIFY's 8000 bytes) older than this are deleted. */
const ATTACHMENT_LIFETIME_MS = 30_000
/**
 * One connection held for good by LISTEN, and one for everything else. socket.io's cluster adapter
 * delivers an emit to this process's own sockets only once its NOTIFY is done, so two NOTIFYs
 * running on two connections could finish (and reach every process) in the other order: typing_start
 * after typing_stop. A single publishing connection runs them in the pool's first-come order.
 */
const POOL_SIZE = 2

export interface ClusterLink {
  /** socket.io's adapter factory (`new Server(..., { adapter })`). */
  readonly adapter: ReturnType<typeof createAdapter>
  /** Once io exists: waits for the LISTEN connection, then announces this process to the others. */
  readonly join: (io: Server) => Effect.Effect<void>
  /** Whether the adapter holds its LISTEN connection now (false while the database is away). */
  readonly listening: () => boolean
}

/**
 * socket.io's PostgreSQL adapter over a small pool of its own (LISTEN holds one connection for good,
 * so it cannot share the application's pool), closed with the scope after io closes its adapter.
 */
export const postgresClusterLink = (
  databaseUrl: Redacted.Redacted,
  onError: (error: unknown) => void
): Effect.Effect<ClusterLink, never, Scope.Scope> =>
  Effect.gen(function* () {
    const url = Redacted.value(databaseUrl)
    // A name of its own, so that this process can see its LISTEN connection in pg_stat_activity.
    const applicationName = `marketplace-realtime-${crypto.randomBytes(4).toString("hex")}`
    // Emits still in flight while the process shuts down fail on the ended pool: nothing to report.
    let closing = false
    const report = (error: unknown) => {
      if (!closing) onError(error)
    }
    // The adapter's only promise-style checkout is its LISTEN connection (its statements go through
    // pool.query): the one it holds now, dropped when it ends. The adapter checks out a new one 1-3 s later.
    let listenConnection: pg.PoolClient | undefined
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => {
        // A dropped connection, idle or held by LISTEN, must not crash the process (see pg-pool.ts).
        const pool = guardPool(
          new pg.Pool({
            connectionString: url,
            max: POOL_SIZE,
            application_name: applicationName,
            connectionTimeoutMillis: CONNECT_TIMEOUT_MS
          }),
          report
        )
        const connect = pool.connect.bind(pool) as (callback?: unknown) => unknown
        ;(pool as { connect: unknown }).connect = (callback?: unknown) => {
          if (callback !== undefined) return connect(callback)
          return (connect() as Promise<pg.PoolClient>).then((client) => {
            listenConnection = client
            client.once("end", () => {
              if (listenConnection === client) listenConnection = undefined
            })
            return client
          })
        }
        return pool
      }),
      (pool) =>
        Effect.promise(() => {
          closing = true
          return pool.end().catch(() => undefined)
        })
    )
    const adapter = createAdapter(pool, {
      channelPrefix: channelPrefixOf(url),
      tableName: "socket_io_attachments",
      cleanupInterval: ATTACHMENT_LIFETIME_MS,
      errorHandler: report
    })

    const listening = Effect.tryPromise(() =>
      pool.query<{ listening: boolean }>(
        "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND state = 'idle' AND query LIKE 'LISTEN %') AS listening",
        [applicationName]
      )
    ).pipe(
      Effect.flatMap((result) => (result.rows[0]?.listening ? Effect.void : Effect.fail("not yet" as const))),
      Effect.retry(Schedule.spaced(Duration.millis(25)).pipe(Schedule.upTo(Duration.seconds(5))))
    )

    return {
      adapter,
      listening: () => listenConnection !== undefined,
      // The adapter announces itself as soon as it is built, before its LISTEN connection is open, so
      // it misses the others' answers and would learn of them only at their next heartbeat (5 s):
      // until then presence would not ask them. Announcing again once listening closes that gap.
      join: (io) =>
        listening.pipe(
          Effect.flatMap(() => Effect.promise(async () => io.of("/").adapter.init())),
          Effect.catchAll(() =>
            Effect.logWarning(
              "real-time: the PostgreSQL adapter is not listening yet; other processes will be found at their next heartbeat"
            )
          )
        )
    }
  })
