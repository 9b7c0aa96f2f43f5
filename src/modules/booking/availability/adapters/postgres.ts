import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { findOne, single } from "../../../../platform/rows"
import type { Interval, WeekdayPlan } from "../domain"
import { AvailabilityRepository, type ProviderPlan, type StoredPlan } from "../ports"

const PlanJson = Schema.Struct({
  noticeMinutes: Schema.Number,
  bufferMinutes: Schema.Number,
  ranges: Schema.Array(Schema.Struct({ weekday: Schema.Number, start: Schema.Number, end: Schema.Number })),
  exceptions: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      kind: Schema.Literal("closed", "open"),
      startTime: Schema.Date,
      endTime: Schema.Date,
      note: Schema.NullOr(Schema.String)
    })
  )
})
const ProviderColumns = {
  providerId: Schema.String,
  role: Schema.String,
  zone: Schema.NullOr(Schema.String),
  plan: Schema.NullOr(PlanJson)
}
/** Bookings as [start, end] epoch milliseconds. */
const Busy = Schema.Array(Schema.Tuple(Schema.Number, Schema.Number))
const ProviderRow = Schema.Struct(ProviderColumns)
const SlotRow = Schema.Struct({
  id: Schema.String,
  userId: Schema.String,
  status: Schema.String,
  archivedAt: Schema.NullOr(Schema.DateFromSelf),
  providerActive: Schema.Boolean,
  ...ProviderColumns,
  busy: Busy
})
const BookingRow = Schema.Struct({ provider: Schema.NullOr(ProviderRow), busy: Busy })

const toProvider = (row: typeof ProviderRow.Type): ProviderPlan => ({
  providerId: row.providerId,
  role: row.role,
  zone: row.zone,
  plan: row.plan === null ? null : toPlan(row.plan)
})
const toPlan = (plan: typeof PlanJson.Type): StoredPlan => {
  const weekly: Array<WeekdayPlan> = []
  for (const r of plan.ranges) {
    const day = weekly.find((d) => d.weekday === r.weekday)
    const range = { start: r.start, end: r.end }
    if (day) (day.ranges as Array<typeof range>).push(range)
    else weekly.push({ weekday: r.weekday, ranges: [range] })
  }
  return {
    noticeMinutes: plan.noticeMinutes,
    bufferMinutes: plan.bufferMinutes,
    weekly,
    exceptions: plan.exceptions
  }
}
const toBusy = (busy: typeof Busy.Type): ReadonlyArray<Interval> => busy.map(([start, end]) => ({ start, end }))

/**
 * Plans in availability_plans, their ranges and exceptions. Each read is one statement: the plan as
 * JSON beside the provider (or the service), and the slot-holding bookings near the window, asked
 * with the exclusion constraint's own test so its GiST index answers them.
 */
export const AvailabilityRepositoryLive = Layer.effect(
  AvailabilityRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
    /** The plan joined as `p` as JSON (NULL without one), with its exceptions overlapping `window` (all without one). */
    const planJson = (window: Interval | undefined) => sql`CASE WHEN p.provider_id IS NULL THEN NULL ELSE json_build_object(
        'noticeMinutes', p.notice_minutes, 'bufferMinutes', p.buffer_minutes,
        'ranges', COALESCE((SELECT json_agg(json_build_object('weekday', r.weekday, 'start', r.start_minute, 'end', r.end_minute)
            ORDER BY r.weekday, r.start_minute) FROM availability_ranges r WHERE r.provider_id = p.provider_id), '[]'::json),
        'exceptions', COALESCE((SELECT json_agg(json_build_object('id', e.id, 'kind', e.kind, 'startTime', e.start_time,
            'endTime', e.end_time, 'note', e.note) ORDER BY e.start_time, e.id)
          FROM availability_exceptions e WHERE e.provider_id = p.provider_id ${
            window
              ? sql`AND tstzrange(e.start_time, e.end_time, '[)') && tstzrange(${new Date(window.start)}, ${new Date(window.end)}, '[)')`
              : sql``
          }), '[]'::json)) END`
    const busyJson = (
      provider: ReturnType<typeof sql.unsafe>,
      window: Interval,
      extra = sql``
    ) => sql`COALESCE((SELECT json_agg(json_build_array(
          (extract(epoch FROM b.start_time) * 1000)::float8, (extract(epoch FROM b.end_time) * 1000)::float8))
        FROM bookings b WHERE b.provider_id = ${provider} AND b.status NOT IN ('REJECTED', 'CANCELLED')
          AND tstzrange(b.start_time, b.end_time, '[)') && tstzrange(${new Date(window.start)}, ${new Date(window.end)}, '[)') ${extra}), '[]'::json)`
    return {
      planOf: (providerId) =>
        findOne(
          "availability plan",
          ProviderRow,
          sql`SELECT u.id AS "providerId", u.role, u.time_zone AS zone, ${planJson(undefined)} AS plan
            FROM users u LEFT JOIN availability_plans p ON p.provider_id = u.id WHERE u.id = ${providerId}`
        ).pipe(Effect.map(Option.map(toProvider)), Effect.orDie),
      save: (providerId, plan) =>
        Effect.gen(function* () {
          yield* sql`INSERT INTO availability_plans (provider_id, notice_minutes, buffer_minutes)
            VALUES (${providerId}, ${plan.noticeMinutes}, ${plan.bufferMinutes})
            ON CONFLICT (provider_id) DO UPDATE SET notice_minutes = EXCLUDED.notice_minutes,
              buffer_minutes = EXCLUDED.buffer_minutes, updated_at = now()`
          yield* sql`DELETE FROM availability_ranges WHERE provider_id = ${providerId}`
          yield* sql`DELETE FROM availability_exceptions WHERE provider_id = ${providerId}`
          const ranges = plan.weekly.flatMap((day) =>
            day.ranges.map((r) => ({ provider_id: providerId, weekday: day.weekday, start_minute: r.start, end_minute: r.end }))
          )
          if (ranges.length > 0) yield* sql`INSERT INTO availability_ranges ${sql.insert(ranges)}`
          const exceptions = plan.exceptions.map((e) => ({
            provider_id: providerId,
            kind: e.kind,
            start_time: e.startTime,
            end_time: e.endTime,
            note: e.note
          }))
          if (exceptions.length > 0) yield* sql`INSERT INTO availability_exceptions ${sql.insert(exceptions)}`
        }).pipe(Effect.orDie),
      slotContext: (serviceId, window, ignoreBookingId) =>
        findOne(
          "service slots",
          SlotRow,
          sql`SELECT s.id, s.user_id AS "userId", s.status, s.archived_at AS "archivedAt", u.is_active AS "providerActive",
              u.id AS "providerId", u.role, u.time_zone AS zone, ${planJson(window)} AS plan, ${busyJson(sql`s.user_id`, window, ignoreBookingId ? sql`AND b.id <> ${ignoreBookingId}` : sql``)} AS busy
            FROM services s JOIN users u ON u.id = s.user_id LEFT JOIN availability_plans p ON p.provider_id = s.user_id
            WHERE s.id = ${serviceId}`
        ).pipe(
          Effect.map(
            Option.map((row) => ({
              service: {
                id: row.id,
                userId: row.userId,
                status: row.status,
                archivedAt: row.archivedAt,
                providerActive: row.providerActive
              },
              provider: toProvider(row),
              busy: toBusy(row.busy)
            }))
          ),
          Effect.orDie
        ),
      bookingContext: (providerId, window, time, ignoreBookingId) =>
        single(
          "booking availability",
          BookingRow,
          sql`SELECT (SELECT json_build_object('providerId', u.id, 'role', u.role, 'zone', u.time_zone, 'plan', ${planJson(window)})
                FROM users u LEFT JOIN availability_plans p ON p.provider_id = u.id WHERE u.id = ${providerId}) AS provider,
              ${busyJson(
                sql`${providerId}::uuid`,
                window,
                sql`AND NOT tstzrange(b.start_time, b.end_time, '[)') && tstzrange(${new Date(time.start)}, ${new Date(time.end)}, '[)')
                  ${ignoreBookingId ? sql`AND b.id <> ${ignoreBookingId}` : sql``}`
              )} AS busy`
        ).pipe(
          Effect.map((row) => ({ provider: row.provider ? toProvider(row.provider) : null, busy: toBusy(row.busy) })),
          Effect.orDie
        )
    }
  })
)
