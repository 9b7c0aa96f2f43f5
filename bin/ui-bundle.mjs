// How the UI is bundled: shared by bin/build.mjs and the first-load budget test
// (test/ui/budget.test.ts), so the budget always measures the bundle that ships.
import { linguiMacroPlugin } from "./lingui-esbuild.mjs"

export const uiBundleOptions = (root) => ({
  absWorkingDir: root,
  entryPoints: { main: "ui/main.tsx" },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "browser",
  target: ["es2022"],
  minify: true,
  metafile: true,
  loader: { ".svg": "file", ".png": "file" },
  jsx: "automatic",
  define: { "process.env.NODE_ENV": '"production"' },
  // Only message ids in the bundle: the catalogs, the source language's included, carry the texts.
  plugins: [linguiMacroPlugin({ descriptorFields: "id-only" })]
})
