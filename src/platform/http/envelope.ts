import { HttpServerRequest } from "@effect/platform"
import { Effect, Schema } from "effect"
import { defaultLanguage, type Language, languageFromHeader, type MessageKey, translate } from "../messages"

/** The one success envelope: `{ success: true, data, message? }`. */
export const Ok = <A, I, R>(data: Schema.Schema<A, I, R>) =>
  Schema.Struct({ success: Schema.Literal(true), data, message: Schema.optional(Schema.String) })

export const ok = <A>(data: A, message?: string) =>
  ({ success: true as const, data, ...(message === undefined ? {} : { message }) })

/**
 * A text field of a request payload. PostgreSQL cannot store the NUL character in text, so a string
 * holding one is refused as a malformed request (400) instead of failing in the database (500).
 */
export const PayloadText = Schema.String.pipe(
  Schema.filter((s) => !s.includes("\u0000"), { message: () => "NUL characters are not allowed", jsonSchema: {} })
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
