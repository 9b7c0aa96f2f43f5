// Each module's HTTP contract is pure, so that the UI can import its types and the server its
// schemas without loading services, adapters or SQL: contract.ts imports only effect, the HttpApi
// modules, the platform's schema files, its own rules.ts and other modules' contracts (a domain type
// with `import type` at most); rules.ts imports nothing. The views live apart (views.ts).
import { readdirSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { describe, expect, it } from "vitest"
import { importsOf as parsedImportsOf, root } from "../support/imports"

const src = new URL("../../src/", import.meta.url).pathname
const modules = `${src}modules/`
const names = readdirSync(modules, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

/** Every import and re-export of a file (TypeScript's parser), with whether it is type-only. */
const importsOf = (path: string) => parsedImportsOf(relative(root, path))

/** A relative import as a path under src/ (`modules/identity/contract`); a package stays as written. */
const resolved = (file: string, from: string) => (from.startsWith(".") ? relative(src, join(dirname(file), from)) : from)

/** What a contract of `module` may import, as resolved paths. */
const allowedInContract = (module: string) => [
  /^effect$/,
  /^@effect\/platform$/,
  /^platform\/(errors|http\/(schemas|authentication)|upload-limits|languages|ids)$/,
  new RegExp(`^modules/${module}(/[a-z-]+)?/rules$`),
  /^modules\/[a-z-]+(\/[a-z-]+)?\/contract$/
]

/** A module's contract.ts files: its own and its sub-folders' (identity/profile/contract.ts). */
const contractsOf = (name: string) =>
  readdirSync(`${modules}${name}`, { recursive: true, encoding: "utf8" })
    .filter((file) => file === "contract.ts" || file.endsWith("/contract.ts"))
    .map((file) => `${modules}${name}/${file}`)

describe("the modules' contracts", () => {
  it("every module with HTTP endpoints has a contract.ts and no api.ts", () => {
    for (const name of names) {
      const files = readdirSync(`${modules}${name}`)
      expect(files, name).not.toContain("api.ts")
      if (files.includes("http.ts")) expect(files, name).toContain("contract.ts")
    }
  })

  it("a contract imports only effect, the HttpApi modules, platform schemas, its rules and other contracts", () => {
    const offending = names.flatMap((name) =>
      contractsOf(name).flatMap((file) =>
        importsOf(file)
          .map(({ typeOnly, from }) => ({ typeOnly, from: resolved(file, from) }))
          .filter(
            ({ typeOnly, from }) =>
              !allowedInContract(name).some((allowed) => allowed.test(from)) &&
              !(typeOnly && from === join(relative(src, dirname(file)), "domain"))
          )
          .map(({ from }) => `${relative(modules, file)} imports ${from}`)
      )
    )
    expect(offending).toEqual([])
  })

  it("a rules.ts imports nothing (the UI bundles it)", () => {
    const offending = names
      .filter((name) => readdirSync(`${modules}${name}`).includes("rules.ts"))
      .filter((name) => importsOf(`${modules}${name}/rules.ts`).length > 0)
    expect(offending).toEqual([])
  })
})
