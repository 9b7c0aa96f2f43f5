import { Deferred, Effect, Exit, Fiber, Option } from "effect"
import { describe, expect, it } from "vitest"
import { makeSlotClaims } from "../../src/modules/booking/claims"

const at = (hour: number) => new Date(Date.UTC(2030, 0, 1, hour))

/** A booking attempt that runs until `release` is completed, then answers `stored`. */
const attempt = (runs: { count: number }, release: Deferred.Deferred<boolean>) =>
  Effect.gen(function* () {
    runs.count++
    const stored = yield* Deferred.await(release)
    return stored ? Option.some("booked") : Option.none<string>()
  })

/** Provider p1's 10:00-12:00 held by a booking attempt still running. */
const holding = Effect.gen(function* () {
  const claims = makeSlotClaims()
  const runs = { count: 0 }
  const release = yield* Deferred.make<boolean>()
  const holder = yield* Effect.fork(claims.claim("p1", at(10), at(12), attempt(runs, release)))
  yield* Effect.yieldNow()
  return { claims, runs, release, holder }
})

describe("slot claims (in front of the exclusion constraint)", () => {
  it("an overlapping request waits for the holder and is refused without booking when the holder stored", async () => {
    await Effect.runPromise(
      Effect.gen(function* () {
        const { claims, runs, release, holder } = yield* holding
        const waiters = yield* Effect.forEach(
          [
            [9, 11],
            [11, 13],
            [10, 12]
          ] as const,
          ([s, e]) => Effect.fork(claims.claim("p1", at(s), at(e), attempt(runs, release)))
        )
        yield* Effect.yieldNow()
        expect(runs.count).toBe(1)
        yield* Deferred.succeed(release, true)
        expect(yield* Fiber.join(holder)).toEqual(Option.some("booked"))
        for (const waiter of waiters) expect(yield* Fiber.join(waiter)).toEqual(Option.none())
        expect(runs.count).toBe(1)
      })
    )
  })

  it("other providers and adjacent times are not held; when the holder did not store, waiters book themselves", async () => {
    await Effect.runPromise(
      Effect.gen(function* () {
        const { claims, runs, release, holder } = yield* holding
        const independent = yield* Effect.forEach(
          [
            ["p2", 10, 12],
            ["p1", 12, 13],
            ["p1", 8, 10]
          ] as const,
          ([p, s, e]) => Effect.fork(claims.claim(p, at(s), at(e), attempt(runs, release)))
        )
        const waiter = yield* Effect.fork(claims.claim("p1", at(11), at(12), attempt(runs, release)))
        yield* Effect.yieldNow()
        expect(runs.count).toBe(4)
        // The database refused the holder (a booking it already had): the waiter asks it too.
        yield* Deferred.succeed(release, false)
        expect(yield* Fiber.join(holder)).toEqual(Option.none())
        yield* Fiber.join(waiter)
        yield* Effect.forEach(independent, Fiber.join)
        expect(runs.count).toBe(5)
      })
    )
  })

  it("a holder that fails or is interrupted releases its claim", async () => {
    await Effect.runPromise(
      Effect.gen(function* () {
        const claims = makeSlotClaims()
        const failed = yield* Effect.exit(claims.claim("p1", at(10), at(12), Effect.fail("database down")))
        expect(Exit.isFailure(failed)).toBe(true)
        const never = yield* Deferred.make<boolean>()
        const interrupted = yield* Effect.fork(claims.claim("p1", at(10), at(12), attempt({ count: 0 }, never)))
        yield* Effect.yieldNow()
        yield* Fiber.interrupt(interrupted)
        const ok = yield* Deferred.make<boolean>()
        yield* Deferred.succeed(ok, true)
        expect(yield* claims.claim("p1", at(10), at(12), attempt({ count: 0 }, ok))).toEqual(Option.some("booked"))
      })
    )
  })
})
