import { type Clock, Effect } from "effect"
import { afterAll, beforeAll, expect } from "vitest"
import type { ServiceInput } from "../../src/modules/catalogue/domain"
import type { AppConfigShape } from "../../src/platform/config"
import { login, newClient, newProvider, type Session } from "./accounts"
import { HOUR } from "./durations"
import { type CliRun, startCliReachableServer } from "./cli"
import { httpClient, type Reply } from "./http"
import { type BookingOptions, type BookingState, type BuiltBooking, bookingIn, serviceOf } from "./scenarios"
import { sqlOn, startTestServer, type TestServer } from "./server"

/** The seeded administrator's credentials (src/app/seed.ts). */
export const DEMO_ADMIN = { email: "admin@marketplace.local", password: "Admin1234!" } as const

export interface WorldOptions {
  /**
   * The server's configuration, over the test defaults; a function when part of it is known only as the
   * server starts (its own port, a fake started in an earlier `beforeAll`).
   */
  readonly config?: Partial<AppConfigShape> | (() => Promise<Partial<AppConfigShape>> | Partial<AppConfigShape>)
  /** A clock the test moves (`adjustableClock().clock`): the server runs on it and `nextSlot` counts from it. */
  readonly clock?: Clock.Clock
  /** A server a spawned CLI can reach too (`cli`), as `startCliReachableServer`. */
  readonly cli?: boolean
  /**
   * The fields of a published service (`serviceOf`'s defaults for the rest): with it come the provider
   * and the client, and the provider's service (`world.serviceId`) for the client to book.
   */
  readonly service?: Partial<ServiceInput>
  /** A verified provider open at any time whose sandbox payout account takes charges (with a service when `service` says so). */
  readonly provider?: boolean
  /** A verified client. */
  readonly client?: boolean
  /** Another verified client, who is party to none of the bookings. */
  readonly stranger?: boolean
  /** The seeded administrator, logged in (the seeded template only). */
  readonly admin?: boolean
  /** Where the `nextSlot` slots start (hours from now, 12 by default), how far apart (3 hours) and how long (1 hour). */
  readonly slots?: { readonly fromHours?: number; readonly apartHours?: number; readonly hours?: number }
  /** The booking's fields every `requestBooking`, `book` and `bookedIn` sends unless told otherwise. */
  readonly booking?: { readonly address?: string; readonly notes?: string }
}

export type Api = ReturnType<typeof httpClient>
export type Slot = { readonly startTime: string; readonly endTime: string }

export interface HttpWorld {
  /** The file's test server (a stand-in that reads the one started in `beforeAll`). */
  readonly server: TestServer
  readonly api: Api
  /** The sessions asked for (stand-ins too: their `token`, `id` and `email` read the real ones). */
  readonly provider: Session
  readonly client: Session
  readonly stranger: Session
  readonly admin: Session
  /** The provider's published service: read it inside a test or a hook. */
  readonly serviceId: string
  /** Runs `bin/run.mjs` against the server's database (`cli: true`). */
  readonly cli: CliRun
  /** Runs SQL on the server's database. */
  readonly sql: <A extends object>(text: string, params?: ReadonlyArray<unknown>) => Promise<ReadonlyArray<A>>
  /** Runs an effect that must fail on the server's services: its error's code. */
  readonly failureCode: (effect: Effect.Effect<unknown, unknown, any>) => Promise<string>
  /**
   * A fresh slot of the provider's calendar each call, `apartHours` after the one before and starting on
   * the hour, so that the file's bookings never overlap; `fromHours` moves this one further ahead.
   */
  readonly nextSlot: (hours?: number, fromHours?: number) => Slot
  /** POST /api/bookings as `token`: the world's service at the next slot with the world's fields, unless `body` says otherwise. */
  readonly requestBooking: (token: string, body?: Record<string, unknown>, language?: string) => Promise<Reply>
  /** `requestBooking`, which must answer 201 (as the client unless `token` says otherwise): the booking's data. */
  readonly book: (token?: string, body?: Record<string, unknown>) => Promise<any>
  /** A booking of the world's service by its client at the next slot, built in `state` (`bookingIn`) unless `options` say otherwise. */
  readonly bookedIn: (state: BookingState, options?: BookingOptions) => Promise<BuiltBooking>
}

type Party = "provider" | "client" | "stranger" | "admin"

/** An object whose `fields` read those of `real()` each time (a stand-in for a value made later, in a hook). */
const standIn = <T extends object>(fields: ReadonlyArray<keyof T & string>, real: () => T): T =>
  Object.defineProperties({}, Object.fromEntries(fields.map((field) => [field, { enumerable: true, get: () => real()[field] }]))) as T

/**
 * A test server for the enclosing file or `describe`, and the people a test of it needs, built once in
 * `beforeAll` (the server stopped in `afterAll`). The world's `server`, `api` and sessions can be
 * destructured at the top of the file: they are stand-ins that read the real ones once the hook has run
 * (reading one earlier, or one not asked for, throws and says so).
 */
export const httpWorld = (options: WorldOptions = {}): HttpWorld => {
  let started: { readonly server: TestServer; readonly cli?: CliRun } | undefined
  const parties: Partial<Record<Party, Session>> = {}
  let serviceId: string | undefined
  const missing = (what: string, option: string): never => {
    throw new Error(
      started ? `httpWorld: no ${what} in this world (ask for it with ${option})` : `httpWorld: the ${what} is there once beforeAll has run`
    )
  }
  const server = standIn<TestServer>(
    ["url", "port", "dataDir", "databaseUrl", "stop", "run"],
    () => started?.server ?? missing("server", "a beforeAll")
  )
  const api = httpClient(server)
  const party = (name: Party, option: string) => standIn<Session>(["token", "id", "email"], () => parties[name] ?? missing(name, option))
  const provider = party("provider", "{ provider: true } or { service }")
  const client = party("client", "{ client: true } or { service }")
  const service = () => serviceId ?? missing("service", "{ service }")

  beforeAll(async () => {
    const config = typeof options.config === "function" ? await options.config() : options.config
    started = options.cli
      ? await startCliReachableServer(config, { clock: options.clock })
      : { server: await startTestServer(config, { clock: options.clock }) }
    if (options.provider || options.service) parties.provider = await newProvider(started.server, api)
    if (options.client || options.service) parties.client = await newClient(started.server, api)
    if (options.service) serviceId = await serviceOf(started.server, provider, options.service)
    if (options.stranger) parties.stranger = await newClient(started.server, api)
    if (options.admin) parties.admin = await login(api, DEMO_ADMIN.email, DEMO_ADMIN.password)
  }, 120_000)
  afterAll(() => started?.server.stop())

  const slots = { fromHours: 12, apartHours: 3, hours: 1, ...options.slots }
  const booking = { address: "1200 rue Sainte-Catherine, Montréal", ...options.booking }
  let slotsTaken = 0
  const nextSlot = (hours = slots.hours, fromHours = slots.fromHours): Slot => {
    const now = options.clock?.unsafeCurrentTimeMillis() ?? Date.now()
    const start = new Date(now + (fromHours + ++slotsTaken * slots.apartHours) * HOUR)
    start.setUTCMinutes(0, 0, 0)
    return { startTime: start.toISOString(), endTime: new Date(start.getTime() + hours * HOUR).toISOString() }
  }
  const requestBooking = (token: string, body: Record<string, unknown> = {}, language?: string) =>
    api.post("/api/bookings", { serviceId: service(), ...booking, ...nextSlot(), ...body }, { token, ...(language ? { language } : {}) })

  return {
    server,
    api,
    provider,
    client,
    stranger: party("stranger", "{ stranger: true }"),
    admin: party("admin", "{ admin: true }"),
    get serviceId() {
      return service()
    },
    cli: (...args) => (started?.cli ?? missing("CLI", "{ cli: true }"))(...args),
    sql: sqlOn(server),
    failureCode: (effect) => server.run(Effect.flip(effect)).then((error) => (error as { code: string }).code),
    nextSlot,
    requestBooking,
    book: async (token = client.token, body = {}) => {
      const reply = await requestBooking(token, body)
      expect(reply.status, reply.text).toBe(201)
      return reply.body.data.bookingData
    },
    bookedIn: (state, built = {}) => {
      const hours = built.hours ?? slots.hours
      return bookingIn(server, state, {
        provider,
        client,
        serviceId: service(),
        start: built.start ?? new Date(nextSlot(hours).startTime),
        hours,
        ...booking,
        ...built
      })
    }
  }
}

/** `httpWorld` on a server a spawned CLI can reach too: `cli(...args)` runs `bin/run.mjs` against its database. */
export const cliWorld = (options: Omit<WorldOptions, "cli"> = {}) => httpWorld({ ...options, cli: true })
