import { Clock, Context, Effect, Layer } from "effect"
import * as crypto from "node:crypto"

// The one reading of the time and the one source of new ids. The time is Effect's Clock (tests
// move it with a test clock, e.g. test/support/server.ts's adjustableClock); new ids are a
// service with a default, so nothing has to provide it and a test can make them predictable.

/** The current instant, from Effect's Clock. */
export const now: Effect.Effect<Date> = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** Makes new ids (UUIDs v4). Defaults to the platform's random generator. */
export class IdGenerator extends Context.Reference<IdGenerator>()("platform/IdGenerator", {
  defaultValue: () => ({ next: (): string => crypto.randomUUID() })
}) {}

/** A new id (a UUID). */
export const newId: Effect.Effect<string> = Effect.map(IdGenerator, (ids) => ids.next())

/** Test layer: ids counted from 1 (`00000000-0000-4000-8000-000000000001`, ...), in order of demand. */
export const SequentialIdsTest = Layer.sync(IdGenerator, () => {
  let counter = 0
  return { next: () => `00000000-0000-4000-8000-${(++counter).toString(16).padStart(12, "0")}` }
})
