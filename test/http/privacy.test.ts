import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { providerWithService, type Session } from "../support/accounts"
import { httpClient, type Reply } from "../support/http"
import { startTestServer, type TestServer } from "../support/server"

/**
 * "No answer to a user carries another user's email or phone unless the spec shows it to that role":
 * a client and a provider who share a service, a booking and a conversation walk the endpoints each
 * of them uses, and no answer may contain the other's email address or phone number.
 */
let server: TestServer
let api: ReturnType<typeof httpClient>
let provider: Session
let client: Session
let serviceId: string
let bookingId: string
let conversationId: string
const phones = { provider: "5145550177", client: "4385550199" }

beforeAll(async () => {
  server = await startTestServer()
  api = httpClient(server)
  ;({ provider, client, serviceId } = await providerWithService(server, api, {
    title: "Cours de piano",
    description: "Tous niveaux.",
    price: 50
  }))
  // Distinct phone numbers, so a hit names whose number leaked.
  expect((await api.patch("/api/users/me", { phoneNumber: phones.provider }, { token: provider.token })).status).toBe(200)
  expect((await api.patch("/api/users/me", { phoneNumber: phones.client }, { token: client.token })).status).toBe(200)
  const start = new Date(Date.now() + 36 * 3600_000)
  start.setUTCMinutes(0, 0, 0)
  const booked = await api.post(
    "/api/bookings",
    {
      serviceId,
      address: "1200 rue Sainte-Catherine, Montréal",
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + 3600_000).toISOString()
    },
    { token: client.token }
  )
  expect(booked.status, booked.text).toBe(201)
  bookingId = booked.body.data.bookingData.id
  const conversation = await api.post("/api/conversations", { participantId: provider.id, serviceId }, { token: client.token })
  expect([200, 201]).toContain(conversation.status)
  conversationId = conversation.body.data.conversation.id
  expect((await api.post(`/api/conversations/${conversationId}/messages`, { content: "Bonjour" }, { token: client.token })).status).toBe(
    201
  )
  expect(
    (await api.post(`/api/conversations/${conversationId}/messages`, { content: "Bonjour !" }, { token: provider.token })).status
  ).toBe(201)
})
afterAll(() => server?.stop())

const paths = () => [
  "/api/conversations",
  `/api/conversations/${conversationId}`,
  `/api/conversations/${conversationId}/messages`,
  "/api/bookings/me",
  "/api/bookings/me?role=client",
  "/api/bookings/me?role=provider",
  `/api/bookings/${bookingId}`,
  `/api/bookings/me/service/${serviceId}`,
  "/api/bookings/provider/calendar",
  `/api/services/${serviceId}`,
  "/api/services",
  `/api/services/provider/${provider.id}`,
  `/api/services/user/${provider.id}`,
  `/api/payments/services/${serviceId}/reviews`,
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
