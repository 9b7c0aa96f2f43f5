// Performance budget: the JavaScript of the first page load (the entry chunk and every chunk it
// imports statically) stays under 150 KB gzipped. Bundles in memory with the build's options.
import * as esbuild from "esbuild"
import { gzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"

const BUDGET = 150 * 1024
const root = new URL("../..", import.meta.url).pathname

describe("UI bundle", () => {
  it("keeps the first-load JavaScript under 150 KB gzipped", async () => {
    // A computed specifier: the plugin is plain JavaScript without type declarations.
    const pluginPath = `${root}bin/lingui-esbuild.mjs`
    const { linguiMacroPlugin } = (await import(pluginPath)) as { linguiMacroPlugin: (options: object) => esbuild.Plugin }
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: { main: "ui/main.tsx" },
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "browser",
      target: ["es2022"],
      minify: true,
      metafile: true,
      write: false,
      outdir: "out",
      jsx: "automatic",
      define: { "process.env.NODE_ENV": '"production"' },
      plugins: [linguiMacroPlugin({ descriptorFields: "id-only" })],
      logLevel: "silent"
    })
    const outputs = result.metafile.outputs
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
    expect(firstLoad.size).toBeGreaterThan(0)
    expect(size).toBeGreaterThan(40 * 1024) // React alone is about 60 KB: the sum must include it
    expect(size).toBeLessThanOrEqual(BUDGET)
  }, 60_000)
})
