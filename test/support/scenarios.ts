import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { Bookings } from "../../src/modules/booking"
import type { UserCommand } from "../../src/modules/booking/service"
import { Catalogue } from "../../src/modules/catalogue"
import type { ServiceInput } from "../../src/modules/catalogue/domain"
import { type Actor, UserRepository } from "../../src/modules/identity"
import { payInSandbox } from "../booking/support"
import { newClient, newProvider, type Session } from "./accounts"
import { actorOf } from "./domain"
import { HOUR } from "./durations"
import { httpClient } from "./http"
import type { TestServer } from "./server"

/**
 * Scenario builders: the states tests start from, built once on the application's own services
 * through the test server's runtime (`server.run`), so a test starts at the page or the call under
 * test. Only the card payment goes through the sandbox's payment page (its form's POST, as a browser
 * sends it), since that is where the hold is made; and a booking "rendered" is moved into the past,
 * as the tests of that state always did.
 */

/** A verified provider whose sandbox payout account can take charges, open at any time. */
export const providerWithPayouts = (server: TestServer, overrides: Record<string, unknown> = {}): Promise<Session> =>
  newProvider(server, httpClient(server), { paymentReady: true }, overrides)

/** A published service of `provider` (60 minutes in Montréal at 40 an hour unless `fields` say otherwise); answers its id. */
export const serviceOf = async (server: TestServer, provider: Session, fields: Partial<ServiceInput> = {}): Promise<string> => {
  const service = await server.run(
    Effect.flatMap(Catalogue, (catalogue) =>
      catalogue.create(actorOf(provider, "PROVIDER"), {
        title: "Réparation de clôture",
        description: "Réparation de clôtures en bois.",
        price: 40,
        duration: 60,
        location: "Montréal",
        categoryId: 7,
        ...fields
      })
    )
  )
  return service.id
}

/** The states a booking can be built in, each the one before it plus one step. */
export const BookingStates = ["pending", "paid", "confirmed", "rendered", "disputed", "completed", "refunded"] as const
export type BookingState = (typeof BookingStates)[number]

export interface BookingOptions {
  readonly provider?: Session
  readonly client?: Session
  /** The provider's service to book (a new one of `service`'s fields otherwise). */
  readonly serviceId?: string
  readonly service?: Partial<ServiceInput>
  /** When it starts, in whole hours from now (48 by default: outside the free-cancellation window). */
  readonly startsInHours?: number
  /** When it starts, exactly (instead of `startsInHours`). */
  readonly start?: Date
  readonly hours?: number
  readonly address?: string
  readonly notes?: string
  /** "completed": the client's review (5 stars, "Parfait" by default). */
  readonly review?: { readonly rating: number; readonly comment: string }
  /** "refunded": how much the administrator refunds (everything captured by default), and why. */
  readonly refundMinor?: number
  readonly refundReason?: string
  /** "paid": the sandbox's test card paid with (4242 4242 4242 4242 by default). */
  readonly card?: string
}

export interface BuiltBooking {
  readonly bookingId: string
  readonly serviceId: string
  readonly provider: Session
  readonly client: Session
  readonly start: Date
  readonly end: Date
}

const act = (server: TestServer, actor: Actor, bookingId: string, command: UserCommand) =>
  server.run(Effect.flatMap(Bookings, (bookings) => bookings.act(actor, bookingId, command)))

/** The seeded administrator (src/app/seed.ts), as an actor. */
const demoAdmin = (server: TestServer) =>
  server.run(
    Effect.map(
      Effect.flatMap(UserRepository, (users) => users.findByEmail("admin@marketplace.local")),
      (found) => actorOf(Option.getOrThrow(found), "ADMIN")
    )
  )

/** The start of the booking last moved into the past: the next one ends before it. */
let pastCursor = Number.POSITIVE_INFINITY
/**
 * Moves the booking's times into the past, as if it had happened: it ended half an hour ago, or half
 * an hour before the one moved before it, so that bookings of one provider moved back one after
 * another never overlap (the slot constraint holds for the past too); back to now after 4 days.
 * For a test whose booking must have started (and ended) by the time it acts on it.
 */
export const moveIntoPast = (server: TestServer, bookingId: string, hours: number) => {
  const latest = Date.now() - HOUR / 2
  if (pastCursor < latest - 4 * 24 * HOUR) pastCursor = Number.POSITIVE_INFINITY
  const end = new Date(Math.min(latest, pastCursor - HOUR / 2))
  const start = new Date(end.getTime() - hours * HOUR)
  pastCursor = start.getTime()
  return server
    .run(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql.unsafe("UPDATE bookings SET start_time = $2, end_time = $3 WHERE id = $1", [bookingId, start, end])
      )
    )
    .then(() => ({ start, end }))
}

type Step = (server: TestServer, built: BuiltBooking, options: BookingOptions) => Promise<BuiltBooking>

/** The steps after the request, in order: each state is reached by running the steps up to it. */
const steps: ReadonlyArray<readonly [BookingState, Step]> = [
  [
    "paid",
    async (server, built, options) => {
      await payInSandbox(server, httpClient(server), built.client.token, built.bookingId, options.card)
      return built
    }
  ],
  [
    "confirmed",
    (server, built) => act(server, actorOf(built.provider, "PROVIDER"), built.bookingId, { _tag: "Confirm" }).then(() => built)
  ],
  [
    "rendered",
    async (server, built) => {
      const moved = await moveIntoPast(server, built.bookingId, (built.end.getTime() - built.start.getTime()) / HOUR)
      await act(server, actorOf(built.provider, "PROVIDER"), built.bookingId, { _tag: "MarkRendered" })
      return { ...built, ...moved }
    }
  ],
  [
    "disputed",
    (server, built) =>
      server
        .run(
          Effect.flatMap(Bookings, (bookings) =>
            bookings.reportProblem(
              actorOf(built.client, "CLIENT"),
              built.bookingId,
              { reason: "PARTLY_DONE", description: "La moitié du travail seulement a été faite." },
              {}
            )
          )
        )
        .then(() => built)
  ]
]

/** After "rendered", a client either reports a problem (disputed) or validates (completed, then refunded). */
const completionSteps: typeof steps = [
  [
    "completed",
    (server, built, options) =>
      act(server, actorOf(built.client, "CLIENT"), built.bookingId, {
        _tag: "ConfirmCompletion",
        ...(options.review ?? { rating: 5, comment: "Parfait" })
      }).then(() => built)
  ],
  [
    "refunded",
    // The back-office's refund (POST /api/admin/bookings/{id}/refund): with its reason and its audit entry.
    async (server, built, options) => {
      const admin = await demoAdmin(server)
      await server.run(
        Effect.flatMap(Bookings, (bookings) =>
          bookings.refund(admin, built.bookingId, {
            amountMinor: options.refundMinor,
            reason: options.refundReason ?? "Geste commercial"
          })
        )
      )
      return built
    }
  ]
]

const pathTo = (state: BookingState) => {
  const path = state === "completed" || state === "refunded" ? [...steps.slice(0, 3), ...completionSteps] : steps
  return path.slice(0, path.findIndex(([name]) => name === state) + 1)
}

/**
 * A booking in `state`: requested by a client of a payment-ready provider's service (new ones unless
 * given), then carried through the real steps to that state: paid (the card held in the sandbox),
 * confirmed by the provider, rendered (moved into the past, marked rendered), disputed (the client
 * reports a problem), completed (the client validates: captured), refunded (an admin refunds it all, or
 * `refundMinor`, with a reason).
 */
export const bookingIn = async (server: TestServer, state: BookingState, options: BookingOptions = {}): Promise<BuiltBooking> => {
  const api = httpClient(server)
  const provider = options.provider ?? (await providerWithPayouts(server))
  const client = options.client ?? (await newClient(server, api))
  const serviceId = options.serviceId ?? (await serviceOf(server, provider, options.service))
  const start = options.start ?? new Date(Date.now() + (options.startsInHours ?? 48) * HOUR)
  if (!options.start) start.setUTCMinutes(0, 0, 0)
  const end = new Date(start.getTime() + (options.hours ?? 1) * HOUR)
  const requested = await server.run(
    Effect.flatMap(Bookings, (bookings) =>
      bookings.request(actorOf(client, "CLIENT"), {
        serviceId,
        startTime: start.toISOString(),
        endTime: end.toISOString(),
        address: options.address ?? "4500 rue Saint-Denis, Montréal",
        notes: options.notes
      })
    )
  )
  return advance(server, { bookingId: requested.id, serviceId, provider, client, start, end }, state, options)
}

/**
 * Carries a pending (unpaid) booking made elsewhere (through the booking form, say) on to `state` by
 * the same steps as `bookingIn`: paid in the sandbox, confirmed by its provider, and so on.
 */
export const advance = async (
  server: TestServer,
  booking: BuiltBooking,
  state: BookingState,
  options: Pick<BookingOptions, "review" | "refundMinor" | "refundReason" | "card"> = {}
): Promise<BuiltBooking> => {
  let built = booking
  if (state === "pending") return built
  for (const [, step] of pathTo(state)) built = await step(server, built, options)
  return built
}
