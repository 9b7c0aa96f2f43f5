import { HttpServerRequest } from "@effect/platform"
import { Effect, Schema } from "effect"
import { defaultLanguage, type Language, languageFromHeader, type MessageKey, translate } from "../messages"

export { Ok, Pagination, Payload, PayloadLongText, PayloadNumber, PayloadText } from "./schemas"

export const ok = <A>(data: A, message?: string) => ({ success: true as const, data, ...(message === undefined ? {} : { message }) })

/** The language of the current request: Accept-Language (the UI always sends it), else French. */
export const requestLanguage: Effect.Effect<Language, never, HttpServerRequest.HttpServerRequest> = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => languageFromHeader(request.headers["accept-language"]) ?? defaultLanguage
)

export const localized = (key: MessageKey, params?: Record<string, string>) =>
  Effect.map(requestLanguage, (language) => translate(language, key, params))
