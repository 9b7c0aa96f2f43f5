import { Effect, Layer, Option } from "effect"
import { zoneOf } from "../../../platform/time-zones"
import { defaultPreferences, type NotificationPreferences, type StoredPreferences } from "../preferences"
import {
  AccountDirectory,
  ContactRepository,
  type ContactMessage,
  type DirectoryEntry,
  type DigestItem,
  DigestRepository,
  MailTransport,
  Outbox,
  PreferenceRepository,
  type RawMail,
  type Recipient,
  type StoredMail,
  type Suppression
} from "../ports"

/** In-memory outbox and contact store, for domain tests and running the domain without a database. */
export const InMemoryNotificationsAdapters = Layer.suspend(() => {
  const mails: Array<StoredMail> = []
  const contacts: Array<ContactMessage> = []
  let sequence = 0
  const store = (mail: RawMail) =>
    void mails.push({
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      attachments: mail.attachments ?? [],
      id: String(++sequence),
      createdAt: new Date()
    })
  return Layer.mergeAll(
    Layer.succeed(MailTransport, {
      send: (mail) => Effect.sync(() => store(mail)),
      sendAll: (all) => Effect.sync(() => all.forEach(store))
    }),
    Layer.succeed(Outbox, { latest: (limit) => Effect.sync(() => mails.slice(-limit).reverse()) }),
    Layer.succeed(ContactRepository, { insert: (m) => Effect.sync(() => void contacts.push(m)) })
  )
})

/** In-memory preferences, digest items and suppressions; accounts come from the AccountDirectory (identity). */
export const InMemoryPreferenceAdapters = Layer.unwrapEffect(
  Effect.map(AccountDirectory, (accounts) => {
    const preferences = new Map<string, StoredPreferences>()
    const suppressions: Array<Suppression> = []
    const items: Array<DigestItem & { sentAt: Date | null }> = []
    let sequence = 0
    const preferencesOf = (a: DirectoryEntry): NotificationPreferences => ({
      ...defaultPreferences,
      ...preferences.get(a.id),
      timeZone: zoneOf(a.timeZone)
    })
    const recipientOf = (account: Option.Option<DirectoryEntry>) =>
      Option.map(
        account,
        (a): Recipient => ({ userId: a.id, email: a.email, firstName: a.firstName, language: a.language, preferences: preferencesOf(a) })
      )
    const byId = (userId: string) => Effect.map(accounts.byId(userId), recipientOf)
    return Layer.mergeAll(
      Layer.succeed(PreferenceRepository, {
        find: (userId) => Effect.map(accounts.byId(userId), Option.map(preferencesOf)),
        save: (userId, { timeZone: _, ...stored }: StoredPreferences & { timeZone?: string }) =>
          Effect.sync(() => void preferences.set(userId, stored)),
        recipients: (emails) =>
          Effect.map(
            Effect.forEach([...new Set(emails.map((e) => e.toLowerCase()))], (email) => Effect.map(accounts.byEmail(email), recipientOf)),
            (found) => found.flatMap((r) => (Option.isSome(r) ? [r.value] : []))
          ),
        recipientById: byId,
        recordSuppressed: (all) => Effect.sync(() => void suppressions.push(...all)),
        suppressed: (userId) => Effect.sync(() => suppressions.filter((s) => s.userId === userId))
      }),
      Layer.succeed(DigestRepository, {
        add: (item) => Effect.sync(() => void items.push({ ...item, id: String(++sequence), sentAt: null })),
        pendingRecipients: () =>
          Effect.map(Effect.forEach([...new Set(items.filter((i) => i.sentAt === null).map((i) => i.userId))], byId), (found) =>
            found.flatMap((r) => (Option.isSome(r) ? [r.value] : []))
          ),
        claim: (userId, before, at) =>
          Effect.sync(() => {
            const taken = items.filter((i) => i.userId === userId && i.sentAt === null && i.createdAt.getTime() < before.getTime())
            for (const item of taken) item.sentAt = at
            return taken.map(({ sentAt: _, ...item }) => item)
          }),
        pending: (userId) =>
          Effect.sync(() => items.filter((i) => i.userId === userId && i.sentAt === null).map(({ sentAt: _, ...item }) => item))
      })
    )
  })
)
