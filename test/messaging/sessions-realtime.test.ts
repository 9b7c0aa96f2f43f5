import { Option, Redacted } from "effect"
import { io, type Socket } from "socket.io-client"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { login, newClient, type Session } from "../support/accounts"
import { testDatabaseKind } from "../support/database"
import { httpClient, mailedToken, registration } from "../support/http"
import { startTestServer, type TestServer } from "../support/server"

/**
 * Ending a user's sessions closes their open sockets at once: deactivation and password reset close
 * all of them, a password change all but the session that made it. On PostgreSQL a second process on
 * the same database holds some of the sockets (the cluster adapter carries the disconnection).
 */
let one: TestServer
let two: TestServer
let api: ReturnType<typeof httpClient>
const sockets: Array<Socket> = []
const PASSWORD = registration().password

beforeAll(async () => {
  const shared = { jwtSecret: Option.some(Redacted.make("a secret shared by the two processes!")) }
  one = await startTestServer(shared)
  two = testDatabaseKind === "postgres" ? await startTestServer(shared, { databaseUrl: one.databaseUrl }) : one
  api = httpClient(one)
})
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect()
})
afterAll(async () => {
  if (two !== one) await two?.stop()
  await one?.stop()
})

const open = (server: TestServer, who: Session) => {
  const socket = io(server.url, {
    path: "/socket.io",
    auth: { token: who.token },
    transports: ["websocket"],
    reconnection: false,
    forceNew: true
  })
  sockets.push(socket)
  return socket
}
const connect = (server: TestServer, who: Session) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = open(server, who)
    socket.once("connect", () => resolve(socket))
    socket.once("connect_error", reject)
  })
const until = async (check: () => boolean, what: string, ms = 5000) => {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}
const settle = (ms = 400) => new Promise((r) => setTimeout(r, ms))

/** A and B with a conversation. */
const pair = async () => {
  const [a, b] = [await newClient(one, api), await newClient(one, api)]
  const reply = await api.post("/api/conversations", { participantId: b.id }, { token: a.token })
  return { a, b, conversationId: reply.body.data.conversation.id as string }
}

describe("a deactivated user's sockets", () => {
  it("are disconnected at once on every process, hear no more messages, and cannot reconnect", async () => {
    const admin = await login(api, "admin@marketplace.local", "Admin1234!")
    const { a, b, conversationId } = await pair()
    const [here, there] = [await connect(one, b), await connect(two, b)]
    const heard: Array<unknown> = []
    for (const socket of [here, there]) socket.on("message_received", (m) => heard.push(m))

    const deactivated = await api.call("PATCH", `/api/admin/users/${b.id}/status`, { token: admin.token, json: { isActive: false } })
    expect(deactivated.status, deactivated.text).toBe(200)
    await until(() => !here.connected && !there.connected, "both sockets disconnected")

    expect((await api.post(`/api/conversations/${conversationId}/messages`, { content: "Toujours là ?" }, { token: a.token })).status).toBe(
      201
    )
    await settle()
    expect(heard).toEqual([])
    // The handshake refuses the deactivated account (its access token is still within its 15 minutes).
    await expect(connect(one, b)).rejects.toThrow("UNAUTHENTICATED")
  })
})

describe("password changes and resets", () => {
  it("a password change disconnects the other sessions' sockets and keeps the caller's", async () => {
    const user = await newClient(one, api)
    const mine = await login(api, user.email, PASSWORD)
    const thief = await login(api, user.email, PASSWORD)
    const [ownSocket, thiefHere, thiefThere] = [await connect(one, mine), await connect(one, thief), await connect(two, thief)]
    // The caller's refresh cookie names its session (its family): it comes from this login.
    const loginReply = await api.post("/api/auth/login", { email: user.email, password: PASSWORD })
    const caller = { token: loginReply.body.data.token as string, cookie: loginReply.cookies.refreshToken!.value }
    const callerSocket = await connect(one, { ...user, token: caller.token })
    const changed = await api.patch(
      "/api/auth/update-password",
      { currentPassword: PASSWORD, newPassword: "Changed1!", confirmPassword: "Changed1!" },
      { token: caller.token, refreshCookie: caller.cookie }
    )
    expect(changed.status, changed.text).toBe(200)
    await until(() => !thiefHere.connected && !thiefThere.connected && !ownSocket.connected, "other sessions' sockets disconnected")
    await settle()
    expect(callerSocket.connected).toBe(true)
  })

  it("a password reset disconnects every socket of the account", async () => {
    const user = await newClient(one, api)
    const [here, there] = [await connect(one, user), await connect(two, user)]
    await api.post("/api/auth/forgot-password", { email: user.email })
    const token = await mailedToken(one, user.email, "reset-password")
    expect((await api.post(`/api/auth/reset-password/${token}`, { password: "Reset123!", confirmPassword: "Reset123!" })).status).toBe(200)
    await until(() => !here.connected && !there.connected, "every socket disconnected")
  })
})
