import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { en, fr } from "../../src/platform/messages"
import { login, type Session } from "../support/accounts"
import { httpClient } from "../support/http"
import { bookingIn, type BuiltBooking } from "../support/scenarios"
import { startTestServer, type TestServer } from "../support/server"

// A lone UTF-16 surrogate (`"\ud800"` in JSON) is no character (issue 23, item 13): an admin's or a
// dispute's note holding one was a 500 (PostgreSQL refuses it inside the audit's JSON). Every JSON
// body holding one is refused with a clear 400 in the reader's language, and nothing is written.

const BROKEN = "Remboursé \ud800 à la demande du client"

let server: TestServer
let api: ReturnType<typeof httpClient>
let admin: Session
let disputed: BuiltBooking

beforeAll(async () => {
  server = await startTestServer()
  api = httpClient(server)
  admin = await login(api, "admin@marketplace.local", "Admin1234!")
  disputed = await bookingIn(server, "disputed")
})
afterAll(() => server?.stop())

describe("a lone surrogate in a JSON body", () => {
  it("is refused on a dispute's resolution note and an admin's status reason, in both languages, and nothing changes", async () => {
    const confirmed = await bookingIn(server, "confirmed")
    for (const [language, catalog] of [
      ["fr", fr],
      ["en", en]
    ] as const) {
      const resolved = await api.post(
        `/api/admin/bookings/${disputed.bookingId}/dispute/resolve`,
        { outcome: "RELEASE", note: BROKEN },
        { token: admin.token, language }
      )
      expect(resolved.status, resolved.text).toBe(400)
      expect(resolved.body).toMatchObject({ success: false, code: "MALFORMED_REQUEST", message: catalog["request.loneSurrogate"] })
      const cancelled = await api.patch(
        `/api/admin/bookings/${confirmed.bookingId}/status`,
        { status: "CANCELLED", reason: BROKEN },
        { token: admin.token, language }
      )
      expect(cancelled.status, cancelled.text).toBe(400)
      expect(cancelled.body.message).toBe(catalog["request.loneSurrogate"])
    }
    const statusOf = async (id: string) => (await api.get(`/api/admin/bookings/${id}`, { token: admin.token })).body.data.booking.status
    expect(await statusOf(disputed.bookingId)).toBe("DISPUTED")
    expect(await statusOf(confirmed.bookingId)).toBe("CONFIRMED")
  })

  it("is refused in a chat message, while a paired surrogate (an emoji, escaped) is a character like any other", async () => {
    const { client, provider } = disputed
    const started = await api.post("/api/conversations", { participantId: provider.id }, { token: client.token })
    const messages = `/api/conversations/${started.body.data.conversation.id}/messages`
    const broken = await api.call("POST", messages, { raw: '{"content":"Bonjour \\udc00"}', token: client.token, language: "en" })
    expect(broken.status, broken.text).toBe(400)
    expect(broken.body.message).toBe(en["request.loneSurrogate"])
    expect((await api.get(messages, { token: client.token })).body.data.messages).toEqual([])
    const emoji = await api.call("PATCH", "/api/users/me", { raw: '{"firstName":"Lou \\ud83d\\ude00"}', token: disputed.client.token })
    expect(emoji.status, emoji.text).toBe(200)
    expect(emoji.body.data.user.firstName).toBe("Lou 😀")
  })
})
