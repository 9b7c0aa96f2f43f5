// The UI speaks the server's contract (ui/api/contract.ts) with type-only imports: they add no byte
// to the bundle. Of the server's files, only the import-free literal lists and limits
// (src/modules/*/rules.ts, src/platform/languages.ts, the money toolkit src/platform/money.ts) may be bundled; no contract, schema or effect code.
import * as esbuild from "esbuild"
import { describe, expect, it } from "vitest"

const root = new URL("../..", import.meta.url).pathname
const SHARED = /^src\/(modules\/[a-z-]+\/([a-z-]+\/)?rules|platform\/(languages|money))\.ts$/

const bundle = async () => {
  // A computed specifier: the build's options are plain JavaScript without type declarations.
  const optionsPath = `${root}bin/ui-bundle.mjs`
  const { uiBundleOptions } = (await import(optionsPath)) as { uiBundleOptions: (root: string) => esbuild.BuildOptions }
  return esbuild.build({ ...uiBundleOptions(root), write: false, outdir: "out", logLevel: "silent" })
}

describe("UI bundle and the server's contract", () => {
  it("bundles the shared rules but no other server file: the contract's types cost no byte", async () => {
    const result = await bundle()
    const inputs = Object.keys(result.metafile!.inputs)
    const server = inputs.filter((file) => file.startsWith("src/"))
    // The UI does take its lists and limits from the server's rules (ADDRESS_MAX, statuses...).
    expect(server).toContain("src/modules/booking/rules.ts")
    // And its money toolkit: one list of currencies and their decimals (ui/format.ts).
    expect(server).toContain("src/platform/money.ts")
    expect(server.filter((file) => !SHARED.test(file))).toEqual([])
    expect(inputs.some((file) => file.includes("node_modules/effect/"))).toBe(false)
    // Nor any text of a contract (the Authentication middleware's tag, a schema's field doc).
    const code = result.outputFiles.map((file) => file.text).join("\n")
    expect(code).not.toContain("platform/Authentication")
    expect(code).not.toContain("The spec's client reads these three answers")
  }, 60_000)

  it("a type-only import of a contract compiles to nothing", async () => {
    const withTypes = await esbuild.build({
      stdin: {
        contents: 'import type { Booking } from "./ui/api/contract"\nexport const none: Booking | null = null\n',
        loader: "ts",
        resolveDir: root
      },
      bundle: true,
      format: "esm",
      write: false,
      logLevel: "silent"
    })
    const without = await esbuild.build({
      stdin: { contents: "export const none = null\n", loader: "ts", resolveDir: root },
      bundle: true,
      format: "esm",
      write: false,
      logLevel: "silent"
    })
    expect(withTypes.outputFiles[0]!.contents.length).toBe(without.outputFiles[0]!.contents.length)
  }, 60_000)
})
