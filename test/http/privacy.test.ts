import { beforeAll, describe, expect, it } from "vitest"
import { conversationsOn } from "../messaging/support"
import type { Reply } from "../support/http"
import { httpWorld } from "../support/world"

/**
 * "No answer to a user carries another user's email or phone unless the spec shows it to that role":
 * a client and a provider who share a service, a booking and a conversation walk the endpoints each
 * of them uses, and no answer may contain the other's email address or phone number.
 */
const world = httpWorld({ service: { title: "Cours de piano", description: "Tous niveaux.", price: 50 } })
const { api, provider, client, bookedIn } = world
let bookingId: string
let conversationId: string
const phones = { provider: "5145550177", client: "4385550199" }

beforeAll(async () => {
  // Distinct phone numbers, so a hit names whose number leaked.
  expect((await api.patch("/api/users/me", { phoneNumber: phones.provider }, { token: provider.token })).status).toBe(200)
  expect((await api.patch("/api/users/me", { phoneNumber: phones.client }, { token: client.token })).status).toBe(200)
  ;({ bookingId } = await bookedIn("pending"))
  conversationId = await conversationsOn(api).exchange(client, provider, world.serviceId)
})

const paths = () => [
  "/api/conversations",
  `/api/conversations/${conversationId}`,
  `/api/conversations/${conversationId}/messages`,
  "/api/bookings/me",
  "/api/bookings/me?role=client",
  "/api/bookings/me?role=provider",
  `/api/bookings/${bookingId}`,
  `/api/bookings/me/service/${world.serviceId}`,
  "/api/bookings/provider/calendar",
  `/api/services/${world.serviceId}`,
  "/api/services",
  `/api/services/provider/${provider.id}`,
  `/api/services/user/${provider.id}`,
  `/api/payments/services/${world.serviceId}/reviews`,
  `/api/users/public/${provider.id}`,
  `/api/users/public/${client.id}`,
  `/api/users/${provider.id}/badges`,
  `/api/users/${client.id}/badges`
]

const leaks = (reply: Reply, other: { email: string; phone: string }) =>
  [other.email, other.phone].filter((secret) => reply.text.toLowerCase().includes(secret.toLowerCase()))

describe("no answer carries the other user's email or phone", () => {
  for (const [viewer, other] of [
    ["client", "provider"],
    ["provider", "client"]
  ] as const) {
    it(`as the ${viewer}`, async () => {
      const me = viewer === "client" ? client : provider
      const them = other === "client" ? client : provider
      let walked = 0
      for (const path of paths()) {
        const reply = await api.get(path, { token: me.token })
        if (reply.status === 200) walked++
        expect(leaks(reply, { email: them.email, phone: phones[other] }), `${viewer} GET ${path}`).toEqual([])
      }
      // The walk reached the views that name the other user (not a walk of 404s).
      expect(walked).toBeGreaterThanOrEqual(12)
    })
  }

  it("the conversation still names its participants (first and last names)", async () => {
    const reply = await api.get(`/api/conversations/${conversationId}`, { token: client.token })
    const participants = reply.body.data.conversation.participants as Array<Record<string, unknown>>
    expect(participants.map((p) => p.id).sort()).toEqual([client.id, provider.id].sort())
    for (const p of participants) expect(Object.keys(p).sort()).toEqual(["firstName", "id", "lastName"])
  })
})
