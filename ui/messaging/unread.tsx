// The navigation's unread-messages badge: read once after login, then kept by the real-time link.

import { plural } from "@lingui/core/macro"
import { atom, useSetAtom } from "jotai"
import { useEffect, useRef, useState } from "react"
import type { MessageReceived, MessagesRead } from "../api/contract"
import { messagingApi } from "./api"
import { tallyRead, tallyReceived, type UnreadTally, unreadTally } from "./rules"
import { useRealtimeLink } from "./socket"

/** Messages others sent that the signed-in user has not read; null while unknown (signed out, loading). */
export const unreadMessagesAtom = atom<number | null>(null)

/**
 * Holds the tab's real-time link while signed in and keeps unreadMessagesAtom: loaded once, moved by
 * `message_received` and `messages_read`, loaded again when the link comes back after a loss (events
 * sent meanwhile were missed). Events before the first answer are left to that answer.
 */
export const UnreadTracker = ({ viewerId }: { viewerId: string }) => {
  const link = useRealtimeLink()
  const setCount = useSetAtom(unreadMessagesAtom)
  const tally = useRef<UnreadTally | null>(null)
  const [loads, setLoads] = useState(0)

  useEffect(() => {
    let current = true
    messagingApi.unread().then(
      ({ data }) => {
        if (!current) return
        tally.current = unreadTally(data.unreadMessages)
        setCount(data.unreadMessages)
      },
      // No badge rather than a wrong one; the next reconnection tries again.
      () => undefined
    )
    return () => {
      current = false
    }
  }, [viewerId, loads, setCount])

  useEffect(() => {
    if (link.status === "recovered") setLoads((n) => n + 1)
  }, [link.status])

  useEffect(() => {
    const socket = link.socket
    if (!socket) return
    const apply = (next: UnreadTally) => {
      tally.current = next
      setCount(next.count)
    }
    const onMessage = (event: MessageReceived) => tally.current && apply(tallyReceived(tally.current, event, viewerId))
    const onRead = (event: MessagesRead) => tally.current && apply(tallyRead(tally.current, event, viewerId))
    socket.on("message_received", onMessage)
    socket.on("messages_read", onRead)
    return () => {
      socket.off("message_received", onMessage)
      socket.off("messages_read", onRead)
    }
  }, [link.socket, viewerId, setCount])

  useEffect(() => () => setCount(null), [setCount])
  return null
}

/** The count on a link: the digits are for the eye, the sentence ("3 messages non lus") for screen readers. */
export const UnreadBadge = ({ count }: { count: number }) => {
  const label = plural(count, { one: "# message non lu", other: "# messages non lus" })
  return (
    <span className="unread-badge" title={label}>
      <span aria-hidden="true">{count > 99 ? "99+" : count}</span>
      {/* The leading space keeps the link's name "Messagerie 3 messages non lus", not "Messagerie3 …". */}
      <span className="sr-only">{` ${label}`}</span>
    </span>
  )
}
