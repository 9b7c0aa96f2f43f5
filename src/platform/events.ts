import { Effect } from "effect"

/** Where a module announces what it committed; announcing never fails the action that published. */
export interface EventPublisher<E> {
  readonly publish: (event: E) => Effect.Effect<void>
}

/** The listening side (the real-time layer subscribes once its server exists; tests listen too). */
export interface EventFeed<E> {
  readonly subscribe: (listener: (event: E) => void) => Effect.Effect<() => void>
}

/**
 * An in-process feed: listeners hear every event synchronously, in order. A listener that throws is
 * ignored: the change it reports is committed whatever a listener does. Other processes are reached by
 * the listeners themselves (socket.io's cluster adapter).
 */
export const inProcessFeed = <E>(): { readonly publisher: EventPublisher<E>; readonly feed: EventFeed<E> } => {
  const listeners = new Set<(event: E) => void>()
  return {
    publisher: {
      publish: (event) =>
        Effect.sync(() => {
          for (const listener of listeners) {
            try {
              listener(event)
            } catch {
              // A broken listener must not undo what was committed.
            }
          }
        })
    },
    feed: {
      subscribe: (listener) =>
        Effect.sync(() => {
          listeners.add(listener)
          return () => void listeners.delete(listener)
        })
    }
  }
}
