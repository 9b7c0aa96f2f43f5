import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import type { Role } from "../../identity"
import type { OperationKind, OperationTotal } from "../domain"
import { AdminReadModel, type BookingRow, type DailyCount, type PaymentRow, type ServiceRow, type TopService, type TopUser, type UserRow } from "../ports"

/**
 * The back-office's read models as SQL over the owning modules' tables (users, payment_accounts,
 * services, categories, bookings, reviews, payment_operations, provider_applications): read-only,
 * so no module's rules are bypassed; every write goes through the owning module's service.
 * int8 sums come back as float8 (exact below 2^53), counts as int.
 */
const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

const person = (prefix: string, row: Record<string, unknown>) => ({
  id: row[`${prefix}Id`] as string,
  firstName: row[`${prefix}FirstName`] as string,
  lastName: row[`${prefix}LastName`] as string,
  email: row[`${prefix}Email`] as string
})

/**
 * A page and its total from one statement (`count(*) OVER ()`, as the project's other lists do); past
 * the last page no row carries the total, so only then is it counted apart.
 */
const withTotal = <R extends { readonly total: number }, E, Q>(
  page: Effect.Effect<ReadonlyArray<R>, E, Q>,
  countPastTheEnd: Effect.Effect<ReadonlyArray<{ readonly n: number }>, E, Q>
) =>
  Effect.flatMap(page, (rows) =>
    rows.length > 0
      ? Effect.succeed({ rows, total: rows[0]!.total })
      : Effect.map(countPastTheEnd, ([count]) => ({ rows, total: count?.n ?? 0 }))
  )

const day = (d: Date | string) => (typeof d === "string" ? d.slice(0, 10) : d.toISOString().slice(0, 10))

export const AdminReadModelLive = Layer.effect(
  AdminReadModel,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const personColumns = (alias: string, prefix: string) =>
      sql.unsafe(`${alias}.id AS "${prefix}Id", ${alias}.first_name AS "${prefix}FirstName", ${alias}.last_name AS "${prefix}LastName", ${alias}.email AS "${prefix}Email"`)

    return {
      counts: Effect.gen(function*() {
        const [row] = yield* sql<{ users: number; services: number; available: number; applications: number }>`
          SELECT (SELECT count(*)::int FROM users) AS users,
                 (SELECT count(*)::int FROM services WHERE archived_at IS NULL) AS services,
                 (SELECT count(*)::int FROM services WHERE archived_at IS NULL AND status = 'ACTIVE') AS available,
                 (SELECT count(*)::int FROM provider_applications WHERE status = 'PENDING') AS applications`
        const statuses = yield* sql<{ status: string; n: number }>`SELECT status, count(*)::int AS n FROM bookings GROUP BY status`
        return {
          users: row!.users,
          services: { total: row!.services, available: row!.available },
          bookingsByStatus: Object.fromEntries(statuses.map((s) => [s.status, s.n])),
          pendingApplications: row!.applications
        }
      }).pipe(Effect.orDie),

      operationTotals: (currency, window) =>
        sql<OperationTotal>`
          SELECT kind, count(*)::int AS count, coalesce(sum(amount_minor), 0)::float8 AS "amountMinor", coalesce(sum(fee_minor), 0)::float8 AS "feeMinor"
          FROM payment_operations
          WHERE currency = ${currency} ${window ? sql`AND created_at >= ${window.from} AND created_at < ${window.to}` : sql``}
          GROUP BY kind ORDER BY kind`.pipe(Effect.orDie),

      // An authorisation is held until a capture or a release of the same intent is recorded.
      heldAmount: (currency) =>
        sql<{ held: number }>`
          SELECT coalesce(sum(a.amount_minor), 0)::float8 AS held
          FROM payment_operations a
          WHERE a.kind = 'AUTHORIZATION' AND a.currency = ${currency}
            AND NOT EXISTS (SELECT 1 FROM payment_operations o WHERE o.payment_intent_id = a.payment_intent_id
                              AND o.kind IN ('CAPTURE', 'CANCELLATION'))`.pipe(Effect.map((rows) => rows[0]?.held ?? 0), Effect.orDie),

      currencies: sql<{ currency: string }>`
        SELECT currency FROM payment_operations GROUP BY currency ORDER BY count(*) DESC, currency`.pipe(
        Effect.map((rows) => rows.map((r) => r.currency.trim())),
        Effect.orDie
      ),

      users: (query) =>
        Effect.gen(function*() {
          const conditions = [sql`true`]
          if (query.search !== undefined) {
            const pattern = like(query.search)
            conditions.push(sql`(u.first_name ILIKE ${pattern} OR u.last_name ILIKE ${pattern} OR u.email::text ILIKE ${pattern}
              OR (u.first_name || ' ' || u.last_name) ILIKE ${pattern})`)
          }
          if (query.role !== undefined) conditions.push(sql`u.role = ${query.role}`)
          if (query.isActive !== undefined) conditions.push(sql`u.is_active = ${query.isActive}`)
          const where = sql.and(conditions)
          const { rows, total } = yield* withTotal(sql<Omit<UserRow, "paymentAccount"> & { accountId: string | null; chargesEnabled: boolean; payoutsEnabled: boolean; detailsSubmitted: boolean; total: number }>`
            SELECT u.id, u.first_name AS "firstName", u.last_name AS "lastName", u.email::text AS email, u.phone_number AS "phoneNumber",
                   u.role, u.is_active AS "isActive", u.is_email_verified AS "isEmailVerified", u.preferred_language AS "preferredLanguage",
                   u.created_at AS "createdAt", pa.account_id AS "accountId", pa.charges_enabled AS "chargesEnabled",
                   pa.payouts_enabled AS "payoutsEnabled", pa.details_submitted AS "detailsSubmitted", count(*) OVER ()::int AS total
            FROM users u LEFT JOIN payment_accounts pa ON pa.user_id = u.id
            WHERE ${where}
            ORDER BY u.created_at DESC, u.id DESC
            LIMIT ${query.limit} OFFSET ${query.offset}`, sql<{ n: number }>`SELECT count(*)::int AS n FROM users u WHERE ${where}`)
          return {
            total,
            rows: rows.map(({ accountId, chargesEnabled, payoutsEnabled, detailsSubmitted, total: _total, ...user }): UserRow => ({
              ...user,
              role: user.role as Role,
              paymentAccount: accountId === null ? null : { accountId, chargesEnabled, payoutsEnabled, detailsSubmitted }
            }))
          }
        }).pipe(Effect.orDie),

      bookings: (query) =>
        Effect.gen(function*() {
          const conditions = [sql`true`]
          if (query.search !== undefined) {
            const pattern = like(query.search)
            conditions.push(sql`(s.title ILIKE ${pattern} OR cu.email::text ILIKE ${pattern} OR pu.email::text ILIKE ${pattern}
              OR (cu.first_name || ' ' || cu.last_name) ILIKE ${pattern} OR (pu.first_name || ' ' || pu.last_name) ILIKE ${pattern})`)
          }
          if (query.statuses !== undefined && query.statuses.length > 0) {
            const plain = query.statuses.filter((s) => s !== "PAID")
            const paid = query.statuses.includes("PAID")
            conditions.push(sql`(b.status = ANY (${plain}::text[])
              ${paid ? sql`OR (b.status = 'PENDING' AND b.payment_status IN ('AUTHORIZED', 'CARD_SAVED'))` : sql``})`)
          }
          if (query.from !== undefined) conditions.push(sql`b.start_time >= ${query.from}`)
          if (query.to !== undefined) conditions.push(sql`b.start_time < ${query.to}`)
          const where = sql.and(conditions)
          const from = sql`bookings b JOIN services s ON s.id = b.service_id JOIN categories c ON c.id = s.category_id
            JOIN users cu ON cu.id = b.client_id JOIN users pu ON pu.id = b.provider_id`
          const { rows, total } = yield* withTotal(sql<Record<string, unknown> & { total: number }>`
            SELECT b.id, b.status, b.payment_status AS "paymentStatus", b.start_time AS "startTime", b.end_time AS "endTime",
                   b.total_minor::float8 AS "totalMinor", b.currency, b.captured_minor::float8 AS "capturedMinor",
                   b.refunded_minor::float8 AS "refundedMinor", b.payment_issue AS "paymentIssue", b.created_at AS "createdAt",
                   s.id AS "serviceId", s.title AS "serviceTitle", c.name_fr AS "categoryNameFr", c.name_en AS "categoryNameEn",
                   ${personColumns("cu", "client")}, ${personColumns("pu", "provider")}, count(*) OVER ()::int AS total
            FROM ${from} WHERE ${where}
            ORDER BY b.start_time DESC, b.id DESC
            LIMIT ${query.limit} OFFSET ${query.offset}`, sql<{ n: number }>`SELECT count(*)::int AS n FROM ${from} WHERE ${where}`)
          return {
            total,
            rows: rows.map((r): BookingRow => ({
              id: r.id as string,
              status: r.status as string,
              paymentStatus: r.paymentStatus as string,
              startTime: r.startTime as Date,
              endTime: r.endTime as Date,
              totalMinor: r.totalMinor as number,
              currency: (r.currency as string).trim(),
              capturedMinor: r.capturedMinor as number,
              refundedMinor: r.refundedMinor as number,
              paymentIssue: r.paymentIssue as string | null,
              createdAt: r.createdAt as Date,
              service: { id: r.serviceId as string, title: r.serviceTitle as string, categoryNameFr: r.categoryNameFr as string, categoryNameEn: r.categoryNameEn as string },
              client: person("client", r),
              provider: person("provider", r)
            }))
          }
        }).pipe(Effect.orDie),

      services: (query) =>
        Effect.gen(function*() {
          const conditions = [sql`s.archived_at IS NULL`]
          if (query.search !== undefined) {
            const pattern = like(query.search)
            conditions.push(sql`(s.title ILIKE ${pattern} OR u.email::text ILIKE ${pattern} OR (u.first_name || ' ' || u.last_name) ILIKE ${pattern})`)
          }
          if (query.categoryId !== undefined) conditions.push(sql`s.category_id = ${query.categoryId}`)
          if (query.isAvailable !== undefined) conditions.push(query.isAvailable ? sql`s.status = 'ACTIVE'` : sql`s.status <> 'ACTIVE'`)
          const where = sql.and(conditions)
          const { rows, total } = yield* withTotal(sql<Record<string, unknown> & { total: number }>`
            SELECT s.id, s.title, s.price_minor::float8 AS "priceMinor", s.currency, s.status = 'ACTIVE' AS "isAvailable",
                   s.location, s.created_at AS "createdAt", c.id AS "categoryId", c.name_fr AS "categoryNameFr", c.name_en AS "categoryNameEn",
                   ${personColumns("u", "provider")}, count(*) OVER ()::int AS total
            FROM services s JOIN categories c ON c.id = s.category_id JOIN users u ON u.id = s.user_id
            WHERE ${where}
            ORDER BY s.created_at DESC, s.id DESC
            LIMIT ${query.limit} OFFSET ${query.offset}`, sql<{ n: number }>`
            SELECT count(*)::int AS n FROM services s JOIN users u ON u.id = s.user_id WHERE ${where}`)
          return {
            total,
            rows: rows.map((r): ServiceRow => ({
              id: r.id as string,
              title: r.title as string,
              category: { id: r.categoryId as number, nameFr: r.categoryNameFr as string, nameEn: r.categoryNameEn as string },
              provider: person("provider", r),
              priceMinor: r.priceMinor as number,
              currency: (r.currency as string).trim(),
              isAvailable: r.isAvailable as boolean,
              location: r.location as string,
              createdAt: r.createdAt as Date
            }))
          }
        }).pipe(Effect.orDie),

      payments: (query) =>
        Effect.gen(function*() {
          const conditions = [sql`o.kind <> 'CARD_SAVED'`]
          if (query.from !== undefined) conditions.push(sql`o.created_at >= ${query.from}`)
          if (query.to !== undefined) conditions.push(sql`o.created_at < ${query.to}`)
          const where = sql.and(conditions)
          const { rows, total } = yield* withTotal(sql<Record<string, unknown> & { total: number }>`
            SELECT o.id, o.booking_id AS "bookingId", o.kind, o.amount_minor::float8 AS "amountMinor", o.fee_minor::float8 AS "feeMinor",
                   o.currency, o.payment_method AS "paymentMethod", o.created_at AS "createdAt", b.refunded_minor::float8 AS "bookingRefundedMinor",
                   s.id AS "serviceId", s.title AS "serviceTitle", ${personColumns("cu", "client")}, ${personColumns("pu", "provider")},
                   count(*) OVER ()::int AS total
            FROM payment_operations o JOIN bookings b ON b.id = o.booking_id JOIN services s ON s.id = b.service_id
              JOIN users cu ON cu.id = b.client_id JOIN users pu ON pu.id = b.provider_id
            WHERE ${where}
            ORDER BY o.created_at DESC, o.id DESC
            LIMIT ${query.limit} OFFSET ${query.offset}`, sql<{ n: number }>`SELECT count(*)::int AS n FROM payment_operations o WHERE ${where}`)
          return {
            total,
            rows: rows.map((r): PaymentRow => ({
              id: r.id as string,
              bookingId: r.bookingId as string,
              kind: r.kind as OperationKind,
              amountMinor: r.amountMinor as number,
              feeMinor: r.feeMinor as number,
              currency: (r.currency as string).trim(),
              paymentMethod: (r.paymentMethod as string | null) ?? null,
              createdAt: r.createdAt as Date,
              bookingRefundedMinor: r.bookingRefundedMinor as number,
              service: { id: r.serviceId as string, title: r.serviceTitle as string },
              client: person("client", r),
              provider: person("provider", r)
            }))
          }
        }).pipe(Effect.orDie),

      topUsers: (from, limit) =>
        sql<TopUser>`
          WITH activity AS (
            SELECT u.id, u.first_name AS "firstName", u.last_name AS "lastName", u.email::text AS email, u.role, u.created_at,
              (SELECT count(*)::int FROM services s WHERE s.user_id = u.id AND s.archived_at IS NULL) AS services,
              (SELECT count(*)::int FROM bookings b WHERE b.client_id = u.id AND b.created_at >= ${from}) AS "bookingsAsClient",
              (SELECT count(*)::int FROM bookings b WHERE b.provider_id = u.id AND b.created_at >= ${from}) AS "bookingsAsProvider",
              (SELECT count(*)::int FROM reviews r WHERE r.provider_id = u.id AND r.created_at >= ${from}) AS "reviewsAsProvider",
              (SELECT count(*)::int FROM reviews r WHERE r.client_id = u.id AND r.created_at >= ${from}) AS "reviewsAsClient"
            FROM users u)
          SELECT id, "firstName", "lastName", email, role, services, "bookingsAsClient", "bookingsAsProvider", "reviewsAsProvider", "reviewsAsClient"
          FROM activity
          WHERE "bookingsAsClient" + "bookingsAsProvider" + "reviewsAsProvider" + "reviewsAsClient" > 0
          ORDER BY "bookingsAsClient" + "bookingsAsProvider" DESC, "reviewsAsProvider" + "reviewsAsClient" DESC, created_at, id
          LIMIT ${limit}`.pipe(Effect.orDie),

      topServices: (from, limit) =>
        sql<Record<string, unknown>>`
          SELECT s.id, s.title, s.price_minor::float8 AS "priceMinor", s.currency, s.rating::float8 AS rating, s.review_count AS "reviewCount",
                 u.first_name AS "firstName", u.last_name AS "lastName", count(b.id)::int AS bookings
          FROM services s JOIN users u ON u.id = s.user_id
            LEFT JOIN bookings b ON b.service_id = s.id AND b.created_at >= ${from}
          WHERE s.archived_at IS NULL
          GROUP BY s.id, u.id
          HAVING count(b.id) > 0
          ORDER BY count(b.id) DESC, s.rating DESC, s.review_count DESC, s.id
          LIMIT ${limit}`.pipe(
          Effect.map((rows) =>
            rows.map((r): TopService => ({
              id: r.id as string,
              title: r.title as string,
              priceMinor: r.priceMinor as number,
              currency: (r.currency as string).trim(),
              rating: r.rating as number,
              reviewCount: r.reviewCount as number,
              provider: { firstName: r.firstName as string, lastName: r.lastName as string },
              bookings: r.bookings as number
            }))
          ),
          Effect.orDie
        ),

      growth: (from) =>
        Effect.gen(function*() {
          const perDay = (rows: ReadonlyArray<{ day: Date | string; count: number }>): ReadonlyArray<DailyCount> => rows.map((r) => ({ date: day(r.day), count: r.count }))
          const users = yield* sql<{ day: string; count: number }>`
            SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS count
            FROM users WHERE created_at >= ${from} GROUP BY 1 ORDER BY 1`
          const bookings = yield* sql<{ day: string; count: number }>`
            SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS count
            FROM bookings WHERE created_at >= ${from} GROUP BY 1 ORDER BY 1`
          return { users: perDay(users), bookings: perDay(bookings) }
        }).pipe(Effect.orDie)
    }
  })
)

export const AdministrationPostgresAdapters = AdminReadModelLive
