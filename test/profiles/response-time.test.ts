import { describe, expect, it } from "vitest"
import { newClient, newProvider, type Session } from "../support/accounts"
import { httpWorld } from "../support/world"
import { MINUTE } from "../support/durations"

// Issue 15, item 4: a provider's public profile gives their response time, the median minutes to a
// first answer in conversations others started, computed from the messages.

const { server, api, sql } = httpWorld()

const start = Date.parse("2026-03-02T09:00:00Z")

/** A conversation between `from` (who writes first) and `to`; its messages sent in order, then dated `minutes` after `start`. */
const conversation = async (from: Session, to: Session, messages: ReadonlyArray<{ by: Session; minutes: number }>) => {
  const created = await api.post("/api/conversations", { participantId: to.id }, { token: from.token })
  expect([200, 201], created.text).toContain(created.status)
  const id = created.body.data.conversation.id as string
  for (const [i, m] of messages.entries()) {
    const sent = await api.post(`/api/conversations/${id}/messages`, { content: `Message ${i + 1}` }, { token: m.by.token })
    expect(sent.status, sent.text).toBe(201)
    await sql(`UPDATE messages SET created_at = $2 WHERE id = $1`, [
      sent.body.data.message.id,
      new Date(start + m.minutes * MINUTE).toISOString()
    ])
  }
}
const responseTimeOf = async (user: Session) => {
  const reply = await api.get(`/api/users/public/${user.id}`)
  expect(reply.status, reply.text).toBe(200)
  return reply.body.data.user.responseTime as number | null
}

describe("response time on the public profile", () => {
  it("is null until someone's conversation is answered, then the median of the first answers' delays in minutes", async () => {
    const provider = await newProvider(server, api)
    const clients = await Promise.all([1, 2, 3, 4, 5].map(() => newClient(server, api)))
    const [a, b, c, d, e] = clients as [Session, Session, Session, Session, Session]
    expect(await responseTimeOf(provider)).toBeNull()

    // Unanswered, and a conversation the provider started (the client's answer is the client's own time): none counts.
    await conversation(a, provider, [{ by: a, minutes: 0 }])
    await conversation(provider, e, [
      { by: provider, minutes: 0 },
      { by: e, minutes: 3 },
      { by: provider, minutes: 4 }
    ])
    expect(await responseTimeOf(provider)).toBeNull()

    // Two messages before the answer: counted from the first; later messages do not matter.
    await conversation(b, provider, [
      { by: b, minutes: 0 },
      { by: b, minutes: 5 },
      { by: provider, minutes: 10 },
      { by: b, minutes: 11 },
      { by: provider, minutes: 500 }
    ])
    expect(await responseTimeOf(provider)).toBe(10)
    await conversation(c, provider, [
      { by: c, minutes: 0 },
      { by: provider, minutes: 120 }
    ])
    await conversation(d, provider, [
      { by: d, minutes: 0 },
      { by: provider, minutes: 30 }
    ])
    // 10, 30, 120: the median is 30 (not the mean, 53).
    expect(await responseTimeOf(provider)).toBe(30)
    // The client's side counts for the client: e answered the provider's conversation in 3 minutes.
    expect(await responseTimeOf(e)).toBe(3)

    // An even count: the mean of the two middle delays, in whole minutes. a's conversation answered after 61 minutes.
    const [conv] = await sql<{ id: string }>(
      `SELECT c.id FROM conversations c JOIN conversation_participants p ON p.conversation_id = c.id WHERE p.user_id = $1
       AND c.id IN (SELECT conversation_id FROM conversation_participants WHERE user_id = $2)`,
      [a.id, provider.id]
    )
    const sent = await api.post(`/api/conversations/${conv!.id}/messages`, { content: "Bonjour !" }, { token: provider.token })
    expect(sent.status, sent.text).toBe(201)
    await sql(`UPDATE messages SET created_at = $2 WHERE id = $1`, [sent.body.data.message.id, new Date(start + 61 * MINUTE).toISOString()])
    // 10, 30, 61, 120: (30 + 61) / 2 = 45.5, rounded to 46.
    expect(await responseTimeOf(provider)).toBe(46)
  })
})
