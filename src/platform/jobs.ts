import { SqlClient } from "@effect/sql"
import {
  Cause,
  Clock,
  Context,
  Deferred,
  Duration,
  Effect,
  Exit,
  Fiber,
  FiberId,
  FiberSet,
  Layer,
  Option,
  Runtime,
  type Scope
} from "effect"
import { AsyncLocalStorage } from "node:async_hooks"
import { randomUUID } from "node:crypto"
import { type Db, type JobResult, PgBoss, type SendOptions } from "pg-boss"
import { unavailableOf } from "./outage"

/**
 * Durable background work (architecture section 5): jobs are stored in the database, survive a
 * restart, are retried with backoff when their handler fails, and each runs once however many
 * server processes share the database. Adapters: pg-boss over the app's SqlClient (PostgreSQL or
 * the embedded PGlite) and an in-process queue for the in-memory domain.
 */
export interface JobOptions {
  /** Run no earlier than this many seconds from now. */
  readonly startAfterSeconds?: number
  /** Only one queued (not yet finished) job with this key per queue: a second send is dropped. */
  readonly singletonKey?: string
  /** Retries after a failure (default 0), spaced by retryDelaySeconds, doubled each time when retryBackoff. */
  readonly retryLimit?: number
  readonly retryDelaySeconds?: number
  readonly retryBackoff?: boolean
}

export interface JobQueueShape {
  readonly send: (queue: string, data: Record<string, unknown>, options?: JobOptions) => Effect.Effect<void>
  /**
   * Handles the queue's jobs while the scope is open. A failing handler (a failure or a defect)
   * makes the job retry as its options say.
   */
  readonly work: (queue: string, handler: (data: Record<string, unknown>) => Effect.Effect<void, unknown>) => Effect.Effect<void, never, Scope.Scope>
  /** Sends `queue` an empty job on a cron schedule (UTC), once per tick across every process. */
  readonly schedule: (queue: string, cron: string) => Effect.Effect<void>
  /** False while the queue's last statement found its database unreachable (the health check reports it). */
  readonly reachable: () => boolean
}
export class JobQueue extends Context.Tag("platform/JobQueue")<JobQueue, JobQueueShape>() {}

// ---------------------------------------------------------------------------------------------
// Shared by both adapters

/** One attempt of a job: failures are logged here, where the queue and the attempt are known. */
const runHandler = (
  queue: string,
  handler: (data: Record<string, unknown>) => Effect.Effect<void, unknown>,
  data: Record<string, unknown>,
  job: { readonly id: string; readonly retriesDone: number; readonly retryLimit: number }
) =>
  Effect.suspend(() => handler(data)).pipe(
    Effect.tapErrorCause((cause) =>
      Cause.isInterruptedOnly(cause)
        ? Effect.void
        : job.retriesDone < job.retryLimit
        ? Effect.logWarning(`job on ${queue} failed, will be retried`, cause)
        : Effect.logError(`job on ${queue} failed, no retries left`, cause)
    ),
    Effect.annotateLogs({ queue, jobId: job.id, retry: job.retriesDone })
  )

/**
 * Shutdown waits on real time: under a TestClock nothing would move a test's clock while its scope
 * is closing, and a stuck handler would hold the scope open for ever.
 */
const liveClock = Clock.make()

// ---------------------------------------------------------------------------------------------
// pg-boss

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
  ...(options.startAfterSeconds !== undefined && options.startAfterSeconds > 0
    ? { startAfter: Math.ceil(options.startAfterSeconds) }
    : {})
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
    Effect.gen(function*() {
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
                ))
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
          Effect.promise(() =>
            detached(() => boss.stop({ graceful: true, timeout: Duration.toMillis(stopTimeout), close: false }))
          ).pipe(Effect.catchAllDefect((defect) => Effect.logError("job queue: pg-boss did not stop cleanly", Cause.die(defect))))
      )

      const ready = new Set<string>()
      const ensureQueue = (queue: string) =>
        Effect.gen(function*() {
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

      const runBatch = (
        queue: string,
        handler: (data: Record<string, unknown>) => Effect.Effect<void, unknown>,
        handlerRuntime: Runtime.Runtime<never>
      ) =>
      (jobs: ReadonlyArray<{ id: string; data: object | null; retryCount: number; retryLimit: number; signal: AbortSignal }>) =>
        Promise.all(jobs.map(async (job): Promise<JobResult> => {
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
        }))

      return JobQueue.of({
        send: (queue, data, jobOptions) =>
          ensureQueue(queue).pipe(
            Effect.zipRight(asCaller(() => boss.send(queue, data, toSendOptions(jobOptions)))),
            Effect.asVoid
          ),
        work: (queue, handler) =>
          Effect.gen(function*() {
            yield* ensureQueue(queue)
            // Handlers run with the context of the fiber that registered them (its logger, its services).
            const handlerRuntime = yield* Effect.runtime<never>()
            const workerId = yield* Effect.promise(() =>
              detached(() =>
                boss.work(queue, {
                  batchSize,
                  pollingIntervalSeconds,
                  includeMetadata: true,
                  perJobResults: true,
                  // A full batch means more are likely waiting: fetch again at once.
                  burstWhenBatchFull: batchSize > 1
                }, runBatch(queue, handler, handlerRuntime))
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
            Effect.zipRight(Effect.promise(() =>
              // No singleton key: the queue's policy then keeps one unfinished tick job at a time.
              detached(() => boss.schedule(queue, cron, {}, { tz: "UTC", retryLimit: 0 }))
            ))
          ),
        reachable: () => reachable
      })
    })
  )

/** pg-boss over the app's SqlClient with the production defaults. */
export const PgBossJobQueueLive: Layer.Layer<JobQueue, never, SqlClient.SqlClient> = PgBossJobQueue()

// ---------------------------------------------------------------------------------------------
// Cron (the in-memory adapter's schedules)

export interface CronExpression {
  readonly minutes: ReadonlySet<number>
  readonly hours: ReadonlySet<number>
  readonly daysOfMonth: ReadonlySet<number>
  readonly months: ReadonlySet<number>
  readonly daysOfWeek: ReadonlySet<number>
  /** Standard cron: when both day fields are restricted, a day matching either one runs. */
  readonly anyDayOfMonth: boolean
  readonly anyDayOfWeek: boolean
}

const parseCronField = (text: string, min: number, max: number): Set<number> | undefined => {
  const values = new Set<number>()
  for (const part of text.split(",")) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part)
    if (!match) return undefined
    const step = match[4] === undefined ? 1 : Number(match[4])
    const from = match[1] === "*" ? min : Number(match[2])
    // `5/15` (a start with a step) runs to the end of the range, as in most crons.
    const to = match[1] === "*" ? max : match[3] !== undefined ? Number(match[3]) : match[4] !== undefined ? max : from
    if (step < 1 || from < min || to > max || from > to) return undefined
    for (let value = from; value <= to; value += step) values.add(value)
  }
  return values
}

/**
 * The five standard fields (minute hour day-of-month month day-of-week) with `*`, numbers, ranges,
 * lists and steps, in UTC. Names (`MON`, `JAN`), `L`, `W`, `#` and seconds are not supported.
 */
export const parseCron = (expression: string): CronExpression | undefined => {
  const fields = expression.trim().split(/\s+/)
  if (fields.length !== 5) return undefined
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields as [string, string, string, string, string]
  const minutes = parseCronField(minute, 0, 59)
  const hours = parseCronField(hour, 0, 23)
  const daysOfMonth = parseCronField(dayOfMonth, 1, 31)
  const months = parseCronField(month, 1, 12)
  const daysOfWeek = parseCronField(dayOfWeek, 0, 7)
  if (!minutes || !hours || !daysOfMonth || !months || !daysOfWeek) return undefined
  if (daysOfWeek.delete(7)) daysOfWeek.add(0)
  return {
    minutes,
    hours,
    daysOfMonth,
    months,
    daysOfWeek,
    anyDayOfMonth: dayOfMonth.startsWith("*"),
    anyDayOfWeek: dayOfWeek.startsWith("*")
  }
}

/** The first time (epoch ms, a whole minute) strictly after `after` that matches, if any within 5 years. */
export const nextCronTime = (cron: CronExpression, after: number): number | undefined => {
  let t = new Date(Math.floor(after / 60_000) * 60_000 + 60_000)
  const limit = after + 5 * 366 * 86_400_000
  while (t.getTime() <= limit) {
    const [y, mo, d, h] = [t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), t.getUTCHours()]
    if (!cron.months.has(mo + 1)) {
      t = new Date(Date.UTC(y, mo + 1, 1))
      continue
    }
    const domMatch = cron.daysOfMonth.has(d)
    const dowMatch = cron.daysOfWeek.has(t.getUTCDay())
    const dayMatch = cron.anyDayOfMonth || cron.anyDayOfWeek ? domMatch && dowMatch : domMatch || dowMatch
    if (!dayMatch) {
      t = new Date(Date.UTC(y, mo, d + 1))
      continue
    }
    if (!cron.hours.has(h)) {
      t = new Date(Date.UTC(y, mo, d, h + 1))
      continue
    }
    if (!cron.minutes.has(t.getUTCMinutes())) {
      t = new Date(t.getTime() + 60_000)
      continue
    }
    return t.getTime()
  }
  return undefined
}

// ---------------------------------------------------------------------------------------------
// In memory

export interface InMemoryJobQueueOptions {
  /** Jobs one worker runs at the same time. Default 5. */
  readonly concurrency?: number
  /** How long closing a worker's scope waits for its running jobs before interrupting them. Default 10. */
  readonly stopTimeoutSeconds?: number
}

interface MemoryJob {
  readonly id: string
  readonly data: Record<string, unknown>
  readonly key: string | undefined
  readonly retryLimit: number
  readonly retryDelayMillis: number
  readonly retryBackoff: boolean
  retriesDone: number
  runAt: number
  active: boolean
}

interface MemoryQueue {
  /** Every unfinished job: finished ones are removed. */
  readonly jobs: Array<MemoryJob>
  /** Completed (and replaced) whenever the queue changes, to wake idle workers. */
  changed: Deferred.Deferred<void>
}

/** Scheduled ticks share a key, so a tick is dropped while the previous one is unfinished (as with pg-boss). */
const SCHEDULE_KEY = "\u0000schedule"

/**
 * The same semantics as pg-boss, in the process and not durable: delays and retry backoff run on
 * Effect's Clock (a TestClock drives them), retry delays double exactly (pg-boss adds jitter), and a
 * worker whose scope closes puts its interrupted jobs back in the queue. Schedules follow `parseCron`.
 */
export const InMemoryJobQueue = (options: InMemoryJobQueueOptions = {}): Layer.Layer<JobQueue> =>
  Layer.scoped(
    JobQueue,
    Effect.gen(function*() {
      const layerScope = yield* Effect.scope
      const concurrency = Math.max(1, Math.floor(options.concurrency ?? 5))
      const stopTimeout = Duration.seconds(options.stopTimeoutSeconds ?? 10)
      const queues = new Map<string, MemoryQueue>()
      const schedules = new Map<string, Fiber.RuntimeFiber<void>>()
      let sequence = 0

      const queueOf = (name: string) => {
        let queue = queues.get(name)
        if (!queue) {
          queue = { jobs: [], changed: Deferred.unsafeMake<void>(FiberId.none) }
          queues.set(name, queue)
        }
        return queue
      }
      const changed = (queue: MemoryQueue) => {
        const previous = queue.changed
        queue.changed = Deferred.unsafeMake<void>(FiberId.none)
        Deferred.unsafeDone(previous, Exit.void)
      }
      const nextDue = (queue: MemoryQueue, now: number) => {
        let best: MemoryJob | undefined
        for (const job of queue.jobs) {
          if (!job.active && job.runAt <= now && (!best || job.runAt < best.runAt)) best = job
        }
        return best
      }
      const waitForDue = (queue: MemoryQueue) =>
        Effect.gen(function*() {
          while (true) {
            const now = yield* Clock.currentTimeMillis
            const signal = queue.changed
            if (nextDue(queue, now)) return
            let earliest: number | undefined
            for (const job of queue.jobs) if (!job.active && (earliest === undefined || job.runAt < earliest)) earliest = job.runAt
            yield* earliest === undefined
              ? Deferred.await(signal)
              : Effect.raceFirst(Deferred.await(signal), Effect.sleep(Duration.millis(earliest - now)))
          }
        })

      const settle = (queue: MemoryQueue, job: MemoryJob, exit: Exit.Exit<void, unknown>, now: number) => {
        if (Exit.isSuccess(exit) || job.retriesDone >= job.retryLimit) {
          queue.jobs.splice(queue.jobs.indexOf(job), 1)
        } else {
          job.retriesDone += 1
          job.runAt = now + job.retryDelayMillis * (job.retryBackoff ? 2 ** (job.retriesDone - 1) : 1)
          job.active = false
        }
        changed(queue)
      }

      const send = (name: string, data: Record<string, unknown>, jobOptions: JobOptions = {}) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.sync(() => {
            const queue = queueOf(name)
            const key = jobOptions.singletonKey
            if (key !== undefined && queue.jobs.some((job) => job.key === key)) return
            const backoff = jobOptions.retryBackoff ?? false
            queue.jobs.push({
              id: String(++sequence),
              data,
              key,
              retryLimit: jobOptions.retryLimit ?? 0,
              // pg-boss starts a backoff from one second when no delay is given.
              retryDelayMillis: (jobOptions.retryDelaySeconds ?? (backoff ? 1 : 0)) * 1000,
              retryBackoff: backoff,
              retriesDone: 0,
              runAt: now + Math.max(0, jobOptions.startAfterSeconds ?? 0) * 1000,
              active: false
            })
            changed(queue)
          }))

      const work = (name: string, handler: (data: Record<string, unknown>) => Effect.Effect<void, unknown>) =>
        Effect.gen(function*() {
          const queue = queueOf(name)
          const running = yield* FiberSet.make<void>()
          const permits = yield* Effect.makeSemaphore(concurrency)
          const runJob = (job: MemoryJob) =>
            runHandler(name, handler, job.data, job).pipe(
              Effect.exit,
              Effect.flatMap((exit) => Effect.map(Clock.currentTimeMillis, (now) => settle(queue, job, exit, now))),
              Effect.onInterrupt(() =>
                Effect.sync(() => {
                  job.active = false
                  changed(queue)
                })
              ),
              Effect.ensuring(permits.release(1))
            )
          const dispatch = Effect.forever(
            Effect.gen(function*() {
              yield* permits.take(1)
              yield* waitForDue(queue)
              // Claim and start in one step, so an interruption cannot strand a job marked active.
              yield* Effect.uninterruptible(Effect.gen(function*() {
                const job = nextDue(queue, yield* Clock.currentTimeMillis)
                if (!job) return yield* permits.release(1)
                job.active = true
                yield* FiberSet.run(running, Effect.interruptible(runJob(job)))
              }))
            })
          )
          const dispatcher = yield* Effect.forkDaemon(dispatch)
          yield* Effect.addFinalizer(() =>
            Fiber.interrupt(dispatcher).pipe(
              Effect.zipRight(
                FiberSet.awaitEmpty(running).pipe(
                  Effect.timeoutOption(stopTimeout),
                  Effect.withClock(liveClock),
                  // Finalizers run uninterruptibly, and the timeout has to be able to abandon the wait.
                  Effect.interruptible
                )
              )
            )
          )
        })

      const schedule = (name: string, expression: string) =>
        Effect.gen(function*() {
          const cron = parseCron(expression)
          if (!cron) return yield* Effect.dieMessage(`unsupported cron expression "${expression}"`)
          const ticks = Effect.gen(function*() {
            while (true) {
              const now = yield* Clock.currentTimeMillis
              const next = nextCronTime(cron, now)
              if (next === undefined) return
              yield* Effect.sleep(Duration.millis(next - now))
              yield* send(name, {}, { singletonKey: SCHEDULE_KEY })
            }
          })
          const previous = schedules.get(name)
          if (previous) yield* Fiber.interrupt(previous)
          schedules.set(name, yield* Effect.forkIn(ticks, layerScope))
        })

      // In the process: nothing to reach.
      return JobQueue.of({ send, work, schedule, reachable: () => true })
    })
  )

export const InMemoryJobQueueLive: Layer.Layer<JobQueue> = InMemoryJobQueue()
