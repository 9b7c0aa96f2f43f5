import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import type { MessageKey } from "../messages"
import { isStorableNumber } from "../numbers"
import { hasForbiddenControl, normalizeLineBreaks } from "../text"

// The envelope's schemas, apart from the runtime helpers of envelope.ts (request language,
// translation): every module's contract.ts imports them, and a contract loads no server code.

/** The one success envelope: `{ success: true, data, message? }`. */
export const Ok = <A, I, R>(data: Schema.Schema<A, I, R>) =>
  Schema.Struct({ success: Schema.Literal(true), data, message: Schema.optional(Schema.String) })

/**
 * A one-line text field of a request payload (a title, a name, an email): a control character
 * (platform/text.ts: NUL, which PostgreSQL cannot store, ANSI escapes, line breaks...) is refused as a
 * malformed request (400 naming the field), never stored. The message is a message key, translated
 * by the middleware.
 */
export const PayloadText = Schema.String.pipe(
  Schema.filter((s) => !hasForbiddenControl(s, "line"), { message: () => "request.controlCharacters" satisfies MessageKey, jsonSchema: {} })
)

/**
 * A long text field (a description, a bio, a message, a reason): line breaks and tabs are kept (CR LF
 * and lone CR read as LF); any other control character is refused as in `PayloadText`.
 */
export const PayloadLongText = Schema.transform(Schema.String, Schema.String, {
  strict: true,
  decode: normalizeLineBreaks,
  encode: (s) => s
}).pipe(
  Schema.filter((s) => !hasForbiddenControl(s, "long"), { message: () => "request.controlCharacters" satisfies MessageKey, jsonSchema: {} })
)

/**
 * A JSON request body: these fields and no other. An unknown field is a 400 naming it, as the OpenAPI
 * document's `additionalProperties: false` says (nested objects included: parse options flow down);
 * every problem of the body is reported, not only the first.
 */
export const Payload = <Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.Struct(fields).annotations({ parseOptions: { onExcessProperty: "error", errors: "all" } })

/**
 * A number field of a request payload: finite and within what the database stores
 * (platform/numbers.ts); 5e-324 or 1e300 are a 400 naming the field, before any rule reads them.
 */
export const PayloadNumber = Schema.Number.pipe(
  Schema.filter(isStorableNumber, { message: () => "request.numberOutOfRange" satisfies MessageKey, jsonSchema: {} })
)

/** The 404 of a resource: its code and message key (the same as the domain's own "not found" error). */
export interface MissingResource {
  readonly code: string
  readonly key: MessageKey
}

/** How a path id's schema names its resource's 404 in a decode issue (read back by platform/http/decode-issues.ts). */
export const MISSING_RESOURCE = "missing-resource:"

/**
 * The `:id` path parameter naming a resource by a branded id of platform/ids.ts, decoded at the HTTP
 * edge: a malformed id never reaches a service. It answers the resource's own 404 ("booking not
 * found"), as an unknown id does: the schema's message carries that 404 to the one place that renders
 * a refused request, platform/http/middleware.ts.
 */
export const PathId = <A, const N extends string = "id">(id: Schema.Schema<A, string>, missing: MissingResource, name: N = "id" as N) =>
  HttpApiSchema.param(
    name,
    id.annotations({ message: () => ({ message: `${MISSING_RESOURCE}${missing.code}:${missing.key}`, override: true }) })
  )

/**
 * The `:id` path parameter as text, for the paths whose id is not a UUID (a category's number or
 * name) or whose service answers a malformed one as it does an unknown one, without a 404 (an empty
 * list, no booking).
 */
export const IdParam = HttpApiSchema.param("id", Schema.String)

/**
 * The page and size query parameters of every list, as sent (text): platform/paging.ts reads them,
 * with the list's default size, clamping what is out of bounds rather than refusing it.
 */
export const PageParams = { page: Schema.optional(Schema.String), limit: Schema.optional(Schema.String) }

/** The one pagination shape of every list (platform/paging.ts's `pagination`). */
export const Pagination = Schema.Struct({
  total: Schema.Number,
  page: Schema.Number,
  limit: Schema.Number,
  pages: Schema.Number
})

/** The wire form of a success envelope around data of wire form `D` (what the UI receives). */
export type OkEncoded<D> = Schema.Schema.Encoded<ReturnType<typeof Ok<D, D, never>>>

/** The one error envelope, rendered by platform/http/middleware.ts (its schema types both sides). */
export const FailureEnvelope = Schema.Struct({
  success: Schema.Literal(false),
  code: Schema.String,
  message: Schema.String,
  details: Schema.optional(Schema.Array(Schema.Struct({ field: Schema.String, message: Schema.String })))
})
