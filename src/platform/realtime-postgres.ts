import { createAdapter } from "@socket.io/postgres-adapter"
import { Duration, Effect, Redacted, Schedule, type Scope } from "effect"
import * as crypto from "node:crypto"
import pg from "pg"
import type { Server } from "socket.io"

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
}

/**
 * socket.io's PostgreSQL adapter over a small pool of its own (LISTEN holds one connection for good,
 * so it cannot share the application's pool), closed with the scope after io closes its adapter.
 */
export const postgresClusterLink = (
  databaseUrl: Redacted.Redacted,
  onError: (error: unknown) => void
): Effect.Effect<ClusterLink, never, Scope.Scope> =>
  Effect.gen(function*() {
    const url = Redacted.value(databaseUrl)
    // A name of its own, so that this process can see its LISTEN connection in pg_stat_activity.
    const applicationName = `marketplace-realtime-${crypto.randomBytes(4).toString("hex")}`
    // Emits still in flight while the process shuts down fail on the ended pool: nothing to report.
    let closing = false
    const report = (error: unknown) => {
      if (!closing) onError(error)
    }
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, application_name: applicationName })
        // An idle connection dropped by the server must not crash the process; the adapter reconnects.
        pool.on("error", report)
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
      // The adapter announces itself as soon as it is built, before its LISTEN connection is open, so
      // it misses the others' answers and would learn of them only at their next heartbeat (5 s):
      // until then presence would not ask them. Announcing again once listening closes that gap.
      join: (io) =>
        listening.pipe(
          Effect.flatMap(() => Effect.promise(async () => io.of("/").adapter.init())),
          Effect.catchAll(() => Effect.logWarning("real-time: the PostgreSQL adapter is not listening yet; other processes will be found at their next heartbeat"))
        )
    }
  })
