// Lingui's macros need a Babel transform that esbuild lacks: run Babel with only the macro plugin,
// on files that import a Lingui macro, and leave TypeScript and JSX to esbuild.
import { transformAsync } from "@babel/core"
import * as fs from "node:fs/promises"

const MACRO = /from\s+["']@lingui\/(core|react)\/macro["']/

// descriptorFields "id-only" keeps only message ids in the bundle (smaller); the catalogs, the
// source-language one included, carry the texts. The macro's default depends on NODE_ENV.
export const linguiMacroPlugin = ({ descriptorFields = "auto" } = {}) => ({
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
        plugins: [["@lingui/babel-plugin-lingui-macro", { descriptorFields }]]
      })
      return { contents: out.code, loader: args.path.endsWith("x") ? "tsx" : "ts" }
    })
  }
})
