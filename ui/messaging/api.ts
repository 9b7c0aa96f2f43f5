// The messaging calls (spec section 7). Screens show failures inline: every call is quiet but for 401.

import { api } from "../api/client"
import { queryString } from "../api/query"
import type { Conversation, ConversationPage, Message, MessagePage } from "../api/contract"

const QUIET = [400, 403, 404, 422, 429, 500, 502, 503, 0]
const path = (id: string) => `/conversations/${encodeURIComponent(id)}`

export const messagingApi = {
  list: (page: number, limit: number) => api<ConversationPage>(`/conversations${queryString({ page, limit })}`, { quiet: QUIET }),
  get: (id: string) => api<{ conversation: Conversation }>(path(id), { quiet: QUIET }),
  /** Finds the conversation with `participantId` (about `serviceId`) or creates it. */
  start: (participantId: string, serviceId?: string) =>
    api<{ conversation: Conversation; created: boolean }>("/conversations", { method: "POST", body: { participantId, serviceId }, quiet: QUIET }),
  send: (id: string, content: string) => api<{ message: Message }>(`${path(id)}/messages`, { method: "POST", body: { content }, quiet: QUIET }),
  markRead: (id: string) => api<{ messageIds: ReadonlyArray<string>; readAt: string }>(`${path(id)}/read`, { method: "PATCH", quiet: QUIET }),
  /** Newest first. */
  messages: (id: string, page: number, limit: number) => api<MessagePage>(`${path(id)}/messages${queryString({ page, limit })}`, { quiet: QUIET })
}
