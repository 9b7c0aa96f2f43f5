import { Cause } from "effect"
import { ServiceUnavailable } from "./errors"

/**
 * Which failures mean "the database is not reachable right now" (answered 503 with Retry-After, the
 * client may simply retry) rather than "this statement is wrong" (a 500 to fix). Pure functions over
 * the error values, so the HTTP edge and the socket acknowledgements classify alike.
 */

/** Seconds a client is asked to wait: a restart or failover usually takes a few. */
export const RETRY_AFTER_SECONDS = 5

/** Socket-level failures of node's net module (the server is down, unreachable or went away). */
const unreachableErrnos = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "EAI_AGAIN",
  // A unix socket (the embedded database's) that is not there.
  "ENOENT"
])

/**
 * PostgreSQL SQLSTATEs of a server that is away: class 08 (connection exception), 57P01
 * admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up, shutting down,
 * in recovery), 53300 too_many_connections.
 */
const unavailableSqlStates = new Set(["57P01", "57P02", "57P03", "53300"])

/** node-postgres and pg-pool report these without a code. */
const unavailableMessages = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /is not queryable/,
  /^Connection timed out$/
]

const isUnavailableSignature = (error: object): boolean => {
  const code = (error as { code?: unknown }).code
  if (typeof code === "string" && (unreachableErrnos.has(code) || unavailableSqlStates.has(code) || /^08[0-9A-Z]{3}$/.test(code))) {
    return true
  }
  const message = (error as { message?: unknown }).message
  return typeof message === "string" && unavailableMessages.some((pattern) => pattern.test(message))
}

/**
 * Whether `error` (a SqlError, a driver error, or anything wrapping one through `cause` or an
 * AggregateError's `errors`) says the database could not be reached. A syntax error, a constraint
 * violation or a bug is not: those stay 500s.
 */
export const isDatabaseUnreachable = (error: unknown, depth = 0): boolean => {
  if (typeof error !== "object" || error === null || depth > 8) return false
  if (isUnavailableSignature(error)) return true
  const nested = (error as { errors?: unknown }).errors
  if (Array.isArray(nested) && nested.some((e) => isDatabaseUnreachable(e, depth + 1))) return true
  return isDatabaseUnreachable((error as { cause?: unknown }).cause, depth + 1)
}

/** The 503 a request gets while the database is away. */
export const serviceUnavailable = () =>
  new ServiceUnavailable({ code: "SERVICE_UNAVAILABLE", key: "server.unavailable", retryAfterSeconds: RETRY_AFTER_SECONDS })

/**
 * The 503 for a failed request whose cause (a failure, or a defect: services turn SqlErrors into
 * defects with orDie) is the database being unreachable; none for anything else.
 */
export const unavailableOf = (cause: Cause.Cause<unknown>): ServiceUnavailable | undefined => {
  const reasons = [...Cause.failures(cause), ...Cause.defects(cause)]
  return reasons.some((reason) => isDatabaseUnreachable(reason)) ? serviceUnavailable() : undefined
}
