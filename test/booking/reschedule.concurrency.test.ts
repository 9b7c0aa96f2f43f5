import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { newClient, type Session } from "../support/accounts"
import { testDatabaseKind } from "../support/database"
import { httpWorld } from "../support/world"
import { HOUR } from "../support/durations"

/**
 * A rescheduled booking never overlaps another (issue 12): concurrent acceptances of proposals moving
 * bookings of one provider onto overlapping times, against the database. The exclusion constraint
 * decides each race under the bookings' row locks; the losers answer 409 BOOKING_SLOT_TAKEN and keep
 * their time and their open proposal.
 */

const BOOKINGS = 8

const world = httpWorld({
  service: { title: "Cours de guitare", description: "Cours à domicile.", price: 50, location: "Québec", categoryId: 8 }
})
const { server, api, provider, client } = world
/** One client per booking. */
let clients: ReadonlyArray<Session>
beforeAll(async () => {
  clients = [client, ...(await Promise.all(Array.from({ length: BOOKINGS - 1 }, () => newClient(server, api))))]
})

/** Pairs of slot-holding bookings of the service's provider that overlap (none, ever). */
const overlaps = () =>
  server
    .run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{
          n: number
        }>`SELECT count(*)::int AS n FROM bookings a JOIN bookings b ON a.provider_id = b.provider_id AND a.id < b.id
        WHERE a.service_id = ${world.serviceId} AND a.status NOT IN ('REJECTED', 'CANCELLED') AND b.status NOT IN ('REJECTED', 'CANCELLED')
          AND tstzrange(a.start_time, a.end_time, '[)') && tstzrange(b.start_time, b.end_time, '[)')`
      )
    )
    .then((rows) => rows[0]?.n)

describe(`concurrent acceptances of proposals onto overlapping times (${testDatabaseKind})`, () => {
  it("one move wins each race, the others get 409 and keep their time; no two bookings ever overlap", async () => {
    const base = Date.now() + 2 * 24 * HOUR
    const day = new Date(base)
    day.setUTCHours(0, 0, 0, 0)
    // Eight one-hour bookings, two hours apart.
    const bookings = await Promise.all(
      clients.map(async (client, i) => {
        const start = new Date(day.getTime() + 24 * HOUR + i * 2 * HOUR)
        const reply = await api.post(
          "/api/bookings",
          {
            serviceId: world.serviceId,
            startTime: start.toISOString(),
            endTime: new Date(start.getTime() + HOUR).toISOString(),
            address: "10 rue du Port, Québec"
          },
          { token: client.token }
        )
        expect(reply.status, reply.text).toBe(201)
        return { id: reply.body.data.bookingData.id as string, client }
      })
    )
    // Rounds: the provider proposes to every booking a time among a few overlapping ones on another day,
    // then every client accepts at once.
    for (let round = 0; round < 4; round++) {
      const targets = bookings.map((_, i) => {
        const start = new Date(day.getTime() + (3 + round) * 24 * HOUR + ((i * 7 + round) % 4) * 30 * 60_000)
        return { startTime: start.toISOString(), endTime: new Date(start.getTime() + HOUR).toISOString() }
      })
      const proposals = await Promise.all(
        bookings.map(async (b, i) => {
          const reply = await api.post(`/api/bookings/${b.id}/reschedule`, targets[i], { token: provider.token })
          return reply.status === 201 ? (reply.body.data.proposal.id as string) : undefined
        })
      )
      const before = await Promise.all(
        bookings.map(async (b) => (await api.get(`/api/bookings/${b.id}`, { token: b.client.token })).body.data.booking)
      )
      const answers = await Promise.all(
        bookings.map((b, i) =>
          proposals[i] === undefined
            ? Promise.resolve(undefined)
            : api.post(`/api/bookings/${b.id}/reschedule/${proposals[i]}/accept`, {}, { token: b.client.token })
        )
      )
      const statuses = answers.filter((a) => a !== undefined).map((a) => a.status)
      // Four one-hour times half an hour apart, each overlapping its neighbours: at least one move wins,
      // and every refusal is the slot's.
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1)
      for (const a of answers) if (a && a.status !== 200) expect(a.body.code, a.text).toBe("BOOKING_SLOT_TAKEN")
      expect(await overlaps()).toBe(0)
      // A loser kept its time and its open proposal (then declines it, so the next round may propose again).
      for (const [i, a] of answers.entries()) {
        if (!a || a.status === 200) continue
        const now = (await api.get(`/api/bookings/${bookings[i]!.id}`, { token: bookings[i]!.client.token })).body.data.booking
        expect(now.startTime).toBe(before[i].startTime)
        expect(now.openProposal?.id).toBe(proposals[i])
        const declined = await api.post(
          `/api/bookings/${bookings[i]!.id}/reschedule/${proposals[i]}/decline`,
          {},
          {
            token: bookings[i]!.client.token
          }
        )
        expect(declined.status).toBe(200)
      }
    }
    expect(await overlaps()).toBe(0)
  }, 120_000)
})
