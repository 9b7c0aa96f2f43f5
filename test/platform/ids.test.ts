import { Effect, Either, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { newId, now, SequentialIdsTest } from "../../src/platform/clock"
import { Id, isUuid, Uuid } from "../../src/platform/ids"
import { isStorageKey, newStorageKey } from "../../src/platform/storage"

describe("platform ids", () => {
  it("isUuid accepts every UUID, in either case", () => {
    fc.assert(
      fc.property(fc.uuid(), (id) => {
        expect(isUuid(id)).toBe(true)
        expect(isUuid(id.toUpperCase())).toBe(true)
      })
    )
  })

  it("isUuid refuses anything else", () => {
    for (const value of [
      "",
      "not-a-uuid",
      "1",
      "' OR 1=1 --",
      "0b5a9a84-5c4e-4c43-9d7a-2b1a9c0e7f1",
      "0b5a9a84-5c4e-4c43-9d7a-2b1a9c0e7f100",
      "0b5a9a845c4e4c439d7a2b1a9c0e7f10",
      " 0b5a9a84-5c4e-4c43-9d7a-2b1a9c0e7f10",
      "0b5a9a84-5c4e-4c43-9d7a-2b1a9c0e7f10\n",
      "g0000000-0000-4000-8000-000000000000",
      undefined,
      null,
      42
    ]) {
      expect(isUuid(value)).toBe(false)
    }
    // One character of a UUID replaced by a non-hexadecimal one, or one removed: no longer an id.
    fc.assert(
      fc.property(fc.uuid(), fc.nat(35), fc.constantFrom("g", "z", " ", "-", "'", "\u0000"), (id, at, bad) => {
        if (id[at] !== bad) expect(isUuid(id.slice(0, at) + bad + id.slice(at + 1))).toBe(false)
        expect(isUuid(id.slice(0, at) + id.slice(at + 1))).toBe(false)
      })
    )
  })

  it("the Uuid schema and a branded Id decode exactly what isUuid accepts", () => {
    const BookingId = Id("BookingId")
    fc.assert(
      fc.property(fc.oneof(fc.uuid(), fc.string()), (value) => {
        expect(Either.isRight(Schema.decodeUnknownEither(Uuid)(value))).toBe(isUuid(value))
        expect(Either.isRight(Schema.decodeUnknownEither(BookingId)(value))).toBe(isUuid(value))
      })
    )
  })

  it("storage keys are an area and a lowercase UUID", () => {
    expect(isStorageKey(newStorageKey("avatars"))).toBe(true)
    expect(isStorageKey("avatars/0b5a9a84-5c4e-4c43-9d7a-2b1a9c0e7f10")).toBe(true)
    expect(isStorageKey("avatars/0B5A9A84-5C4E-4C43-9D7A-2B1A9C0E7F10")).toBe(false)
    expect(isStorageKey("elsewhere/0b5a9a84-5c4e-4c43-9d7a-2b1a9c0e7f10")).toBe(false)
    expect(isStorageKey("avatars/../0b5a9a84-5c4e-4c43-9d7a-2b1a9c0e7f10")).toBe(false)
    expect(isStorageKey("/0b5a9a84-5c4e-4c43-9d7a-2b1a9c0e7f10")).toBe(false)
  })
})

describe("platform clock", () => {
  it("now reads Effect's Clock", async () => {
    const at = await Effect.runPromise(
      Effect.withClock(now, { ...Effect.runSync(Effect.clock), currentTimeMillis: Effect.succeed(Date.UTC(2030, 0, 2, 3, 4, 5)) })
    )
    expect(at.toISOString()).toBe("2030-01-02T03:04:05.000Z")
  })

  it("new ids are random UUIDs, or counted under the test layer", async () => {
    const [a, b] = await Effect.runPromise(Effect.all([newId, newId]))
    expect(isUuid(a) && isUuid(b) && a !== b).toBe(true)
    const counted = await Effect.runPromise(Effect.all([newId, newId]).pipe(Effect.provide(SequentialIdsTest)))
    expect(counted).toEqual(["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"])
    expect(counted.every(isUuid)).toBe(true)
  })
})
