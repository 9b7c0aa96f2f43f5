import { describe, expect, it } from "vitest"
import { en, fr } from "../../src/platform/messages"
import type { Session } from "../support/accounts"
import { expectError, mailsTo } from "../support/http"
import { httpWorld } from "../support/world"
import { as, conversationsOn } from "./support"

// Issue 23, item 11: a block stops bookings both ways (no request, no notes, no mail reach the other)
// and the conversation says who blocked whom, so that the chat shows no presence and no send box.
const world = httpWorld({ service: { title: "Cours de guitare" }, stranger: true })
const { server, api, provider, client, requestBooking } = world
const { start } = conversationsOn(api)

const block = async (who: Session, other: Session) => expect((await api.post(`/api/users/${other.id}/block`, {}, as(who))).status).toBe(201)
const unblock = async (who: Session, other: Session) =>
  expect((await api.call("DELETE", `/api/users/${other.id}/block`, as(who))).status).toBe(200)
const bookingsBetween = async () =>
  world.sql<{ n: number }>("SELECT count(*)::int AS n FROM bookings WHERE client_id = $1 AND provider_id = $2", [client.id, provider.id])

describe("a block between a client and a provider", () => {
  it("refuses the client's booking whoever blocked, in the client's language, and nothing reaches the provider", async () => {
    const mailsBefore = (await mailsTo(server, provider.email)).length
    for (const [blocker, blocked] of [
      [client, provider],
      [provider, client]
    ] as const) {
      await block(blocker, blocked)
      const french = await requestBooking(client.token, { notes: "Mon numéro : 06 12 34 56 78" })
      expectError(french, 403, "USER_BLOCKED", `${blocker === client ? "client" : "provider"} blocked`)
      expect(french.body.message).toBe(fr["booking.pairBlocked"])
      const english = await requestBooking(client.token, {}, "en")
      expect(english.body.message).toBe(en["booking.pairBlocked"])
      await unblock(blocker, blocked)
    }
    expect((await bookingsBetween())[0]!.n).toBe(0)
    expect(await mailsTo(server, provider.email)).toHaveLength(mailsBefore)

    // Lifted, the booking goes through.
    expect((await requestBooking(client.token)).status).toBe(201)
  })

  it("shows in the conversation, for each side, who blocked whom; lifted, it is open again", async () => {
    const { id } = await start(client, provider)
    const stateOf = async (who: Session) => {
      const one = await api.get(`/api/conversations/${id}`, as(who))
      const list = await api.get("/api/conversations", as(who))
      const listed = (list.body.data.conversations as Array<{ id: string; blocked: string }>).find((c) => c.id === id)
      expect(listed?.blocked, "the list says the same").toBe(one.body.data.conversation.blocked)
      return one.body.data.conversation.blocked as string
    }
    expect([await stateOf(client), await stateOf(provider)]).toEqual(["NONE", "NONE"])
    await block(provider, client)
    expect([await stateOf(client), await stateOf(provider)]).toEqual(["BY_OTHER", "BY_ME"])
    // Another conversation of the provider is not touched.
    const other = await start(world.stranger, provider)
    expect((await api.get(`/api/conversations/${other.id}`, as(provider))).body.data.conversation.blocked).toBe("NONE")
    await unblock(provider, client)
    expect([await stateOf(client), await stateOf(provider)]).toEqual(["NONE", "NONE"])
  })
})
