import { beforeAll, describe, expect, it } from "vitest"
import { conversationsOn } from "../messaging/support"
import { newClient, newProvider, type Session } from "../support/accounts"
import { bookingIn, serviceOf } from "../support/scenarios"
import { httpWorld } from "../support/world"

/**
 * Issue 15: no answer to a non-admin carries another user's email or phone number. Every GET of the
 * OpenAPI document is walked as a client and as a provider, with every path parameter filled by each
 * fixture id (users, a service, conversations, a booking), and every answer searched for the other
 * users' emails and phone numbers.
 */
const { server, api } = httpWorld()
const { exchange } = conversationsOn(api)
let paths: ReadonlyArray<string>
let client: Session
let provider: Session
let other: Session
let ids: ReadonlyArray<string>
const phones = new Map<string, string>()

/** A verified person with a phone number of their own (so that a hit names whose number leaked). */
const person = async (phoneNumber: string, role: "CLIENT" | "PROVIDER" = "CLIENT") => {
  const session =
    role === "PROVIDER" ? await newProvider(server, api, undefined, { phoneNumber }) : await newClient(server, api, { phoneNumber })
  phones.set(session.id, phoneNumber)
  return session
}

beforeAll(async () => {
  client = await person("5145550101")
  other = await person("4385550303")
  provider = await person("8195550202", "PROVIDER")
  const serviceId = await serviceOf(server, provider, { title: "Plomberie d'urgence", description: "Fuites et robinets.", price: 60 })
  const { bookingId } = await bookingIn(server, "pending", {
    provider,
    client,
    serviceId,
    startsInHours: 72,
    address: "1200 rue Sainte-Catherine, Montréal",
    notes: "Sonnez deux fois"
  })
  const conversations: Array<string> = []
  for (const [from, to] of [
    [client, provider],
    [other, provider],
    [other, client]
  ] as const)
    conversations.push(await exchange(from, to, to.id === provider.id ? serviceId : undefined))
  // The provider confirms: a confirmed booking between the two is where contact details would be tempting to show.
  expect((await api.post(`/api/bookings/${bookingId}/confirm`, {}, { token: provider.token })).status).toBeLessThan(500)

  ids = [client.id, provider.id, other.id, serviceId, bookingId, ...conversations]
  const doc = (await api.get("/api/docs")).body as { paths: Record<string, Record<string, unknown>> }
  paths = Object.entries(doc.paths)
    .filter(([, methods]) => "get" in methods)
    .map(([path]) => path)
}, 180_000)

/** Every concrete GET path: each `{param}` filled with each fixture id (a path without parameters once). */
const concretePaths = () =>
  paths.flatMap((path) => {
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!)
    if (names.length === 0) return [path]
    return ids.map((id) => names.reduce((p, name) => p.replace(`{${name}}`, id), path))
  })

const walkAs = async (caller: Session) => {
  const everyone = [client, provider, other]
  const secrets = everyone
    .filter((u) => u.id !== caller.id)
    .flatMap((u) => [
      { what: `${u.email} (email)`, text: u.email.toLowerCase() },
      { what: `${phones.get(u.id)} (phone)`, text: phones.get(u.id)! }
    ])
    .concat([{ what: "the admin's email", text: "admin@marketplace.local" }])
  const leaks: Array<string> = []
  let answered = 0
  for (const path of concretePaths()) {
    const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${caller.token}` } })
    const body = (await res.text()).toLowerCase()
    if (res.status === 200) answered++
    // Phone numbers may be written with separators in free text: search the digits too.
    const digits = body.replace(/[\s.\-()+]/g, "")
    for (const secret of secrets) {
      if (body.includes(secret.text) || (/^\d+$/.test(secret.text) && digits.includes(secret.text))) {
        leaks.push(`GET ${path} (${res.status}) shows ${secret.what}`)
      }
    }
  }
  return { leaks, answered }
}

describe("no answer leaks another user's contact details", () => {
  it("the OpenAPI document lists the GET endpoints walked here", () => {
    expect(paths.length).toBeGreaterThan(30)
    expect(paths).toContain("/api/bookings/{id}")
    expect(paths).toContain("/api/conversations/{id}/messages")
    expect(paths).toContain("/api/users/public/{id}")
  })

  it("as a client", async () => {
    const { leaks, answered } = await walkAs(client)
    expect(leaks).toEqual([])
    expect(answered).toBeGreaterThan(20)
  }, 180_000)

  it("as a provider", async () => {
    const { leaks, answered } = await walkAs(provider)
    expect(leaks).toEqual([])
    expect(answered).toBeGreaterThan(20)
  }, 180_000)

  it("the search itself works: a planted email in an answer is found", async () => {
    // The provider's own email is in their /api/auth/me: walking as the client, it would be a leak.
    const me = await (await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${provider.token}` } })).text()
    expect(me.toLowerCase()).toContain(provider.email.toLowerCase())
    expect(me).toContain(phones.get(provider.id)!)
  })
})
