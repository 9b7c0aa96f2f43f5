import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { newClient, type Session } from "../support/accounts"
import { testDatabaseKind } from "../support/database"
import { httpWorld } from "../support/world"

const world = httpWorld({
  service: { title: "Déménagement", description: "Aide au déménagement avec camion.", price: 60, location: "Québec", categoryId: 8 }
})
const { server, api, client } = world
/** Five clients racing for one provider. */
let clients: ReadonlyArray<Session>
beforeAll(async () => {
  clients = [client, ...(await Promise.all(Array.from({ length: 4 }, () => newClient(server, api))))]
})

describe(`overlapping requests for one provider (${testDatabaseKind})`, () => {
  it("50 concurrent requests for overlapping slots: exactly one wins, the others get 409, nothing half-written", async () => {
    const base = Date.now() + 3 * 24 * 3_600_000
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        // Every slot overlaps every other: all start within the first hour and last two hours.
        const start = new Date(base + (i % 10) * 60_000)
        return api.post(
          "/api/bookings",
          {
            serviceId: world.serviceId,
            startTime: start.toISOString(),
            endTime: new Date(start.getTime() + 2 * 3_600_000).toISOString(),
            address: "10 rue du Port, Québec"
          },
          { token: clients[i % clients.length]!.token }
        )
      })
    )
    const statuses = replies.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(1)
    expect(statuses.filter((s) => s === 409)).toHaveLength(49)
    expect(new Set(replies.filter((r) => r.status === 409).map((r) => r.body.code))).toEqual(new Set(["BOOKING_SLOT_TAKEN"]))
    const rows = await server.run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM bookings WHERE service_id = ${world.serviceId}`
      )
    )
    expect(rows[0]?.n).toBe(1)
  }, 60_000)
})
