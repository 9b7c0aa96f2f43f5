import { HttpServerRequest } from "@effect/platform"
import { Effect, Schema } from "effect"
import { defaultLanguage, type Language, languageFromHeader, type MessageKey, translate } from "../messages"
import { isStorableNumber } from "../numbers"
import { hasForbiddenControl, normalizeLineBreaks } from "../text"

/** The one success envelope: `{ success: true, data, message? }`. */
export const Ok = <A, I, R>(data: Schema.Schema<A, I, R>) =>
  Schema.Struct({ success: Schema.Literal(true), data, message: Schema.optional(Schema.String) })

export const ok = <A>(data: A, message?: string) =>
  ({ success: true as const, data, ...(message === undefined ? {} : { message }) })

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
}).pipe(Schema.filter((s) => !hasForbiddenControl(s, "long"), { message: () => "request.controlCharacters" satisfies MessageKey, jsonSchema: {} }))

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

/** The one pagination shape of every list. */
export const Pagination = Schema.Struct({
  total: Schema.Number,
  page: Schema.Number,
  limit: Schema.Number,
  pages: Schema.Number
})

/** The language of the current request: Accept-Language (the UI always sends it), else French. */
export const requestLanguage: Effect.Effect<Language, never, HttpServerRequest.HttpServerRequest> = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => languageFromHeader(request.headers["accept-language"]) ?? defaultLanguage
)

export const localized = (key: MessageKey, params?: Record<string, string>) =>
  Effect.map(requestLanguage, (language) => translate(language, key, params))
