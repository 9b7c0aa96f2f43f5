// The module boundaries, checked on every import of src, ui and cli (TypeScript's own parser, so
// `import type`, `export ... from`, `import()` and multi-line imports all count). The rules are
// written in docs/architecture.md ("Boundaries"); this file is their one enforcement, run by `make test`.
import { readFileSync, readdirSync } from "node:fs"
import { join } from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"
import { type Import, importsOf, parsedSource, root, sourcesUnder } from "../support/imports"

const files = [...sourcesUnder("src"), ...sourcesUnder("ui"), ...sourcesUnder("cli")]
const imports = files.flatMap((file) => importsOf(file))
const show = ({ file, from }: Import) => `${file} imports ${from}`

const moduleOf = (path: string | undefined) => /^src\/modules\/([a-z-]+)(?:\/|$)/.exec(path ?? "")?.[1]
/** The path of a file inside its module ("http", "adapters/postgres", "index" for the folder itself). */
const inModule = (path: string) => path.replace(/^src\/modules\/[a-z-]+\/?/, "") || "index"

/**
 * A module's public files, the only ones other modules may import: its `index.ts` (service, ports,
 * domain types and rules others need), its HTTP contract (`contract.ts`, `*-contract.ts`) and its
 * `rules.ts`. A type-only import may also name its `domain.ts` (erased: it loads no code).
 */
const PUBLIC = /^(index|([a-z-]+\/)?contract|[a-z-]+-contract|([a-z-]+\/)?rules)$/
const PUBLIC_TYPES = /^domain$/

/** Files that wire a module to the outside: only the composition root (src/app), cli and tests import them. */
const WIRING = /^([a-z-]+\/)?(adapters\/.+|http|[a-z-]+-http|jobs|live|bridges|demo)$/

describe("module boundaries", () => {
  it("the parser sees every form of import", () => {
    const text = [
      'import a from "./a"',
      'import type { B } from "./b"',
      'import { type C, type D } from "./c"',
      'import { type E, F } from "./e"',
      'export { G } from "./g"',
      'export type { H } from "./h"',
      "export * from './star'",
      'const lazy = () => import("./lazy")',
      'type T = import("./t").T',
      'import {\n  I,\n  J\n} from "./multi"'
    ].join("\n")
    const found = importsOf("src/x.ts", text).map(({ from, typeOnly }) => `${from}${typeOnly ? " (type)" : ""}`)
    expect(found).toEqual(["./a", "./b (type)", "./c (type)", "./e", "./g", "./h (type)", "./star", "./lazy", "./t (type)", "./multi"])
  })

  it("a module imports another module only through its public files", () => {
    const offending = imports.filter(({ file, target, typeOnly }) => {
      const from = moduleOf(file)
      const to = moduleOf(target)
      if (from === undefined || to === undefined || from === to || /\/demo\.ts$/.test(file)) return false
      const path = inModule(target!)
      return !(PUBLIC.test(path) || (typeOnly && PUBLIC_TYPES.test(path)))
    })
    expect(offending.map(show)).toEqual([])
  })

  it("an index.ts exports no adapter, handler or wiring (the composition root imports those directly)", () => {
    const offending = imports.filter(
      ({ file, target }) =>
        /^src\/modules\/[a-z-]+\/index\.ts$/.test(file) && moduleOf(target) === moduleOf(file) && WIRING.test(inModule(target!))
    )
    expect(offending.map(show)).toEqual([])
  })

  it("an index.ts exports only what another module, the composition root or the CLI imports through it (and its contract)", () => {
    const usedThroughIndex = new Set(
      imports
        .filter(
          ({ file, target }) => moduleOf(target) !== undefined && inModule(target!) === "index" && moduleOf(file) !== moduleOf(target)
        )
        .flatMap(({ target, names }) => names.map((name) => `${moduleOf(target)}:${name}`))
    )
    const unused = imports
      .filter(({ file, target }) => /^src\/modules\/[a-z-]+\/index\.ts$/.test(file) && !/(^|-|\/)contract$/.test(inModule(target ?? "")))
      .flatMap(({ file, names }) =>
        names.filter((name) => !usedThroughIndex.has(`${moduleOf(file)}:${name}`)).map((name) => `${file} exports ${name}`)
      )
    expect(unused).toEqual([])
  })

  it("a domain.ts or rules.ts imports no SQL, HTTP, Node, adapter or service code", () => {
    const forbidden = [
      /^@effect\/(sql|platform|sql-pg|platform-node)(\/|$)/,
      /^node:/,
      /^(pg|pg-boss|stripe|nodemailer|socket\.io|@electric-sql\/pglite|pino)(\/|$)/
    ]
    const forbiddenFiles =
      /^src\/(app\/|platform\/(http\/|database|embedded-postgres|pg-pool|jobs|realtime|storage|uploads|transaction|rate-limit|migrations)|modules\/[a-z-]+\/([a-z-]+\/)?(adapters\/|http$|[a-z-]+-http$|service$|jobs$|live$))/
    const offending = imports.filter(
      ({ file, from, target }) =>
        /^src\/modules\/[a-z-]+\/([a-z-]+\/)?(domain|rules)\.ts$/.test(file) &&
        (forbidden.some((rule) => rule.test(from)) || forbiddenFiles.test(target ?? ""))
    )
    expect(offending.map(show)).toEqual([])
  })

  it("the platform depends on no module (a type through a module's public files at most)", () => {
    const offending = imports.filter(({ file, target, typeOnly }) => {
      if (!file.startsWith("src/platform/") || moduleOf(target) === undefined) return false
      const path = inModule(target!)
      return !(typeOnly && (PUBLIC.test(path) || PUBLIC_TYPES.test(path)))
    })
    expect(offending.map(show)).toEqual([])
  })

  it("only the composition root, cli and tests import a module's wiring; a module's handlers alone import src/app/api", () => {
    const offending = imports.filter(({ file, target }) => {
      if (target === undefined || !file.startsWith("src/")) return false
      // A module's demo.ts seeds demo data for src/app/seed.ts and pays through the sandbox: composition code.
      if (file.startsWith("src/app/") || file === "src/main.ts" || /^src\/modules\/[a-z-]+\/demo\.ts$/.test(file)) return false
      const to = moduleOf(target)
      if (to !== undefined && to !== moduleOf(file) && WIRING.test(inModule(target))) return true
      if (!target.startsWith("src/app/") && target !== "src/main") return false
      // HttpApiBuilder.group implements a group of the one HttpApi: the handlers name it.
      return !(target === "src/app/api" && /^src\/modules\/[a-z-]+\/([a-z-]+\/)?([a-z-]+-)?http\.ts$/.test(file))
    })
    expect(offending.map(show)).toEqual([])
  })

  it("the UI imports of the server only contracts (types) and the shared rules (rules.ts, languages, money, zoned time)", () => {
    const offending = imports.filter(({ file, target, typeOnly }) => {
      if (!file.startsWith("ui/") || target === undefined || !target.startsWith("src/")) return false
      if (
        /^src\/modules\/[a-z-]+\/([a-z-]+\/)?rules$/.test(target) ||
        target === "src/platform/languages" ||
        target === "src/platform/money" ||
        target === "src/platform/zoned-time"
      )
        return false
      const contract =
        /^src\/modules\/[a-z-]+\/([a-z-]+\/)?([a-z-]+-)?contract$/.test(target) ||
        /^src\/platform\/http\/(schemas|authentication)$/.test(target)
      return !(typeOnly && contract)
    })
    expect(offending.map(show)).toEqual([])
  })

  it("the CLI imports the server only through modules' public files, their wiring and src/app", () => {
    const offending = imports.filter(({ file, target }) => {
      if (!file.startsWith("cli/") || target === undefined || !target.startsWith("src/")) return false
      const to = moduleOf(target)
      if (to === undefined) return false
      const path = inModule(target)
      return !(PUBLIC.test(path) || WIRING.test(path))
    })
    expect(offending.map(show)).toEqual([])
  })
})

describe("migrations", () => {
  const migrations = readdirSync(join(root, "migrations")).filter((name) => name.endsWith(".sql"))
  const readme = readFileSync(join(root, "migrations/README.md"), "utf8")

  it("every file is named NNNN_name.sql, with distinct numbers, and listed with its module in migrations/README.md", () => {
    expect(migrations.filter((name) => !/^\d{4}_[a-z0-9_]+\.sql$/.test(name))).toEqual([])
    const numbers = migrations.map((name) => name.slice(0, 4))
    expect(new Set(numbers).size).toBe(numbers.length)
    expect(migrations.filter((name) => !readme.includes(`| \`${name}\` |`))).toEqual([])
  })
})

/**
 * Rows are decoded by Schema at the repository boundary (src/platform/rows.ts), never asserted: the
 * statements of a file that give the sql tag a row type (`sql<T>\`...\``, `sql.unsafe<T>(...)`),
 * read by TypeScript's parser (so a comment or a string naming one does not count), as `file:line`.
 */
const rowAssertionsOf = (file: string, text?: string): ReadonlyArray<string> => {
  const source = parsedSource(file, text)
  const found: Array<string> = []
  const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && node.typeArguments !== undefined) found.push(at(node))
    if (
      ts.isCallExpression(node) &&
      node.typeArguments !== undefined &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === "unsafe"
    )
      found.push(at(node))
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe("rows decoded by Schema", () => {
  it("the check sees a row type given to the sql tag, in every form", () => {
    const text = [
      "const a = sql<{ id: string }>`SELECT id FROM users`",
      "const b = sql<\n  { n: number }\n>`SELECT count(*) AS n FROM users`",
      'const c = sql.unsafe<{ id: string }>("SELECT id FROM users")',
      "// sql<{ id: string }>`in a comment`",
      'const d = "sql<{ id: string }> in a string"',
      'const e = findAll("users", UserRow, sql`SELECT id FROM users`)'
    ].join("\n")
    expect(rowAssertionsOf("src/x.ts", text)).toEqual(["src/x.ts:1", "src/x.ts:2", "src/x.ts:5"])
  })

  it("no statement of src asserts its rows' type (pg-boss's own statements aside: they run untransformed, for pg-boss)", () => {
    const exempt = new Set(["src/platform/jobs/pg-boss.ts"])
    const offending = sourcesUnder("src")
      .filter((file) => !exempt.has(file))
      .flatMap((file) => rowAssertionsOf(file))
    expect(offending).toEqual([])
  })
})
