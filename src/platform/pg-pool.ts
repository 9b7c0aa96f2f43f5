import pg from "pg"
import { rootLogger } from "./logger"

/**
 * Every node-postgres pool of the process goes through `guardPool`, so that a dropped connection
 * (a restarted or failed-over server, a network blip) is logged and never ends the process.
 *
 * node-postgres reports a broken connection as an `error` event on its `Client`, and an `error`
 * event nobody listens to is thrown by Node: the process dies. The pool listens to its idle clients
 * only; a client checked out (a LISTEN connection held for good, a statement in flight) has no
 * listener but its borrower's. So:
 * - every client the pool creates gets a permanent `error` listener (its `connect` event) that
 *   reports it, so a borrower that listens with `once`, or not at all, cannot let an error through;
 *   the pool's own `error` (its copy of an idle client's) is listened to as well;
 * - a client that ends while checked out is handed back to the pool as broken (its slot freed):
 *   otherwise a borrower that drops it on `end` without releasing it (socket.io's PostgreSQL adapter
 *   does, then checks out a new one) leaks one slot per outage until the pool can serve nobody.
 *   Releasing becomes idempotent, so the borrower's own later release is harmless.
 */
export const guardPool = (pool: pg.Pool, report: (error: Error) => void): pg.Pool => {
  pool.on("connect", (client) => void client.on("error", report))
  // The pool re-emits an idle client's error, which would throw with no listener: already reported above.
  pool.on("error", () => undefined)
  const connect = pool.connect.bind(pool) as (
    callback?: (error: Error | undefined, client?: pg.PoolClient, done?: unknown) => void
  ) => unknown
  const patched = (callback?: (error: Error | undefined, client?: pg.PoolClient, done?: unknown) => void) => {
    if (callback === undefined) return (connect() as Promise<pg.PoolClient>).then(watchCheckedOut)
    return connect((error, client) => {
      if (client === undefined) return callback(error, client, () => undefined)
      watchCheckedOut(client)
      callback(error, client, client.release)
    })
  }
  ;(pool as { connect: unknown }).connect = patched
  return pool
}

const watchCheckedOut = (client: pg.PoolClient): pg.PoolClient => {
  const release = client.release
  let released = false
  const onEnd = () => guarded(new Error("the connection ended while checked out"))
  const guarded = (error?: Error | boolean) => {
    if (released) return
    released = true
    client.off("end", onEnd)
    release(error)
  }
  client.once("end", onEnd)
  client.release = guarded
  return client
}

/**
 * How long acquiring a connection of a PostgreSQL server may take (connecting, or waiting for a free
 * one) before the request fails with a 503 instead of waiting for good on an unreachable host. Not
 * for the embedded database: its one connection is often busy for a while, and its socket is local.
 */
export const CONNECT_TIMEOUT_MS = 10_000

/** A guarded pool whose errors go to the process log under `name`. */
export const guardedPool = (name: string, config: pg.PoolConfig): pg.Pool => {
  const log = rootLogger()
  return guardPool(new pg.Pool(config), (error) =>
    log.warn({ pool: name, err: error.message, code: (error as { code?: unknown }).code }, "database connection lost")
  )
}
