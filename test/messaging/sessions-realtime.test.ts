import { Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { login, newClient } from "../support/accounts"
import { testDatabaseKind } from "../support/database"
import { mailedToken, registration } from "../support/http"
import { startTestServer, type TestServer } from "../support/server"
import { pair, settle, socketsClosedAfterEach, until } from "../support/sockets"
import { httpWorld } from "../support/world"

/**
 * Ending a user's sessions closes their open sockets at once: deactivation and password reset close
 * all of them, a password change all but the session that made it. On PostgreSQL a second process on
 * the same database holds some of the sockets (the cluster adapter carries the disconnection).
 */
const shared = { jwtSecret: Option.some(Redacted.make("a secret shared by the two processes!")) }
const { server: one, api } = httpWorld({ config: shared })
/** The second process on the same database (on PGlite, which serves one process, the first again). */
let two: TestServer
beforeAll(async () => {
  two = testDatabaseKind === "postgres" ? await startTestServer(shared, { databaseUrl: one.databaseUrl }) : one
})
afterAll(async () => {
  if (two !== one) await two?.stop()
})
const { connectAs } = socketsClosedAfterEach()
const PASSWORD = registration().password

describe("a deactivated user's sockets", () => {
  it("are disconnected at once on every process, hear no more messages, and cannot reconnect", async () => {
    const admin = await login(api, "admin@marketplace.local", "Admin1234!")
    const { a, b, conversationId } = await pair(one, api)
    const [here, there] = [await connectAs(one, b), await connectAs(two, b)]
    const heard: Array<unknown> = []
    for (const socket of [here, there]) socket.on("message_received", (m) => heard.push(m))

    const deactivated = await api.call("PATCH", `/api/admin/users/${b.id}/status`, { token: admin.token, json: { isActive: false } })
    expect(deactivated.status, deactivated.text).toBe(200)
    await until(() => !here.connected && !there.connected, 5000, "both sockets disconnected")

    expect((await api.post(`/api/conversations/${conversationId}/messages`, { content: "Toujours là ?" }, { token: a.token })).status).toBe(
      201
    )
    await settle(400)
    expect(heard).toEqual([])
    // The handshake refuses the deactivated account (its access token is still within its 15 minutes).
    await expect(connectAs(one, b)).rejects.toThrow("UNAUTHENTICATED")
  })
})

describe("password changes and resets", () => {
  it("a password change disconnects the other sessions' sockets and keeps the caller's", async () => {
    const user = await newClient(one, api)
    const mine = await login(api, user.email, PASSWORD)
    const thief = await login(api, user.email, PASSWORD)
    const [ownSocket, thiefHere, thiefThere] = [await connectAs(one, mine), await connectAs(one, thief), await connectAs(two, thief)]
    // The caller's refresh cookie names its session (its family): it comes from this login.
    const loginReply = await api.post("/api/auth/login", { email: user.email, password: PASSWORD })
    const caller = { token: loginReply.body.data.token as string, cookie: loginReply.cookies.refreshToken!.value }
    const callerSocket = await connectAs(one, { ...user, token: caller.token })
    const changed = await api.patch(
      "/api/auth/update-password",
      { currentPassword: PASSWORD, newPassword: "Changed1!", confirmPassword: "Changed1!" },
      { token: caller.token, refreshCookie: caller.cookie }
    )
    expect(changed.status, changed.text).toBe(200)
    await until(() => !thiefHere.connected && !thiefThere.connected && !ownSocket.connected, 5000, "other sessions' sockets disconnected")
    await settle(400)
    expect(callerSocket.connected).toBe(true)
  })

  it("a password reset disconnects every socket of the account", async () => {
    const user = await newClient(one, api)
    const [here, there] = [await connectAs(one, user), await connectAs(two, user)]
    await api.post("/api/auth/forgot-password", { email: user.email })
    const token = await mailedToken(one, user.email, "reset-password")
    expect((await api.post(`/api/auth/reset-password/${token}`, { password: "Reset123!", confirmPassword: "Reset123!" })).status).toBe(200)
    await until(() => !here.connected && !there.connected, 5000, "every socket disconnected")
  })
})
