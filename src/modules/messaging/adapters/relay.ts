import { Context, Effect, Layer } from "effect"
import { type ConversationEvent, ConversationEventFeed, ConversationEvents } from "../ports"

/**
 * ConversationEvents within one process: the service publishes, listeners registered on the feed
 * (the socket.io adapter, tests) hear every event synchronously, in order. It lives with the domain
 * layers, so the service never depends on the real-time server, which the HTTP server builds later.
 * A listener's failure is its own business: it never fails the action that published.
 */
export const InProcessConversationEvents = Layer.effectContext(
  Effect.sync(() => {
    const listeners = new Set<(event: ConversationEvent) => void>()
    const events = ConversationEvents.of({
      publish: (event) =>
        Effect.sync(() => {
          for (const listener of listeners) {
            try {
              listener(event)
            } catch {
              // A broken listener must not undo a stored message.
            }
          }
        })
    })
    const feed = ConversationEventFeed.of({
      subscribe: (listener) =>
        Effect.sync(() => {
          listeners.add(listener)
          return () => void listeners.delete(listener)
        })
    })
    return Context.make(ConversationEvents, events).pipe(Context.add(ConversationEventFeed, feed))
  })
)
