import type { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { AppConfig } from "../platform/config"
import { runMigrations } from "../platform/migrations"
import { domainOn } from "./layers"
import { isEmptyDatabase, seedDemoData } from "./seed"
import { ServerLive } from "./server"

/** Migrate, and seed the demo data when the database has no account yet (the first start). */
export const startup = Effect.gen(function* () {
  const config = yield* AppConfig
  const applied = yield* runMigrations
  if (applied.length > 0) yield* Effect.logInfo(`applied migrations: ${applied.map(([id, name]) => `${id}_${name}`).join(", ")}`)
  if (config.seedDemoData && (yield* isEmptyDatabase)) {
    const accounts = yield* seedDemoData
    yield* Effect.logInfo(`seeded ${accounts.length} demo accounts (bin/run seed --json lists them)`)
  }
})

/** The whole running marketplace (HTTP API, UI, real-time) over a given database layer. */
export const applicationOn = <E, R>(database: Layer.Layer<SqlClient.SqlClient, E, R>) =>
  Layer.unwrapEffect(Effect.as(startup, ServerLive)).pipe(Layer.provideMerge(domainOn(database)))
