import { Context, Effect, Layer } from "effect"
import { type EventFeed, type EventPublisher, inProcessFeed } from "../../platform/events"

/**
 * What identity announces about accounts once it is committed: every session of a user ended
 * (deactivation, password reset) or every session but one (a password change keeps the caller's).
 * The real-time layer listens to close the user's open sockets at once, across processes.
 */
export type AccountEvent =
  | {
      readonly type: "sessions_ended"
      readonly userId: string
      readonly reason:
        | "deactivated"
        | "password_reset"
        | "password_changed"
        | "email_changed"
        | "two_factor_enabled"
        | "logged_out_elsewhere"
        | "account_deleted"
      /** The refresh family that stays signed in (its sockets stay connected), if any. */
      readonly keepFamily?: string | undefined
    }
  /** One session ended by its owner from the sessions list ("log out this one"). */
  | { readonly type: "session_ended"; readonly userId: string; readonly sessionId: string }

/** Where identity announces account events; announcing never fails the action that published. */
export class AccountEvents extends Context.Tag("identity/AccountEvents")<AccountEvents, EventPublisher<AccountEvent>>() {}

/** The listening side of AccountEvents (the socket.io server subscribes once it exists). */
export class AccountEventFeed extends Context.Tag("identity/AccountEventFeed")<AccountEventFeed, EventFeed<AccountEvent>>() {}

/**
 * AccountEvents within one process (as messaging's InProcessConversationEvents): listeners hear every
 * event synchronously; a listener that throws is ignored. Other processes are reached by the listener
 * itself (socket.io's adapter carries `disconnectSockets` across the cluster).
 */
export const InProcessAccountEvents = Layer.effectContext(
  Effect.sync(() => {
    const { feed, publisher } = inProcessFeed<AccountEvent>()
    return Context.make(AccountEvents, publisher).pipe(Context.add(AccountEventFeed, feed))
  })
)
