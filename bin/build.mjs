#!/usr/bin/env node
// Builds dist/: the server bundle, the CLI commands bundle and the UI (hashed, split, minified).
import * as esbuild from "esbuild"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { uiBundleOptions } from "./ui-bundle.mjs"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const dist = path.join(root, "dist")
const started = Date.now()

// The server and CLI bundles include their dependencies: resolving and loading hundreds of ES
// modules from node_modules took about 1.2 s of every start on the 2-core machine (docs/benchmarks.md).
// Kept external: PGlite (its WebAssembly and data files sit beside its modules), sharp (native),
// pino (its worker transports load files by path), oclif (the CLI runner loads the commands bundle),
// pdfkit (its standard fonts' metrics, .afm files, are read from its own folder at run time),
// and optional native helpers of pg and ws that are not installed.
const nodeOptions = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
  external: [
    "@electric-sql/pglite",
    "@electric-sql/pglite/*",
    "@electric-sql/pglite-socket",
    "sharp",
    "pino",
    "thread-stream",
    "pdfkit",
    "@oclif/core",
    "pg-native",
    "bufferutil",
    "utf-8-validate"
  ],
  // CommonJS dependencies call require() for Node's built-in modules.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  sourcemap: "linked",
  logLevel: "warning",
  absWorkingDir: root
}

await Promise.all([
  esbuild.build({ ...nodeOptions, entryPoints: { server: "src/main.ts" }, outdir: dist }),
  esbuild.build({ ...nodeOptions, entryPoints: { commands: "cli/commands.ts" }, outdir: path.join(dist, "cli") })
])

// UI (skipped with --no-ui, for server-only iterations)
if (!process.argv.includes("--no-ui")) {
  const uiOut = path.join(dist, "ui")
  fs.rmSync(uiOut, { recursive: true, force: true })
  const result = await esbuild.build({
    ...uiBundleOptions(root),
    sourcemap: "linked",
    outdir: path.join(uiOut, "assets"),
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    assetNames: "[name]-[hash]",
    logLevel: "warning"
  })
  const outputs = Object.entries(result.metafile.outputs)
  const entry = outputs.find(([, o]) => o.entryPoint === "ui/main.tsx")
  const css = outputs.find(([file]) => file.endsWith(".css"))
  const rel = (file) => "/" + path.relative(uiOut, path.join(root, file)).split(path.sep).join("/")
  const template = fs.readFileSync(path.join(root, "ui/index.html"), "utf8")
  fs.writeFileSync(
    path.join(uiOut, "index.html"),
    template
      .replace("<!--styles-->", css ? `<link rel="stylesheet" href="${rel(css[0])}">` : "")
      .replace("<!--scripts-->", `<script type="module" src="${rel(entry[0])}"></script>`)
  )
  for (const file of fs.readdirSync(path.join(root, "ui/public"), { withFileTypes: true })) {
    if (file.isFile()) fs.copyFileSync(path.join(root, "ui/public", file.name), path.join(uiOut, file.name))
  }
}
console.log(`built dist/ in ${Date.now() - started} ms`)
