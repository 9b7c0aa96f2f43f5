import * as fs from "node:fs"
import * as path from "node:path"
import pg from "pg"

/**
 * Runs once before the test files start. Extensions live in `public` and are shared by every test
 * schema; two files migrating at once on a fresh database would both run `CREATE EXTENSION IF NOT
 * EXISTS` and one would fail on the catalogue's unique key (a first CI run on a new machine did).
 * Creating them here, one after the other, leaves the migrations nothing to race for.
 */
export const extensionStatements = (migrationsDir: string): ReadonlyArray<string> =>
  fs
    .readdirSync(migrationsDir)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .flatMap((name) => fs.readFileSync(path.join(migrationsDir, name), "utf8").match(/CREATE EXTENSION[^;]*;/gi) ?? [])

export default async function setup() {
  const url = process.env.TEST_DATABASE_URL
  if (!url) return
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
