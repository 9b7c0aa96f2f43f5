import { Cause, Clock, Context, Effect, type Scope } from "effect"

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
  readonly work: (
    queue: string,
    handler: (data: Record<string, unknown>) => Effect.Effect<void, unknown>
  ) => Effect.Effect<void, never, Scope.Scope>
  /** Sends `queue` an empty job on a cron schedule (UTC), once per tick across every process. */
  readonly schedule: (queue: string, cron: string) => Effect.Effect<void>
  /** False while the queue's last statement found its database unreachable (the health check reports it). */
  readonly reachable: () => boolean
}
export class JobQueue extends Context.Tag("platform/JobQueue")<JobQueue, JobQueueShape>() {}

// Shared by both adapters

/** One attempt of a job: failures are logged here, where the queue and the attempt are known. */
export const runHandler = (
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
export const liveClock = Clock.make()
