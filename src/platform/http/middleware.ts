import { HttpApp, HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Context, Effect, FiberRef, HashMap, Option } from "effect"
import * as crypto from "node:crypto"
import { type AppError, errorBody, httpStatusOf, isAppError } from "../errors"
import { rootLogger } from "../logger"
import { defaultLanguage, type Language, languageFromHeader, translate } from "../messages"
import { bodyRefusal, boundedJsonBody } from "./body"
import { decodeIssueDetails } from "./decode-issues"

const CSP = [
  "default-src 'self'",
  "script-src 'self' https://js.stripe.com",
  "frame-src 'self' https://js.stripe.com https://hooks.stripe.com https://checkout.stripe.com",
  "connect-src 'self' ws: wss: https://api.stripe.com",
  "img-src 'self' data: blob: https:",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self' https://checkout.stripe.com",
  "frame-ancestors 'none'"
].join("; ")

export const securityHeaders = {
  "content-security-policy": CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin"
} as const

const envelope = (status: number, body: { code: string; message: string; details?: unknown }) =>
  HttpServerResponse.unsafeJson({ success: false, ...body }, { status })

const malformed = (language: Language) => envelope(400, { code: "MALFORMED_REQUEST", message: translate(language, "request.malformed") })

const isUndecodableBody = (u: unknown) =>
  HttpServerError.isServerError(u) && u._tag === "RequestError" && u.reason === "Decode"

const rendered = (error: AppError, language: Language) => {
  const { success: _, ...body } = errorBody(error, language)
  return envelope(httpStatusOf[error._tag], body)
}

/** Turns any failure into the one error envelope, in the request's language. */
const renderFailure = (cause: Cause.Cause<unknown>, language: Language, requestId: string) => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) {
    const error = failure.value
    if (isAppError(error)) {
      const { success: _, ...body } = errorBody(error, language)
      return Effect.succeed(envelope(httpStatusOf[error._tag], body))
    }
    const tag = typeof error === "object" && error !== null && "_tag" in error ? String(error._tag) : ""
    if (tag === "HttpApiDecodeError" || tag === "RequestError" || tag === "ParseError") {
      const refused = bodyRefusal(error)
      if (refused !== undefined) return Effect.succeed(rendered(refused, language))
      return Effect.succeed(
        envelope(400, { code: "MALFORMED_REQUEST", message: translate(language, "request.malformed"), details: decodeIssueDetails(error, language) })
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
    return Effect.succeed(refused === undefined ? malformed(language) : rendered(refused, language))
  }
  if (Cause.isInterruptedOnly(cause)) return Effect.interrupt
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
export const appMiddleware = <E, R>(app: HttpApp.Default<E, R>) =>
  Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, never, R | HttpServerRequest.HttpServerRequest>((fiber) => {
    const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
    const incoming = request.headers["x-request-id"]
    const requestId = incoming && validRequestId.test(incoming) ? incoming : crypto.randomUUID()
    const started = performance.now()
    const finish = (response: HttpServerResponse.HttpServerResponse) => {
      const fields = { requestId, method: request.method, url: request.url, status: response.status, ms: Math.round(performance.now() - started) }
      if (response.status >= 500) accessLog.error(fields, "request")
      else accessLog.info(fields, "request")
      return HttpServerResponse.setHeaders(response, { ...securityHeaders, "x-request-id": requestId })
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
