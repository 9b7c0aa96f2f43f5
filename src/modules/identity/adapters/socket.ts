import { Effect } from "effect"
import { type RealtimeModule, sessionRoom, userRoom } from "../../../platform/realtime"
import { AccountEventFeed } from "../account-events"

/**
 * Identity's part of the real-time link: when a user's sessions end (deactivation, password reset or
 * change, "log out everywhere else", deletion), their open sockets are disconnected at once, on every process (the cluster adapter carries
 * `disconnectSockets`); a password change spares the sockets of the session that made it (its room).
 * A session ended alone ("log out this one") loses its own sockets only.
 * Reconnecting needs a valid token of a live account again.
 */
export const IdentityRealtime = Effect.map(
  AccountEventFeed,
  (feed): RealtimeModule =>
    (io) =>
      Effect.gen(function* () {
        const unsubscribe = yield* feed.subscribe((event) => {
          if (event.type === "session_ended") return void io.in(sessionRoom(event.sessionId)).disconnectSockets(true)
          const sockets = io.in(userRoom(event.userId))
          void (event.keepFamily === undefined ? sockets : sockets.except(sessionRoom(event.keepFamily))).disconnectSockets(true)
        })
        yield* Effect.addFinalizer(() => Effect.sync(unsubscribe))
      })
)
