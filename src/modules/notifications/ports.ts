import { Context, type Effect } from "effect"

export interface OutgoingMail {
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly html: string
}

/** Delivers one mail. Adapters: the database outbox (default, shown at /dev/mail) and SMTP. */
export interface MailerShape {
  readonly send: (mail: OutgoingMail) => Effect.Effect<void>
  /** Several mails of one event (the outbox writes them with one statement). */
  readonly sendAll: (mails: ReadonlyArray<OutgoingMail>) => Effect.Effect<void>
}
export class Mailer extends Context.Tag("notifications/Mailer")<Mailer, MailerShape>() {}

export interface StoredMail extends OutgoingMail {
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
export class ContactRepository extends Context.Tag("notifications/ContactRepository")<
  ContactRepository,
  ContactRepositoryShape
>() {}
