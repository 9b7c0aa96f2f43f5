import { SqlClient } from "@effect/sql"
import { Cause, Duration, Effect, Exit, Layer, Option, Runtime } from "effect"
import { AsyncLocalStorage } from "node:async_hooks"
import { randomUUID } from "node:crypto"
import { type Db, type JobResult, PgBoss, type SendOptions } from "pg-boss"
import { unavailableOf } from "../outage"
import { type JobOptions, JobQueue, liveClock, runHandler } from "./port"

// The JobQueue port's durable adapter: pg-boss over the app's SqlClient.

export interface PgBossJobQueueOptions {
  /** Seconds between an idle worker's polls (pg-boss accepts 0.5 and up). Default 1. */
  readonly pollingIntervalSeconds?: number
  /** Jobs a worker claims per poll and runs concurrently. Default 5. */
  readonly batchSize?: number
  /** How long closing waits for running handlers before pg-boss fails their jobs. Default 10. */
  readonly stopTimeoutSeconds?: number
  /**
   * Queues to create at start. Sending inside a transaction cannot create a missing queue (that
   * would need a second connection, and the embedded database has one), so a queue that is only
   * ever sent to inside transactions, and worked by another process, should be listed here.
   */
  readonly queues?: ReadonlyArray<string>
  /**
   * pg-boss's backend profile. `pglite` only drops SKIP LOCKED from the queue-stats claim; the
   * embedded database is reached over a socket like a server, possibly by several processes, so
   * `postgres` (the default) suits it too.
   */
  readonly backend?: "postgres" | "pglite"
}

/**
 * pg-boss's schema for a connection: `pgboss` in the ordinary `public` set-up, `<schema>_jobs` when
 * the connection works in another schema (each test file has its own), so those stay isolated.
 */
export const jobsSchemaFor = (currentSchema: string | null | undefined): string => {
  if (!currentSchema || currentSchema === "public") return "pgboss"
  const name = `${currentSchema}_jobs`
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name}"`
}

/** pg-boss's policy for every queue: one unfinished (queued, retrying or active) job per singleton key. */
const QUEUE_POLICY = "exclusive"

/**
 * Multi-statement text (pg-boss's `BEGIN; ...; COMMIT`) comes back from the client as one row
 * array per statement; pg-boss reads the rows of all of them.
 */
const flattenResults = (rows: ReadonlyArray<unknown>): Array<unknown> =>
  rows.length > 0 && rows.every(Array.isArray) ? (rows as ReadonlyArray<ReadonlyArray<unknown>>).flat() : [...rows]

const toSendOptions = (options: JobOptions = {}): SendOptions => ({
  // Keyless jobs get a key of their own, so the queue's singleton policy leaves them alone.
  singletonKey: options.singletonKey ?? randomUUID(),
  retryLimit: options.retryLimit ?? 0,
  // pg-boss counts whole seconds; rounding up keeps "no earlier than".
  retryDelay: Math.ceil(options.retryDelaySeconds ?? 0),
  retryBackoff: options.retryBackoff ?? false,
  ...(options.startAfterSeconds !== undefined && options.startAfterSeconds > 0 ? { startAfter: Math.ceil(options.startAfterSeconds) } : {})
})

/**
 * pg-boss's statements run through the app's SqlClient, so it opens no pool of its own (the
 * embedded database serves one connection) and works on whatever database the client reaches.
 *
 * `send` runs its statements in the sending fiber's context, so a job sent inside a transaction is
 * written by that transaction: it exists only if the transaction commits, and the transaction never
 * waits on a second connection (a deadlock on the embedded pool of one). pg-boss cannot be handed
 * that context for every statement `send` makes (its queue lookup ignores the `db` option), so the
 * caller's runtime travels to `executeSql` in an AsyncLocalStorage, and every call made for the
 * adapter itself runs outside it, so the polling loops and timers pg-boss starts never inherit one.
 */
export const PgBossJobQueue = (options: PgBossJobQueueOptions = {}): Layer.Layer<JobQueue, never, SqlClient.SqlClient> =>
  Layer.scoped(
    JobQueue,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const runtime = yield* Effect.runtime<never>()
      const caller = new AsyncLocalStorage<Runtime.Runtime<never>>()
      const detached = <A>(f: () => Promise<A>) => caller.exit(f)
      const asCaller = <A>(f: () => Promise<A>) =>
        Effect.flatMap(Effect.runtime<never>(), (callerRuntime) => Effect.promise(() => caller.run(callerRuntime, f)))

      let reachable = true
      const db: Db = {
        executeSql: async (text, values) => {
          const callerRuntime = caller.getStore()
          const statement = callerRuntime
            ? sql.unsafe<any>(text, values ?? []).withoutTransform
            : Effect.scoped(
                Effect.flatMap(sql.reserve, (connection) =>
                  connection.executeUnprepared(text, values ?? [], undefined).pipe(
                    // A failed `BEGIN; ...` leaves its connection in an aborted transaction, and the
                    // pool would hand it on as it is.
                    Effect.tapError(() => Effect.ignore(connection.executeRaw("ROLLBACK", [])))
                  )
                )
              )
          const exit = await Runtime.runPromiseExit(callerRuntime ?? runtime)(statement)
          // Workers poll every second or so: their last statement tells whether jobs can run now.
          reachable = Exit.isSuccess(exit) || !unavailableOf(exit.cause)
          // pg-boss reads the driver's error (its `code`), not the SqlError around it.
          if (Exit.isFailure(exit)) throw Cause.squashWith(exit.cause, (e) => (e as { cause?: unknown }).cause ?? e)
          return { rows: flattenResults(exit.value) }
        }
      }

      const [row] = yield* sql.unsafe<{ schema: string | null }>("SELECT current_schema() AS schema").pipe(Effect.orDie)
      const schema = jobsSchemaFor(row?.schema)
      const pollingIntervalSeconds = Math.max(0.5, options.pollingIntervalSeconds ?? 1)
      const batchSize = Math.max(1, Math.floor(options.batchSize ?? 5))
      const stopTimeout = Duration.seconds(options.stopTimeoutSeconds ?? 10)

      const boss = new PgBoss({ db, schema, backend: options.backend ?? "postgres" })
      const log = (effect: Effect.Effect<void>) => {
        Runtime.runFork(runtime)(effect)
      }
      // An 'error' event with no listener would throw out of pg-boss's loops and end the process.
      boss.on("error", (error) => log(Effect.logError("job queue: pg-boss error", Cause.die(error))))
      boss.on("warning", (warning) => log(Effect.logWarning(`job queue: ${warning.message}`, warning.data)))

      yield* Effect.acquireRelease(
        Effect.promise(() => detached(() => boss.start())),
        () =>
          Effect.promise(() => detached(() => boss.stop({ graceful: true, timeout: Duration.toMillis(stopTimeout), close: false }))).pipe(
            Effect.catchAllDefect((defect) => Effect.logError("job queue: pg-boss did not stop cleanly", Cause.die(defect)))
          )
      )

      const ready = new Set<string>()
      const ensureQueue = (queue: string) =>
        Effect.gen(function* () {
          if (ready.has(queue)) return
          const existing = yield* asCaller(() => boss.getQueue(queue))
          if (existing === null) {
            const inTransaction = Option.isSome(yield* Effect.serviceOption(SqlClient.TransactionConnection))
            if (inTransaction) {
              return yield* Effect.dieMessage(
                `job queue "${queue}" does not exist yet and cannot be created inside a transaction: ` +
                  `register its worker or list it in the adapter's queues first`
              )
            }
            yield* Effect.promise(() => detached(() => boss.createQueue(queue, { policy: QUEUE_POLICY })))
          } else if (existing.policy !== QUEUE_POLICY) {
            yield* Effect.logWarning(`job queue "${queue}" has policy ${existing.policy}: singleton keys are not enforced`)
          }
          ready.add(queue)
        })

      yield* Effect.forEach(options.queues ?? [], ensureQueue, { discard: true })

      const runBatch =
        (queue: string, handler: (data: Record<string, unknown>) => Effect.Effect<void, unknown>, handlerRuntime: Runtime.Runtime<never>) =>
        (jobs: ReadonlyArray<{ id: string; data: object | null; retryCount: number; retryLimit: number; signal: AbortSignal }>) =>
          Promise.all(
            jobs.map(async (job): Promise<JobResult> => {
              const exit = await Runtime.runPromiseExit(handlerRuntime)(
                runHandler(queue, handler, (job.data ?? {}) as Record<string, unknown>, {
                  id: job.id,
                  retriesDone: job.retryCount,
                  retryLimit: job.retryLimit
                }),
                // pg-boss aborts the signal when it gives up on the job (expiry, shutdown).
                { signal: job.signal }
              )
              return Exit.isSuccess(exit)
                ? { id: job.id, status: "completed" }
                : { id: job.id, status: "failed", output: { error: Cause.pretty(exit.cause).slice(0, 4000) } }
            })
          )

      return JobQueue.of({
        send: (queue, data, jobOptions) =>
          ensureQueue(queue).pipe(Effect.zipRight(asCaller(() => boss.send(queue, data, toSendOptions(jobOptions)))), Effect.asVoid),
        work: (queue, handler) =>
          Effect.gen(function* () {
            yield* ensureQueue(queue)
            // Handlers run with the context of the fiber that registered them (its logger, its services).
            const handlerRuntime = yield* Effect.runtime<never>()
            const workerId = yield* Effect.promise(() =>
              detached(() =>
                boss.work(
                  queue,
                  {
                    batchSize,
                    pollingIntervalSeconds,
                    includeMetadata: true,
                    perJobResults: true,
                    // A full batch means more are likely waiting: fetch again at once.
                    burstWhenBatchFull: batchSize > 1
                  },
                  runBatch(queue, handler, handlerRuntime)
                )
              )
            )
            yield* Effect.addFinalizer(() =>
              Effect.promise(() => detached(() => boss.offWork(queue, { id: workerId, wait: true }))).pipe(
                Effect.timeoutOption(stopTimeout),
                Effect.withClock(liveClock),
                // Finalizers run uninterruptibly, and the timeout has to be able to abandon the wait.
                Effect.interruptible,
                Effect.catchAllDefect((defect) => Effect.logError(`job queue: stopping the worker on ${queue} failed`, Cause.die(defect)))
              )
            )
          }),
        schedule: (queue, cron) =>
          ensureQueue(queue).pipe(
            Effect.zipRight(
              Effect.promise(() =>
                // No singleton key: the queue's policy then keeps one unfinished tick job at a time.
                detached(() => boss.schedule(queue, cron, {}, { tz: "UTC", retryLimit: 0 }))
              )
            )
          ),
        reachable: () => reachable
      })
    })
  )

/** pg-boss over the app's SqlClient with the production defaults. */
export const PgBossJobQueueLive: Layer.Layer<JobQueue, never, SqlClient.SqlClient> = PgBossJobQueue()
