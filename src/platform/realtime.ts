import { Context, Effect, Layer, Option, type Scope } from "effect"
import type * as http from "node:http"
import { Server, type Socket } from "socket.io"
import { RETRY_AFTER_SECONDS } from "./outage"
import type { ClusterLink } from "./realtime-postgres"

/** Pushes events to connected users (one room per user). */
export interface RealtimeShape {
  readonly emitToUser: (userId: string, event: string, payload: unknown) => Effect.Effect<void>
  /** Connections open on this process. */
  readonly connectedUsers: () => Effect.Effect<number>
}
export class Realtime extends Context.Tag("platform/Realtime")<Realtime, RealtimeShape>() {}

export const userRoom = (userId: string) => `user:${userId}`
/** One login's sockets (its refresh family), so that ending the other sessions can spare them. */
export const sessionRoom = (sessionId: string) => `session:${sessionId}`

/** How many connections each of `userIds` has open on this process. */
const localConnections = (io: Server, userIds: ReadonlyArray<unknown>) =>
  userIds.map((id) => (typeof id === "string" ? (io.of("/").adapter.rooms.get(userRoom(id))?.size ?? 0) : 0))

/**
 * A ping every 10 s, a connection silent 5 s past it is dead: a link that dropped without a word (a
 * phone leaving Wi-Fi) is seen as lost, and its user offline, within 15 s rather than socket.io's 45 s.
 */
const HEARTBEAT = { pingInterval: 10_000, pingTimeout: 5_000 } as const

/** The server-side event by which one process asks the others for their connection counts. */
const PRESENCE_QUERY = "presence:connections"

/**
 * How many connections each of `userIds` has open across the cluster: this process's rooms plus the
 * other processes' answers through the adapter. Alone, or with the local adapter, nobody is asked.
 * A process that does not answer within the adapter's 5 s (one that died, until its missed heartbeats
 * drop it) counts as having none. Asking by server-side event rather than `fetchSockets` keeps the
 * answers small and keeps handshakes (access tokens) out of the database's notifications.
 */
export const connectionCounts = async (io: Server, userIds: ReadonlyArray<string>): Promise<ReadonlyArray<number>> => {
  const counts = localConnections(io, userIds)
  if ((await io.of("/").adapter.serverCount()) <= 1) return counts
  const responses = await new Promise<ReadonlyArray<unknown>>((resolve) =>
    io.serverSideEmit(PRESENCE_QUERY, userIds, (_timeout: unknown, responses: ReadonlyArray<unknown> | undefined) =>
      resolve(responses ?? [])
    )
  )
  for (const response of responses) {
    if (!Array.isArray(response)) continue
    counts.forEach((_, i) => {
      const remote = response[i]
      if (typeof remote === "number" && remote > 0) counts[i]! += remote
    })
  }
  return counts
}

/** Answers the other processes' presence queries with this process's counts. */
const answerPresenceQueries = (io: Server) =>
  io.on(PRESENCE_QUERY, (userIds: unknown, reply: unknown) => {
    if (typeof reply === "function") reply(Array.isArray(userIds) ? localConnections(io, userIds) : [])
  })

/**
 * The handshake's refusal while the database is away (socket.io clients see `message` and `data` of a
 * `connect_error`): distinct from UNAUTHENTICATED, so that a client retries rather than logs out.
 */
const serviceUnavailableError = () =>
  Object.assign(new Error("SERVICE_UNAVAILABLE"), { data: { code: "SERVICE_UNAVAILABLE", retryAfterSeconds: RETRY_AFTER_SECONDS } })

/**
 * A module's part of the real-time link, given the io server once it exists: it registers its
 * connection handlers and event listeners, and releases them with the scope.
 */
export type RealtimeModule = (io: Server) => Effect.Effect<void, never, Scope.Scope>

/**
 * socket.io on the application's own http.Server. It is attached after the Effect server has
 * registered its listeners, and upgrade requests are dispatched by path, so that socket.io and
 * the Effect server never both answer one upgrade. Connections authenticate with the access token
 * (`auth.token`) and join their user's room before any module sees them. With a cluster link (the
 * PostgreSQL adapter), every `io.to(room).emit` also reaches the sockets of the other processes.
 */
export const attachRealtime = (
  server: http.Server,
  authenticate: (token: string) => Promise<{ readonly id: string; readonly sessionId?: string | undefined } | undefined | "unavailable">,
  modules: ReadonlyArray<RealtimeModule> = [],
  cluster: Option.Option<Effect.Effect<ClusterLink, never, Scope.Scope>> = Option.none()
) =>
  Layer.scoped(
    Realtime,
    Effect.gen(function* () {
      // Built first, so that its pool is released last, after io closed the adapter.
      const link = Option.isSome(cluster) ? Option.some(yield* cluster.value) : Option.none<ClusterLink>()
      const appUpgrade = server.listeners("upgrade") as Array<(...args: Array<unknown>) => void>
      server.removeAllListeners("upgrade")
      const io = new Server(server, {
        path: "/socket.io",
        serveClient: false,
        cors: { origin: false },
        ...HEARTBEAT,
        ...Option.match(link, { onNone: () => ({}), onSome: (link) => ({ adapter: link.adapter }) })
      })
      const ioUpgrade = server.listeners("upgrade") as Array<(...args: Array<unknown>) => void>
      server.removeAllListeners("upgrade")
      server.on("upgrade", (request: http.IncomingMessage, ...rest: Array<unknown>) => {
        const targets = request.url?.startsWith("/socket.io/") ? ioUpgrade : appUpgrade
        for (const listener of targets) listener(request, ...rest)
      })

      io.use((socket: Socket, next) => {
        const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token
        if (typeof token !== "string" || token === "") return next(new Error("UNAUTHENTICATED"))
        authenticate(token).then(
          (user) => {
            if (user === "unavailable") return next(serviceUnavailableError())
            if (!user) return next(new Error("UNAUTHENTICATED"))
            socket.data.userId = user.id
            void socket.join(user.sessionId === undefined ? userRoom(user.id) : [userRoom(user.id), sessionRoom(user.sessionId)])
            next()
          },
          () => next(new Error("UNAUTHENTICATED"))
        )
      })

      // Closing io closes its adapter (which releases the LISTEN connection) before the link's pool ends.
      yield* Effect.addFinalizer(() => Effect.promise(() => io.close().catch(() => undefined)))
      answerPresenceQueries(io)
      if (Option.isSome(link)) yield* link.value.join(io)
      for (const module of modules) yield* module(io)
      return {
        emitToUser: (userId, event, payload) => Effect.sync(() => void io.to(userRoom(userId)).emit(event, payload)),
        connectedUsers: () => Effect.sync(() => io.of("/").sockets.size)
      }
    })
  )
