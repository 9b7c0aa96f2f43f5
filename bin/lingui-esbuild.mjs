// Lingui's macros need a Babel transform that esbuild lacks: run Babel with only the macro plugin,
// on files that import a Lingui macro, and leave TypeScript and JSX to esbuild.
import { transformAsync } from "@babel/core"
import * as fs from "node:fs/promises"

const MACRO = /from\s+["']@lingui\/(core|react)\/macro["']/

export const linguiMacroPlugin = () => ({
  name: "lingui-macro",
  setup(build) {
    build.onLoad({ filter: /\.[jt]sx?$/ }, async (args) => {
      if (args.path.includes("node_modules")) return undefined
      const source = await fs.readFile(args.path, "utf8")
      if (!MACRO.test(source)) return undefined
      const out = await transformAsync(source, {
        filename: args.path,
        babelrc: false,
        configFile: false,
        sourceMaps: "inline",
        parserOpts: { plugins: ["typescript", "jsx"] },
        plugins: ["@lingui/babel-plugin-lingui-macro"]
      })
      return { contents: out.code, loader: args.path.endsWith("x") ? "tsx" : "ts" }
    })
  }
})
