import { Effect } from "effect"

/**
 * Runs `work` after the answer: the caller returns at once, whatever the work finds. Used where the
 * answer must not reveal, by its timing, what the work found (whether an account exists); the work
 * keeps the request's services and log annotations, and its failure is logged, never answered.
 */
export const detached = <E, R>(label: string, work: Effect.Effect<void, E, R>): Effect.Effect<void, never, R> =>
  Effect.asVoid(Effect.forkDaemon(Effect.catchAllCause(work, (cause) => Effect.logError(`${label} failed`, cause))))
