import { useLingui } from "@lingui/react/macro"
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from "react"
import { ApiError } from "../../api/client"
import { messagingApi } from "../../messaging/api"
import {
  applyRead,
  characterCount,
  deliveryState,
  draftProblem,
  FALLBACK_POLL_MS,
  MAX_MESSAGE_LENGTH,
  mergeMessages,
  MESSAGES_PAGE_SIZE,
  otherParticipant,
  TYPING_IDLE_MS,
  type DeliveryState
} from "../../messaging/rules"
import { type RealtimeLink, request } from "../../messaging/socket"
import type { Conversation, Message, MessageReceived, MessagesRead, Presence, UserTyping } from "../../api/contract"
import { Alert } from "../forms"
import { Modal } from "../Modal"
import { ConnectionBanner, RelativeTime, useConversationTitle } from "./parts"
import { BlockAction, BlockedNotice, MessageMark, PrivacyNote, ReportForm } from "./safety"

/** A message being sent, or that failed: shown after the stored ones until the server has it. */
interface Outgoing {
  readonly localId: string
  readonly content: string
  readonly state: "sending" | "failed"
  readonly error?: string
}

/** Ids of messages not stored yet (crypto.randomUUID needs a secure context: plain http on a LAN has none). */
let localCounter = 0

const failureText = (error: unknown) => (error instanceof ApiError ? error.message || error.code : "")

const useDeliveryLabels = (): Record<DeliveryState, string> => {
  const { t } = useLingui()
  return { sending: t`Envoi…`, sent: t`Envoyé`, delivered: t`Distribué`, read: t`Lu`, failed: t`Échec de l'envoi` }
}

/**
 * One conversation: its messages (newest page first, "load older" for the rest), the send box
 * (Enter sends, Shift+Enter breaks the line), delivery states, the other side's typing, and read
 * marks while it is open. Real-time events come from the screen's link; while it is down the
 * messages are read again every 30 s.
 */
export const ConversationDialog = ({
  conversation,
  viewerId,
  link,
  onClose
}: {
  conversation: Conversation
  viewerId: string
  link: RealtimeLink
  onClose: () => void
}) => {
  const { t } = useLingui()
  const titleOf = useConversationTitle()
  const labels = useDeliveryLabels()
  const draftId = useId()
  const counterId = useId()
  const other = otherParticipant(conversation, viewerId)
  const otherName = other ? other.firstName : t`L'autre participant`
  const { socket, status } = link
  const live = status === "online" || status === "recovered"

  const [messages, setMessages] = useState<ReadonlyArray<Message>>([])
  const [loaded, setLoaded] = useState<{ pages: number; total: number } | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [loadingOlder, setLoadingOlder] = useState(false)
  const [outgoing, setOutgoing] = useState<ReadonlyArray<Outgoing>>([])
  const [delivered, setDelivered] = useState<ReadonlySet<string>>(new Set())
  const [otherOnline, setOtherOnline] = useState(false)
  const [otherTyping, setOtherTyping] = useState(false)
  const [announcement, setAnnouncement] = useState("")
  const [draft, setDraft] = useState("")
  const [draftError, setDraftError] = useState<string | null>(null)
  /** Blocked either way, nobody writes: the notice replaces the send box and presence is not shown. */
  const [blocked, setBlocked] = useState(conversation.blocked)
  /** The message whose report form is open, and those reported from here. */
  const [reporting, setReporting] = useState<string | null>(null)
  const [reported, setReported] = useState<ReadonlySet<string>>(new Set())
  const bottom = useRef<HTMLDivElement>(null)
  const stickToBottom = useRef(true)
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const typing = useRef(false)
  const onlineRef = useRef(false)
  onlineRef.current = otherOnline
  const messagesRef = useRef(messages)
  messagesRef.current = messages
  const otherId = other?.id

  const markAllRead = useCallback(() => {
    void messagingApi.markRead(conversation.id).then(
      ({ data }) => setMessages((current) => applyRead(current, data)),
      () => undefined
    )
  }, [conversation.id])

  const loadLatest = useCallback(
    () =>
      messagingApi.messages(conversation.id, 1, MESSAGES_PAGE_SIZE).then(
        ({ data }) => {
          setLoadError(null)
          setMessages((current) => mergeMessages(current, data.messages))
          setLoaded((previous) => ({ pages: previous?.pages ?? 1, total: data.pagination.total }))
        },
        (error: unknown) => setLoadError(error)
      ),
    [conversation.id]
  )

  // First page, then everything the other side sent is read.
  useEffect(() => {
    void loadLatest().then(markAllRead)
  }, [loadLatest, markAllRead])

  // While the real-time link is down, read the conversation again every 30 s (spec section 9).
  useEffect(() => {
    if (live) return
    const timer = setInterval(() => void loadLatest(), FALLBACK_POLL_MS)
    return () => clearInterval(timer)
  }, [live, loadLatest])

  // The conversation's room (typing), joined again after every reconnection.
  useEffect(() => {
    if (!socket || !live) return
    void request<{ onlineUserIds: ReadonlyArray<string> }>(socket, "join_conversation", { conversationId: conversation.id }).then((ack) => {
      if (ack.success) setOtherOnline(otherId !== undefined && ack.data.onlineUserIds.includes(otherId))
    })
    // Messages that arrived while the link was down.
    void loadLatest()
    return () => {
      if (socket.connected) socket.emit("leave_conversation", { conversationId: conversation.id })
    }
  }, [socket, live, conversation.id, otherId, loadLatest])

  useEffect(() => {
    if (!socket) return
    const onMessage = (event: MessageReceived) => {
      if (event.conversationId !== conversation.id) return
      stickToBottom.current = true
      setMessages((current) => mergeMessages(current, [event.message]))
      setLoaded((previous) => previous && { ...previous, total: previous.total + 1 })
      if (event.message.senderId === viewerId) return
      setOtherTyping(false)
      const sender = event.sender.firstName
      const content = event.message.content
      setAnnouncement(t`${sender} : ${content}`)
      // Open and in view: read at once.
      if (document.visibilityState === "visible")
        void request(socket, "mark_as_read", { conversationId: conversation.id, messageIds: [event.message.id] })
    }
    const onRead = (event: MessagesRead) => {
      if (event.conversationId === conversation.id) setMessages((current) => applyRead(current, event))
    }
    const onTyping = (event: UserTyping) => {
      if (event.conversationId === conversation.id && event.userId !== viewerId) setOtherTyping(event.isTyping)
    }
    const onOnline = (event: Presence) => {
      if (event.userId !== otherId) return
      setOtherOnline(true)
      // They are connected now: what we sent reaches them.
      const mine = messagesRef.current.filter((m) => m.senderId === viewerId).map((m) => m.id)
      setDelivered((previous) => new Set([...previous, ...mine]))
    }
    const onOffline = (event: Presence) => {
      if (event.userId !== otherId) return
      setOtherOnline(false)
      setOtherTyping(false)
    }
    socket.on("message_received", onMessage)
    socket.on("messages_read", onRead)
    socket.on("user_typing", onTyping)
    socket.on("user_online", onOnline)
    socket.on("user_offline", onOffline)
    return () => {
      socket.off("message_received", onMessage)
      socket.off("messages_read", onRead)
      socket.off("user_typing", onTyping)
      socket.off("user_online", onOnline)
      socket.off("user_offline", onOffline)
    }
  }, [socket, conversation.id, viewerId, otherId])

  // A typing indicator never outlives a lost typing_stop by long.
  useEffect(() => {
    if (!otherTyping) return
    const timer = setTimeout(() => setOtherTyping(false), 6000)
    return () => clearTimeout(timer)
  }, [otherTyping])

  // Newest at the bottom, in view, unless older messages were just loaded above.
  useEffect(() => {
    if (stickToBottom.current) bottom.current?.scrollIntoView({ block: "end" })
  }, [messages, outgoing])

  const stopTyping = useCallback(() => {
    clearTimeout(typingTimer.current)
    if (typing.current && socket?.connected) socket.emit("typing_stop", { conversationId: conversation.id })
    typing.current = false
  }, [socket, conversation.id])
  useEffect(() => stopTyping, [stopTyping])

  const onDraft = (value: string) => {
    setDraft(value)
    setDraftError(null)
    if (!socket?.connected) return
    if (!typing.current && value.trim() !== "") {
      typing.current = true
      socket.emit("typing_start", { conversationId: conversation.id })
    }
    clearTimeout(typingTimer.current)
    typingTimer.current = setTimeout(stopTyping, TYPING_IDLE_MS)
  }

  /** Over the real-time link when it is up (the same rules as REST), else over REST. */
  const deliver = async (localId: string, content: string) => {
    stickToBottom.current = true
    setOutgoing((list) => [...list.filter((o) => o.localId !== localId), { localId, content, state: "sending" }])
    let stored: Message | undefined
    let error = ""
    let code = ""
    if (socket?.connected) {
      const ack = await request<{ message: Message }>(socket, "send_message", { conversationId: conversation.id, content })
      if (ack.success) stored = ack.data.message
      else ({ message: error, code } = ack)
    } else {
      try {
        stored = (await messagingApi.send(conversation.id, content)).data.message
      } catch (cause) {
        error = failureText(cause)
        code = cause instanceof ApiError ? cause.code : ""
      }
    }
    // The other blocked the viewer while the conversation was open.
    if (code === "USER_BLOCKED") setBlocked((state) => (state === "NONE" ? "BY_OTHER" : state))
    if (stored) {
      const message = stored
      setMessages((current) => mergeMessages(current, [message]))
      if (onlineRef.current) setDelivered((previous) => new Set([...previous, message.id]))
      setOutgoing((list) => list.filter((o) => o.localId !== localId))
    } else {
      setOutgoing((list) => list.map((o) => (o.localId === localId ? { ...o, state: "failed", error } : o)))
    }
  }

  const send = () => {
    const problem = draftProblem(draft)
    if (problem === "empty") return setDraftError(t`Écrivez un message avant d'envoyer.`)
    if (problem === "tooLong") return setDraftError(t`Le message ne peut pas dépasser ${MAX_MESSAGE_LENGTH} caractères.`)
    stopTyping()
    const content = draft.trim()
    setDraft("")
    void deliver(`local-${++localCounter}`, content)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      send()
    }
  }

  const loadOlder = async () => {
    if (!loaded) return
    setLoadingOlder(true)
    stickToBottom.current = false
    try {
      const { data } = await messagingApi.messages(conversation.id, loaded.pages + 1, MESSAGES_PAGE_SIZE)
      setMessages((current) => mergeMessages(data.messages, current))
      setLoaded({ pages: loaded.pages + 1, total: data.pagination.total })
    } catch (error) {
      setLoadError(error)
    } finally {
      setLoadingOlder(false)
    }
  }

  const count = characterCount(draft.trim())
  const hasOlder = loaded !== null && messages.length < loaded.total
  const nameOf = (senderId: string) =>
    senderId === viewerId ? t`Vous` : (conversation.participants.find((p) => p.id === senderId)?.firstName ?? otherName)

  return (
    <Modal title={titleOf(conversation, viewerId)} onClose={onClose} wide>
      <ConnectionBanner status={status} />
      {blocked === "NONE" ? (
        <p className="conversation-presence">
          {other ? (otherOnline ? t`${otherName} est en ligne` : t`${otherName} est hors ligne`) : null}
        </p>
      ) : null}
      {conversation.privateUntilBooked ? <PrivacyNote /> : null}
      {other && blocked === "NONE" ? (
        <div className="conversation-safety">
          <BlockAction userId={other.id} name={otherName} onBlocked={() => setBlocked("BY_ME")} />
        </div>
      ) : null}
      {loadError ? (
        <Alert kind="error" title={t`Erreur lors du chargement des messages`}>
          <p className="raw-error">{failureText(loadError)}</p>
          <button type="button" className="button-secondary" onClick={() => void loadLatest()}>
            {t`Réessayer`}
          </button>
        </Alert>
      ) : null}
      <div className="message-scroll">
        {hasOlder ? (
          <button
            type="button"
            className="button-secondary button-small"
            onClick={() => void loadOlder()}
            disabled={loadingOlder}
            aria-busy={loadingOlder || undefined}
          >
            {t`Charger les messages précédents`}
          </button>
        ) : null}
        {loaded === null && !loadError ? <p role="status">{t`Chargement des messages…`}</p> : null}
        {loaded !== null && messages.length === 0 && outgoing.length === 0 ? (
          <p className="message-empty">{t`Aucun message pour l'instant. Écrivez le premier !`}</p>
        ) : null}
        <ol className="messages" aria-label={t`Messages`}>
          {messages.map((m) => {
            const mine = m.senderId === viewerId
            return (
              <li key={m.id} className={mine ? "message message-mine" : "message"} data-message-id={m.id}>
                <p className="message-meta">
                  <span className="message-author">{nameOf(m.senderId)}</span> · <RelativeTime iso={m.createdAt} />
                </p>
                {m.content !== "" ? <p className="message-content">{m.content}</p> : null}
                <MessageMark message={m} otherName={otherName} />
                {mine ? <p className="message-state">{labels[deliveryState(m, delivered)]}</p> : null}
                {!mine && !m.hidden ? (
                  reported.has(m.id) ? (
                    <p className="message-mark" role="status">
                      {t`Signalement envoyé. Merci.`}
                    </p>
                  ) : reporting === m.id ? (
                    <ReportForm
                      target={{ messageId: m.id }}
                      onDone={() => {
                        setReporting(null)
                        setReported((previous) => new Set([...previous, m.id]))
                      }}
                      onCancel={() => setReporting(null)}
                    />
                  ) : (
                    <button type="button" className="button-secondary button-small message-report" onClick={() => setReporting(m.id)}>
                      {t`Signaler`}
                      <span className="sr-only"> {t`ce message`}</span>
                    </button>
                  )
                ) : null}
              </li>
            )
          })}
          {outgoing.map((o) => (
            <li key={o.localId} className="message message-mine message-pending">
              <p className="message-meta">
                <span className="message-author">{t`Vous`}</span>
              </p>
              <p className="message-content">{o.content}</p>
              <p className={o.state === "failed" ? "message-state message-failed" : "message-state"}>
                {labels[o.state]}
                {o.state === "failed" && o.error ? ` : ${o.error}` : null}
              </p>
              {o.state === "failed" ? (
                <button type="button" className="button-secondary button-small" onClick={() => void deliver(o.localId, o.content)}>
                  {t`Réessayer l'envoi`}
                </button>
              ) : null}
            </li>
          ))}
        </ol>
        <div ref={bottom} />
      </div>
      <p className="typing-indicator" aria-live="polite">
        {otherTyping ? t`${otherName} écrit…` : ""}
      </p>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      {blocked === "NONE" ? (
        <form
          className="message-form"
          onSubmit={(event) => {
            event.preventDefault()
            send()
          }}
        >
          <div className="field">
            <label htmlFor={draftId}>{t`Votre message`}</label>
            <textarea
              id={draftId}
              name="content"
              rows={3}
              value={draft}
              onChange={(event) => onDraft(event.target.value)}
              onKeyDown={onKeyDown}
              onBlur={stopTyping}
              aria-invalid={draftError ? true : undefined}
              aria-describedby={draftError ? `${counterId} ${draftId}-error` : counterId}
            />
            <p
              id={counterId}
              className={count > MAX_MESSAGE_LENGTH ? "field-hint message-counter field-error" : "field-hint message-counter"}
            >
              {t`${count} / ${MAX_MESSAGE_LENGTH} caractères · Entrée pour envoyer, Maj+Entrée pour aller à la ligne`}
            </p>
            {draftError ? (
              <p id={`${draftId}-error`} className="field-error" role="alert">
                {draftError}
              </p>
            ) : null}
          </div>
          <button type="submit" className="button">
            {t`Envoyer`}
          </button>
        </form>
      ) : (
        <BlockedNotice state={blocked} name={otherName} />
      )}
    </Modal>
  )
}
