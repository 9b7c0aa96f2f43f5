import { Effect } from "effect"
import { expect } from "vitest"
import { UserRepository } from "../../src/modules/identity"
import { SandboxConnect } from "../../src/modules/payments/adapters/sandbox"
import { openAllTheTime } from "./availability"
import { type httpClient, mailedToken, registration } from "./http"
import type { TestServer } from "./server"

type Api = ReturnType<typeof httpClient>
export interface Session {
  readonly token: string
  readonly id: string
  readonly email: string
}

export const login = async (api: Api, email: string, password: string): Promise<Session> => {
  const reply = await api.post("/api/auth/login", { email, password })
  expect(reply.status, reply.text).toBe(200)
  return { token: reply.body.data.token as string, id: reply.body.data.user.id as string, email }
}

/** A new verified user (a CLIENT, as registration always makes). */
export const newClient = async (server: TestServer, api: Api, overrides: Record<string, unknown> = {}): Promise<Session> => {
  const input = registration(overrides)
  expect((await api.post("/api/auth/register", input)).status).toBe(201)
  expect((await api.get(`/api/auth/verify-email/${await mailedToken(server, input.email, "verify-email")}`)).status).toBe(200)
  return login(api, input.email, input.password)
}

/** A new verified provider whose sandbox payout account can take charges (unless said otherwise). */
export const newProvider = async (
  server: TestServer,
  api: Api,
  options: { readonly paymentReady: boolean } = { paymentReady: true },
  overrides: Record<string, unknown> = {}
) => {
  const session = await newClient(server, api, overrides)
  await server.run(Effect.flatMap(UserRepository, (users) => users.setRole(session.id, "PROVIDER")))
  // Open at any time (support/availability.ts): tests pick their booking times freely.
  await server.run(openAllTheTime(session.id))
  // A completed account of the sandbox gateway, as its onboarding pages leave it (the gateway knows it).
  if (options.paymentReady)
    await server.run(Effect.flatMap(SandboxConnect, (sandbox) => sandbox.provisionReady({ id: session.id, email: session.email }, "CA")))
  // A fresh login carries the new role.
  return login(api, session.email, registration().password)
}

/** A payment-ready provider with one published service, and a client to book it. */
export const providerWithService = async (server: TestServer, api: Api, service: Record<string, unknown>) => {
  const provider = await newProvider(server, api)
  const client = await newClient(server, api)
  const created = await api.post(
    "/api/services",
    { duration: 60, location: "Montréal", categoryId: 7, ...service },
    { token: provider.token }
  )
  expect(created.status, created.text).toBe(201)
  return { provider, client, serviceId: created.body.data.service.id as string }
}
