import { expect } from "@effect/vitest"
import { layer } from "../support/effect-layer"
import { Effect, Layer } from "effect"
import { ServiceRepository } from "../../src/modules/catalogue"
import { UserRepository } from "../../src/modules/identity"
import { type ConversationEvent, ConversationEventFeed } from "../../src/modules/messaging/ports"
import { Messaging } from "../../src/modules/messaging/service"
import { failureOf, inMemoryDomain, verifiedAccount } from "../support/domain"

/** Messaging's use cases on the in-memory stack: the rules and the events, not the SQL. */
const events: Array<ConversationEvent> = []
/** The domain, with every conversation event it announces recorded in `events`. */
const domain = Layer.provideMerge(
  Layer.effectDiscard(Effect.flatMap(ConversationEventFeed, (feed) => feed.subscribe((e) => events.push(e)))),
  inMemoryDomain({ messageRateLimit: 5, messageRateWindowSeconds: 60 })
)

const account = (firstName = "Camille") => Effect.map(verifiedAccount({ firstName }), ({ user }) => user)
const serviceOf = (userId: string, status: "ACTIVE" | "INACTIVE" = "ACTIVE") =>
  Effect.flatMap(ServiceRepository, (services) =>
    services.insert({
      userId,
      categoryId: 7,
      title: "Réparation de vélos",
      description: "Freins, vitesses, crevaisons.",
      priceMinor: 4000,
      currency: "CAD",
      durationMinutes: 60,
      location: "Montréal",
      lat: 45.5,
      lng: -73.6,
      status
    })
  )
const deactivate = (id: string) => Effect.flatMap(UserRepository, (users) => users.setActive(id, false))

layer(domain, { excludeTestServices: true })("Messaging (in memory)", (it) => {
  it.effect("start finds the pair's conversation or creates it, per service; never with oneself; only with active accounts", () =>
    Effect.gen(function* () {
      const m = yield* Messaging
      const [lea, marc] = [yield* account("Léa"), yield* account("Marc")]
      const first = yield* m.start(lea.id, { participantId: marc.id })
      expect(first.created).toBe(true)
      expect(first.conversation).toMatchObject({ title: null, serviceId: null, unreadCount: 0, lastMessage: null })
      expect(first.conversation.participants.map((p) => p.firstName)).toEqual(["Léa", "Marc"])
      // Either side finds the same conversation.
      const again = yield* m.start(marc.id, { participantId: lea.id.toUpperCase() })
      expect(again).toMatchObject({ created: false, conversation: { id: first.conversation.id } })
      // About a service of Marc's: a second conversation titled after it.
      const service = yield* serviceOf(marc.id)
      const about = yield* m.start(lea.id, { participantId: marc.id, serviceId: service.id })
      expect(about.created).toBe(true)
      expect(about.conversation).toMatchObject({ title: "Réparation de vélos", serviceId: service.id })
      expect((yield* m.start(lea.id, { participantId: marc.id, serviceId: service.id })).conversation.id).toBe(about.conversation.id)

      expect(yield* failureOf(m.start(lea.id, { participantId: lea.id }))).toMatchObject({ status: 422, code: "VALIDATION_ERROR" })
      expect(yield* failureOf(m.start(lea.id, {}))).toMatchObject({ status: 422 })
      expect(yield* failureOf(m.start(lea.id, { participantId: "nope" }))).toMatchObject({ status: 404, code: "USER_NOT_FOUND" })
      expect(yield* failureOf(m.start(lea.id, { participantId: crypto.randomUUID() }))).toMatchObject({
        status: 404,
        code: "USER_NOT_FOUND"
      })
      expect(yield* failureOf(m.start(lea.id, { participantId: marc.id, serviceId: crypto.randomUUID() }))).toMatchObject({
        status: 404,
        code: "SERVICE_NOT_FOUND"
      })
      // A service of neither participant.
      const third = yield* account("Zoé")
      const elsewhere = yield* serviceOf(third.id)
      expect(yield* failureOf(m.start(lea.id, { participantId: marc.id, serviceId: elsewhere.id }))).toMatchObject({ status: 422 })
      // Another user's hidden service does not exist for Léa.
      const hidden = yield* serviceOf(marc.id, "INACTIVE")
      expect(yield* failureOf(m.start(lea.id, { participantId: marc.id, serviceId: hidden.id }))).toMatchObject({
        status: 404,
        code: "SERVICE_NOT_FOUND"
      })
      const gone = yield* account("Paul")
      yield* deactivate(gone.id)
      expect(yield* failureOf(m.start(lea.id, { participantId: gone.id }))).toMatchObject({ status: 404, code: "USER_NOT_FOUND" })
    })
  )

  it.effect("send stores the trimmed message, announces it to both participants, and moves the conversation up", () =>
    Effect.gen(function* () {
      const m = yield* Messaging
      const [ana, ben, chloe] = [yield* account("Ana"), yield* account("Ben"), yield* account("Chloé")]
      const older = (yield* m.start(ana.id, { participantId: chloe.id })).conversation
      const { conversation } = yield* m.start(ana.id, { participantId: ben.id })
      yield* m.send(ana.id, older.id, "Bonjour Chloé")
      // The list orders by the time of the last message: the later one must come at a later millisecond.
      yield* Effect.sleep("2 millis")
      events.length = 0
      const { message } = yield* m.send(ana.id, conversation.id, "  Bonjour Ben  ")
      expect(message).toMatchObject({ content: "Bonjour Ben", senderId: ana.id, conversationId: conversation.id, readAt: null })
      expect(events).toEqual([
        {
          type: "message_received",
          recipientIds: [ana.id, ben.id],
          message,
          sender: { id: ana.id, firstName: "Ana", lastName: "Roy" },
          isPrivate: true
        }
      ])
      const list = yield* m.list(ana.id, {})
      expect(list.rows.map((c) => c.id)).toEqual([conversation.id, older.id])
      const forBen = yield* m.list(ben.id, {})
      expect(forBen.rows[0]).toMatchObject({ unreadCount: 1, lastMessage: { content: "Bonjour Ben", senderFirstName: "Ana" } })
      expect((yield* m.get(ana.id, conversation.id)).unreadCount).toBe(0)

      expect(yield* failureOf(m.send(ana.id, conversation.id, "   "))).toMatchObject({ status: 422 })
      expect(yield* failureOf(m.send(ana.id, conversation.id, "x".repeat(2001)))).toMatchObject({ status: 422 })
      expect((yield* m.send(ana.id, conversation.id, "é".repeat(2000))).message.content).toHaveLength(2000)
    })
  )

  it.effect("strangers get 404 for everything; a deactivated participant cannot write", () =>
    Effect.gen(function* () {
      const m = yield* Messaging
      const [a, b, stranger] = [yield* account(), yield* account(), yield* account()]
      const { conversation } = yield* m.start(a.id, { participantId: b.id })
      const attempts: ReadonlyArray<Effect.Effect<unknown, unknown>> = [
        m.get(stranger.id, conversation.id),
        m.send(stranger.id, conversation.id, "coucou"),
        m.markRead(stranger.id, conversation.id),
        m.messages(stranger.id, conversation.id, {}),
        m.participantsOf(stranger.id, conversation.id),
        m.get(a.id, "not-a-uuid"),
        m.get(a.id, crypto.randomUUID())
      ]
      for (const attempt of attempts) {
        expect(yield* failureOf(attempt)).toMatchObject({ status: 404, code: "CONVERSATION_NOT_FOUND" })
      }
      expect((yield* m.list(stranger.id, {})).total).toBe(0)
      yield* deactivate(b.id)
      expect(yield* failureOf(m.send(b.id, conversation.id, "encore là ?"))).toMatchObject({ status: 403, code: "ACCOUNT_DEACTIVATED" })
    })
  )

  it.effect("markRead marks what the other sent (all, or the named ids) and announces it once", () =>
    Effect.gen(function* () {
      const m = yield* Messaging
      const [a, b] = [yield* account(), yield* account()]
      const { conversation } = yield* m.start(a.id, { participantId: b.id })
      const one = (yield* m.send(a.id, conversation.id, "un")).message
      const two = (yield* m.send(a.id, conversation.id, "deux")).message
      yield* m.send(b.id, conversation.id, "trois")
      events.length = 0
      const first = yield* m.markRead(b.id, conversation.id, [one.id, "junk", 42])
      expect(first.messageIds).toEqual([one.id])
      expect(events).toMatchObject([{ type: "messages_read", readerId: b.id, messageIds: [one.id], recipientIds: [a.id, b.id] }])
      const rest = yield* m.markRead(b.id, conversation.id)
      expect(rest.messageIds).toEqual([two.id])
      expect((yield* m.markRead(b.id, conversation.id)).messageIds).toEqual([])
      expect(events).toHaveLength(2)
      expect((yield* m.get(b.id, conversation.id)).unreadCount).toBe(0)
      expect((yield* m.get(a.id, conversation.id)).unreadCount).toBe(1)
      const page = yield* m.messages(a.id, conversation.id, { limit: 2 })
      expect(page).toMatchObject({ total: 3, page: 1, limit: 2 })
      expect(page.rows.map((r) => [r.content, r.readAt !== null])).toEqual([
        ["trois", false],
        ["deux", true]
      ])
    })
  )

  it.effect("rate-limits sending per user (MESSAGE_RATE_LIMIT)", () =>
    Effect.gen(function* () {
      const m = yield* Messaging
      const [a, b] = [yield* account(), yield* account()]
      const { conversation } = yield* m.start(a.id, { participantId: b.id })
      for (let i = 0; i < 5; i++) yield* m.send(a.id, conversation.id, `message ${i}`)
      expect(yield* failureOf(m.send(a.id, conversation.id, "de trop"))).toMatchObject({ status: 429, code: "RATE_LIMITED" })
      // The other participant has their own budget.
      yield* m.send(b.id, conversation.id, "je peux encore")
      expect((yield* m.messages(a.id, conversation.id, {})).total).toBe(6)
    })
  )
})
