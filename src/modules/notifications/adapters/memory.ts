import { Effect, Layer } from "effect"
import { ContactRepository, type ContactMessage, Mailer, Outbox, type OutgoingMail, type StoredMail } from "../ports"

/** In-memory outbox and contact store, for domain tests and running the domain without a database. */
export const InMemoryNotificationsAdapters = Layer.suspend(() => {
  const mails: Array<StoredMail> = []
  const contacts: Array<ContactMessage> = []
  let sequence = 0
  const store = (mail: OutgoingMail) => void mails.push({ ...mail, id: String(++sequence), createdAt: new Date() })
  return Layer.mergeAll(
    Layer.succeed(Mailer, {
      send: (mail) => Effect.sync(() => store(mail)),
      sendAll: (all) => Effect.sync(() => all.forEach(store))
    }),
    Layer.succeed(Outbox, { latest: (limit) => Effect.sync(() => mails.slice(-limit).reverse()) }),
    Layer.succeed(ContactRepository, { insert: (m) => Effect.sync(() => void contacts.push(m)) })
  )
})
