import { Clock, Deferred, Duration, Effect, Exit, Fiber, FiberId, FiberSet, Layer } from "effect"
import { type JobOptions, JobQueue, liveClock, runHandler } from "./port"
import { nextCronTime, parseCron } from "./schedules"

// The JobQueue port's in-process adapter (the in-memory domain and tests): not durable.

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
    Effect.gen(function* () {
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
        Effect.gen(function* () {
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
          })
        )

      const work = (name: string, handler: (data: Record<string, unknown>) => Effect.Effect<void, unknown>) =>
        Effect.gen(function* () {
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
            Effect.gen(function* () {
              yield* permits.take(1)
              yield* waitForDue(queue)
              // Claim and start in one step, so an interruption cannot strand a job marked active.
              yield* Effect.uninterruptible(
                Effect.gen(function* () {
                  const job = nextDue(queue, yield* Clock.currentTimeMillis)
                  if (!job) return yield* permits.release(1)
                  job.active = true
                  yield* FiberSet.run(running, Effect.interruptible(runJob(job)))
                })
              )
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
        Effect.gen(function* () {
          const cron = parseCron(expression)
          if (!cron) return yield* Effect.dieMessage(`unsupported cron expression "${expression}"`)
          const ticks = Effect.gen(function* () {
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
