import { Schema } from "effect"

// The envelope's schemas, apart from the runtime helpers of envelope.ts (request language,
// translation): every module's contract.ts imports them, and a contract loads no server code.

/** The one success envelope: `{ success: true, data, message? }`. */
export const Ok = <A, I, R>(data: Schema.Schema<A, I, R>) =>
  Schema.Struct({ success: Schema.Literal(true), data, message: Schema.optional(Schema.String) })

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

/** The wire form of a success envelope around data of wire form `D` (what the UI receives). */
export type OkEncoded<D> = Schema.Schema.Encoded<ReturnType<typeof Ok<D, D, never>>>

/** The one error envelope, rendered by platform/http/middleware.ts (its schema types both sides). */
export const FailureEnvelope = Schema.Struct({
  success: Schema.Literal(false),
  code: Schema.String,
  message: Schema.String,
  details: Schema.optional(Schema.Array(Schema.Struct({ field: Schema.String, message: Schema.String })))
})
