import { layer as effectLayer, type Vitest } from "@effect/vitest"
import type { Duration, Layer } from "effect"
import { it as vitestIt } from "vitest"

/** What @effect/vitest's `layer` writes onto vitest's own `it` (internal.js, makeIt). */
const WRITTEN = ["effect", "scoped", "prop", "flakyTest", "layer"] as const
const shared = vitestIt as unknown as Record<string, unknown>
/** The methods as @effect/vitest defines them, before any block wrote its own (this module is loaded before any block runs). */
const pristine = WRITTEN.map((key) => [key, shared[key]] as const)

/**
 * @effect/vitest's `layer`, without its side effect on the other files of the worker: when its block
 * runs it writes the block's methods onto vitest's shared `it`, so in a worker that runs its files one
 * after the other (isolate: false) every later file's `it.effect` ran on that block's runtime, with no
 * TestClock when the block excludes the test services (a run in shuffled order showed it). The block's
 * tests are registered with its own methods; the shared ones are put back as soon as they are.
 */
export const layer = <R, E, const ExcludeTestServices extends boolean = false>(
  layer_: Layer.Layer<R, E>,
  options?: {
    readonly memoMap?: Layer.MemoMap
    readonly timeout?: Duration.DurationInput
    readonly excludeTestServices?: ExcludeTestServices
  }
) => {
  const block = effectLayer<R, E, ExcludeTestServices>(layer_, options)
  return (name: string, tests: (it: Vitest.MethodsNonLive<R, ExcludeTestServices>) => void) =>
    block(name, (it) => {
      try {
        tests(it)
      } finally {
        for (const [key, value] of pristine) shared[key] = value
      }
    })
}
