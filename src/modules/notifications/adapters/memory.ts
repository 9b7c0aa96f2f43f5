import { Effect, Layer } from "effect"
import { ContactRepository, type ContactMessage, Mailer, Outbox, type StoredMail } from "../ports"

/** In-memory outbox and contact store, for domain tests and running the domain without a database. */
export const InMemoryNotificationsAdapters = Layer.suspend(() => {
  const mails: Array<StoredMail> = []
  const contacts: Array<ContactMessage> = []
  let sequence = 0
  return Layer.mergeAll(
    Layer.succeed(Mailer, {
      send: (mail) =>
        Effect.sync(() => {
          mails.push({ ...mail, id: String(++sequence), createdAt: new Date() })
        }),
      sendAll: (all) =>
        Effect.sync(() => {
          for (const mail of all) mails.push({ ...mail, id: String(++sequence), createdAt: new Date() })
        })
    }),
    Layer.succeed(Outbox, { latest: (limit) => Effect.sync(() => mails.slice(-limit).reverse()) }),
    Layer.succeed(ContactRepository, { insert: (m) => Effect.sync(() => void contacts.push(m)) })
  )
})
