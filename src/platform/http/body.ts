import { HttpServerError, type HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect } from "effect"
import { type AppError, BadRequest, isAppError, PayloadTooLarge, UnsupportedMediaType } from "../errors"
import { hasLoneSurrogate, mayEscapeSurrogate } from "../text"

/**
 * Request bodies of the JSON API, bounded before anything decodes them: at most `MAX_JSON_BODY_BYTES`
 * bytes, at most `MAX_JSON_DEPTH` levels of nested arrays and objects, and only JSON (a form, XML or
 * text body on a JSON endpoint is a 415, not an empty object). Multipart uploads read the request's
 * stream themselves, with their own limits (platform/uploads.ts).
 *
 * *Why before decoding:* `JSON.parse` copes with deep nesting, but the schema decoder and its error
 * formatter recurse once per level and overflow the stack (a 500) a few thousand levels down.
 */
export const MAX_JSON_BODY_BYTES = 1024 * 1024
export const MAX_JSON_DEPTH = 32

/**
 * The deepest nesting of arrays and objects in a JSON text, counting only brackets outside strings;
 * stops early (answering `limit + 1`) once `limit` is passed, so a hostile body costs one short scan.
 */
export const jsonDepth = (text: string, limit = Number.POSITIVE_INFINITY): number => {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // a backslash escapes the next character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      depth++
      if (depth > deepest) {
        deepest = depth
        if (deepest > limit) return deepest
      }
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return deepest
}

/** `application/json`, `application/problem+json`...; a body without a type counts as JSON, as the platform reads it. */
export const isJsonContentType = (header: string | undefined) => {
  if (header === undefined || header.trim() === "") return true
  const type = header.split(";")[0]!.trim().toLowerCase()
  return type === "application/json" || /^application\/[\w.-]+\+json$/.test(type)
}

const TooLarge = new PayloadTooLarge({ code: "REQUEST_TOO_LARGE", key: "upload.requestTooLarge" })
const TooDeep = new BadRequest({ code: "MALFORMED_REQUEST", key: "request.tooDeep" })
const NotJson = new UnsupportedMediaType({ code: "UNSUPPORTED_MEDIA_TYPE", key: "request.jsonRequired" })
const NotJsonSyntax = new BadRequest({ code: "MALFORMED_REQUEST", key: "request.malformed" })
const BrokenCharacter = new BadRequest({ code: "MALFORMED_REQUEST", key: "request.loneSurrogate" })

/**
 * The body's bytes, or `tooLarge` past `maxBytes` (a chunked body declares no length). Read from the
 * Node request itself: the platform's reader destroys the request when it stops early, which closes
 * the connection before any answer; here the rest of the body is read and dropped instead.
 */
const readAtMost = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number,
  tooLarge: Effect.Effect<never, HttpServerError.RequestError>
): Effect.Effect<Uint8Array, HttpServerError.RequestError> =>
  Effect.async((resume) => {
    const incoming = NodeHttpServerRequest.toIncomingMessage(request)
    if (incoming.readableEnded) return resume(Effect.succeed(new Uint8Array(0)))
    const chunks: Array<Buffer> = []
    let size = 0
    const stop = () => {
      incoming.off("data", onData)
      incoming.off("end", onEnd)
      incoming.off("error", onError)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= maxBytes) return void chunks.push(chunk)
      stop()
      // Keeps flowing with nobody listening: the rest is dropped as it arrives.
      incoming.resume()
      resume(tooLarge)
    }
    const onEnd = () => {
      stop()
      resume(Effect.succeed(new Uint8Array(Buffer.concat(chunks))))
    }
    const onError = (cause: Error) => {
      stop()
      // A body cut short is the client's doing: a 400 (if anyone is still there to read it), never a 500.
      resume(Effect.fail(new HttpServerError.RequestError({ request, reason: "Decode", cause })))
    }
    incoming.on("data", onData)
    incoming.once("end", onEnd)
    incoming.once("error", onError)
    return Effect.sync(stop)
  })

/** The application error a body reader refused with, carried as the platform's decode error. */
export const bodyRefusal = (u: unknown): AppError | undefined =>
  HttpServerError.isServerError(u) && u._tag === "RequestError" && isAppError(u.cause) ? u.cause : undefined

/**
 * The request as the API's handlers see it: `json`, `text`, `arrayBuffer` and `urlParamsBody` share
 * one read of at most `maxBytes` bytes (a declared `Content-Length` over it is refused before
 * reading a byte); `json` also refuses nesting deeper than `maxDepth`; a non-JSON body is a 415 for
 * all of them, and `multipart` (the platform's form reader) is refused too: upload routes read the
 * stream, which stays untouched.
 */
export const boundedJsonBody = (
  request: HttpServerRequest.HttpServerRequest,
  limits: { readonly maxBytes: number; readonly maxDepth: number } = { maxBytes: MAX_JSON_BODY_BYTES, maxDepth: MAX_JSON_DEPTH }
): HttpServerRequest.HttpServerRequest => {
  const refuse = (error: AppError) => Effect.fail(new HttpServerError.RequestError({ request, reason: "Decode", cause: error }))
  const declared = Number(request.headers["content-length"] ?? Number.NaN)
  const json = isJsonContentType(request.headers["content-type"])
  const read: Effect.Effect<Uint8Array, HttpServerError.RequestError> = !json
    ? refuse(NotJson)
    : declared > limits.maxBytes
      ? refuse(TooLarge)
      : readAtMost(request, limits.maxBytes, refuse(TooLarge))
  let bytes: Effect.Effect<Uint8Array, HttpServerError.RequestError> | undefined
  const once = () => (bytes ??= Effect.runSync(Effect.cached(read)))
  const text = Effect.map(Effect.suspend(once), (b) => new TextDecoder().decode(b))
  return Object.create(request, {
    arrayBuffer: { get: () => Effect.map(once(), (b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)) },
    text: { get: () => text },
    json: {
      get: () =>
        Effect.flatMap(text, (body) => {
          if (body === "") return Effect.succeed(null)
          if (jsonDepth(body, limits.maxDepth) > limits.maxDepth) return refuse(TooDeep)
          let parsed: unknown
          try {
            parsed = JSON.parse(body)
          } catch {
            return refuse(NotJsonSyntax)
          }
          return mayEscapeSurrogate(body) && hasLoneSurrogate(parsed) ? refuse(BrokenCharacter) : Effect.succeed(parsed)
        })
    },
    urlParamsBody: { get: () => refuse(NotJson) },
    multipart: { get: () => refuse(NotJson) }
  }) as HttpServerRequest.HttpServerRequest
}
