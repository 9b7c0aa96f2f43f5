import { Schema } from "effect"
import { type Language, type MessageKey, translate } from "./messages"
import type { FailureEnvelope } from "./http/schemas"

/**
 * The application's failures, one class per HTTP meaning. Each carries a stable machine `code`
 * and the key of a message that the HTTP edge renders in the request's language, so the domain
 * stays free of HTTP and of languages. Rendered as the one error envelope
 * `{ success: false, code, message, details? }` by platform/http/envelope.ts.
 */
const Key = Schema.String as unknown as Schema.Schema<MessageKey>

const Params = Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String }))

export class FieldIssue extends Schema.Class<FieldIssue>("FieldIssue")({
  field: Schema.String,
  key: Key,
  /** The message's parameters; without them, the error's own (a field's message often repeats the error's). */
  params: Params
}) {}

const fields = {
  code: Schema.String,
  key: Key,
  params: Params
}

export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", fields) {}
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", fields) {}
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", fields) {}
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", fields) {}
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", fields) {}
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", fields) {}
export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()("UnsupportedMediaType", fields) {}
export class TooManyRequests extends Schema.TaggedError<TooManyRequests>()("TooManyRequests", fields) {}
/** A service the application depends on (the payment gateway) failed or could not be reached. */
export class BadGateway extends Schema.TaggedError<BadGateway>()("BadGateway", fields) {}
/** A dependency (the database) is away for now: the client should retry after `retryAfterSeconds`. */
export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()("ServiceUnavailable", {
  ...fields,
  retryAfterSeconds: Schema.Number
}) {}
export class ValidationFailed extends Schema.TaggedError<ValidationFailed>()("ValidationFailed", {
  ...fields,
  details: Schema.Array(FieldIssue)
}) {}

export type AppError =
  | BadRequest
  | Unauthorized
  | Forbidden
  | NotFound
  | Conflict
  | PayloadTooLarge
  | UnsupportedMediaType
  | TooManyRequests
  | ValidationFailed
  | BadGateway
  | ServiceUnavailable

export const httpStatusOf: Record<AppError["_tag"], number> = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  ValidationFailed: 422,
  TooManyRequests: 429,
  BadGateway: 502,
  ServiceUnavailable: 503
}

export const isAppError = (u: unknown): u is AppError =>
  typeof u === "object" && u !== null && "_tag" in u && typeof u._tag === "string" && u._tag in httpStatusOf

/** A 422 from a list of field problems (the list is never empty). */
export const invalid = (details: ReadonlyArray<FieldIssue>) =>
  new ValidationFailed({ code: "VALIDATION_ERROR", key: "validation.failed", details })

export const issue = (field: string, key: MessageKey, params?: Readonly<Record<string, string>>) =>
  new FieldIssue({ field, key, ...(params ? { params } : {}) })

/** The error envelope's body of an application error, in `language` (HTTP answers and socket acknowledgements). */
export const errorBody = (error: AppError, language: Language): typeof FailureEnvelope.Type => ({
  success: false as const,
  code: error.code,
  message: translate(language, error.key, error.params),
  ...(error._tag === "ValidationFailed"
    ? { details: error.details.map((d) => ({ field: d.field, message: translate(language, d.key, d.params ?? error.params) })) }
    : {})
})

/** The same, as one line of text with one line per field (the CLI's refusals). */
export const errorText = (error: AppError, language: Language) => {
  const body = errorBody(error, language)
  return `${body.message} [${body.code}]${(body.details ?? []).map((d) => `\n  ${d.field}: ${d.message}`).join("")}`
}
