import { io, type Socket } from "socket.io-client"
import { afterEach } from "vitest"
import { newClient, type Session } from "./accounts"
import type { httpClient } from "./http"
import type { TestServer } from "./server"

/** A socket.io connection to a test server over WebSocket, as the UI opens it, that never reconnects by itself (not awaited). */
export const socketTo = (server: TestServer, auth: Record<string, unknown>) =>
  io(server.url, { path: "/socket.io", auth, transports: ["websocket"], reconnection: false, forceNew: true })

/** Resolves once `socket` is connected; rejects with the server's refusal. */
export const connected = (socket: Socket) =>
  new Promise<Socket>((resolve, reject) => {
    socket.once("connect", () => resolve(socket))
    socket.once("connect_error", reject)
  })

/** The sockets of the enclosing file or `describe`: each one opened is disconnected after its test. */
export const socketsClosedAfterEach = () => {
  const sockets: Array<Socket> = []
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect()
  })
  const open = (server: TestServer, auth: Record<string, unknown>) => {
    const socket = socketTo(server, auth)
    sockets.push(socket)
    return socket
  }
  return {
    /** A socket with `auth` as given, not awaited. */
    open,
    /** A socket with `auth` as given, once connected (rejects on refusal). */
    connect: (server: TestServer, auth: Record<string, unknown>) => connected(open(server, auth)),
    /** `who`'s socket (speaking `language` when given), once connected. */
    connectAs: (server: TestServer, who: Session, language?: string) =>
      connected(open(server, { token: who.token, ...(language ? { language } : {}) }))
  }
}

/** Emits with an acknowledgement and answers it. */
export const ask = (socket: Socket, event: string, payload: unknown) => socket.timeout(5000).emitWithAck(event, payload) as Promise<any>

/** Everything `socket` receives of `event`, in order. */
export const record = (socket: Socket, event: string) => {
  const seen: Array<any> = []
  socket.on(event, (payload) => seen.push(payload))
  return seen
}

/** Waits until `check` holds, looking every 20 ms; fails after `ms`, saying `what` it waited for. */
export const until = async (check: () => boolean, ms = 5000, what = "the condition") => {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** Gives events that should not come the time to arrive. */
export const settle = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Two new verified clients, A and B, and a conversation A started with B. */
export const pair = async (server: TestServer, api: ReturnType<typeof httpClient>) => {
  const [a, b] = [await newClient(server, api), await newClient(server, api)]
  const reply = await api.post("/api/conversations", { participantId: b.id }, { token: a.token })
  return { a, b, conversationId: reply.body.data.conversation.id as string }
}
