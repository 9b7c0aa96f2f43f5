import { Cause, Effect, Exit, Option, Runtime, Schema } from "effect"
import type { Server, Socket } from "socket.io"
import { BadRequest, errorBody, isAppError } from "../../../platform/errors"
import { PayloadLongText, PayloadText } from "../../../platform/http/envelope"
import { defaultLanguage, type Language, languageFromHeader, translate } from "../../../platform/messages"
import { unavailableOf } from "../../../platform/outage"
import { connectionCounts, type RealtimeModule, userRoom } from "../../../platform/realtime"
import { hasLoneSurrogate } from "../../../platform/text"
import { MessageView, type MessageReceivedEvent, type MessagesReadEvent, type PresenceEvent, type UserTypingEvent } from "../contract"
import { toMessageView } from "../views"
import { type ConversationEvent, ConversationEventFeed } from "../ports"
import { Messaging } from "../service"

/**
 * Messaging over socket.io (spec section 7). Client events: join_conversation, leave_conversation,
 * send_message, typing_start, typing_stop, mark_as_read, each answered through the acknowledgement
 * callback with the success or the error envelope. Server events: message_received and
 * messages_read to the participants' user rooms (relayed from ConversationEvents, so REST writes
 * reach them too), user_typing to the other participants in the conversation room, user_online and
 * user_offline to a user's conversation partners. Every emit goes through io's adapter, so with the
 * PostgreSQL adapter it reaches sockets on every process; presence counts connections cluster-wide.
 */

export const conversationRoom = (conversationId: string) => `conversation:${conversationId}`

type Ack = (answer: unknown) => void
const encodeMessage = Schema.encodeSync(MessageView)

const Malformed = new BadRequest({ code: "MALFORMED_REQUEST", key: "request.malformed" })
const BrokenCharacter = new BadRequest({ code: "MALFORMED_REQUEST", key: "request.loneSurrogate" })
const NotJoined = new BadRequest({ code: "CONVERSATION_NOT_JOINED", key: "messaging.notJoined" })

/** The socket's language: `auth.language`, else its handshake's Accept-Language, else French. */
const languageOf = (socket: Socket): Language => {
  const declared = (socket.handshake.auth as { language?: unknown } | undefined)?.language
  if (declared === "fr" || declared === "en") return declared
  return languageFromHeader(socket.handshake.headers["accept-language"]) ?? defaultLanguage
}

/** Socket payloads go through the REST payloads' text schemas: a control character is malformed there too. */
const decodeId = Schema.decodeUnknownOption(PayloadText)
const decodeContent = Schema.decodeUnknownOption(Schema.UndefinedOr(Schema.NullOr(PayloadLongText)))
const decodeIds = Schema.decodeUnknownOption(Schema.UndefinedOr(Schema.Array(Schema.Unknown)))

const conversationIdOf = (payload: unknown): string | undefined => {
  const value = typeof payload === "string" ? payload : (payload as { conversationId?: unknown } | null | undefined)?.conversationId
  return Option.getOrUndefined(decodeId(value))
}

const relay = (io: Server) => (event: ConversationEvent) => {
  const rooms = event.recipientIds.map(userRoom)
  switch (event.type) {
    case "message_received":
      // Each participant reads it their way: masked for the recipient while the pair has no booking.
      for (const recipientId of event.recipientIds) {
        io.to(userRoom(recipientId)).emit("message_received", {
          conversationId: event.message.conversationId,
          message: encodeMessage(toMessageView(event.message, { id: recipientId, isAdmin: false }, event.isPrivate)),
          sender: { id: event.sender.id, firstName: event.sender.firstName, lastName: event.sender.lastName }
        } satisfies typeof MessageReceivedEvent.Encoded)
      }
      return
    case "messages_read":
      io.to(rooms).emit("messages_read", {
        conversationId: event.conversationId,
        readerId: event.readerId,
        messageIds: event.messageIds,
        readAt: event.readAt.toISOString()
      } satisfies typeof MessagesReadEvent.Encoded)
      return
  }
}

export const MessagingRealtime = Effect.gen(function* () {
  const messaging = yield* Messaging
  const feed = yield* ConversationEventFeed
  const runtime = yield* Effect.runtime<never>()

  const module: RealtimeModule = (io) =>
    Effect.gen(function* () {
      const unsubscribe = yield* feed.subscribe(relay(io))
      yield* Effect.addFinalizer(() => Effect.sync(unsubscribe))

      /** Tells the user's partners that they came online or went offline. */
      const announcePresence = (userId: string, event: "user_online" | "user_offline") =>
        Runtime.runPromise(runtime)(messaging.partnersOf(userId)).then(
          (partners) => {
            if (partners.length > 0) io.to(partners.map(userRoom)).emit(event, { userId } satisfies typeof PresenceEvent.Encoded)
          },
          () => undefined
        )

      const onlineAmong = (userIds: ReadonlyArray<string>) =>
        Effect.promise(() => connectionCounts(io, userIds)).pipe(Effect.map((counts) => userIds.filter((_, i) => (counts[i] ?? 0) > 0)))

      io.on("connection", (socket: Socket) => {
        const userId = socket.data.userId as string
        const language = languageOf(socket)

        /** Runs a use case and answers the acknowledgement: `{ success: true, data }` or the error envelope. */
        const answer = <A>(ack: unknown, effect: Effect.Effect<A, unknown>) => {
          const reply: Ack = typeof ack === "function" ? (ack as Ack) : () => undefined
          void Runtime.runPromiseExit(runtime)(effect).then((exit) => {
            if (Exit.isSuccess(exit)) return reply({ success: true, data: exit.value })
            const failure = Cause.failureOption(exit.cause)
            if (failure._tag === "Some" && isAppError(failure.value)) return reply(errorBody(failure.value, language))
            // The database is away: the same 503 envelope as over HTTP, for the client to retry.
            const unavailable = unavailableOf(exit.cause)
            if (unavailable !== undefined) return reply(errorBody(unavailable, language))
            void Runtime.runPromise(runtime)(Effect.logError("socket event failed", exit.cause))
            reply({ success: false, code: "INTERNAL_ERROR", message: translate(language, "server.error") })
          })
        }
        const withConversation = <A>(payload: unknown, ack: unknown, use: (conversationId: string) => Effect.Effect<A, unknown>) => {
          const conversationId = conversationIdOf(payload)
          answer(ack, conversationId === undefined ? Effect.fail(Malformed) : use(conversationId))
        }

        // Online when this is the user's only connection in the cluster; offline when none is left
        // (on disconnect the socket has already left its rooms).
        const announceWhen = (expected: number, event: "user_online" | "user_offline") =>
          void connectionCounts(io, [userId]).then(
            ([count]) => {
              if (count === expected) return announcePresence(userId, event)
            },
            () => undefined
          )
        announceWhen(1, "user_online")
        socket.on("disconnect", () => announceWhen(0, "user_offline"))

        socket.on("join_conversation", (payload: unknown, ack: unknown) =>
          withConversation(payload, ack, (id) =>
            Effect.flatMap(messaging.participantsOf(userId, id), (participantIds) => {
              const conversationId = id.toLowerCase()
              void socket.join(conversationRoom(conversationId))
              // Presence of the others now, across the cluster; later changes come as user_online / user_offline.
              const others = participantIds.filter((p) => p !== userId)
              return Effect.map(onlineAmong(others), (onlineUserIds) => ({ conversationId, onlineUserIds }))
            })
          )
        )
        socket.on("leave_conversation", (payload: unknown, ack: unknown) =>
          withConversation(payload, ack, (id) =>
            Effect.map(messaging.participantsOf(userId, id), () => {
              void socket.leave(conversationRoom(id.toLowerCase()))
              return { conversationId: id.toLowerCase() }
            })
          )
        )
        socket.on("send_message", (payload: unknown, ack: unknown) =>
          withConversation(payload, ack, (id) => {
            const content = decodeContent((payload as { content?: unknown }).content)
            if (Option.isNone(content)) return Effect.fail(Malformed)
            // As the HTTP bodies (platform/http/body.ts): a lone surrogate is no character to store.
            if (hasLoneSurrogate(content.value)) return Effect.fail(BrokenCharacter)
            return Effect.map(messaging.send(userId, id, content.value ?? undefined), ({ isPrivate, message }) => ({
              message: encodeMessage(toMessageView(message, { id: userId, isAdmin: false }, isPrivate))
            }))
          })
        )
        for (const [event, isTyping] of [
          ["typing_start", true],
          ["typing_stop", false]
        ] as const) {
          socket.on(event, (payload: unknown, ack: unknown) =>
            withConversation(payload, ack, (id) => {
              const conversationId = id.toLowerCase()
              // Only from a joined room: joining checked that the caller takes part.
              if (!socket.rooms.has(conversationRoom(conversationId))) return Effect.fail(NotJoined)
              return Effect.sync(() => {
                io.to(conversationRoom(conversationId))
                  .except(userRoom(userId))
                  .emit("user_typing", { conversationId, userId, isTyping } satisfies typeof UserTypingEvent.Encoded)
                return { conversationId }
              })
            })
          )
        }
        socket.on("mark_as_read", (payload: unknown, ack: unknown) =>
          withConversation(payload, ack, (id) => {
            const ids = decodeIds((payload as { messageIds?: unknown }).messageIds)
            if (Option.isNone(ids)) return Effect.fail(Malformed)
            return Effect.map(messaging.markRead(userId, id, ids.value), (marked) => ({
              messageIds: marked.messageIds,
              readAt: marked.readAt.toISOString()
            }))
          })
        )
      })
    })
  return module
})
