import { HttpApp, HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Context, Effect, FiberRef, HashMap, Option } from "effect"
import * as crypto from "node:crypto"
import { type AppError, errorBody, httpStatusOf, isAppError, NotFound } from "../errors"
import { rootLogger } from "../logger"
import { defaultLanguage, type Language, languageFromHeader, translate } from "../messages"
import { unavailableOf } from "../outage"
import { bodyRefusal, boundedJsonBody } from "./body"
import { decodeIssueDetails, missingResourceOf } from "./decode-issues"

/** What the security headers depend on, read once at start. */
export interface SecurityHeaderSettings {
  readonly publicUrl: string
  /** Stripe's scripts, frames and API are allowed only when Stripe is the payment gateway. */
  readonly stripe: boolean
}

/**
 * The headers every answer carries, computed once (the middleware is on every request's path). The
 * page may talk to its own origin only: `'self'`, plus the socket URL of PUBLIC_URL's host (older
 * browsers do not count ws(s) as 'self'), plus Stripe's origins when Stripe is configured. HSTS when
 * the public origin is https (one year; subdomains are the operator's business, so not included).
 */
export const securityHeadersFor = (settings: SecurityHeaderSettings): Readonly<Record<string, string>> => {
  const origin = new URL(settings.publicUrl)
  const https = origin.protocol === "https:"
  const socketOrigin = `${https ? "wss" : "ws"}://${origin.host}`
  const stripe = (...sources: ReadonlyArray<string>) => (settings.stripe ? sources : [])
  const csp = [
    "default-src 'self'",
    ["script-src 'self'", ...stripe("https://js.stripe.com")].join(" "),
    ["frame-src 'self'", ...stripe("https://js.stripe.com", "https://hooks.stripe.com", "https://checkout.stripe.com")].join(" "),
    ["connect-src 'self'", socketOrigin, ...stripe("https://api.stripe.com")].join(" "),
    "img-src 'self' data: blob: https:",
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    ["form-action 'self'", ...stripe("https://checkout.stripe.com")].join(" "),
    "frame-ancestors 'none'"
  ].join("; ")
  return {
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    ...(https ? { "strict-transport-security": "max-age=31536000" } : {})
  }
}

/** The headers of a local, sandbox deployment (kept for tools that wrap an app without a config). */
export const securityHeaders = securityHeadersFor({ publicUrl: "http://localhost:3000", stripe: false })

/**
 * API answers carry tokens and personal data: none may be stored by a browser or a shared cache,
 * unless its handler chose a policy of its own (an avatar's private caching, say).
 */
const apiCachePolicy = (url: string, response: HttpServerResponse.HttpServerResponse) =>
  url.startsWith("/api") && response.headers["cache-control"] === undefined ? { "cache-control": "no-store" } : undefined

const envelope = (status: number, body: { code: string; message: string; details?: unknown }) =>
  HttpServerResponse.unsafeJson({ success: false, ...body }, { status })

const malformed = (language: Language) => envelope(400, { code: "MALFORMED_REQUEST", message: translate(language, "request.malformed") })

const isUndecodableBody = (u: unknown) => HttpServerError.isServerError(u) && u._tag === "RequestError" && u.reason === "Decode"

const renderAppError = (error: AppError, language: Language) => {
  const { success: _, ...body } = errorBody(error, language)
  const response = envelope(httpStatusOf[error._tag], body)
  // A 503 and every 429 say when to come back (seconds).
  if (error._tag === "ServiceUnavailable") return HttpServerResponse.setHeader(response, "retry-after", String(error.retryAfterSeconds))
  if (error._tag === "TooManyRequests") return HttpServerResponse.setHeader(response, "retry-after", error.params?.["seconds"] ?? "60")
  return response
}

/** Turns any failure into the one error envelope, in the request's language. */
const renderFailure = (cause: Cause.Cause<unknown>, language: Language, requestId: string) => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) {
    const error = failure.value
    if (isAppError(error)) return Effect.succeed(renderAppError(error, language))
    const tag = typeof error === "object" && error !== null && "_tag" in error ? String(error._tag) : ""
    // A malformed path id names nothing: the resource's own 404, as for an unknown id (schemas.ts's PathId).
    const missing = tag === "HttpApiDecodeError" ? missingResourceOf(error) : undefined
    if (missing !== undefined) return Effect.succeed(renderAppError(new NotFound(missing), language))
    if (tag === "HttpApiDecodeError" || tag === "RequestError" || tag === "ParseError") {
      const refused = bodyRefusal(error)
      if (refused !== undefined) return Effect.succeed(renderAppError(refused, language))
      return Effect.succeed(
        envelope(400, {
          code: "MALFORMED_REQUEST",
          message: translate(language, "request.malformed"),
          details: decodeIssueDetails(error, language)
        })
      )
    }
    if (tag === "RouteNotFound") {
      return Effect.succeed(envelope(404, { code: "NOT_FOUND", message: translate(language, "request.notFound") }))
    }
  }
  // The platform dies (rather than fails) when a body cannot be parsed: it is still the client's fault.
  const defect = Cause.dieOption(cause)
  if (Option.isSome(defect) && isUndecodableBody(defect.value)) {
    const refused = bodyRefusal(defect.value)
    return Effect.succeed(refused === undefined ? malformed(language) : renderAppError(refused, language))
  }
  if (Cause.isInterruptedOnly(cause)) return Effect.interrupt
  // The database is away (a restart, a failover): a 503 the client may retry, not a bug to log as one.
  const unavailable = unavailableOf(cause)
  if (unavailable !== undefined) {
    return Effect.as(Effect.logWarning("request failed: the database is unreachable"), renderAppError(unavailable, language))
  }
  return Effect.as(
    Effect.logError("request failed", cause),
    envelope(500, { code: "INTERNAL_ERROR", message: translate(language, "server.error") + ` (${requestId})` })
  )
}

const accessLog = rootLogger()

const bodyMethods = new Set(["POST", "PUT", "PATCH", "DELETE"])

/** API requests that may carry a body read it through the bounded JSON reader (platform/http/body.ts). */
const withBoundedBody = <A, E, R>(app: Effect.Effect<A, E, R>, request: HttpServerRequest.HttpServerRequest) =>
  bodyMethods.has(request.method) && request.url.startsWith("/api/")
    ? Effect.provideService(app, HttpServerRequest.HttpServerRequest, boundedJsonBody(request))
    : app

const validRequestId = /^[\w-]{1,64}$/

/**
 * Wraps every request: a request id on every log line and answer, one access log line, the error
 * envelope, and the security headers.
 *
 * Hot path (every request goes through it), so it is written with few Effect operations: the
 * request id is set as a log annotation of the request's own fiber (the platform runs each request
 * in a fiber of its own, so nothing needs restoring, where `Effect.annotateLogs` would cost a
 * scoped set-and-restore), and success and failure are finished in one `matchCauseEffect`.
 */
export const appMiddlewareWith =
  (headers: Readonly<Record<string, string>>) =>
  <E, R>(app: HttpApp.Default<E, R>) =>
    Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, never, R | HttpServerRequest.HttpServerRequest>((fiber) => {
      const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
      const incoming = request.headers["x-request-id"]
      const requestId = incoming && validRequestId.test(incoming) ? incoming : crypto.randomUUID()
      const started = performance.now()
      const finish = (response: HttpServerResponse.HttpServerResponse) => {
        const fields = {
          requestId,
          method: request.method,
          url: request.url,
          status: response.status,
          ms: Math.round(performance.now() - started)
        }
        if (response.status >= 500) accessLog.error(fields, "request")
        else accessLog.info(fields, "request")
        return HttpServerResponse.setHeaders(response, { ...headers, ...apiCachePolicy(request.url, response), "x-request-id": requestId })
      }
      // A NUL in the address (a path or query parameter) is never meaningful and PostgreSQL text cannot
      // hold it: refused here, once for every route, as JSON bodies with NUL are by their schemas.
      if (request.url.includes("%00") || request.url.includes("\u0000")) {
        return Effect.succeed(finish(malformed(languageFromHeader(request.headers["accept-language"]) ?? defaultLanguage)))
      }
      return Effect.zipRight(
        FiberRef.update(FiberRef.currentLogAnnotations, HashMap.set("requestId", requestId as unknown)),
        Effect.matchCauseEffect(withBoundedBody(app, request), {
          onFailure: (cause) =>
            Effect.map(renderFailure(cause, languageFromHeader(request.headers["accept-language"]) ?? defaultLanguage, requestId), finish),
          onSuccess: (response) => Effect.succeed(finish(response))
        })
      )
    })

/** The middleware with the default headers (see appMiddlewareWith for a configured server). */
export const appMiddleware = appMiddlewareWith(securityHeaders)
