import { Cause, HashMap, Layer, List, Logger, LogLevel } from "effect"
import pino from "pino"

export const pinoInstance = (level: string, fd: 1 | 2 = 1) => {
  // Buffered writes: a synchronous write per access-log line halved the API's throughput. The buffer
  // is flushed every 250 ms, so a quiet server's lines still show up at once.
  const destination = pino.destination({ fd, sync: false, minLength: fd === 1 ? 4096 : 0 })
  if (fd === 1) setInterval(() => destination.flush(), 250).unref()
  return pino({ level, base: { service: "marketplace" }, timestamp: pino.stdTimeFunctions.isoTime }, destination)
}

/** The process-wide pino logger (access logs write to it directly: the hot path skips Effect's logger). */
let shared: pino.Logger | undefined
export const rootLogger = (level = process.env.LOG_LEVEL ?? "info", fd: 1 | 2 = 1) => (shared ??= pinoInstance(level, fd))

const levels: Record<string, "trace" | "debug" | "info" | "warn" | "error" | "fatal"> = {
  All: "trace",
  Trace: "trace",
  Debug: "debug",
  Info: "info",
  Warning: "warn",
  Error: "error",
  Fatal: "fatal"
}

/** Effect's logger writing pino JSON lines; log annotations (the request id among them) become fields. */
/** `fd` 2 keeps stdout clean for the CLI's own output (--json). */
export const PinoLoggerLive = (level: string, fd: 1 | 2 = 1) => {
  const log = rootLogger(level, fd)
  const logger = Logger.make(({ annotations, cause, logLevel, message, spans }) => {
    const fields: Record<string, unknown> = {}
    for (const [key, value] of HashMap.toEntries(annotations)) fields[key] = value
    for (const span of List.toArray(spans)) fields[`span.${span.label}`] = Date.now() - span.startTime
    if (!Cause.isEmpty(cause)) fields.err = Cause.pretty(cause, { renderErrorCause: true })
    const parts = Array.isArray(message) ? message : [message]
    for (const part of parts.slice(1)) if (part && typeof part === "object") Object.assign(fields, part)
    log[levels[logLevel._tag] ?? "info"](fields, typeof parts[0] === "string" ? parts[0] : JSON.stringify(parts[0]))
  })
  const minimum = LogLevel.fromLiteral(
    ({ trace: "Trace", debug: "Debug", info: "Info", warn: "Warning", error: "Error", fatal: "Fatal", silent: "None" } as const)[
      level as "info"
    ] ?? "Info"
  )
  return Layer.merge(Logger.replace(Logger.defaultLogger, logger), Logger.minimumLogLevel(minimum))
}
