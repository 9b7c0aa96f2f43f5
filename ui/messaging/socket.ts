// The real-time link (the unread badge of the navigation, the messaging screen). socket.io-client is
// imported here only, dynamically: it is downloaded once signed in, never on the first load
// (test/ui/budget.test.ts).

import { useEffect, useState } from "react"
import type { Socket } from "socket.io-client"
import { refreshSession } from "../api/client"
import { currentLanguage } from "../i18n"
import { getToken } from "../state/session"
import { RECONNECT_DELAY_MS, RECOVERED_BANNER_MS } from "./rules"
import type { Ack } from "../api/contract"

/** connecting (first attempt), online, lost (reconnecting), recovered (online again, for 5 s), closed (the server ended it). */
export type LinkStatus = "connecting" | "online" | "lost" | "recovered" | "closed"

export interface RealtimeLink {
  readonly socket: Socket | null
  readonly status: LinkStatus
}

/** Emits with an acknowledgement; a link that is down or slow answers a failure rather than hanging. */
export const request = async <T>(socket: Socket | null, event: string, payload: unknown): Promise<Ack<T>> => {
  if (!socket?.connected) return { success: false, code: "OFFLINE", message: "" }
  try {
    return (await socket.timeout(10_000).emitWithAck(event, payload)) as Ack<T>
  } catch {
    return { success: false, code: "TIMEOUT", message: "" }
  }
}

/**
 * The one link of the tab, shared by whoever holds it (the navigation's unread badge while signed in,
 * the messaging screen): opened by the first holder, closed when the last lets go. The access token
 * and the language go in the handshake (read again on every reconnection); it reconnects every 2 s
 * unless the server ended the connection; a refused token is refreshed once per attempt, then the
 * link tries again.
 */
interface SharedLink {
  link: RealtimeLink
  readonly holders: Set<(link: RealtimeLink) => void>
  readonly close: () => void
}
let shared: SharedLink | null = null

const openLink = (): SharedLink => {
  let closed = false
  let socket: Socket | null = null
  let recoveredTimer: ReturnType<typeof setTimeout> | undefined
  let retryTimer: ReturnType<typeof setTimeout> | undefined
  let lost = false
  const self: SharedLink = {
    link: { socket: null, status: "connecting" },
    holders: new Set(),
    close: () => {
      closed = true
      removeEventListener("offline", dropWhenOffline)
      clearTimeout(recoveredTimer)
      clearTimeout(retryTimer)
      socket?.disconnect()
    }
  }
  const set = (status: LinkStatus) => {
    if (closed) return
    self.link = { socket, status }
    for (const holder of self.holders) holder(self.link)
  }

  // The browser knows at once that the network is gone, the heartbeat only after up to 15 s: drop the
  // transport now, so the banner says so and the link retries every 2 s until the network is back.
  const dropWhenOffline = () => {
    if (socket?.connected) socket.io.engine.close()
  }
  addEventListener("offline", dropWhenOffline)

  import("socket.io-client").then(
    ({ io }) => {
      if (closed) return
      socket = io({
        path: "/socket.io",
        transports: ["websocket"],
        auth: (send) => send({ token: getToken() ?? "", language: currentLanguage() }),
        reconnectionDelay: RECONNECT_DELAY_MS,
        reconnectionDelayMax: RECONNECT_DELAY_MS
      })
      const s = socket
      s.on("connect", () => {
        clearTimeout(recoveredTimer)
        if (lost) {
          set("recovered")
          recoveredTimer = setTimeout(() => set("online"), RECOVERED_BANNER_MS)
        } else set("online")
        lost = false
      })
      s.on("disconnect", (reason) => {
        lost = true
        clearTimeout(recoveredTimer)
        // A disconnection the server forced is final; any other reconnects by itself.
        set(reason === "io server disconnect" ? "closed" : "lost")
      })
      s.on("connect_error", (error) => {
        lost = true
        set("lost")
        if (s.active) return
        // Refused by the server's middleware (an expired token): socket.io does not retry that by itself.
        retryTimer = setTimeout(() => {
          const retry = () => !closed && s.connect()
          if (error.message === "UNAUTHENTICATED") void refreshSession().then((token) => (token ? retry() : set("closed")))
          else retry()
        }, RECONNECT_DELAY_MS)
      })
      set("connecting")
    },
    () => set("lost")
  )
  return self
}

/** Holds the tab's link while the component is mounted (see SharedLink). */
export const useRealtimeLink = (): RealtimeLink => {
  const [link, setLink] = useState<RealtimeLink>(() => shared?.link ?? { socket: null, status: "connecting" })
  useEffect(() => {
    shared ??= openLink()
    const held = shared
    held.holders.add(setLink)
    setLink(held.link)
    return () => {
      held.holders.delete(setLink)
      if (held.holders.size > 0) return
      held.close()
      if (shared === held) shared = null
    }
  }, [])
  return link
}
