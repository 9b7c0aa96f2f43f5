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

// Node bundles keep node_modules external: PGlite's data files cannot be inlined, and the
// packages are installed anyway. Only our own code is bundled.
const nodeOptions = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
  packages: "external",
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
