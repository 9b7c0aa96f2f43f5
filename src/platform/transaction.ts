import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer } from "effect"

/**
 * The unit-of-work port: application services wrap multi-row writes in `run`, whatever the
 * storage. Postgres runs them in one SQL transaction; the in-memory adapters have nothing to roll back.
 */
export interface TransactionalShape {
  readonly run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}
export class Transactional extends Context.Tag("platform/Transactional")<Transactional, TransactionalShape>() {}

export const SqlTransactional = Layer.effect(
  Transactional,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    // A SqlError inside a transaction is a fault (the database is down or a query is wrong), not a domain error.
    run: (effect) => sql.withTransaction(effect).pipe(Effect.catchTag("SqlError" as any, (e) => Effect.die(e))) as any
  }))
)

export const NoTransaction = Layer.succeed(Transactional, { run: (effect) => effect })
