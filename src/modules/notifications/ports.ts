import { Context, type Effect, type Option } from "effect"
import type { Language } from "../../platform/messages"
import type { MailKind, NotificationPreferences, StoredPreferences } from "./preferences"

/** A file sent with a mail: text (a booking's .ics), or binary written in base64 (a receipt's PDF). */
export interface MailAttachment {
  readonly filename: string
  readonly contentType: string
  readonly content: string
  /** "base64": `content` is the file's bytes in base64; absent, the text itself. */
  readonly encoding?: "base64" | undefined
}

/** A mail as it is handed to the transport. */
export interface RawMail {
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly html: string
  readonly attachments?: ReadonlyArray<MailAttachment> | undefined
}

/** A mail of the product: its kind decides whether the recipient's preferences may hold it back. */
export interface OutgoingMail extends RawMail {
  readonly kind: MailKind
  /** What a digest lists for it (the mail's paragraphs and its link); absent, the subject alone. */
  readonly digest?: { readonly body: string; readonly link: string } | undefined
  /**
   * The instant the mail stops being worth reading (a reminder: the booking's start). Held back by
   * quiet hours or a digest until then or later, it is recorded as suppressed (`expired`) instead.
   */
  readonly expiresAt?: Date | undefined
}

/**
 * Sends the product's mails, in the caller's transaction, honouring the recipient's preferences
 * (the notifications module decides: at once, after quiet hours, in a digest, or suppressed).
 */
export interface MailerShape {
  readonly send: (mail: OutgoingMail) => Effect.Effect<void>
  /** Several mails of one event (one preferences read, one transport statement). */
  readonly sendAll: (mails: ReadonlyArray<OutgoingMail>) => Effect.Effect<void>
}
export class Mailer extends Context.Tag("notifications/Mailer")<Mailer, MailerShape>() {}

/** Delivers mails as they are. Adapters: the database outbox (default, shown at /dev/mail) and SMTP jobs. */
export interface MailTransportShape {
  readonly send: (mail: RawMail) => Effect.Effect<void>
  readonly sendAll: (mails: ReadonlyArray<RawMail>) => Effect.Effect<void>
}
export class MailTransport extends Context.Tag("notifications/MailTransport")<MailTransport, MailTransportShape>() {}

/** An account that receives mail, with its preferences (the defaults when none are stored). */
export interface Recipient {
  readonly userId: string
  readonly email: string
  readonly firstName: string
  readonly language: Language
  readonly preferences: NotificationPreferences
}

export type SuppressionReason = "never" | "disabled" | "expired"

export interface Suppression {
  readonly userId: string
  readonly recipient: string
  readonly kind: MailKind
  readonly subject: string
  readonly reason: SuppressionReason
}

export interface PreferenceRepositoryShape {
  /** An account's preferences (the defaults when it stored none) in its zone; None: no such account. */
  readonly find: (userId: string) => Effect.Effect<Option.Option<NotificationPreferences>>
  readonly save: (userId: string, preferences: StoredPreferences) => Effect.Effect<void>
  /** The accounts owning these addresses (case-insensitive); addresses of no account are left out. */
  readonly recipients: (emails: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Recipient>>
  readonly recipientById: (userId: string) => Effect.Effect<Option.Option<Recipient>>
  readonly recordSuppressed: (suppressions: ReadonlyArray<Suppression>) => Effect.Effect<void>
  readonly suppressed: (userId: string) => Effect.Effect<ReadonlyArray<Suppression>>
}
export class PreferenceRepository extends Context.Tag("notifications/PreferenceRepository")<
  PreferenceRepository,
  PreferenceRepositoryShape
>() {}

export interface DigestItem {
  readonly id: string
  readonly userId: string
  readonly kind: MailKind
  readonly subject: string
  readonly body: string
  readonly link: string
  readonly createdAt: Date
}

export interface DigestRepositoryShape {
  readonly add: (item: Omit<DigestItem, "id">) => Effect.Effect<void>
  /** Recipients with items not yet sent. */
  readonly pendingRecipients: () => Effect.Effect<ReadonlyArray<Recipient>>
  /**
   * Marks the recipient's unsent items created before `before` as sent at `at` and answers them,
   * oldest first. Two concurrent claims never answer the same item (rows locked, SKIP LOCKED).
   */
  readonly claim: (userId: string, before: Date, at: Date) => Effect.Effect<ReadonlyArray<DigestItem>>
  readonly pending: (userId: string) => Effect.Effect<ReadonlyArray<DigestItem>>
}
export class DigestRepository extends Context.Tag("notifications/DigestRepository")<DigestRepository, DigestRepositoryShape>() {}

/** Signed, secret-keyed tokens of the one-click unsubscribe link (HMAC over the account id). */
export interface UnsubscribeTokensShape {
  readonly sign: (userId: string) => string
  /** The account id of a genuine token. */
  readonly verify: (token: string) => Option.Option<string>
}
export class UnsubscribeTokens extends Context.Tag("notifications/UnsubscribeTokens")<UnsubscribeTokens, UnsubscribeTokensShape>() {}

/**
 * Accounts by address or id, for the in-memory preference store (the Postgres one reads the users
 * table in the same statement). Implemented by identity, which owns accounts.
 */
export interface DirectoryEntry {
  readonly id: string
  readonly email: string
  readonly firstName: string
  readonly language: Language
  /** The account's zone (null until one is known: the platform's default applies). */
  readonly timeZone: string | null
}
export interface AccountDirectoryShape {
  readonly byEmail: (email: string) => Effect.Effect<Option.Option<DirectoryEntry>>
  readonly byId: (id: string) => Effect.Effect<Option.Option<DirectoryEntry>>
}
export class AccountDirectory extends Context.Tag("notifications/AccountDirectory")<AccountDirectory, AccountDirectoryShape>() {}

export interface StoredMail extends RawMail {
  readonly id: string
  readonly createdAt: Date
}

/** Reads the outbox (embedded mode's /dev/mail page and tests). */
export interface OutboxShape {
  readonly latest: (limit: number) => Effect.Effect<ReadonlyArray<StoredMail>>
}
export class Outbox extends Context.Tag("notifications/Outbox")<Outbox, OutboxShape>() {}

export interface ContactMessage {
  readonly name: string
  readonly email: string
  readonly subject: string
  readonly message: string
  readonly userId: string | null
}
export interface ContactRepositoryShape {
  readonly insert: (message: ContactMessage) => Effect.Effect<void>
}
export class ContactRepository extends Context.Tag("notifications/ContactRepository")<ContactRepository, ContactRepositoryShape>() {}
