import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import { Cause, Context, Effect, Exit, Layer, ManagedRuntime } from "effect"
import { makeTestLayer, type RuntimeOf, type ServicesOf, UnimplementedTestMethod } from "../support/layers"

interface Greeting {
  readonly id: string
  readonly text: string
}

/** A port with methods and an Effect-valued member, as the application's ports have. */
class Greetings extends Context.Tag("test/Greetings")<
  Greetings,
  {
    readonly findById: (id: string) => Effect.Effect<Greeting | undefined>
    readonly insert: (text: string) => Effect.Effect<Greeting>
    readonly count: Effect.Effect<number>
  }
>() {}

/** The defect an effect died with (fails the test when it did not die). */
const defectOf = <A, E>(exit: Exit.Exit<A, E>) => {
  if (Exit.isSuccess(exit)) throw new Error("expected a defect, got a success")
  const defects = [...Cause.defects(exit.cause)]
  expect(defects).toHaveLength(1)
  return defects[0]
}

describe("makeTestLayer", () => {
  const layer = makeTestLayer(Greetings)({ findById: (id) => Effect.succeed({ id, text: "Bonjour" }) })

  it.effect("the given methods work", () =>
    Effect.gen(function* () {
      const greetings = yield* Greetings
      expect(yield* greetings.findById("g1")).toEqual({ id: "g1", text: "Bonjour" })
    }).pipe(Effect.provide(layer))
  )

  it.effect("a missing method dies with the service's key and the method's name", () =>
    Effect.gen(function* () {
      const greetings = yield* Greetings
      const defect = defectOf(yield* Effect.exit(greetings.insert("Salut")))
      expect(defect).toBeInstanceOf(UnimplementedTestMethod)
      expect(defect).toMatchObject({
        message: "makeTestLayer: test/Greetings.insert is not implemented",
        service: "test/Greetings",
        method: "insert"
      })
    }).pipe(Effect.provide(layer))
  )

  it.effect("a missing Effect-valued member dies the same way when run", () =>
    Effect.gen(function* () {
      const greetings = yield* Greetings
      expect(defectOf(yield* Effect.exit(greetings.count))).toMatchObject({
        message: "makeTestLayer: test/Greetings.count is not implemented"
      })
    }).pipe(Effect.provide(layer))
  )

  it.effect("the failure names the method in the test's report", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(Effect.flatMap(Greetings, (greetings) => greetings.insert("Salut")))
      expect(Exit.isFailure(exit) && Cause.pretty(exit.cause)).toContain("makeTestLayer: test/Greetings.insert is not implemented")
    }).pipe(Effect.provide(layer))
  )

  it.effect("the layer provides the tag and requires nothing; the service is not a thenable", () =>
    Effect.gen(function* () {
      const built: Layer.Layer<Greetings> = layer
      const context = yield* Layer.build(built).pipe(Effect.scoped)
      const greetings = Context.get(context, Greetings)
      expect("then" in greetings).toBe(false)
      expect(yield* Effect.promise(async () => greetings)).toBe(greetings)
    })
  )
})

class Clocks extends Context.Tag("test/Clocks")<Clocks, { readonly now: Effect.Effect<number> }>() {}
class Sql extends Context.Tag("test/Sql")<Sql, { readonly query: (text: string) => Effect.Effect<ReadonlyArray<unknown>> }>() {}

describe("RuntimeOf and ServicesOf (checked by tsc)", () => {
  const memory = Layer.merge(makeTestLayer(Greetings)({}), makeTestLayer(Clocks)({}))
  const postgres = Layer.mergeAll(
    makeTestLayer(Greetings)({}),
    makeTestLayer(Sql)({}),
    Layer.effect(Clocks, Effect.fail("no database" as const))
  )

  it("a layer's services and errors, and its runtime", () => {
    expectTypeOf<ServicesOf<typeof memory>>().toEqualTypeOf<Greetings | Clocks>()
    expectTypeOf<RuntimeOf<typeof postgres>>().toEqualTypeOf<ManagedRuntime.ManagedRuntime<Greetings | Clocks | Sql, "no database">>()
    expectTypeOf(ManagedRuntime.make(memory)).toEqualTypeOf<RuntimeOf<typeof memory>>()
  })

  it("over a union of layers, the services they all provide; any of their runtimes fits", () => {
    type Stores = typeof memory | typeof postgres
    expectTypeOf<ServicesOf<Stores>>().toEqualTypeOf<Greetings | Clocks>()
    expectTypeOf<RuntimeOf<Stores>>().toEqualTypeOf<ManagedRuntime.ManagedRuntime<Greetings | Clocks, "no database">>()
    expectTypeOf(ManagedRuntime.make(postgres)).toMatchTypeOf<RuntimeOf<Stores>>()
    expectTypeOf(ManagedRuntime.make(memory)).toMatchTypeOf<RuntimeOf<Stores>>()
  })

  it("a layer that still requires a service has no runtime", () => {
    expectTypeOf<RuntimeOf<Layer.Layer<Sql, never, Clocks>>>().toBeNever()
  })
})
