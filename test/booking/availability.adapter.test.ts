import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import * as crypto from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AvailabilityRepositoryLive } from "../../src/modules/booking/availability/adapters/postgres"
import { AvailabilityRepository } from "../../src/modules/booking/availability/ports"
import { runMigrations } from "../../src/platform/migrations"
import { SqlTransactional } from "../../src/platform/transaction"
import { freshTestDatabase } from "../support/database"
import type { RuntimeOf, ServicesOf } from "../support/layers"

/** The availability adapter and migration 0018 on PGlite always, and on PostgreSQL when TEST_DATABASE_URL is set. */
const kinds: ReadonlyArray<"pglite" | "postgres"> = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"]

const HOUR = 3_600_000
const T0 = Date.parse("2030-03-04T00:00:00Z")

const stackOn = (kind: (typeof kinds)[number]) =>
  Layer.mergeAll(AvailabilityRepositoryLive, SqlTransactional).pipe(Layer.provideMerge(freshTestDatabase(kind)))

describe.each(kinds)("availability adapter on %s", (kind) => {
  let runtime: RuntimeOf<ReturnType<typeof stackOn>>
  const run = <A, E>(effect: Effect.Effect<A, E, ServicesOf<ReturnType<typeof stackOn>>>) => runtime.runPromise(effect)
  const sql = <A extends object>(text: string, params: ReadonlyArray<unknown> = []) =>
    run(Effect.flatMap(SqlClient.SqlClient, (db) => db.unsafe<A>(text, params)))
  const repo = () => run(AvailabilityRepository)
  let providerId: string
  let clientId: string
  let serviceId: string

  const plan = {
    weekly: [
      {
        weekday: 1,
        ranges: [
          { start: 540, end: 720 },
          { start: 780, end: 1020 }
        ]
      },
      { weekday: 6, ranges: [{ start: 0, end: 1440 }] }
    ],
    exceptions: [
      { kind: "closed" as const, startTime: new Date(T0 + 24 * HOUR), endTime: new Date(T0 + 48 * HOUR), note: "Congé" },
      { kind: "open" as const, startTime: new Date(T0 + 200 * HOUR), endTime: new Date(T0 + 202 * HOUR), note: null }
    ],
    noticeMinutes: 60,
    bufferMinutes: 15
  }

  beforeAll(async () => {
    runtime = ManagedRuntime.make(stackOn(kind))
    await run(runMigrations)
    const user = async (role: string, zone: string | null) =>
      (
        await sql<{ id: string }>(
          `INSERT INTO users (email, password_hash, first_name, last_name, phone_number, role, is_email_verified, preferred_language, time_zone)
           VALUES ($1, 'x', 'Léa', 'Côté', '5145550100', $2, true, 'fr', $3) RETURNING id`,
          [`avail.${crypto.randomBytes(4).toString("hex")}@example.com`, role, zone]
        )
      )[0]!.id
    providerId = await user("PROVIDER", "America/Toronto")
    clientId = await user("CLIENT", null)
    serviceId = (
      await sql<{ id: string }>(
        `INSERT INTO services (user_id, category_id, title, description, price_minor, currency, duration_minutes)
         VALUES ($1, 1, 'Piano', 'Leçons de piano.', 5000, 'EUR', 60) RETURNING id`,
        [providerId]
      )
    )[0]!.id
  })
  afterAll(() => runtime?.dispose())

  it("a provider without a plan reads as null beside their zone; an unknown id as None", async () => {
    const found = Option.getOrThrow(await run((await repo()).planOf(providerId)))
    expect(found).toEqual({ providerId, role: "PROVIDER", zone: "America/Toronto", plan: null })
    expect(Option.isNone(await run((await repo()).planOf(crypto.randomUUID())))).toBe(true)
  })

  it("saves a plan whole and reads it back; saving again replaces ranges and exceptions", async () => {
    const r = await repo()
    await run(r.save(providerId, plan))
    const stored = Option.getOrThrow(await run(r.planOf(providerId))).plan!
    expect(stored.weekly).toEqual(plan.weekly)
    expect(stored.exceptions.map(({ id, ...rest }) => rest)).toEqual(plan.exceptions)
    expect(stored.exceptions[0]!.id).toMatch(/^[0-9a-f-]{36}$/)
    expect([stored.noticeMinutes, stored.bufferMinutes]).toEqual([60, 15])
    await run(
      r.save(providerId, { ...plan, weekly: [{ weekday: 2, ranges: [{ start: 600, end: 660 }] }], exceptions: [], bufferMinutes: 0 })
    )
    const replaced = Option.getOrThrow(await run(r.planOf(providerId))).plan!
    expect(replaced.weekly).toEqual([{ weekday: 2, ranges: [{ start: 600, end: 660 }] }])
    expect(replaced.exceptions).toEqual([])
    expect(await sql<{ n: number }>("SELECT count(*)::int AS n FROM availability_plans WHERE provider_id = $1", [providerId])).toEqual([
      { n: 1 }
    ])
    await run(r.save(providerId, plan))
  })

  it("the database refuses overlapping ranges of a weekday, a range ending before it starts and a bad exception", async () => {
    const insertRange = (start: number, end: number) =>
      sql("INSERT INTO availability_ranges (provider_id, weekday, start_minute, end_minute) VALUES ($1, 1, $2, $3)", [
        providerId,
        start,
        end
      ])
    await expect(insertRange(600, 700)).rejects.toThrow()
    await expect(insertRange(1000, 900)).rejects.toThrow()
    await expect(
      sql("INSERT INTO availability_exceptions (provider_id, kind, start_time, end_time) VALUES ($1, 'closed', $2, $2)", [
        providerId,
        new Date(T0)
      ])
    ).rejects.toThrow()
    await expect(sql("UPDATE availability_plans SET notice_minutes = -1 WHERE provider_id = $1", [providerId])).rejects.toThrow()
  })

  it("the slots read: the service, the plan with the exceptions of the window, and the slot-holding bookings overlapping it", async () => {
    const booking = (start: number, hours: number, status: string) =>
      sql(
        `INSERT INTO bookings (service_id, client_id, provider_id, start_time, end_time, address, hourly_price_minor, currency, total_minor, status)
         VALUES ($1, $2, $3, $4, $5, 'ici', 5000, 'EUR', 5000, $6)`,
        [serviceId, clientId, providerId, new Date(T0 + start * HOUR), new Date(T0 + (start + hours) * HOUR), status]
      )
    await booking(10, 1, "CONFIRMED")
    await booking(10, 1, "CANCELLED")
    await booking(30, 2, "PENDING")
    await booking(500, 1, "CONFIRMED")
    const context = Option.getOrThrow(await run((await repo()).slotContext(serviceId, { start: T0, end: T0 + 72 * HOUR })))
    expect(context.service).toEqual({ id: serviceId, userId: providerId, status: "ACTIVE", archivedAt: null, providerActive: true })
    expect(context.provider.zone).toBe("America/Toronto")
    expect(context.provider.plan!.exceptions.map((e) => e.kind)).toEqual(["closed"])
    expect(context.busy).toEqual([
      { start: T0 + 10 * HOUR, end: T0 + 11 * HOUR },
      { start: T0 + 30 * HOUR, end: T0 + 32 * HOUR }
    ])
    expect(Option.isNone(await run((await repo()).slotContext(crypto.randomUUID(), { start: T0, end: T0 + HOUR })))).toBe(true)

    // The booking check's read: bookings near the time but not overlapping it, one left out by id.
    const near = await run(
      (await repo()).bookingContext(
        providerId,
        { start: T0 + 9 * HOUR, end: T0 + 33 * HOUR },
        { start: T0 + 10 * HOUR, end: T0 + 10.5 * HOUR }
      )
    )
    expect(near.busy).toEqual([{ start: T0 + 30 * HOUR, end: T0 + 32 * HOUR }])
    const [moved] = await sql<{ id: string }>("SELECT id FROM bookings WHERE provider_id = $1 AND start_time = $2", [
      providerId,
      new Date(T0 + 30 * HOUR)
    ])
    const ignoring = await run(
      (await repo()).bookingContext(
        providerId,
        { start: T0 + 9 * HOUR, end: T0 + 33 * HOUR },
        { start: T0 + 12 * HOUR, end: T0 + 13 * HOUR },
        moved!.id
      )
    )
    expect(ignoring.busy).toEqual([{ start: T0 + 10 * HOUR, end: T0 + 11 * HOUR }])
    expect(ignoring.provider!.plan!.bufferMinutes).toBe(15)
    expect(
      (await run((await repo()).bookingContext(crypto.randomUUID(), { start: T0, end: T0 + HOUR }, { start: T0, end: T0 + HOUR }))).provider
    ).toBeNull()
  })
})
