import { Clock, Effect } from "effect"

/**
 * A clock a test moves forward by hand (timers, holds, expiries) while everything else keeps running in
 * real time: it reads the wall clock plus an offset, and sleeps for real.
 */
export const adjustableClock = () => {
  let offset = 0
  const clock: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => Date.now() + offset,
    currentTimeMillis: Effect.sync(() => Date.now() + offset),
    unsafeCurrentTimeNanos: () => BigInt(Date.now() + offset) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(Date.now() + offset) * 1_000_000n),
    sleep: (duration) => Effect.sleep(duration).pipe(Effect.withClock(Clock.make()))
  }
  return { clock, advance: (ms: number) => void (offset += ms), now: () => new Date(Date.now() + offset) }
}
