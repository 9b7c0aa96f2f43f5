import { Context, Effect, Layer } from "effect"
import { inProcessFeed } from "../../../platform/events"
import { type ConversationEvent, ConversationEventFeed, ConversationEvents } from "../ports"

/**
 * ConversationEvents within one process: the service publishes, listeners registered on the feed
 * (the socket.io adapter, tests) hear every event synchronously, in order. It lives with the domain
 * layers, so the service never depends on the real-time server, which the HTTP server builds later.
 * A listener's failure is its own business: it never fails the action that published.
 */
export const InProcessConversationEvents = Layer.effectContext(
  Effect.sync(() => {
    const { feed, publisher } = inProcessFeed<ConversationEvent>()
    return Context.make(ConversationEvents, publisher).pipe(Context.add(ConversationEventFeed, feed))
  })
)
