import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { AppConfigLive } from "./platform/config"
import { DatabaseLive } from "./platform/database"
import { PinoLoggerLive } from "./platform/logger"
import { applicationOn } from "./app/application"
import { embeddedIndex } from "./modules/catalogue/places/adapters/embedded"

// The embedded gazetteer's index (about a second) is built in the background as the server starts,
// not by the first visitor who types a place (tests build it on first use, not in every server).
if ((process.env.GEOCODER_URL ?? "").trim() === "") setTimeout(() => void embeddedIndex(), 0)

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
