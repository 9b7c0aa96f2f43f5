// The messaging calls (spec section 7). Screens show failures inline: every call is quiet but for 401.

import { api } from "../api/client"
import { queryString } from "../api/query"
import type { Answer, ConversationPage, ConversationsApi, MessagePage } from "../api/contract"

const QUIET = [400, 403, 404, 422, 429, 500, 502, 503, 0]
const path = (id: string) => `/conversations/${encodeURIComponent(id)}`

export const messagingApi = {
  list: (page: number, limit: number) => api<ConversationPage>(`/conversations${queryString({ page, limit })}`, { quiet: QUIET }),
  get: (id: string) => api<Answer<typeof ConversationsApi, "get">>(path(id), { quiet: QUIET }),
  /** Finds the conversation with `participantId` (about `serviceId`) or creates it. */
  start: (participantId: string, serviceId?: string) =>
    api<Answer<typeof ConversationsApi, "start">>("/conversations", { method: "POST", body: { participantId, serviceId }, quiet: QUIET }),
  send: (id: string, content: string) =>
    api<Answer<typeof ConversationsApi, "send">>(`${path(id)}/messages`, { method: "POST", body: { content }, quiet: QUIET }),
  markRead: (id: string) => api<Answer<typeof ConversationsApi, "markRead">>(`${path(id)}/read`, { method: "PATCH", quiet: QUIET }),
  /** Newest first. */
  messages: (id: string, page: number, limit: number) =>
    api<MessagePage>(`${path(id)}/messages${queryString({ page, limit })}`, { quiet: QUIET })
}
