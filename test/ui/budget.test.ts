// Performance budget: the JavaScript of the first page load (the entry chunk and every chunk it
// imports statically) stays under 150 KB gzipped, and holds no chart library. Bundles in memory with the
// build's options.
import * as esbuild from "esbuild"
import { gzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"

const BUDGET = 150 * 1024
const root = new URL("../..", import.meta.url).pathname

describe("UI bundle", () => {
  it("keeps the first-load JavaScript under 150 KB gzipped, uPlot in a lazy chunk only", async () => {
    // A computed specifier: the build's options are plain JavaScript without type declarations.
    const optionsPath = `${root}bin/ui-bundle.mjs`
    const { uiBundleOptions } = (await import(optionsPath)) as { uiBundleOptions: (root: string) => esbuild.BuildOptions }
    const result = await esbuild.build({ ...uiBundleOptions(root), write: false, outdir: "out", logLevel: "silent" })
    const outputs = result.metafile!.outputs
    const entry = Object.keys(outputs).find((file) => outputs[file]?.entryPoint === "ui/main.tsx")
    const firstLoad = new Set<string>()
    const visit = (file: string) => {
      if (firstLoad.has(file)) return
      firstLoad.add(file)
      for (const dependency of outputs[file]?.imports ?? []) if (dependency.kind === "import-statement") visit(dependency.path)
    }
    visit(entry!)
    const size = result.outputFiles
      .filter((file) => firstLoad.has(file.path.slice(root.length)))
      .reduce((total, file) => total + gzipSync(file.contents, { level: 9 }).length, 0)
    // The chart library (uPlot) is only in chunks reached through a dynamic import (ui/admin/chart.tsx),
    // never in the first load (its 1.8 KB stylesheet is bundled with ours, ui/styles/charts.css).
    const hasUplot = (file: string) => Object.keys(outputs[file]?.inputs ?? {}).some((input) => input.includes("node_modules/uplot/"))
    const uplotChunks = Object.keys(outputs).filter((file) => file.endsWith(".js") && hasUplot(file))
    expect(uplotChunks.length).toBeGreaterThan(0)
    expect([...firstLoad].filter(hasUplot)).toEqual([])
    const dynamicallyImported = new Set(
      Object.values(outputs).flatMap((o) => o.imports.filter((i) => i.kind === "dynamic-import").map((i) => i.path))
    )
    for (const chunk of uplotChunks) expect(dynamicallyImported.has(chunk)).toBe(true)
    expect(firstLoad.size).toBeGreaterThan(0)
    expect(size).toBeGreaterThan(40 * 1024) // React alone is about 60 KB: the sum must include it
    expect(size).toBeLessThanOrEqual(BUDGET)
  }, 60_000)
})
