// The messaging calls (spec section 7). Screens show failures inline: every call is quiet but for 401.

import { api } from "../api/client"
import { queryString } from "../api/query"
import type { Answer, BlocksApi, ConversationPage, ConversationsApi, MessagePage, ModerationApi, ReportsApi } from "../api/contract"

const QUIET = [400, 403, 404, 422, 429, 500, 502, 503, 0]
const path = (id: string) => `/conversations/${encodeURIComponent(id)}`

export const messagingApi = {
  list: (page: number, limit: number) => api<ConversationPage>(`/conversations${queryString({ page, limit })}`, { quiet: QUIET }),
  get: (id: string) => api<Answer<typeof ConversationsApi, "get">>(path(id), { quiet: QUIET }),
  /** What the caller has not read over all their conversations (the navigation's badge). */
  unread: () => api<Answer<typeof ConversationsApi, "unread">>("/conversations/unread", { quiet: QUIET }),
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

const user = (id: string) => `/users/${encodeURIComponent(id)}`

/** Blocks (from a conversation or a profile; the list and "unblock" on /settings) and reports (issue 15). */
export const safetyApi = {
  block: (userId: string) => api<Answer<typeof BlocksApi, "block">>(`${user(userId)}/block`, { method: "POST", body: {}, quiet: QUIET }),
  unblock: (userId: string) => api<Answer<typeof BlocksApi, "unblock">>(`${user(userId)}/block`, { method: "DELETE", quiet: QUIET }),
  blocks: (page: number, limit: number) =>
    api<Answer<typeof BlocksApi, "list">>(`/users/me/blocks${queryString({ page, limit })}`, { quiet: QUIET }),
  report: (body: { reason: string; details?: string; messageId?: string; userId?: string }) =>
    api<Answer<typeof ReportsApi, "create">>("/reports", { method: "POST", body, quiet: QUIET })
}

/** The moderation queue (admins). */
export const moderationApi = {
  list: (query: { status?: string; page?: number; limit?: number }) =>
    api<Answer<typeof ModerationApi, "list">>(`/admin/reports${queryString(query)}`, { quiet: QUIET }),
  get: (id: string) => api<Answer<typeof ModerationApi, "get">>(`/admin/reports/${encodeURIComponent(id)}`, { quiet: QUIET }),
  decide: (id: string, action: string, note?: string) =>
    api<Answer<typeof ModerationApi, "decide">>(`/admin/reports/${encodeURIComponent(id)}/decision`, {
      method: "POST",
      body: { action, ...(note ? { note } : {}) },
      quiet: QUIET
    })
}
