import { type Context, Effect, Layer, type ManagedRuntime } from "effect"

/**
 * Typed test layers: fakes that provide only the methods a test uses, and the real types of the
 * runtimes tests build over the application's layers (instead of erasing them to `any`).
 */

/** The error an unimplemented member of a test layer dies with. */
export class UnimplementedTestMethod extends Error {
  override readonly name = "UnimplementedTestMethod"
  constructor(
    readonly service: string,
    readonly method: string
  ) {
    super(`makeTestLayer: ${service}.${method} is not implemented`)
  }
}

/**
 * A stand-in for a member the test did not give: calling it answers an Effect that dies with the
 * service's key and the member's name, and it is that Effect itself too (a port's member may be an
 * Effect rather than a method), so `yield* service.member` dies the same way.
 */
const unimplemented = (service: string, method: string) => {
  const dead = Effect.die(new UnimplementedTestMethod(service, method))
  const member = () => dead
  Object.assign(member, dead)
  Object.setPrototypeOf(member, Object.getPrototypeOf(dead))
  return member
}

/**
 * The service as a Proxy over `implementation`: the given members answer themselves, any other
 * (string-named) one is an unimplemented stand-in. Symbols and `then` read through, so the service
 * is not a thenable and inspecting it (printing, equality) stays quiet.
 */
const partialService = <S extends object>(service: string, implementation: Partial<S>): S =>
  new Proxy({ ...implementation } as S, {
    get(target, property, receiver) {
      if (typeof property === "symbol" || property === "then" || property in target) return Reflect.get(target, property, receiver)
      const member = unimplemented(service, property)
      Reflect.set(target, property, member)
      return member
    }
  })

/**
 * `makeTestLayer(Tag)({ method })`: a layer of `Tag` whose service has only the members a test
 * gives; using any other fails the test loudly with its name (`makeTestLayer: identity/UserRepository.findById
 * is not implemented`) instead of a fake having to implement the whole port. After Effect-TS/examples'
 * http-server `makeTestLayer`.
 */
export const makeTestLayer =
  <I, S extends object>(tag: Context.Tag<I, S>) =>
  (implementation: Partial<Context.Tag.Service<typeof tag>>): Layer.Layer<Context.Tag.Identifier<typeof tag>> =>
    Layer.succeed(tag, partialService<S>(tag.key, implementation))

/** Every service any of the layers `L` (one layer, or a union of them: a store chosen by kind) provides. */
type AnyServices<L> = L extends Layer.Layer<infer ROut, infer _E, infer _RIn> ? ROut : never
/** The layers of `L` that do not provide `S`. */
type Lacking<L, S> = L extends Layer.Layer<infer ROut, infer _E, infer _RIn> ? ([S] extends [ROut] ? never : L) : never

/**
 * The services a layer provides, for the `R` of the effects a test runs against it. Over a union of
 * layers (`kind === "memory" ? MemoryStores : PostgresStores`), the services every one of them provides.
 */
export type ServicesOf<L> =
  AnyServices<L> extends infer S ? (S extends unknown ? ([Lacking<L, S>] extends [never] ? S : never) : never) : never

/** The errors building a layer (any of them) may fail with. */
export type ErrorOf<L> = L extends Layer.Layer<infer _ROut, infer E, infer _RIn> ? E : never

/** What a layer (any of them) still requires. */
export type RequirementsOf<L> = L extends Layer.Layer<infer _ROut, infer _E, infer RIn> ? RIn : never

/**
 * The runtime `ManagedRuntime.make` builds from a layer without requirements (`never` otherwise),
 * for a `let runtime: RuntimeOf<ReturnType<typeof stackOn>>` set in `beforeAll`. Over a union of
 * layers, a runtime of the services they all provide: any of their runtimes can be assigned to it.
 */
export type RuntimeOf<L> = [RequirementsOf<L>] extends [never] ? ManagedRuntime.ManagedRuntime<ServicesOf<L>, ErrorOf<L>> : never
