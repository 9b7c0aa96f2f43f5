import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ServiceRepository } from "../../src/modules/catalogue"
import { UserRepository } from "../../src/modules/identity"
import { type ConversationEvent, ConversationEventFeed } from "../../src/modules/messaging/ports"
import { Messaging } from "../../src/modules/messaging/service"
import { failureOf, inMemoryDomain, verifiedAccount } from "../support/domain"

/** Messaging's use cases on the in-memory stack: the rules and the events, not the SQL. */
let runtime: ManagedRuntime.ManagedRuntime<any, unknown>
const run = <A, E>(effect: Effect.Effect<A, E, any>) => runtime.runPromise(effect) as Promise<A>
const events: Array<ConversationEvent> = []
beforeAll(async () => {
  runtime = ManagedRuntime.make(inMemoryDomain({ messageRateLimit: 5, messageRateWindowSeconds: 60 }) as Layer.Layer<any, unknown, never>)
  await run(Effect.flatMap(ConversationEventFeed, (feed) => feed.subscribe((e) => events.push(e))))
})
afterAll(() => runtime?.dispose())

const messaging = () => run(Messaging)
const account = (firstName = "Camille") => run(Effect.map(verifiedAccount({ firstName }), ({ user }) => user))
const serviceOf = (userId: string, status: "ACTIVE" | "INACTIVE" = "ACTIVE") =>
  run(
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
  )
const deactivate = (id: string) => run(Effect.flatMap(UserRepository, (users) => users.setActive(id, false)))

describe("Messaging (in memory)", () => {
  it("start finds the pair's conversation or creates it, per service; never with oneself; only with active accounts", async () => {
    const m = await messaging()
    const [lea, marc] = [await account("Léa"), await account("Marc")]
    const first = await run(m.start(lea.id, { participantId: marc.id }))
    expect(first.created).toBe(true)
    expect(first.conversation).toMatchObject({ title: null, serviceId: null, unreadCount: 0, lastMessage: null })
    expect(first.conversation.participants.map((p) => p.firstName)).toEqual(["Léa", "Marc"])
    // Either side finds the same conversation.
    const again = await run(m.start(marc.id, { participantId: lea.id.toUpperCase() }))
    expect(again).toMatchObject({ created: false, conversation: { id: first.conversation.id } })
    // About a service of Marc's: a second conversation titled after it.
    const service = await serviceOf(marc.id)
    const about = await run(m.start(lea.id, { participantId: marc.id, serviceId: service.id }))
    expect(about.created).toBe(true)
    expect(about.conversation).toMatchObject({ title: "Réparation de vélos", serviceId: service.id })
    expect((await run(m.start(lea.id, { participantId: marc.id, serviceId: service.id }))).conversation.id).toBe(about.conversation.id)

    expect(await run(failureOf(m.start(lea.id, { participantId: lea.id })))).toMatchObject({ status: 422, code: "VALIDATION_ERROR" })
    expect(await run(failureOf(m.start(lea.id, {})))).toMatchObject({ status: 422 })
    expect(await run(failureOf(m.start(lea.id, { participantId: "nope" })))).toMatchObject({ status: 404, code: "USER_NOT_FOUND" })
    expect(await run(failureOf(m.start(lea.id, { participantId: crypto.randomUUID() })))).toMatchObject({
      status: 404,
      code: "USER_NOT_FOUND"
    })
    expect(await run(failureOf(m.start(lea.id, { participantId: marc.id, serviceId: crypto.randomUUID() })))).toMatchObject({
      status: 404,
      code: "SERVICE_NOT_FOUND"
    })
    // A service of neither participant.
    const third = await account("Zoé")
    const elsewhere = await serviceOf(third.id)
    expect(await run(failureOf(m.start(lea.id, { participantId: marc.id, serviceId: elsewhere.id })))).toMatchObject({ status: 422 })
    // Another user's hidden service does not exist for Léa.
    const hidden = await serviceOf(marc.id, "INACTIVE")
    expect(await run(failureOf(m.start(lea.id, { participantId: marc.id, serviceId: hidden.id })))).toMatchObject({
      status: 404,
      code: "SERVICE_NOT_FOUND"
    })
    const gone = await account("Paul")
    await deactivate(gone.id)
    expect(await run(failureOf(m.start(lea.id, { participantId: gone.id })))).toMatchObject({ status: 404, code: "USER_NOT_FOUND" })
  })

  it("send stores the trimmed message, announces it to both participants, and moves the conversation up", async () => {
    const m = await messaging()
    const [ana, ben, chloe] = [await account("Ana"), await account("Ben"), await account("Chloé")]
    const older = (await run(m.start(ana.id, { participantId: chloe.id }))).conversation
    const { conversation } = await run(m.start(ana.id, { participantId: ben.id }))
    await run(m.send(ana.id, older.id, "Bonjour Chloé"))
    // The list orders by the time of the last message: the later one must come at a later millisecond.
    await new Promise((resolve) => setTimeout(resolve, 2))
    events.length = 0
    const { message } = await run(m.send(ana.id, conversation.id, "  Bonjour Ben  "))
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
    const list = await run(m.list(ana.id, {}))
    expect(list.rows.map((c) => c.id)).toEqual([conversation.id, older.id])
    const forBen = await run(m.list(ben.id, {}))
    expect(forBen.rows[0]).toMatchObject({ unreadCount: 1, lastMessage: { content: "Bonjour Ben", senderFirstName: "Ana" } })
    expect((await run(m.get(ana.id, conversation.id))).unreadCount).toBe(0)

    expect(await run(failureOf(m.send(ana.id, conversation.id, "   ")))).toMatchObject({ status: 422 })
    expect(await run(failureOf(m.send(ana.id, conversation.id, "x".repeat(2001))))).toMatchObject({ status: 422 })
    expect((await run(m.send(ana.id, conversation.id, "é".repeat(2000)))).message.content).toHaveLength(2000)
  })

  it("strangers get 404 for everything; a deactivated participant cannot write", async () => {
    const m = await messaging()
    const [a, b, stranger] = [await account(), await account(), await account()]
    const { conversation } = await run(m.start(a.id, { participantId: b.id }))
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
      expect(await run(failureOf(attempt))).toMatchObject({ status: 404, code: "CONVERSATION_NOT_FOUND" })
    }
    expect((await run(m.list(stranger.id, {}))).total).toBe(0)
    await deactivate(b.id)
    expect(await run(failureOf(m.send(b.id, conversation.id, "encore là ?")))).toMatchObject({ status: 403, code: "ACCOUNT_DEACTIVATED" })
  })

  it("markRead marks what the other sent (all, or the named ids) and announces it once", async () => {
    const m = await messaging()
    const [a, b] = [await account(), await account()]
    const { conversation } = await run(m.start(a.id, { participantId: b.id }))
    const one = (await run(m.send(a.id, conversation.id, "un"))).message
    const two = (await run(m.send(a.id, conversation.id, "deux"))).message
    await run(m.send(b.id, conversation.id, "trois"))
    events.length = 0
    const first = await run(m.markRead(b.id, conversation.id, [one.id, "junk", 42]))
    expect(first.messageIds).toEqual([one.id])
    expect(events).toMatchObject([{ type: "messages_read", readerId: b.id, messageIds: [one.id], recipientIds: [a.id, b.id] }])
    const rest = await run(m.markRead(b.id, conversation.id))
    expect(rest.messageIds).toEqual([two.id])
    expect((await run(m.markRead(b.id, conversation.id))).messageIds).toEqual([])
    expect(events).toHaveLength(2)
    expect((await run(m.get(b.id, conversation.id))).unreadCount).toBe(0)
    expect((await run(m.get(a.id, conversation.id))).unreadCount).toBe(1)
    const page = await run(m.messages(a.id, conversation.id, { limit: 2 }))
    expect(page).toMatchObject({ total: 3, page: 1, limit: 2 })
    expect(page.rows.map((r) => [r.content, r.readAt !== null])).toEqual([
      ["trois", false],
      ["deux", true]
    ])
  })

  it("rate-limits sending per user (MESSAGE_RATE_LIMIT)", async () => {
    const m = await messaging()
    const [a, b] = [await account(), await account()]
    const { conversation } = await run(m.start(a.id, { participantId: b.id }))
    for (let i = 0; i < 5; i++) await run(m.send(a.id, conversation.id, `message ${i}`))
    expect(await run(failureOf(m.send(a.id, conversation.id, "de trop")))).toMatchObject({ status: 429, code: "RATE_LIMITED" })
    // The other participant has their own budget.
    await run(m.send(b.id, conversation.id, "je peux encore"))
    expect((await run(m.messages(a.id, conversation.id, {}))).total).toBe(6)
  })
})
