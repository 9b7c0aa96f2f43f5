import { Plural, useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useEffect, useId, useRef, useState } from "react"
import { Link, useLocation, useSearch } from "wouter"
import { ApiError } from "../api/client"
import { Pager } from "../components/catalogue"
import { Alert } from "../components/forms"
import { useLive } from "../components/live"
import { ConversationDialog } from "../components/messaging/ConversationDialog"
import { ConnectionBanner, RelativeTime, useConversationTitle } from "../components/messaging/parts"
import { Loaded } from "../components/loaded"
import { Page } from "../components/page"
import { messagingApi } from "../messaging/api"
import { CONVERSATIONS_PAGE_SIZE, FALLBACK_POLL_MS, withMessage, withRead } from "../messaging/rules"
import { useRealtimeLink } from "../messaging/socket"
import type { Conversation, ConversationPage, MessageReceived, MessagesRead } from "../api/contract"
import { userAtom } from "../state/session"

const ConversationCard = ({ conversation, viewerId, onOpen }: { conversation: Conversation; viewerId: string; onOpen: () => void }) => {
  const { t } = useLingui()
  const titleOf = useConversationTitle()
  const titleId = useId()
  const title = titleOf(conversation, viewerId)
  const last = conversation.lastMessage
  const senderName = last?.sender.firstName ?? ""
  const unread = conversation.unreadCount
  return (
    <li className={unread > 0 ? "card conversation-card conversation-unread" : "card conversation-card"}>
      <article aria-labelledby={titleId} data-conversation-id={conversation.id}>
        <div className="conversation-head">
          <h2 id={titleId} className="conversation-title">
            <button type="button" className="conversation-open" onClick={onOpen}>
              {title}
            </button>
          </h2>
          {unread > 0 ? (
            <span className="badge badge-unread">
              <Plural value={unread} one="# non lu" other="# non lus" />
            </span>
          ) : null}
        </div>
        {last ? (
          <p className="conversation-last">
            <span className="conversation-sender">{last.sender.id === viewerId ? t`Vous :` : t`${senderName} :`}</span>{" "}
            {last.hidden ? t`Message masqué par la modération.` : last.content}{" "}
            <span className="conversation-time">
              · <RelativeTime iso={last.createdAt} />
            </span>
          </p>
        ) : (
          <p className="conversation-last">{t`Pas encore de message.`}</p>
        )}
        <ul className="chips" aria-label={t`Participants`}>
          {conversation.participants.map((p) => (
            <li key={p.id} className="chip">
              {p.id === viewerId ? t`Vous` : `${p.firstName} ${p.lastName}`}
            </li>
          ))}
        </ul>
      </article>
    </li>
  )
}

/**
 * /messaging (and /messages): the caller's conversations, live. `?userId=` finds or creates the
 * conversation with that user and opens it (the contact links of services, bookings and profiles).
 */
export default function Messaging() {
  const { t } = useLingui()
  const user = useAtomValue(userAtom)
  const viewerId = user?.id ?? ""
  const search = useSearch()
  const [location, navigate] = useLocation()
  const link = useRealtimeLink()
  const live = link.status === "online" || link.status === "recovered"
  const [page, setPage] = useState(1)
  const [open, setOpen] = useState<Conversation | null>(null)
  const [startError, setStartError] = useState<string | null>(null)
  // Live events counted, so that a list answer fetched before one of them is not laid over it.
  const liveEvents = useRef(0)
  const [state, reload] = useLive(
    () => {
      const eventsBefore = liveEvents.current
      return messagingApi.list(page, CONVERSATIONS_PAGE_SIZE).then(({ data }) => ({ data, eventsBefore }))
    },
    [page],
    FALLBACK_POLL_MS,
    !live
  )
  // The page as loaded, and its conversations as live events change them (shown through Loaded's `current`).
  const [listed, setListed] = useState<ConversationPage | null>(null)
  const [items, setItems] = useState<ReadonlyArray<Conversation> | null>(null)
  const itemsRef = useRef(items)
  itemsRef.current = items
  useEffect(() => {
    if (state.status !== "ok") return
    // An event arrived while this answer was on its way: the answer may predate it, so the list
    // keeps the event and asks again rather than showing the older counts.
    if (state.data.eventsBefore !== liveEvents.current && itemsRef.current !== null) {
      reload({ quiet: true })
      return
    }
    setListed(state.data.data)
    setItems(state.data.data.conversations)
  }, [state])

  // ?userId=X: find or create the conversation with X, open it, and drop the parameter.
  const contactId = new URLSearchParams(search).get("userId")
  useEffect(() => {
    if (!contactId) return
    setStartError(null)
    messagingApi.start(contactId).then(
      ({ data }) => {
        setOpen(data.conversation)
        if (data.created) reload({ quiet: true })
      },
      (error: unknown) =>
        setStartError(error instanceof ApiError && error.message ? error.message : t`Impossible d'ouvrir cette conversation.`)
    )
    navigate(location, { replace: true })
  }, [contactId])

  // Live list: a new message moves its conversation up and counts as unread; read marks lower the count.
  useEffect(() => {
    const socket = link.socket
    if (!socket) return
    const onMessage = (event: MessageReceived) => {
      liveEvents.current++
      const current = itemsRef.current
      if (current === null) return
      const next = withMessage(current, event, viewerId)
      if (next === "reload") reload({ quiet: true })
      else setItems(next)
    }
    const onRead = (event: MessagesRead) => {
      liveEvents.current++
      setItems((current) => (current === null ? current : withRead(current, event, viewerId)))
    }
    socket.on("message_received", onMessage)
    socket.on("messages_read", onRead)
    return () => {
      socket.off("message_received", onMessage)
      socket.off("messages_read", onRead)
    }
  }, [link.socket, viewerId, reload])

  const close = () => {
    setOpen(null)
    reload({ quiet: true })
  }

  return (
    <Page title={t`Messagerie`}>
      <ConnectionBanner status={link.status} />
      {startError ? (
        <Alert kind="error">
          <p>{startError}</p>
        </Alert>
      ) : null}
      <Loaded
        state={state.status === "ok" ? { status: "ok", data: state.data.data } : state}
        current={items === null || listed === null ? null : { ...listed, conversations: items }}
        loadingLabel={t`Chargement des conversations…`}
        errorTitle={t`Erreur`}
        errorSubtitle={t`Impossible de charger vos conversations.`}
        onRetry={() => reload()}
      >
        {(data) => (
          <>
            {data.conversations.length === 0 && page === 1 ? (
              <div className="empty-state">
                <p className="empty-title">{t`Aucune conversation`}</p>
                <p>{t`Contactez un prestataire depuis la page d'un service pour commencer.`}</p>
                <Link href="/services" className="button">
                  {t`Parcourir les services`}
                </Link>
              </div>
            ) : null}
            {data.conversations.length > 0 ? (
              <ul className="conversations">
                {data.conversations.map((conversation) => (
                  <ConversationCard
                    key={conversation.id}
                    conversation={conversation}
                    viewerId={viewerId}
                    onOpen={() => setOpen(conversation)}
                  />
                ))}
              </ul>
            ) : null}
            <Pager page={page} pages={data.pagination.pages} onPage={setPage} />
          </>
        )}
      </Loaded>
      {open ? <ConversationDialog key={open.id} conversation={open} viewerId={viewerId} link={link} onClose={close} /> : null}
    </Page>
  )
}
