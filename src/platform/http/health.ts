import { HttpApiEndpoint, HttpApiGroup, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Context, Duration, Effect, Layer, Schema } from "effect"
import { errorBody } from "../errors"
import { JobQueue } from "../jobs"
import { serviceUnavailable } from "../outage"
import { Ok, requestLanguage } from "./envelope"

/** The real-time link across processes: `local` (one process), `ok` (listening), `down` (reconnecting). */
const RealtimeState = Schema.Literal("ok", "down", "local")
type RealtimeState = typeof RealtimeState.Type

const Dependencies = {
  realtime: RealtimeState,
  /** The job queue's workers: `down` while their polls find the database unreachable. */
  jobs: Schema.Literal("ok", "down"),
  uptimeSeconds: Schema.Number
}

/** 200: the database answers (`degraded` when the real-time link or the job queue is reconnecting: the API still works). */
export const HealthReport = Schema.Struct({
  status: Schema.Literal("ok", "degraded"),
  database: Schema.Literal("ok"),
  ...Dependencies
})

/** 503 (with Retry-After): the database does not answer, so neither does most of the API. */
export const HealthUnavailableReport = Schema.Struct({
  success: Schema.Literal(false),
  code: Schema.Literal("SERVICE_UNAVAILABLE"),
  message: Schema.String,
  data: Schema.Struct({ status: Schema.Literal("unavailable"), database: Schema.Literal("down"), ...Dependencies })
}).annotations({ identifier: "HealthUnavailable" })

export class HealthApi extends HttpApiGroup.make("health").add(
  HttpApiEndpoint.get("health", "/health").addSuccess(Ok(HealthReport)).addError(HealthUnavailableReport, { status: 503 })
) {}

/**
 * What the health check reads of the parts built after the HTTP layer (the real-time link is built
 * once the HTTP server exists): they register their probe here.
 */
export interface HealthProbesShape {
  readonly realtime: () => RealtimeState
  readonly setRealtime: (probe: () => RealtimeState) => void
}
export class HealthProbes extends Context.Tag("platform/HealthProbes")<HealthProbes, HealthProbesShape>() {}

export const HealthProbesLive = Layer.sync(HealthProbes, () => {
  let realtime = (): RealtimeState => "local"
  return { realtime: () => realtime(), setRealtime: (probe) => void (realtime = probe) }
})

/** A database that has not answered `SELECT 1` within this is reported down. */
const DATABASE_PROBE_TIMEOUT = Duration.seconds(3)

/** The health answer: 200 when the database answers, else 503 with Retry-After, saying what is down. */
export const healthCheck = (started: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const probes = yield* HealthProbes
    const jobQueue = yield* JobQueue
    const databaseUp = yield* sql`SELECT 1`.pipe(
      Effect.timeout(DATABASE_PROBE_TIMEOUT),
      Effect.as(true),
      Effect.catchAllCause(() => Effect.succeed(false))
    )
    const realtime = probes.realtime()
    const jobs = jobQueue.reachable() ? ("ok" as const) : ("down" as const)
    const uptimeSeconds = Math.round((Date.now() - started) / 1000)
    if (databaseUp) {
      return HttpServerResponse.unsafeJson({
        success: true,
        data: { status: realtime === "down" || jobs === "down" ? "degraded" : "ok", database: "ok", realtime, jobs, uptimeSeconds }
      })
    }
    const unavailable = serviceUnavailable()
    const body = errorBody(unavailable, yield* requestLanguage)
    return HttpServerResponse.unsafeJson(
      { ...body, data: { status: "unavailable", database: "down", realtime, jobs, uptimeSeconds } },
      { status: 503, headers: { "retry-after": String(unavailable.retryAfterSeconds) } }
    )
  })
