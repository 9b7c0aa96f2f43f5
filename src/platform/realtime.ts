import { Context, Effect, Layer } from "effect"
import type * as http from "node:http"
import { Server, type Socket } from "socket.io"

/** Pushes events to connected users (one room per user); messaging adds conversation rooms later. */
export interface RealtimeShape {
  readonly emitToUser: (userId: string, event: string, payload: unknown) => Effect.Effect<void>
  readonly connectedUsers: () => Effect.Effect<number>
}
export class Realtime extends Context.Tag("platform/Realtime")<Realtime, RealtimeShape>() {}

export const userRoom = (userId: string) => `user:${userId}`

/**
 * socket.io on the application's own http.Server. It is attached after the Effect server has
 * registered its listeners, and upgrade requests are dispatched by path, so that socket.io and
 * the Effect server never both answer one upgrade.
 */
export const attachRealtime = (
  server: http.Server,
  authenticate: (token: string) => Promise<{ readonly id: string } | undefined>
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
      return {
        emitToUser: (userId, event, payload) => Effect.sync(() => void io.to(userRoom(userId)).emit(event, payload)),
        connectedUsers: () => Effect.sync(() => io.of("/").sockets.size)
      }
    })
  )
