import { Context, Effect, Layer, type Scope } from "effect"
import type * as http from "node:http"
import { Server, type Socket } from "socket.io"

/** Pushes events to connected users (one room per user). */
export interface RealtimeShape {
  readonly emitToUser: (userId: string, event: string, payload: unknown) => Effect.Effect<void>
  readonly connectedUsers: () => Effect.Effect<number>
}
export class Realtime extends Context.Tag("platform/Realtime")<Realtime, RealtimeShape>() {}

export const userRoom = (userId: string) => `user:${userId}`

/** How many connections `userId` has open in this process (0 when offline). */
export const connectionsOf = (io: Server, userId: string) => io.of("/").adapter.rooms.get(userRoom(userId))?.size ?? 0

/**
 * A module's part of the real-time link, given the io server once it exists: it registers its
 * connection handlers and event listeners, and releases them with the scope.
 */
export type RealtimeModule = (io: Server) => Effect.Effect<void, never, Scope.Scope>

/**
 * socket.io on the application's own http.Server. It is attached after the Effect server has
 * registered its listeners, and upgrade requests are dispatched by path, so that socket.io and
 * the Effect server never both answer one upgrade. Connections authenticate with the access token
 * (`auth.token`) and join their user's room before any module sees them.
 */
export const attachRealtime = (
  server: http.Server,
  authenticate: (token: string) => Promise<{ readonly id: string } | undefined>,
  modules: ReadonlyArray<RealtimeModule> = []
) =>
  Layer.scoped(
    Realtime,
    Effect.gen(function*() {
      const appUpgrade = server.listeners("upgrade") as Array<(...args: Array<unknown>) => void>
      server.removeAllListeners("upgrade")
      const io = new Server(server, { path: "/socket.io", serveClient: false, cors: { origin: false } })
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
            if (!user) return next(new Error("UNAUTHENTICATED"))
            socket.data.userId = user.id
            void socket.join(userRoom(user.id))
            next()
          },
          () => next(new Error("UNAUTHENTICATED"))
        )
      })

      yield* Effect.addFinalizer(() => Effect.promise(() => io.close().catch(() => undefined)))
      for (const module of modules) yield* module(io)
      return {
        emitToUser: (userId, event, payload) => Effect.sync(() => void io.to(userRoom(userId)).emit(event, payload)),
        connectedUsers: () => Effect.sync(() => io.of("/").sockets.size)
      }
    })
  )
