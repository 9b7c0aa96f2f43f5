import * as fs from "node:fs"
import * as path from "node:path"
import pg from "pg"
import type { TestProject } from "vitest/node"
import { makeScratchRoot } from "./scratch-root"
import { buildTemplates, dropTemplates } from "./templates"

/** The CREATE EXTENSION statements of the migrations, in order. */
export const extensionStatements = (migrationsDir: string): ReadonlyArray<string> =>
  fs
    .readdirSync(migrationsDir)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .flatMap((name) => fs.readFileSync(path.join(migrationsDir, name), "utf8").match(/CREATE EXTENSION[^;]*;/gi) ?? [])

/**
 * Creates the migrations' extensions in a database, one after the other: two connections migrating
 * at once on a database without them would both run `CREATE EXTENSION IF NOT EXISTS` and one would
 * fail on the catalogue's unique key (a first CI run on a new machine did). An operator who migrates
 * several schemas of one database at once does this first.
 */
export const createExtensions = async (url: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    for (const statement of new Set(extensionStatements(path.resolve(import.meta.dirname, "../../migrations")))) {
      await client.query(statement)
    }
  } finally {
    await client.end()
  }
}

/**
 * Runs once before the test files start: finds the migrated and seeded templates of the current code,
 * or builds them (see templates.ts), and hands them to the files with the run's scratch directory
 * (scratch-root.ts); drops the run's copies and removes the directory when it ends.
 */
export default async function setup(project: TestProject) {
  const base = process.env.TEST_DATABASE_URL
  const started = Date.now()
  const templates = await buildTemplates(base)
  if (process.env.TEST_KIT_TIMING) console.log(`test templates ready in ${Date.now() - started} ms`)
  project.provide("testTemplates", templates)
  const scratch = makeScratchRoot()
  project.provide("scratchRoot", scratch.root)
  return async () => {
    await dropTemplates(templates, base)
    scratch.remove()
  }
}
