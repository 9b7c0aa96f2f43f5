// Each module's HTTP contract is pure, so that the UI can import its types and the server its
// schemas without loading services, adapters or SQL: contract.ts imports only effect, the HttpApi
// modules, the platform's schema files, its own rules.ts and other modules' contracts (a domain type
// with `import type` at most); rules.ts imports nothing. The views live apart (views.ts).
import { readdirSync } from "node:fs"
import { relative } from "node:path"
import { describe, expect, it } from "vitest"
import { importsOf as parsedImportsOf, root } from "../support/imports"

const modules = new URL("../../src/modules/", import.meta.url).pathname
const names = readdirSync(modules, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)

/** Every import and re-export of a file (TypeScript's parser), with whether it is type-only. */
const importsOf = (path: string) => parsedImportsOf(relative(root, path))

const allowedInContract = [
  /^effect$/,
  /^@effect\/platform$/,
  /^\.\.\/\.\.\/platform\/(errors|http\/(schemas|authentication)|upload-limits|languages)$/,
  /^\.\/rules$/,
  /^\.\/(profile-)?contract$/,
  /^\.\.\/[a-z-]+\/contract$/
]

const contractsOf = (name: string) => readdirSync(`${modules}${name}`).filter((file) => /^(profile-)?contract\.ts$/.test(file))

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
        importsOf(`${modules}${name}/${file}`)
          .filter(({ typeOnly, from }) => !allowedInContract.some((allowed) => allowed.test(from)) && !(typeOnly && from === "./domain"))
          .map(({ from }) => `${name}/${file} imports ${from}`)
      )
    )
    expect(offending).toEqual([])
  })

  it("a rules.ts imports nothing (the UI bundles it)", () => {
    const offending = names.filter((name) => readdirSync(`${modules}${name}`).includes("rules.ts")).filter((name) => importsOf(`${modules}${name}/rules.ts`).length > 0)
    expect(offending).toEqual([])
  })
})
