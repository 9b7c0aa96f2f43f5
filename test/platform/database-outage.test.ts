import { Effect, Exit, Scope } from "effect"
import pg from "pg"
import { io, type Socket } from "socket.io-client"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { JobQueue } from "../../src/platform/jobs"
import { newClient, type Session } from "../support/accounts"
import { httpClient } from "../support/http"
import { startTestServer, type TestServer } from "../support/server"
import { postgresBinaries, startThrowawayCluster, type ThrowawayCluster } from "../support/throwaway-postgres"

/**
 * The server outlives its database: a PostgreSQL cluster of the test's own is stopped as a crash
 * would (pg_ctl stop -m immediate) under a small steady load of acknowledged writes, then started
 * again. Meanwhile the process stays up and answers 503 SERVICE_UNAVAILABLE with Retry-After (health
 * check included); afterwards it recovers alone, real-time included, and every write it acknowledged
 * is in the database. Once with the local real-time adapter, once with the PostgreSQL one (the
 * default with DATABASE_URL, whose LISTEN connection used to kill the process).
 */
const bin = postgresBinaries()
if (bin === undefined)
  console.warn(
    "database-outage.test.ts skipped: no PostgreSQL binaries (initdb, pg_ctl) on this machine, or running as root with no postgres user to run them as"
  )

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const until = async (what: string, check: () => Promise<boolean> | boolean, ms: number) => {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`)
    await sleep(50)
  }
}

describe.skipIf(bin === undefined)("the server outlives its database", () => {
  let cluster: ThrowawayCluster | undefined
  /** Errors nobody handled while the test ran: an unhandled `error` event would have ended a server process. */
  const uncaught: Array<unknown> = []
  const onUncaught = (error: unknown) => void uncaught.push(error)

  beforeAll(async () => {
    process.on("uncaughtException", onUncaught)
    process.on("unhandledRejection", onUncaught)
    cluster = await startThrowawayCluster(bin!)
    const admin = new pg.Client({ connectionString: cluster.url() })
    await admin.connect()
    await admin.query("CREATE DATABASE outage_local")
    await admin.query("CREATE DATABASE outage_postgres")
    await admin.end()
  }, 60_000)
  afterAll(() => {
    process.off("uncaughtException", onUncaught)
    process.off("unhandledRejection", onUncaught)
    cluster?.destroy()
  })

  const scenario = (realtimeAdapter: "local" | "postgres") => async () => {
    const databaseUrl = cluster!.url(`outage_${realtimeAdapter}`)
    const server: TestServer = await startTestServer({ realtimeAdapter, seedDemoData: false, messageRateLimit: 1_000_000 }, { databaseUrl })
    const api = httpClient(server)
    let socket: Socket | undefined
    let writing = true
    const workers = await server.run(Scope.make())
    try {
      // A job worker that polls through the outage: jobs sent after it must still be run.
      const ran: Array<unknown> = []
      await server.run(
        Scope.extend(
          Effect.flatMap(JobQueue, (queue) => queue.work("outage-probe", (data) => Effect.sync(() => void ran.push(data.n)))),
          workers
        )
      )

      const [a, b] = [await newClient(server, api), await newClient(server, api)]
      const conversation = await api.post("/api/conversations", { participantId: b.id }, { token: a.token })
      expect(conversation.status, conversation.text).toBe(201)
      const conversationId = conversation.body.data.conversation.id as string

      // B listens, and reconnects by itself if the server lets it go.
      socket = io(server.url, {
        path: "/socket.io",
        auth: { token: b.token },
        transports: ["websocket"],
        reconnectionDelay: 200,
        reconnectionDelayMax: 500
      })
      const received: Array<string> = []
      socket.on("message_received", (event: { message: { id: string } }) => received.push(event.message.id))
      await until("B's socket is connected", () => socket!.connected, 5_000)

      // A small bounded load of acknowledged writes (A's messages) that runs through the whole outage.
      const acknowledged: Array<string> = []
      const statuses = new Map<number, number>()
      const writer = async (who: Session, n: number) => {
        for (let i = 0; writing; i++) {
          const reply = await api
            .post(`/api/conversations/${conversationId}/messages`, { content: `w${n}-${i}` }, { token: who.token })
            .catch(() => undefined)
          const status = reply?.status ?? 0
          statuses.set(status, (statuses.get(status) ?? 0) + 1)
          if (status === 201) acknowledged.push(reply!.body.data.message.id as string)
          await sleep(20)
        }
      }
      const writers = [0, 1, 2].map((n) => writer(a, n))
      await until("some writes are acknowledged", () => acknowledged.length >= 10, 5_000)

      cluster!.crash()
      const down = async (language: "fr" | "en") => {
        const reply = await api.get("/api/conversations", { token: a.token, language })
        return reply.status === 503 ? reply : undefined
      }
      await until("the API answers 503", async () => (await down("fr")) !== undefined, 10_000)

      for (const [language, message] of [
        ["fr", /indisponible/],
        ["en", /unavailable/]
      ] as const) {
        const reply = (await down(language))!
        expect(reply.body).toMatchObject({ success: false, code: "SERVICE_UNAVAILABLE" })
        expect(reply.body.message).toMatch(message)
        expect(Number(reply.headers.get("retry-after"))).toBeGreaterThan(0)
      }
      const health = await api.get("/api/health", { language: "en" })
      expect(health.status).toBe(503)
      expect(health.headers.get("retry-after")).toMatch(/^\d+$/)
      expect(health.body).toMatchObject({ success: false, code: "SERVICE_UNAVAILABLE", data: { status: "unavailable", database: "down" } })
      // A socket event that needs the database answers its acknowledgement with the same envelope.
      const ack = await socket.timeout(10_000).emitWithAck("join_conversation", { conversationId })
      expect(ack).toMatchObject({ success: false, code: "SERVICE_UNAVAILABLE" })
      // A new connection is refused as unavailable, not as unauthenticated (the UI would log the user out).
      const refused = await new Promise<Error & { data?: unknown }>((resolve) => {
        const late = io(server.url, {
          path: "/socket.io",
          auth: { token: a.token },
          transports: ["websocket"],
          reconnection: false,
          forceNew: true
        })
        late.once("connect_error", (error) => {
          late.disconnect()
          resolve(error)
        })
        late.once("connect", () => {
          late.disconnect()
          resolve(new Error("connected"))
        })
      })
      expect(refused.message).toBe("SERVICE_UNAVAILABLE")
      expect(refused.data).toMatchObject({ code: "SERVICE_UNAVAILABLE" })
      await sleep(1_500) // more than a second of outage under load, for the pools, the adapter and the job workers to fail
      expect(uncaught).toEqual([])
      // The health check names each part that cannot work: the job workers' polls failed, the LISTEN connection is gone.
      const parts = await api.get("/api/health")
      expect(parts.body.data).toMatchObject({ database: "down", jobs: "down", realtime: realtimeAdapter === "postgres" ? "down" : "local" })

      cluster!.start()
      const restarted = Date.now()
      await until(
        "the health check is green again",
        async () => {
          const reply = await api.get("/api/health")
          return reply.status === 200 && reply.body.data.status === "ok"
        },
        10_000
      )
      const recoveredInMs = Date.now() - restarted
      expect(recoveredInMs).toBeLessThan(10_000)
      const reply = await api.get("/api/health")
      expect(reply.body.data).toMatchObject({ database: "ok", jobs: "ok", realtime: realtimeAdapter === "postgres" ? "ok" : "local" })

      // Writes work again, and B's socket (reconnected if it had to) still receives the events.
      const after = await api.post(`/api/conversations/${conversationId}/messages`, { content: "after the outage" }, { token: a.token })
      expect(after.status, after.text).toBe(201)
      await until("B hears the message sent after recovery", () => received.includes(after.body.data.message.id), 5_000)
      acknowledged.push(after.body.data.message.id)

      // The job queue's workers kept polling through their errors: a job sent now runs.
      await server.run(Effect.flatMap(JobQueue, (queue) => queue.send("outage-probe", { n: 1 })))
      await until("the job queue runs a job again", () => ran.includes(1), 10_000)

      writing = false
      await Promise.all(writers)
      // Every answer was an acknowledgement or a 503: no 500, no request left without an answer (0).
      expect([...statuses.keys()].sort()).toEqual([201, 503])

      // Every acknowledged write is in the database.
      const check = new pg.Client({ connectionString: databaseUrl })
      await check.connect()
      try {
        if (realtimeAdapter === "postgres") {
          // The adapter listens again, on a connection opened after the restart (every older one died).
          const listening = await check.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE 'marketplace-realtime-%' AND query LIKE 'LISTEN %'"
          )
          expect(listening.rows[0]!.n).toBe(1)
        }
        const stored = await check.query<{ id: string }>("SELECT id FROM messages WHERE id = ANY($1::uuid[])", [acknowledged])
        expect(stored.rows.length).toBe(acknowledged.length)
      } finally {
        await check.end()
      }
      expect(uncaught).toEqual([])
    } finally {
      writing = false
      socket?.disconnect()
      if (!cluster!.running()) cluster!.start()
      await server.run(Scope.close(workers, Exit.void))
      await server.stop()
    }
  }

  it("with the local real-time adapter", scenario("local"), 50_000)
  it("with the PostgreSQL real-time adapter (LISTEN connection)", scenario("postgres"), 50_000)
})
