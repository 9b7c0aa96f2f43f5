import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { AppConfigLive } from "./platform/config"
import { DatabaseLive } from "./platform/database"
import { PinoLoggerLive } from "./platform/logger"
import { applicationOn } from "./app/application"

// Serves until SIGTERM/SIGINT; interruption runs every finalizer: the HTTP server stops accepting,
// in-flight requests finish, socket.io closes, the pool and the embedded database close.
applicationOn(DatabaseLive({ attachToRunning: false })).pipe(
  Layer.provide(AppConfigLive),
  // No trace exporter is configured: spans (one per SQL statement) would only cost allocations.
  Layer.provide(Layer.setTracerEnabled(false)),
  Layer.launch,
  Effect.provide(PinoLoggerLive(process.env.LOG_LEVEL ?? "info")),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
