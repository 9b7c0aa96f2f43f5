import { HttpApiSchema, type OpenApi } from "@effect/platform"
import { ParseResult, Schema } from "effect"
import { type AppError, errorBody, httpStatusOf } from "../errors"
import { defaultLanguage } from "../messages"
import { FailureEnvelope } from "./schemas"

// What the OpenAPI document (/api/docs) says an error answer is: the one error envelope that
// platform/http/middleware.ts sends, `{ success: false, code, message, details? }`, never the
// application error's own fields (`_tag`, `key`, `params`), which stay on the server.

/** The envelope (the document names it after each error it carries: `NotFound`, `ValidationFailed`...). */
export const Failure = FailureEnvelope.annotations({
  description: "The error envelope: a stable machine code and a message in the request's language (Accept-Language, else French)"
})

/**
 * An application error as the HTTP API declares it: its type on the server (what handlers fail with),
 * the envelope on the wire. Only the middleware renders errors (in the request's language); this
 * encoding, in the default language, is what the document describes. The status is given where the
 * error is added (`addError(asFailure(NotFound), { status: 404 })`).
 */
export const asFailure = <E extends AppError, I>(error: Schema.Schema<E, I>) =>
  Schema.transformOrFail(Failure, Schema.typeSchema(error), {
    strict: true,
    decode: (body, _, ast) => ParseResult.fail(new ParseResult.Forbidden(ast, body, "an error envelope is not decoded back")),
    encode: (e) => ParseResult.succeed(errorBody(e, defaultLanguage))
  })

/** The same, with its status, for a middleware's failure (which has no `addError` options). */
export const asFailureWithStatus = <E extends AppError, I>(error: Schema.Schema<E, I>, status: number) =>
  asFailure(error).annotations(HttpApiSchema.annotations({ status }))

type Spec = OpenApi.OpenAPISpec
type Json = unknown

const DECODE_ERROR = "#/components/schemas/HttpApiDecodeError"
/** The 400 the API declares (api.ts: `asFailure(BadRequest)`): the same envelope. */
const MALFORMED = "#/components/schemas/BadRequest"

/** A response schema with `$ref`s to the decode error pointed at the 400 envelope, and an `anyOf` of one kept as that one. */
const pointAtFailure = (schema: Json): Json => {
  if (schema === null || typeof schema !== "object") return schema
  const s = schema as { $ref?: string; anyOf?: ReadonlyArray<Json> }
  if (s.$ref === DECODE_ERROR) return { $ref: MALFORMED }
  if (s.anyOf === undefined) return schema
  const members = s.anyOf.map(pointAtFailure)
  const distinct = members.filter((m, i) => members.findIndex((other) => JSON.stringify(other) === JSON.stringify(m)) === i)
  if (distinct.length === 1) {
    const { anyOf: _, ...rest } = s
    return { ...rest, ...(distinct[0] as object) }
  }
  return { ...s, anyOf: distinct }
}

/**
 * The document's 400s as sent: HttpApi declares its request decode error (`HttpApiDecodeError`:
 * `_tag`, `issues`, `message`) on every endpoint, while the middleware answers a refused request
 * with the envelope (`MALFORMED_REQUEST` with `details`, or a path id's 404). Every reference to it
 * points at the 400 envelope, and its components (and the parse issue's) leave the document.
 */
export const describeDecodeErrorsAsSent = (document: Record<string, any>): Record<string, any> => {
  const spec = document as Spec
  const paths = Object.fromEntries(
    Object.entries(spec.paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item as Record<string, Json>).map(([method, operation]) => {
          const op = operation as { responses?: Record<string, { content?: Record<string, { schema?: Json }> }> }
          if (op === null || typeof op !== "object" || op.responses === undefined) return [method, operation]
          const responses = Object.fromEntries(
            Object.entries(op.responses).map(([status, response]) => [
              status,
              response.content === undefined
                ? response
                : {
                    ...response,
                    ...(status === "400" ? { description: "The request is malformed" } : {}),
                    content: Object.fromEntries(
                      Object.entries(response.content).map(([type, media]) => [type, { ...media, schema: pointAtFailure(media.schema) }])
                    )
                  }
            ])
          )
          return [method, { ...op, responses }]
        })
      )
    ])
  ) as Spec["paths"]
  const { HttpApiDecodeError: _d, Issue: _i, PropertyKey: _p, ...schemas } = spec.components.schemas
  return { ...spec, paths, components: { ...spec.components, schemas } }
}
