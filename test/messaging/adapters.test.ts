import { Effect, Layer, Option } from "effect"
import { AppConfigOf } from "../../src/platform/config"
import * as crypto from "node:crypto"
import { describe, expect, it } from "vitest"
import { UserRepository } from "../../src/modules/identity"
import { IdentityMemoryAdapters } from "../../src/modules/identity/adapters/memory"
import { IdentityPostgresAdapters } from "../../src/modules/identity/adapters/postgres"
import { ConversationRepository } from "../../src/modules/messaging/ports"
import { ConversationRepositoryLive } from "../../src/modules/messaging/adapters/postgres"
import { ConversationRepositoryMemory } from "../../src/modules/messaging/adapters/memory"
import { freshTestDatabase, storeKinds } from "../support/database"
import { contractStores } from "../support/contract"

/** One contract for the conversation store: in memory, PGlite, and PostgreSQL when TEST_DATABASE_URL is set. */
const memoryStores = ConversationRepositoryMemory.pipe(Layer.provideMerge(IdentityMemoryAdapters))
const postgresStores = (kind: "pglite" | "postgres") =>
  Layer.mergeAll(ConversationRepositoryLive, IdentityPostgresAdapters).pipe(
    Layer.provideMerge(freshTestDatabase(kind)),
    Layer.provide(AppConfigOf())
  )
describe.each(storeKinds)("conversation store on %s", (kind) => {
  const { run } = contractStores(kind, memoryStores, postgresStores)
  const store = () => run(ConversationRepository)
  let clock = Date.parse("2025-05-01T10:00:00Z")
  const tick = () => new Date((clock += 1000))

  const newUser = (firstName: string) =>
    run(
      Effect.flatMap(UserRepository, (users) =>
        users.insert({
          email: `${firstName.toLowerCase()}.${crypto.randomBytes(5).toString("hex")}@example.com`,
          passwordHash: "!",
          firstName,
          lastName: "Tremblay",
          phoneNumber: "5145550100",
          role: "CLIENT",
          isEmailVerified: true,
          preferredLanguage: "fr"
        })
      )
    )

  it("one conversation per pair and topic, whatever the order; created again it answers the existing one", async () => {
    const repo = await store()
    const [a, b] = [await newUser("Alice"), await newUser("Bruno")]
    const created = await run(repo.create({ participantIds: [a.id, b.id], serviceId: null, title: null, at: tick() }))
    expect(created.created).toBe(true)
    expect([...created.conversation.participantIds].sort()).toEqual([a.id, b.id].sort())
    const again = await run(repo.create({ participantIds: [b.id, a.id], serviceId: null, title: null, at: tick() }))
    expect(again).toEqual({ created: false, conversation: created.conversation })
    expect(Option.map(await run(repo.findPair(b.id, a.id, null)), (c) => c.id)).toEqual(Option.some(created.conversation.id))
    expect(Option.isNone(await run(repo.findPair(a.id, crypto.randomUUID(), null)))).toBe(true)
    expect(Option.map(await run(repo.find(created.conversation.id)), (c) => c.title)).toEqual(Option.some(null))
    expect(Option.isNone(await run(repo.find(crypto.randomUUID())))).toBe(true)
  })

  it("the list: last activity first, each with participants, the viewer's unread count and the last message; paged", async () => {
    const repo = await store()
    const [me, x, y, z] = [await newUser("Moi"), await newUser("Xavier"), await newUser("Yasmine"), await newUser("Zoé")]
    const withX = (await run(repo.create({ participantIds: [me.id, x.id], serviceId: null, title: null, at: tick() }))).conversation
    const withY = (await run(repo.create({ participantIds: [y.id, me.id], serviceId: null, title: "Cours de yoga", at: tick() })))
      .conversation
    const withZ = (await run(repo.create({ participantIds: [me.id, z.id], serviceId: null, title: null, at: tick() }))).conversation
    await run(repo.addMessage({ conversationId: withX.id, senderId: x.id, content: "Salut", at: tick() }))
    await run(repo.addMessage({ conversationId: withX.id, senderId: x.id, content: "Tu es là ?", at: tick() }))
    await run(repo.addMessage({ conversationId: withY.id, senderId: me.id, content: "Bonjour Yasmine", at: tick() }))

    const all = await run(repo.listFor(me.id, { limit: 10, offset: 0 }))
    expect(all.total).toBe(3)
    expect(all.rows.map((c) => c.id)).toEqual([withY.id, withX.id, withZ.id])
    const [ry, rx, rz] = all.rows
    expect(ry).toMatchObject({
      title: "Cours de yoga",
      unreadCount: 0,
      lastMessage: { content: "Bonjour Yasmine", senderId: me.id, senderFirstName: "Moi", readAt: null }
    })
    expect(rx).toMatchObject({ unreadCount: 2, lastMessage: { content: "Tu es là ?", senderFirstName: "Xavier" } })
    expect(rx!.participants.map((p) => p.firstName).sort()).toEqual(["Moi", "Xavier"])
    expect(rx!.participants[0]).toEqual({ id: expect.any(String), firstName: expect.any(String), lastName: "Tremblay" })
    expect(rz).toMatchObject({ unreadCount: 0, lastMessage: null })
    // The other side counts its own unread messages.
    expect(Option.getOrThrow(await run(repo.summary(withY.id, y.id))).unreadCount).toBe(1)
    expect(Option.isNone(await run(repo.summary(withY.id, x.id)))).toBe(true)
    // Pages, and the total past the end.
    expect((await run(repo.listFor(me.id, { limit: 2, offset: 2 }))).rows.map((c) => c.id)).toEqual([withZ.id])
    expect(await run(repo.listFor(me.id, { limit: 2, offset: 10 }))).toEqual({ rows: [], total: 3 })
    expect([...(await run(repo.partnersOf(me.id)))].sort()).toEqual([x.id, y.id, z.id].sort())
    expect(await run(repo.partnersOf(x.id))).toEqual([me.id])
    // The badge's totals: the same unread rows as the list's counts, summed over every conversation.
    await run(repo.addMessage({ conversationId: withZ.id, senderId: z.id, content: "Coucou", at: tick() }))
    expect(await run(repo.unreadTotals(me.id))).toEqual({ messages: 3, conversations: 2 })
    expect(await run(repo.unreadTotals(y.id))).toEqual({ messages: 1, conversations: 1 })
    expect(await run(repo.unreadTotals(x.id))).toEqual({ messages: 0, conversations: 0 })
    await run(repo.markRead(withX.id, me.id, tick()))
    expect(await run(repo.unreadTotals(me.id))).toEqual({ messages: 1, conversations: 1 })
  })

  it("messages newest first in sending order even within one millisecond; read marks only on what others sent", async () => {
    const repo = await store()
    const [a, b] = [await newUser("Anne"), await newUser("Bob")]
    const { conversation } = await run(repo.create({ participantIds: [a.id, b.id], serviceId: null, title: null, at: tick() }))
    const at = tick()
    const sent = []
    for (const [sender, content] of [
      [a, "un"],
      [b, "deux"],
      [a, "trois"],
      [a, "quatre"]
    ] as const) {
      sent.push(await run(repo.addMessage({ conversationId: conversation.id, senderId: sender.id, content, at })))
    }
    const page = await run(repo.messages(conversation.id, { limit: 3, offset: 0 }))
    expect(page.total).toBe(4)
    expect(page.rows.map((m) => m.content)).toEqual(["quatre", "trois", "deux"])
    expect((await run(repo.messages(conversation.id, { limit: 3, offset: 3 }))).rows.map((m) => m.content)).toEqual(["un"])
    expect(await run(repo.messages(conversation.id, { limit: 3, offset: 9 }))).toEqual({ rows: [], total: 4 })

    const readAt = tick()
    expect(await run(repo.markRead(conversation.id, b.id, readAt, [sent[0]!.id, sent[1]!.id]))).toEqual([sent[0]!.id])
    expect([...(await run(repo.markRead(conversation.id, b.id, readAt))).values()].sort()).toEqual([sent[2]!.id, sent[3]!.id].sort())
    expect(await run(repo.markRead(conversation.id, b.id, readAt))).toEqual([])
    const after = await run(repo.messages(conversation.id, { limit: 10, offset: 0 }))
    expect(after.rows.map((m) => [m.content, m.readAt?.toISOString() ?? null])).toEqual([
      ["quatre", readAt.toISOString()],
      ["trois", readAt.toISOString()],
      ["deux", null],
      ["un", readAt.toISOString()]
    ])
    expect(Option.getOrThrow(await run(repo.find(conversation.id))).lastMessageAt.toISOString()).toBe(at.toISOString())
  })
})
