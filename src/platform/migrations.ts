import * as Migrator from "@effect/sql/Migrator"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { appRoot } from "./paths"

/**
 * Ordered SQL files `migrations/NNNN_name.sql`, read by our own loader: Migrator.fromFileSystem
 * resolves folders against the library and cannot run from a bundle.
 */
const sqlFileLoader: Migrator.Loader = Effect.sync(() => {
  const dir = path.join(appRoot, "migrations")
  return fs
    .readdirSync(dir)
    .flatMap((file) => {
      const match = /^(\d+)_(.+)\.sql$/.exec(file)
      if (!match) return []
      const load = Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(fs.readFileSync(path.join(dir, file), "utf8")).raw)
      return [[Number(match[1]), match[2]!, Effect.succeed(load)] as const]
    })
    .sort((a, b) => a[0] - b[0])
})

const migrator = Migrator.make({})

/** Applies pending migrations in order, each in its own transaction; answers the ones applied. */
export const runMigrations = migrator({ loader: sqlFileLoader, table: "schema_migrations" })

/** Applies pending migrations up to `last` only: a data migration's test starts from the schema before it. */
export const runMigrationsThrough = (last: number) =>
  migrator({ loader: Effect.map(sqlFileLoader, (all) => all.filter(([id]) => id <= last)), table: "schema_migrations" })
