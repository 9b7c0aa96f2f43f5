import { Schema } from "effect"

// The one definition of an id: a UUID (any case; PostgreSQL's uuid columns compare them lowercased).
// Pure (imports only effect): contracts, domains, adapters and the UI may import it.

/** The textual UUID form, 8-4-4-4-12 hexadecimal digits. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * True for a UUID. A value that is not one names no row: services answer their own "not found"
 * before it reaches a uuid column (where PostgreSQL would refuse it: a 500).
 */
export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID_PATTERN.test(value)

/** A UUID string (decoding refuses anything else). */
export const Uuid = Schema.String.pipe(Schema.pattern(UUID_PATTERN), Schema.annotations({ description: "A UUID", format: "uuid" }))

/** A branded id of one kind: `const BookingId = Id("BookingId")`, so a user id cannot be passed as a booking id. */
export const Id = <const B extends string>(brand: B) => Uuid.pipe(Schema.brand(brand))

// The kinds of id the HTTP paths carry (decoded there: a malformed one never reaches a service).
export const UserId = Id("UserId")
export type UserId = typeof UserId.Type
export const ServiceId = Id("ServiceId")
export type ServiceId = typeof ServiceId.Type
export const BookingId = Id("BookingId")
export type BookingId = typeof BookingId.Type
export const ConversationId = Id("ConversationId")
export type ConversationId = typeof ConversationId.Type
export const ApplicationId = Id("ApplicationId")
export type ApplicationId = typeof ApplicationId.Type
export const DocumentId = Id("DocumentId")
export type DocumentId = typeof DocumentId.Type
export const ReportId = Id("ReportId")
export type ReportId = typeof ReportId.Type
/** A session: its refresh family (identity's sessions list). */
export const SessionId = Id("SessionId")
export type SessionId = typeof SessionId.Type
