import { SqlClient } from "@effect/sql"
import { it as effectIt } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Layer, Logger, ManagedRuntime, Scope, TestClock } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  InMemoryJobQueue,
  type JobOptions,
  JobQueue,
  jobsSchemaFor,
  nextCronTime,
  parseCron,
  PgBossJobQueue,
  type PgBossJobQueueOptions
} from "../../src/platform/jobs"
import { freshTestDatabase, testDatabaseKind } from "../support/database"

type Instance = ManagedRuntime.ManagedRuntime<JobQueue, never>
type Handler = (data: Record<string, unknown>) => Effect.Effect<void, unknown>

/** Log lines, kept out of the test output and checked where they matter. */
const logs: Array<{ level: string; message: string }> = []
const capturingLogger = Logger.replace(
  Logger.defaultLogger,
  Logger.make(({ logLevel, message }) => {
    const parts = Array.isArray(message) ? message : [message]
    logs.push({ level: logLevel.label, message: String(parts[0]) })
  })
)

const send = (instance: Instance, queue: string, data: Record<string, unknown>, options?: JobOptions) =>
  instance.runPromise(Effect.flatMap(JobQueue, (jobs) => jobs.send(queue, data, options)))

/** Registers a worker; the returned function closes its scope (stops it). */
const startWorker = async (instance: Instance, queue: string, handler: Handler) => {
  const scope = Effect.runSync(Scope.make())
  await instance.runPromise(Effect.flatMap(JobQueue, (jobs) => jobs.work(queue, handler)).pipe(Scope.extend(scope)))
  return () => Effect.runPromise(Scope.close(scope, Exit.void))
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const eventually = async (check: () => void, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return check()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await sleep(50)
    }
  }
}

let sequence = 0
const queueName = (label: string) => `${label}-${++sequence}`

/** Counts a handler's executions per job (`data.id`). */
const counter = () => {
  const runs = new Map<string, number>()
  const handler =
    (f: (id: string, run: number) => Effect.Effect<void, unknown> = () => Effect.void): Handler =>
    (data) =>
      Effect.suspend(() => {
        const id = String(data.id)
        const run = (runs.get(id) ?? 0) + 1
        runs.set(id, run)
        return f(id, run)
      })
  return { runs, handler, count: (id: string) => runs.get(id) ?? 0 }
}

interface Adapter {
  /** The instance the tests share. */
  readonly main: () => Instance
  /** Another server process over the same jobs (the same instance in memory). */
  readonly peer: () => Promise<Instance>
}

/**
 * What every adapter must do, on the real clock: each on a queue of its own, so they wait their
 * seconds side by side (`it.concurrent`) rather than one after the other.
 */
const behaviour = (adapter: Adapter) => {
  it.concurrent("delivers a sent job's payload once", async () => {
    const queue = queueName("deliver")
    const received: Array<Record<string, unknown>> = []
    const stop = await startWorker(adapter.main(), queue, (data) => Effect.sync(() => void received.push(data)))
    await send(adapter.main(), queue, { id: "a", text: "Café à Montréal", nested: { n: 1 } })
    await eventually(() => expect(received).toHaveLength(1))
    await sleep(1000)
    await stop()
    expect(received).toEqual([{ id: "a", text: "Café à Montréal", nested: { n: 1 } }])
  })

  it.concurrent("retries a failing handler (a failure or a defect) and stops at retryLimit", async () => {
    const queue = queueName("retry")
    const { handler, count } = counter()
    const stop = await startWorker(
      adapter.main(),
      queue,
      handler((id, run) =>
        id === "fails-twice" && run <= 2
          ? Effect.fail("not yet")
          : id === "dies-once" && run === 1
            ? Effect.die(new Error("boom"))
            : id === "always"
              ? Effect.fail("never")
              : Effect.void
      )
    )
    const retry = { retryLimit: 2, retryDelaySeconds: 1 }
    await send(adapter.main(), queue, { id: "fails-twice" }, retry)
    await send(adapter.main(), queue, { id: "dies-once" }, retry)
    await send(adapter.main(), queue, { id: "always" }, { retryLimit: 1, retryDelaySeconds: 1 })
    await send(adapter.main(), queue, { id: "no-retry" })
    await eventually(() => {
      expect(count("fails-twice")).toBe(3)
      expect(count("dies-once")).toBe(2)
      expect(count("always")).toBe(2)
    })
    await sleep(1000)
    await stop()
    expect([count("fails-twice"), count("dies-once"), count("always"), count("no-retry")]).toEqual([3, 2, 2, 1])
    expect(logs.some((l) => l.level === "WARN" && l.message === `job on ${queue} failed, will be retried`)).toBe(true)
    expect(logs.some((l) => l.level === "ERROR" && l.message === `job on ${queue} failed, no retries left`)).toBe(true)
  })

  it.concurrent("drops a job whose singletonKey is already queued, and accepts it again once finished", async () => {
    const queue = queueName("singleton")
    const { handler, count } = counter()
    await send(adapter.main(), queue, { id: "keyed" }, { singletonKey: "booking-1" })
    await send(adapter.main(), queue, { id: "keyed" }, { singletonKey: "booking-1" })
    await send(adapter.main(), queue, { id: "other-key" }, { singletonKey: "booking-2" })
    await send(adapter.main(), queue, { id: "keyless" })
    await send(adapter.main(), queue, { id: "keyless" })
    const stop = await startWorker(adapter.main(), queue, handler())
    await eventually(() => expect([count("keyed"), count("other-key"), count("keyless")]).toEqual([1, 1, 2]))
    await send(adapter.main(), queue, { id: "keyed" }, { singletonKey: "booking-1" })
    await eventually(() => expect(count("keyed")).toBe(2))
    await stop()
  })

  it.concurrent("holds a job until startAfterSeconds have passed", async () => {
    const queue = queueName("delay")
    let ranAt: number | undefined
    const stop = await startWorker(adapter.main(), queue, () => Effect.sync(() => void (ranAt = Date.now())))
    const sentAt = Date.now()
    await send(adapter.main(), queue, { id: "later" }, { startAfterSeconds: 2 })
    await sleep(1000)
    expect(ranAt).toBeUndefined()
    await eventually(() => expect(ranAt).toBeDefined())
    await stop()
    expect(ranAt! - sentAt).toBeGreaterThanOrEqual(1900)
  })

  it.concurrent("runs each of 50 jobs exactly once with two workers on the queue", async () => {
    const queue = queueName("shared")
    const { handler, runs } = counter()
    const slow = handler(() => Effect.sleep("10 millis"))
    const peer = await adapter.peer()
    const stops = [await startWorker(adapter.main(), queue, slow), await startWorker(peer, queue, slow)]
    for (let i = 0; i < 50; i++) await send(i % 2 === 0 ? adapter.main() : peer, queue, { id: `job-${i}` })
    await eventually(() => expect(runs.size).toBe(50), 20_000)
    await sleep(1000)
    for (const stop of stops) await stop()
    expect([...runs.values()].every((n) => n === 1)).toBe(true)
  })

  it.concurrent("delivers a job sent while no worker runs once one registers again", async () => {
    const queue = queueName("idle")
    const { handler, count } = counter()
    const stop = await startWorker(adapter.main(), queue, handler())
    await stop()
    await send(adapter.main(), queue, { id: "waiting" })
    await sleep(700)
    expect(count("waiting")).toBe(0)
    const stopAgain = await startWorker(adapter.main(), queue, handler())
    await eventually(() => expect(count("waiting")).toBe(1))
    await stopAgain()
  })
}

const fastPolling: PgBossJobQueueOptions = { pollingIntervalSeconds: 0.5 }

describe(`PgBossJobQueue on ${testDatabaseKind}`, () => {
  let database: ManagedRuntime.ManagedRuntime<SqlClient.SqlClient, unknown>
  let databaseContext: Context.Context<SqlClient.SqlClient>
  const instances: Array<Instance> = []
  const instance = async (options: PgBossJobQueueOptions = fastPolling) => {
    const layer = PgBossJobQueue(options).pipe(Layer.provide(Layer.succeedContext(databaseContext)), Layer.provide(capturingLogger))
    const created = ManagedRuntime.make(Layer.merge(layer, capturingLogger))
    await created.runtime()
    instances.push(created)
    return created
  }
  const query = <A extends object>(text: string) => database.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<A>(text)))
  let main: Instance
  let jobsSchema: string

  beforeAll(async () => {
    database = ManagedRuntime.make(freshTestDatabase())
    databaseContext = (await database.runtime()).context
    const [row] = await query<{ schema: string }>("SELECT current_schema() AS schema")
    jobsSchema = jobsSchemaFor(row!.schema)
    main = await instance()
  })
  afterAll(async () => {
    for (const created of instances.reverse()) await created.dispose()
    await database?.dispose()
  })

  behaviour({ main: () => main, peer: () => instance() })

  it("installs pg-boss in the connection's own jobs schema", async () => {
    // Each test file has a database of its own (its `public` schema): pg-boss's default schema.
    expect(jobsSchema).toBe("pgboss")
    const [row] = await query<{ n: number }>(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = '${jobsSchema}' AND table_name = 'job'`
    )
    expect(row!.n).toBe(1)
  })

  it("delivers a job sent before a restart to the next instance", async () => {
    const queue = queueName("restart")
    const first = await instance()
    const { handler, count } = counter()
    // The queue exists and has a worker, which stops with the instance before the job is sent.
    const stop = await startWorker(first, queue, handler())
    await stop()
    await send(first, queue, { id: "survivor" })
    await first.dispose()
    instances.splice(instances.indexOf(first), 1)
    const second = await instance()
    const stopSecond = await startWorker(second, queue, handler())
    await eventually(() => expect(count("survivor")).toBe(1))
    await stopSecond()
  })

  it("writes a job sent inside a transaction only if the transaction commits", async () => {
    const queue = queueName("transactional")
    const { handler, count } = counter()
    const stop = await startWorker(main, queue, handler())
    const inTransaction = (id: string, outcome: "commit" | "rollback") =>
      main.runPromise(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const jobs = yield* JobQueue
          yield* sql.withTransaction(
            jobs.send(queue, { id }).pipe(Effect.zipRight(outcome === "commit" ? Effect.void : Effect.fail("rollback")))
          )
        }).pipe(Effect.provide(Layer.succeedContext(databaseContext)), Effect.ignore)
      )
    await inTransaction("rolled-back", "rollback")
    await inTransaction("committed", "commit")
    await eventually(() => expect(count("committed")).toBe(1))
    await sleep(1000)
    await stop()
    expect(count("rolled-back")).toBe(0)
  })

  it("refuses to create a queue inside a transaction, rather than wait for a second connection", async () => {
    const exit = await main.runPromiseExit(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const jobs = yield* JobQueue
        yield* sql.withTransaction(jobs.send(queueName("unknown"), {}))
      }).pipe(Effect.provide(Layer.succeedContext(databaseContext)))
    )
    expect(Exit.isFailure(exit) && String(Exit.isFailure(exit) ? exit.cause : "")).toMatch(/cannot be created inside a transaction/)
  })

  it("keeps one schedule per queue however many instances declare it", async () => {
    const queue = queueName("nightly")
    const peer = await instance()
    for (const declaring of [main, peer, main]) {
      await declaring.runPromise(Effect.flatMap(JobQueue, (jobs) => jobs.schedule(queue, "0 3 * * *")))
    }
    const rows = await query<{ cron: string; timezone: string }>(
      `SELECT cron, timezone FROM ${jobsSchema}.schedule WHERE name = '${queue}'`
    )
    expect(rows).toEqual([{ cron: "0 3 * * *", timezone: "UTC" }])
  })

  if (testDatabaseKind === "pglite") {
    it("also works with pg-boss's pglite backend profile", async () => {
      const pglite = await instance({ ...fastPolling, backend: "pglite" })
      const queue = queueName("profile")
      const { handler, count } = counter()
      const stop = await startWorker(pglite, queue, handler())
      await send(pglite, queue, { id: "x" })
      await eventually(() => expect(count("x")).toBe(1))
      await stop()
    })
  }

  it("logged no pg-boss error", () => {
    expect(logs.filter((l) => l.level === "ERROR" && l.message.startsWith("job queue:"))).toEqual([])
  })
})

describe("InMemoryJobQueue", () => {
  let main: Instance
  beforeAll(() => {
    main = ManagedRuntime.make(Layer.merge(InMemoryJobQueue(), capturingLogger))
  })
  afterAll(() => main.dispose())

  behaviour({ main: () => main, peer: async () => main })

  // The rest runs on a TestClock, which the adapter's delays follow, from the epoch (cron ticks are
  // counted from it): set explicitly, since a worker runs several files in one process and another
  // file's Effect tests may have moved a test clock it shares (the sandbox's charges run in 2030).
  const withQueue = <A, E>(body: (jobs: JobQueue["Type"]) => Effect.Effect<A, E, Scope.Scope>) =>
    Effect.zipRight(TestClock.setTime(0), Effect.flatMap(JobQueue, body)).pipe(
      Effect.provide(InMemoryJobQueue()),
      Effect.provide(capturingLogger)
    )

  const recorder = Effect.map(
    Effect.sync(() => [] as Array<number>),
    (times) => ({
      times,
      handler: () => Effect.flatMap(TestClock.currentTimeMillis, (now) => Effect.sync(() => void times.push(now)))
    })
  )
  const settle = Effect.repeatN(Effect.yieldNow(), 20)

  effectIt.scoped("waits for startAfterSeconds on the clock", () =>
    withQueue((jobs) =>
      Effect.gen(function* () {
        const { times, handler } = yield* recorder
        yield* jobs.work("q", handler)
        yield* jobs.send("q", {}, { startAfterSeconds: 30 })
        yield* TestClock.adjust("29 seconds")
        yield* settle
        expect(times).toEqual([])
        yield* TestClock.adjust("1 second")
        yield* settle
        expect(times).toEqual([30_000])
      })
    )
  )

  effectIt.scoped("doubles the retry delay with retryBackoff", () =>
    withQueue((jobs) =>
      Effect.gen(function* () {
        const { times, handler } = yield* recorder
        yield* jobs.work("q", () => Effect.zipRight(handler(), Effect.fail("again")))
        yield* jobs.send("q", {}, { retryLimit: 3, retryDelaySeconds: 10, retryBackoff: true })
        for (let i = 0; i < 10; i++) {
          yield* settle
          yield* TestClock.adjust("10 seconds")
        }
        expect(times).toEqual([0, 10_000, 30_000, 70_000])
      })
    )
  )

  effectIt.scoped("sends a scheduled queue a job on each cron tick", () =>
    withQueue((jobs) =>
      Effect.gen(function* () {
        const { times, handler } = yield* recorder
        yield* jobs.work("tick", handler)
        yield* jobs.schedule("tick", "*/5 * * * *")
        for (let minute = 0; minute < 16; minute++) {
          yield* settle
          yield* TestClock.adjust("1 minute")
        }
        yield* settle
        expect(times).toEqual([5, 10, 15].map((m) => m * 60_000))
      })
    )
  )

  effectIt.scoped("waits for a running job when its worker stops, and requeues one that is interrupted", () =>
    Effect.gen(function* () {
      const jobs = yield* JobQueue
      const started = yield* Deferred.make<void>()
      const ran: Array<string> = []
      const workerScope = yield* Scope.make()
      yield* jobs
        .work("q", (data) =>
          Deferred.succeed(started, undefined).pipe(
            Effect.zipRight(data.slow ? Effect.never : Effect.void),
            Effect.zipRight(Effect.sync(() => void ran.push(String(data.id))))
          )
        )
        .pipe(Scope.extend(workerScope))
      yield* jobs.send("q", { id: "stuck", slow: true })
      yield* Deferred.await(started)
      // Closing waits (real time) for the stuck handler, then interrupts it and puts the job back.
      yield* Scope.close(workerScope, Exit.void)
      const received = yield* Deferred.make<Record<string, unknown>>()
      yield* jobs.work("q", (data) => Deferred.succeed(received, data))
      expect(yield* Deferred.await(received)).toEqual({ id: "stuck", slow: true })
      expect(ran).toEqual([])
    }).pipe(Effect.provide(InMemoryJobQueue({ stopTimeoutSeconds: 0.2 })))
  )

  effectIt.effect("refuses a cron expression it cannot read", () =>
    withQueue((jobs) => Effect.exit(jobs.schedule("q", "every minute"))).pipe(
      Effect.scoped,
      Effect.map((exit) => expect(Exit.isFailure(exit)).toBe(true))
    )
  )
})

describe("cron", () => {
  const at = (iso: string) => Date.parse(iso)
  const next = (expression: string, after: string) => {
    const cron = parseCron(expression)
    if (!cron) throw new Error(`unparsed ${expression}`)
    const time = nextCronTime(cron, at(after))
    return time === undefined ? undefined : new Date(time).toISOString()
  }

  it("finds the next matching minute in UTC", () => {
    expect(next("* * * * *", "2025-03-01T10:00:30Z")).toBe("2025-03-01T10:01:00.000Z")
    expect(next("*/15 * * * *", "2025-03-01T10:15:00Z")).toBe("2025-03-01T10:30:00.000Z")
    expect(next("0 3 * * *", "2025-03-01T10:00:00Z")).toBe("2025-03-02T03:00:00.000Z")
    expect(next("30 9 1 * *", "2025-12-15T00:00:00Z")).toBe("2026-01-01T09:30:00.000Z")
    expect(next("0 0 * * 1-5", "2025-03-01T12:00:00Z")).toBe("2025-03-03T00:00:00.000Z") // Saturday → Monday
    expect(next("0 12 * * 7", "2025-03-01T12:00:00Z")).toBe("2025-03-02T12:00:00.000Z") // 7 is Sunday
    expect(next("0 0 13 * 5", "2025-03-01T00:00:00Z")).toBe("2025-03-07T00:00:00.000Z") // the 13th or a Friday
    expect(next("0 0 29 2 *", "2025-03-01T00:00:00Z")).toBe("2028-02-29T00:00:00.000Z")
    expect(next("0 0 31 2 *", "2025-03-01T00:00:00Z")).toBeUndefined()
  })

  it("rejects what it does not support", () => {
    for (const expression of ["", "* * * *", "* * * * * *", "60 * * * *", "* * * JAN *", "*/0 * * * *", "5-1 * * * *", "@daily"]) {
      expect(parseCron(expression), expression).toBeUndefined()
    }
  })
})
