import { expect } from "vitest"
import type { Session } from "../support/accounts"
import type { httpClient } from "../support/http"

/** The call options of `who`, speaking `language` when given. */
export const as = (who: Session, language?: string) => ({ token: who.token, ...(language ? { language } : {}) })

/** The conversation calls of one test server's API. */
export const conversationsOn = (api: ReturnType<typeof httpClient>) => {
  /** `from` opens (or finds) a conversation with `to`, about the service when given. */
  const start = async (from: Session, to: Session, serviceId?: string) => {
    const reply = await api.post("/api/conversations", { participantId: to.id, ...(serviceId ? { serviceId } : {}) }, as(from))
    expect([200, 201], reply.text).toContain(reply.status)
    return reply.body.data.conversation as { id: string; [k: string]: any }
  }
  /** `from` writes `content` in the conversation. */
  const send = (from: Session, conversationId: string, content: unknown, language?: string) =>
    api.post(`/api/conversations/${conversationId}/messages`, { content }, as(from, language))
  /** `from` writes to `to` (about the service when given) and `to` answers: the conversation's id. */
  const exchange = async (from: Session, to: Session, serviceId?: string) => {
    const { id } = await start(from, to, serviceId)
    expect((await send(from, id, "Bonjour, êtes-vous disponible ?")).status).toBe(201)
    expect((await send(to, id, "Oui, demain matin.")).status).toBe(201)
    return id
  }
  return { start, send, exchange }
}
