import { SqlClient } from "@effect/sql"
import { Effect, Option, Redacted } from "effect"
import pg from "pg"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { Realtime } from "../../src/platform/realtime"
import { channelPrefixOf } from "../../src/platform/realtime-postgres"
import { testDatabaseKind } from "../support/database"
import { startTestServer, type TestServer } from "../support/server"
import { ask, pair, record, settle, socketsClosedAfterEach, until } from "../support/sockets"
import { httpWorld } from "../support/world"

/**
 * Two application processes on one PostgreSQL database, as behind a load balancer: socket.io's
 * PostgreSQL adapter carries events and presence queries between them. A third server on another
 * schema (another database, as far as it knows) must hear none of it.
 */
describe.skipIf(testDatabaseKind !== "postgres")(
  "real-time across processes (needs TEST_DATABASE_URL: the embedded PGlite serves one process)",
  () => {
    // As in production, processes behind one load balancer share JWT_SECRET (a token from one is valid on the other).
    const shared = { jwtSecret: Option.some(Redacted.make("one secret for the whole cluster")) }
    const { server: one, api } = httpWorld({ config: shared })
    let two: TestServer
    let other: TestServer
    const { connectAs } = socketsClosedAfterEach()
    /** Raw LISTEN connections on the adapter channels, to see what crosses the database. */
    const listeners: Array<pg.Client> = []

    beforeAll(async () => {
      two = await startTestServer(shared, { databaseUrl: one.databaseUrl })
      other = await startTestServer()
    })
    afterEach(async () => {
      await Promise.all(listeners.splice(0).map((client) => client.end()))
    })
    // The first server (the world's, stopped after this) owns the schema: it drops it last.
    afterAll(() => Promise.all([two?.stop(), other?.stop()]))

    /** A and B with a conversation, both known to both servers (one database). */
    const pairOnOne = () => pair(one, api)

    /** Every notification on a server's adapter channel, as text. */
    const listen = async (server: TestServer) => {
      const client = new pg.Client({ connectionString: server.databaseUrl })
      listeners.push(client)
      await client.connect()
      const heard: Array<string> = []
      client.on("notification", (notification) => heard.push(notification.payload ?? ""))
      await client.query(`LISTEN "${channelPrefixOf(server.databaseUrl!)}#/"`)
      return heard
    }

    it("a message sent by A through server 1 (socket and REST) reaches B on server 2; B's read mark comes back to A", async () => {
      const { a, b, conversationId } = await pairOnOne()
      const [sa, sb] = [await connectAs(one, a), await connectAs(two, b)]
      const atB = record(sb, "message_received")
      const readAtA = record(sa, "messages_read")
      const onOtherServer = await listen(other)
      const onSharedChannel = await listen(one)

      const sent = await ask(sa, "send_message", { conversationId, content: "Bonjour de l'autre processus" })
      expect(sent.success).toBe(true)
      await until(() => atB.length === 1)
      expect(atB[0]).toEqual({ conversationId, message: sent.data.message, sender: { id: a.id, firstName: "Nadia", lastName: "Gagnon" } })

      const rest = await api.post(`/api/conversations/${conversationId}/messages`, { content: "par REST" }, { token: a.token })
      expect(rest.status).toBe(201)
      await until(() => atB.length === 2)
      expect(atB[1].message.id).toBe(rest.body.data.message.id)

      const marked = await ask(sb, "mark_as_read", { conversationId })
      expect(marked.success).toBe(true)
      await until(() => readAtA.length === 1)
      expect(readAtA[0]).toEqual({ conversationId, readerId: b.id, messageIds: marked.data.messageIds, readAt: marked.data.readAt })
      expect([...marked.data.messageIds].sort()).toEqual([sent.data.message.id, rest.body.data.message.id].sort())

      // The events crossed the shared channel; the server on another schema heard none of them.
      await settle(300)
      expect(onSharedChannel.some((payload) => payload.includes(sent.data.message.id))).toBe(true)
      expect(onOtherServer.some((payload) => payload.includes(sent.data.message.id) || payload.includes(conversationId))).toBe(false)
    })

    it("typing reaches the other participant in the conversation room on the other server, in order", async () => {
      const { a, b, conversationId } = await pairOnOne()
      const [sa, sb] = [await connectAs(one, a), await connectAs(two, b)]
      await ask(sa, "join_conversation", { conversationId })
      await ask(sb, "join_conversation", { conversationId })
      const typingAtB = record(sb, "user_typing")
      // Emitted back to back: they must arrive in that order.
      await ask(sa, "typing_start", { conversationId })
      await ask(sa, "typing_stop", { conversationId })
      await until(() => typingAtB.length === 2)
      expect(typingAtB).toEqual([
        { conversationId, userId: a.id, isTyping: true },
        { conversationId, userId: a.id, isTyping: false }
      ])
    })

    it("presence is cluster-wide: online with B's first connection anywhere, offline with the last; onlineUserIds on join", async () => {
      const { a, b, conversationId } = await pairOnOne()
      const sa = await connectAs(one, a)
      const online = record(sa, "user_online")
      const offline = record(sa, "user_offline")
      expect(await ask(sa, "join_conversation", { conversationId })).toEqual({ success: true, data: { conversationId, onlineUserIds: [] } })

      const onTwo = await connectAs(two, b)
      await until(() => online.length === 1)
      expect(online).toEqual([{ userId: b.id }])
      // Both servers see both users, whichever holds the connection.
      expect(await ask(sa, "join_conversation", { conversationId })).toEqual({
        success: true,
        data: { conversationId, onlineUserIds: [b.id] }
      })
      expect(await ask(onTwo, "join_conversation", { conversationId })).toEqual({
        success: true,
        data: { conversationId, onlineUserIds: [a.id] }
      })

      // A second connection of B, on server 1: not a new arrival; closing the first is not a departure.
      const onOne = await connectAs(one, b)
      await settle(300)
      expect(online).toHaveLength(1)
      onTwo.disconnect()
      await settle(300)
      expect(offline).toEqual([])
      expect(await ask(sa, "join_conversation", { conversationId })).toEqual({
        success: true,
        data: { conversationId, onlineUserIds: [b.id] }
      })

      // The last one closes: offline, wherever it was.
      onOne.disconnect()
      await until(() => offline.length === 1)
      expect(offline).toEqual([{ userId: b.id }])
      expect(await ask(sa, "join_conversation", { conversationId })).toEqual({ success: true, data: { conversationId, onlineUserIds: [] } })
    })

    it("a message over NOTIFY's 8000 bytes (2000 four-byte characters) still arrives, through the attachments table", async () => {
      const { a, b, conversationId } = await pairOnOne()
      const [sa, sb] = [await connectAs(one, a), await connectAs(two, b)]
      const atB = record(sb, "message_received")
      const content = "😀".repeat(2000)
      const lastAttachmentBefore = await one.run(lastAttachment)

      const sent = await ask(sa, "send_message", { conversationId, content })
      expect(sent.success).toBe(true)
      await until(() => atB.length === 1)
      expect(atB[0].message.content).toBe(content)
      expect(atB[0].message.id).toBe(sent.data.message.id)
      expect(await one.run(lastAttachment)).toBeGreaterThan(lastAttachmentBefore)
    })

    it("what other modules push to a user (Realtime.emitToUser) reaches them on another server", async () => {
      const { b } = await pairOnOne()
      const sb = await connectAs(two, b)
      const seen = record(sb, "booking_updated")
      await one.run(Effect.flatMap(Realtime, (realtime) => realtime.emitToUser(b.id, "booking_updated", { bookingId: "x" })))
      await until(() => seen.length === 1)
      expect(seen).toEqual([{ bookingId: "x" }])
    })
  }
)

/** The id of the latest payload stored beside a notification (0 when none). */
const lastAttachment = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql<{ n: number }>`SELECT coalesce(max(id), 0)::int AS n FROM socket_io_attachments`
).pipe(Effect.map((rows) => rows[0]!.n))
