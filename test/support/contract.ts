import type { SqlClient } from "@effect/sql"
import { type Effect, type Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, expect } from "vitest"
import { runMigrations } from "../../src/platform/migrations"
import type { ServicesOf } from "./layers"

/**
 * The stores a contract suite runs on for one `kind` (`storeKinds`, `test/support/database.ts`): the
 * `memory` layer, or `postgres(kind)` on a fresh database copied from the migrated template (which must
 * have nothing left to migrate). Made before the suite's tests and disposed after them: `run` runs an
 * effect on what both provide; `onPostgres` runs a check of the SQL itself, on a PostgreSQL kind only.
 */
export const contractStores = <M extends Layer.Layer<never, unknown, never>, P extends Layer.Layer<never, unknown, never>>(
  kind: "memory" | "pglite" | "postgres",
  memory: M,
  postgres: (kind: "pglite" | "postgres") => P
) => {
  // The layers are generic here: their runtimes are typed by the services they provide (ServicesOf).
  let runtime: ManagedRuntime.ManagedRuntime<ServicesOf<M | P>, unknown> | undefined
  let sql: ManagedRuntime.ManagedRuntime<ServicesOf<P> | SqlClient.SqlClient, unknown> | undefined
  beforeAll(async () => {
    if (kind === "memory") runtime = ManagedRuntime.make(memory) as unknown as typeof runtime
    else {
      sql = ManagedRuntime.make(postgres(kind)) as unknown as typeof sql
      // The run's migrated template holds every migration: nothing is left to apply.
      expect(await sql!.runPromise(runMigrations)).toEqual([])
      runtime = sql as unknown as typeof runtime
    }
  })
  afterAll(() => runtime?.dispose())
  return {
    run: <A, E>(effect: Effect.Effect<A, E, ServicesOf<M | P>>) => runtime!.runPromise(effect),
    onPostgres: <A, E>(effect: Effect.Effect<A, E, ServicesOf<P>>) => {
      if (!sql) throw new Error("a PostgreSQL-only check ran in memory")
      return sql.runPromise(effect)
    }
  }
}
