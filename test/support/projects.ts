import * as fs from "node:fs"
import * as path from "node:path"

/**
 * Which vitest project a test file belongs to, read from what it imports (through the test folder's
 * own modules): a file that reaches the browser kit is `browser`, one that reaches a database, a test
 * server, a CLI-reachable server or a PostgreSQL cluster is `integration`, the rest is `unit`. Nobody
 * has to file a new test by hand, and a unit file that starts importing a server moves by itself.
 */
export type TestProjectName = "unit" | "integration" | "browser"

const root = path.resolve(import.meta.dirname, "../..")

/** The modules that build a world (relative to the repository). */
const worldModules: Record<string, Exclude<TestProjectName, "unit">> = {
  "test/support/browser.ts": "browser",
  "test/support/server.ts": "integration",
  "test/support/database.ts": "integration",
  "test/support/cli.ts": "integration",
  "test/support/throwaway-postgres.ts": "integration",
  "src/platform/database.ts": "integration",
  "src/platform/embedded-postgres.ts": "integration"
}

const importPattern = /(?:import|export)\s[^"']*?from\s+["'](\.{1,2}\/[^"']+)["']|import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g

const resolveLocal = (from: string, specifier: string): string | undefined => {
  const base = path.resolve(path.dirname(from), specifier)
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")])
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate
  return undefined
}

const rank = { unit: 0, integration: 1, browser: 2 } as const

/** The project of one file: the heaviest world any of its test-folder imports reaches. */
export const projectOf = (file: string, seen = new Map<string, TestProjectName>()): TestProjectName => {
  const known = seen.get(file)
  if (known) return known
  const relative = path.relative(root, file)
  const direct = worldModules[relative]
  if (direct) return direct
  seen.set(file, "unit")
  // Source modules are not followed: only the world modules above start anything.
  if (!relative.startsWith("test/")) return "unit"
  let project: TestProjectName = "unit"
  for (const match of fs.readFileSync(file, "utf8").matchAll(importPattern)) {
    const target = resolveLocal(file, match[1] ?? match[2]!)
    if (!target) continue
    const reached = projectOf(target, seen)
    if (rank[reached] > rank[project]) project = reached
  }
  seen.set(file, project)
  return project
}

const testFiles = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "bench" ? [] : testFiles(full)
    return /\.test\.tsx?$/.test(entry.name) ? [full] : []
  })

/** The test files of each project, as paths relative to the repository. */
export const filesByProject = (): Record<TestProjectName, Array<string>> => {
  const seen = new Map<string, TestProjectName>()
  const projects: Record<TestProjectName, Array<string>> = { unit: [], integration: [], browser: [] }
  for (const file of testFiles(path.join(root, "test")).sort()) projects[projectOf(file, seen)].push(path.relative(root, file))
  return projects
}
