import { Cause, HashMap, Layer, List, Logger, LogLevel } from "effect"
import pino from "pino"

export const pinoInstance = (level: string) => pino({ level, base: { service: "marketplace" }, timestamp: pino.stdTimeFunctions.isoTime })

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
export const PinoLoggerLive = (level: string) => {
  const log = pinoInstance(level)
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
