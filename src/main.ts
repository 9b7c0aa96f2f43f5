import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { AppConfig, AppConfigLive } from "./platform/config"
import { PinoLoggerLive } from "./platform/logger"
import { runMigrations } from "./platform/migrations"
import { LiveDomain } from "./app/layers"
import { isEmptyDatabase, seedDemoData } from "./app/seed"
import { ServerLive } from "./app/server"

/** Migrate, seed demo data on the first start, then serve until SIGTERM/SIGINT (graceful: finalizers close everything). */
const startup = Effect.gen(function*() {
  const config = yield* AppConfig
  const applied = yield* runMigrations
  if (applied.length > 0) yield* Effect.logInfo(`applied migrations: ${applied.map(([id, name]) => `${id}_${name}`).join(", ")}`)
  if (config.seedDemoData && (yield* isEmptyDatabase)) {
    const accounts = yield* seedDemoData
    yield* Effect.logInfo(`seeded ${accounts.length} demo accounts (bin/run seed --json lists them)`)
  }
})

const logLevel = process.env.LOG_LEVEL ?? "info"

Layer.unwrapEffect(Effect.as(startup, ServerLive)).pipe(
  Layer.provide(LiveDomain({ attachToRunning: false })),
  Layer.provide(AppConfigLive),
  Layer.launch,
  Effect.provide(PinoLoggerLive(logLevel)),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
