import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { MarketplaceApi } from "../../app/api"
import { ok } from "../../platform/http/envelope"
import { pagination } from "../../platform/paging"
import { CurrentUser } from "../../platform/http/authentication"
import { type Reader, toConversationView, toMessageView } from "./views"
import { Messaging } from "./service"

const readerOf = (user: { readonly id: string; readonly role: string }): Reader => ({ id: user.id, isAdmin: user.role === "ADMIN" })

export const ConversationsHttpLive = HttpApiBuilder.group(MarketplaceApi, "conversations", (handlers) =>
  Effect.gen(function* () {
    const messaging = yield* Messaging
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          const found = yield* messaging.list(user.id, urlParams)
          return ok({
            conversations: found.rows.map((c) => toConversationView(c, readerOf(user))),
            pagination: pagination(found.total, found.page, found.limit)
          })
        })
      )
      .handle("unread", () =>
        Effect.gen(function* () {
          const totals = yield* messaging.unread((yield* CurrentUser).id)
          return ok({ unreadMessages: totals.messages, unreadConversations: totals.conversations })
        })
      )
      .handle("get", ({ path }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          return ok({ conversation: toConversationView(yield* messaging.get(user.id, path.id), readerOf(user)) })
        })
      )
      .handle("start", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          const { conversation, created } = yield* messaging.start(user.id, payload)
          return created
            ? ok({ conversation: toConversationView(conversation, readerOf(user)), created: true as const })
            : ok({ conversation: toConversationView(conversation, readerOf(user)), created: false as const })
        })
      )
      .handle("send", ({ path, payload }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          const { isPrivate, message } = yield* messaging.send(user.id, path.id, payload.content)
          return ok({ message: toMessageView(message, readerOf(user), isPrivate) })
        })
      )
      .handle("markRead", ({ path }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          return ok(yield* messaging.markRead(user.id, path.id))
        })
      )
      .handle("messages", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          const found = yield* messaging.messages(user.id, path.id, urlParams)
          return ok({
            messages: found.rows.map((m) => toMessageView(m, readerOf(user), found.isPrivate)),
            pagination: pagination(found.total, found.page, found.limit)
          })
        })
      )
  })
)
