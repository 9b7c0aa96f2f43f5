import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { UserRepository } from "../../src/modules/identity"
import { en, fr } from "../../src/platform/messages"
import { newClient, providerWithService, type Session } from "../support/accounts"
import { expectError } from "../support/http"
import { httpWorld } from "../support/world"
import { as, conversationsOn } from "./support"

const RATE_LIMIT = 8
const { server, api } = httpWorld({ config: { messageRateLimit: RATE_LIMIT, messageRateWindowSeconds: 60 } })
const client = () => newClient(server, api)
const { start, send } = conversationsOn(api)

describe("POST /api/conversations", () => {
  it("201 with the new conversation, then 200 with the same one from either side; about a service, its title", async () => {
    const [a, b] = [await client(), await client()]
    const created = await api.post("/api/conversations", { participantId: b.id }, as(a))
    expect(created.status, created.text).toBe(201)
    const conversation = created.body.data.conversation
    expect(conversation).toMatchObject({ title: null, serviceId: null, unreadCount: 0, lastMessage: null })
    expect(conversation.participants.map((p: any) => p.id).sort()).toEqual([a.id, b.id].sort())
    expect(Object.keys(conversation.participants[0]).sort()).toEqual(["firstName", "id", "lastName"])
    const found = await api.post("/api/conversations", { participantId: a.id }, as(b))
    expect(found.status).toBe(200)
    expect(found.body.data.conversation.id).toBe(conversation.id)

    const {
      provider,
      client: buyer,
      serviceId
    } = await providerWithService(server, api, { title: "Cours de guitare", description: "Débutants bienvenus.", price: 40 })
    const about = await api.post("/api/conversations", { participantId: provider.id, serviceId }, as(buyer))
    expect(about.status).toBe(201)
    expect(about.body.data.conversation).toMatchObject({ title: "Cours de guitare", serviceId })
    expect((await api.post("/api/conversations", { participantId: provider.id, serviceId }, as(buyer))).status).toBe(200)
  })

  it("refuses oneself (422 in fr and en), unknown or inactive users (404), unknown services (404), anonymous callers (401)", async () => {
    const [a, b] = [await client(), await client()]
    const self = await api.post("/api/conversations", { participantId: a.id }, as(a))
    expectError(self, 422, "VALIDATION_ERROR")
    expect(self.body.details).toEqual([{ field: "participantId", message: fr["messaging.selfConversation"] }])
    const selfEn = await api.post("/api/conversations", { participantId: a.id }, as(a, "en"))
    expect(selfEn.body.details).toEqual([{ field: "participantId", message: en["messaging.selfConversation"] }])
    expectError(await api.post("/api/conversations", {}, as(a)), 422, "VALIDATION_ERROR")
    expectError(await api.post("/api/conversations", { participantId: "abc" }, as(a)), 404, "USER_NOT_FOUND")
    expectError(await api.post("/api/conversations", { participantId: crypto.randomUUID() }, as(a)), 404, "USER_NOT_FOUND")
    expectError(
      await api.post("/api/conversations", { participantId: b.id, serviceId: crypto.randomUUID() }, as(a)),
      404,
      "SERVICE_NOT_FOUND"
    )
    expectError(await api.post("/api/conversations", { participantId: b.id, serviceId: "x" }, as(a)), 404, "SERVICE_NOT_FOUND")
    expectError(await api.post("/api/conversations", { participantId: 12 }, as(a)), 400, "MALFORMED_REQUEST")
    expectError(await api.post("/api/conversations", { participantId: b.id }), 401, "UNAUTHENTICATED")
    await server.run(Effect.flatMap(UserRepository, (users) => users.setActive(b.id, false)))
    const inactive = await api.post("/api/conversations", { participantId: b.id }, as(a, "en"))
    expectError(inactive, 404, "USER_NOT_FOUND")
    expect(inactive.body.message).toBe(en["messaging.userNotFound"])
  })
})

describe("messages", () => {
  it("POST .../messages stores the trimmed message (201); the list shows it, moved up, unread for the other side", async () => {
    const [a, b, c] = [await client(), await client(), await client()]
    const withB = await start(a, b)
    const withC = await start(a, c)
    const sent = await send(a, withB.id, "  Bonjour !  ")
    expect(sent.status, sent.text).toBe(201)
    expect(sent.body.data.message).toMatchObject({
      content: "Bonjour !",
      senderId: a.id,
      conversationId: withB.id,
      isRead: false,
      readAt: null
    })
    const mine = await api.get("/api/conversations", as(a))
    expect(mine.body.data.conversations.map((x: any) => x.id)).toEqual([withB.id, withC.id])
    expect(mine.body.data.pagination).toEqual({ total: 2, page: 1, limit: 20, pages: 1 })
    const theirs = await api.get("/api/conversations", as(b))
    expect(theirs.body.data.conversations).toHaveLength(1)
    expect(theirs.body.data.conversations[0]).toMatchObject({
      id: withB.id,
      unreadCount: 1,
      lastMessage: { content: "Bonjour !", sender: { id: a.id, firstName: "Nadia" }, isRead: false }
    })
    const one = await api.get(`/api/conversations/${withB.id}`, as(b))
    expect(one.body.data.conversation).toMatchObject({ id: withB.id, unreadCount: 1 })
  })

  it("422 for blank or too long content, in French and English; 2000 characters pass", async () => {
    const [a, b] = [await client(), await client()]
    const { id } = await start(a, b)
    const blank = await send(a, id, "   ")
    expectError(blank, 422, "VALIDATION_ERROR")
    expect(blank.body.details).toEqual([{ field: "content", message: fr["messaging.contentRequired"] }])
    const long = await send(a, id, "a".repeat(2001), "en")
    expectError(long, 422, "VALIDATION_ERROR")
    expect(long.body.message).toBe(en["validation.failed"])
    expect(long.body.details).toEqual([{ field: "content", message: en["messaging.contentTooLong"] }])
    expectError(await send(a, id, null), 422, "VALIDATION_ERROR")
    expectError(await send(a, id, 5), 400, "MALFORMED_REQUEST")
    expectError(await send(a, id, "nul\u0000"), 400, "MALFORMED_REQUEST")
    expect((await send(a, id, "🙂".repeat(2000))).status).toBe(201)
  })

  it("strangers get 404 on every endpoint of someone else's conversation, with nothing revealed", async () => {
    const [a, b, stranger] = [await client(), await client(), await client()]
    const { id } = await start(a, b)
    await send(a, id, "privé")
    const unknown = crypto.randomUUID()
    for (const conversationId of [id, unknown, "not-a-uuid"]) {
      const replies = [
        await api.get(`/api/conversations/${conversationId}`, as(stranger)),
        await send(stranger, conversationId, "je m'invite"),
        await api.patch(`/api/conversations/${conversationId}/read`, undefined, as(stranger)),
        await api.get(`/api/conversations/${conversationId}/messages`, as(stranger))
      ]
      for (const reply of replies) {
        expectError(reply, 404, "CONVERSATION_NOT_FOUND")
        expect(reply.text).not.toContain("privé")
      }
    }
    for (const path of [`/api/conversations`, `/api/conversations/${id}`, `/api/conversations/${id}/messages`]) {
      expectError(await api.get(path), 401, "UNAUTHENTICATED")
    }
    expectError(await api.patch(`/api/conversations/${id}/read`), 401, "UNAUTHENTICATED")
    expectError(await api.post(`/api/conversations/${id}/messages`, { content: "x" }), 401, "UNAUTHENTICATED")
  })

  it("GET .../messages pages newest first; PATCH .../read marks the other side's messages", async () => {
    const [a, b] = [await client(), await client()]
    const { id } = await start(a, b)
    for (const content of ["un", "deux", "trois"]) expect((await send(a, id, content)).status).toBe(201)
    expect((await send(b, id, "quatre")).status).toBe(201)
    const first = await api.get(`/api/conversations/${id}/messages?page=1&limit=3`, as(b))
    expect(first.body.data.messages.map((m: any) => m.content)).toEqual(["quatre", "trois", "deux"])
    expect(first.body.data.pagination).toEqual({ total: 4, page: 1, limit: 3, pages: 2 })
    const second = await api.get(`/api/conversations/${id}/messages?page=2&limit=3`, as(b))
    expect(second.body.data.messages.map((m: any) => m.content)).toEqual(["un"])
    // Bad paging is clamped, never refused.
    const odd = await api.get(`/api/conversations/${id}/messages?page=-4&limit=abc`, as(b))
    expect(odd.body.data.pagination).toEqual({ total: 4, page: 1, limit: 50, pages: 1 })

    const read = await api.patch(`/api/conversations/${id}/read`, undefined, as(b))
    expect(read.status, read.text).toBe(200)
    expect(read.body.data.messageIds).toHaveLength(3)
    expect((await api.get(`/api/conversations/${id}`, as(b))).body.data.conversation.unreadCount).toBe(0)
    expect((await api.get(`/api/conversations/${id}`, as(a))).body.data.conversation.unreadCount).toBe(1)
    const seen = await api.get(`/api/conversations/${id}/messages`, as(a))
    expect(seen.body.data.messages.map((m: any) => [m.content, m.isRead])).toEqual([
      ["quatre", false],
      ["trois", true],
      ["deux", true],
      ["un", true]
    ])
    expect((await api.patch(`/api/conversations/${id}/read`, undefined, as(b))).body.data.messageIds).toEqual([])
  })

  it("GET /api/conversations/unread totals what others sent unread, over every conversation; 401 anonymous", async () => {
    const [a, b, c] = [await client(), await client(), await client()]
    const unread = async (who: Session) => {
      const reply = await api.get("/api/conversations/unread", as(who))
      expect(reply.status, reply.text).toBe(200)
      return reply.body.data
    }
    expect(await unread(a)).toEqual({ unreadMessages: 0, unreadConversations: 0 })
    const ab = await start(a, b)
    const ac = await start(a, c)
    for (const content of ["un", "deux"]) expect((await send(b, ab.id, content)).status).toBe(201)
    expect((await send(c, ac.id, "trois")).status).toBe(201)
    // One's own messages never count for oneself.
    expect((await send(a, ab.id, "réponse")).status).toBe(201)
    expect(await unread(a)).toEqual({ unreadMessages: 3, unreadConversations: 2 })
    expect(await unread(b)).toEqual({ unreadMessages: 1, unreadConversations: 1 })
    expect((await api.patch(`/api/conversations/${ab.id}/read`, undefined, as(a))).status).toBe(200)
    expect(await unread(a)).toEqual({ unreadMessages: 1, unreadConversations: 1 })
    expectError(await api.get("/api/conversations/unread"), 401, "UNAUTHENTICATED")
  })

  it("the conversation list pages", async () => {
    const me = await client()
    const others = [await client(), await client(), await client()]
    for (const other of others) await start(me, other)
    const page = await api.get("/api/conversations?page=2&limit=2", as(me))
    expect(page.body.data.conversations).toHaveLength(1)
    expect(page.body.data.pagination).toEqual({ total: 3, page: 2, limit: 2, pages: 2 })
    expect((await api.get("/api/conversations?page=9&limit=2", as(me))).body.data).toEqual({
      conversations: [],
      pagination: { total: 3, page: 9, limit: 2, pages: 2 }
    })
  })

  it(`rate-limits sending to ${RATE_LIMIT} messages per window per user (429 with the wait)`, async () => {
    const [a, b] = [await client(), await client()]
    const { id } = await start(a, b)
    for (let i = 0; i < RATE_LIMIT; i++) expect((await send(a, id, `message ${i}`)).status).toBe(201)
    const refused = await send(a, id, "de trop", "en")
    expectError(refused, 429, "RATE_LIMITED")
    expect(refused.body.message).toMatch(/Try again in \d+ seconds?/)
    expect((await send(b, id, "à moi")).status).toBe(201)
    expect((await api.get(`/api/conversations/${id}/messages`, as(a))).body.data.pagination.total).toBe(RATE_LIMIT + 1)
  })
})
