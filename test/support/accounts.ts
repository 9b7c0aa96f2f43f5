import { Effect } from "effect"
import { expect } from "vitest"
import { Identity, type User, UserRepository } from "../../src/modules/identity"
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

/** `login`'s access token alone. */
export const loginToken = async (api: Api, email: string, password: string) => (await login(api, email, password)).token

export type AccountRole = "CLIENT" | "PROVIDER" | "ADMIN"
let made = 0
/**
 * A new verified account of `role` made by the identity service itself (no registration mail), Zoé
 * Lévesque unless `fields` say otherwise, logged in: the user, its credentials and its token.
 */
export const freshUser = async (
  server: TestServer,
  api: Api,
  role: AccountRole = "CLIENT",
  fields: { firstName?: string; lastName?: string; preferredLanguage?: "fr" | "en" } = {}
): Promise<{ user: User; email: string; password: string; token: string }> => {
  const email = `${role.toLowerCase()}.${Date.now().toString(36)}${(++made).toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`
  const password = "Passw0rd!"
  const user = await server.run(
    Effect.flatMap(Identity, (identity) =>
      identity.createAccount({
        firstName: fields.firstName ?? "Zoé",
        lastName: fields.lastName ?? "Lévesque",
        email,
        phoneNumber: "5145550177",
        password,
        confirmPassword: password,
        role,
        ...(fields.preferredLanguage ? { preferredLanguage: fields.preferredLanguage } : {})
      })
    )
  )
  return { user, email, password, token: await loginToken(api, email, password) }
}

/** Logs in with the two fields alone (a login body with others is refused): the access token, the refresh cookie and the user. */
export const loginWithCookie = async (api: Api, credentials: { readonly email: string; readonly password: string }) => {
  const reply = await api.post("/api/auth/login", { email: credentials.email, password: credentials.password })
  expect(reply.status, reply.text).toBe(200)
  return { token: reply.body.data.token as string, cookie: reply.cookies.refreshToken!.value, user: reply.body.data.user }
}

/**
 * Registers through the API (`registration(fields)`) and follows the link mailed to verify the address:
 * the registration's input and answer, and its credentials (not logged in).
 */
export const registeredThroughApi = async (server: TestServer, api: Api, fields: Record<string, unknown> = {}) => {
  const input = registration(fields)
  const reply = await api.post("/api/auth/register", input)
  expect(reply.status, reply.text).toBe(201)
  expect((await api.get(`/api/auth/verify-email/${await mailedToken(server, input.email, "verify-email")}`)).status).toBe(200)
  return { input, reply, credentials: { email: input.email, password: input.password } }
}

/** A new verified user (a CLIENT, as registration always makes). */
export const newClient = async (server: TestServer, api: Api, overrides: Record<string, unknown> = {}): Promise<Session> => {
  const { credentials } = await registeredThroughApi(server, api, overrides)
  return login(api, credentials.email, credentials.password)
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

/** A new verified administrator of the test's own (a client given the role), logged in again to carry it. */
export const newAdmin = async (server: TestServer, api: Api): Promise<Session> => {
  const session = await newClient(server, api)
  await server.run(Effect.flatMap(UserRepository, (users) => users.setRole(session.id, "ADMIN")))
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
