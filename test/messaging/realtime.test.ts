import { describe, expect, it } from "vitest"
import { en, fr } from "../../src/platform/messages"
import { newClient, type Session } from "../support/accounts"
import { ask, pair, record, socketsClosedAfterEach, until } from "../support/sockets"
import { httpWorld } from "../support/world"

const { server, api } = httpWorld()
const sockets = socketsClosedAfterEach()

/** A connection with `auth` as given (`who`'s, speaking `language`, with connectAs), once connected. */
const connect = (auth: Record<string, unknown>) => sockets.connect(server, auth)
const connectAs = (who: Session, language?: string) => sockets.connectAs(server, who, language)

describe("the real-time link", () => {
  it("refuses a connection without a valid access token", async () => {
    await expect(connect({})).rejects.toThrow("UNAUTHENTICATED")
    await expect(connect({ token: "not.a.token" })).rejects.toThrow("UNAUTHENTICATED")
  })

  it("send_message is stored, acknowledged, and reaches the other participant as message_received; a stranger hears nothing", async () => {
    const { a, b, conversationId } = await pair(server, api)
    const stranger = await newClient(server, api)
    const [sa, sb, ss] = [await connectAs(a), await connectAs(b), await connectAs(stranger)]
    const toB = record(sb, "message_received")
    const toStranger = record(ss, "message_received")

    const joined = await ask(sa, "join_conversation", { conversationId })
    expect(joined).toEqual({ success: true, data: { conversationId, onlineUserIds: [b.id] } })
    const refused = await ask(ss, "join_conversation", { conversationId })
    expect(refused).toMatchObject({ success: false, code: "CONVERSATION_NOT_FOUND", message: fr["messaging.conversationNotFound"] })

    const ack = await ask(sa, "send_message", { conversationId, content: "  Salut en direct  " })
    expect(ack.success).toBe(true)
    expect(ack.data.message).toMatchObject({ content: "Salut en direct", senderId: a.id, conversationId, isRead: false, readAt: null })
    await until(() => toB.length === 1, 3000)
    expect(toB[0]).toEqual({ conversationId, message: ack.data.message, sender: { id: a.id, firstName: "Nadia", lastName: "Gagnon" } })
    // Stored: REST reads it back.
    const stored = await api.get(`/api/conversations/${conversationId}/messages`, { token: b.token })
    expect(stored.body.data.messages.map((m: any) => m.id)).toEqual([ack.data.message.id])
    // A message sent over REST reaches the sockets too.
    const rest = await api.post(`/api/conversations/${conversationId}/messages`, { content: "par REST" }, { token: a.token })
    await until(() => toB.length === 2, 3000)
    expect(toB[1].message.id).toBe(rest.body.data.message.id)
    // The stranger cannot write either, and heard nothing.
    expect(await ask(ss, "send_message", { conversationId, content: "intrus" })).toMatchObject({
      success: false,
      code: "CONVERSATION_NOT_FOUND"
    })
    await new Promise((r) => setTimeout(r, 100))
    expect(toStranger).toEqual([])
  })

  it("refusals come as the error envelope in the socket's language", async () => {
    const { a, conversationId } = await pair(server, api)
    const socket = await connectAs(a, "en")
    const blank = await ask(socket, "send_message", { conversationId, content: "  " })
    expect(blank).toEqual({
      success: false,
      code: "VALIDATION_ERROR",
      message: en["validation.failed"],
      details: [{ field: "content", message: en["messaging.contentRequired"] }]
    })
    expect(await ask(socket, "send_message", { content: "x" })).toMatchObject({ success: false, code: "MALFORMED_REQUEST" })
    expect(await ask(socket, "send_message", { conversationId, content: 12 })).toMatchObject({ success: false, code: "MALFORMED_REQUEST" })
    expect(await ask(socket, "typing_start", { conversationId })).toMatchObject({ success: false, code: "CONVERSATION_NOT_JOINED" })
  })

  it("typing goes to the other participant in the room; mark_as_read answers messages_read to both", async () => {
    const { a, b, conversationId } = await pair(server, api)
    const [sa, sb] = [await connectAs(a), await connectAs(b)]
    await ask(sa, "join_conversation", { conversationId })
    await ask(sb, "join_conversation", { conversationId })
    const typingAtB = record(sb, "user_typing")
    const typingAtA = record(sa, "user_typing")
    expect((await ask(sa, "typing_start", { conversationId })).success).toBe(true)
    await ask(sa, "typing_stop", { conversationId })
    await until(() => typingAtB.length === 2, 3000)
    expect(typingAtB).toEqual([
      { conversationId, userId: a.id, isTyping: true },
      { conversationId, userId: a.id, isTyping: false }
    ])
    expect(typingAtA).toEqual([])

    const one = (await ask(sa, "send_message", { conversationId, content: "un" })).data.message
    const two = (await ask(sa, "send_message", { conversationId, content: "deux" })).data.message
    const readAtA = record(sa, "messages_read")
    const marked = await ask(sb, "mark_as_read", { conversationId, messageIds: [one.id] })
    expect(marked).toMatchObject({ success: true, data: { messageIds: [one.id] } })
    await until(() => readAtA.length === 1, 3000)
    expect(readAtA[0]).toEqual({ conversationId, readerId: b.id, messageIds: [one.id], readAt: marked.data.readAt })
    // PATCH /read emits messages_read for the rest.
    await api.patch(`/api/conversations/${conversationId}/read`, undefined, { token: b.token })
    await until(() => readAtA.length === 2, 3000)
    expect(readAtA[1].messageIds).toEqual([two.id])

    // After leaving, typing is refused and no longer heard.
    expect(await ask(sb, "leave_conversation", { conversationId })).toEqual({ success: true, data: { conversationId } })
    await ask(sa, "typing_start", { conversationId })
    await new Promise((r) => setTimeout(r, 100))
    expect(typingAtB).toHaveLength(2)
  })

  it("presence: user_online and user_offline reach the user's conversation partners only", async () => {
    const { a, b } = await pair(server, api)
    const outsider = await newClient(server, api)
    const [sa, so] = [await connectAs(a), await connectAs(outsider)]
    const online = record(sa, "user_online")
    const offline = record(sa, "user_offline")
    const outsiderHears = record(so, "user_online")
    const sb = await connectAs(b)
    await until(() => online.length === 1, 3000)
    expect(online).toEqual([{ userId: b.id }])
    sb.disconnect()
    await until(() => offline.length === 1, 3000)
    expect(offline).toEqual([{ userId: b.id }])
    expect(outsiderHears).toEqual([])
  })
})
