import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { findAll, single } from "../../../platform/rows"
import { receiptIdPattern } from "../../booking"
import { Role } from "../../identity"
import { RefundStatuses } from "../../payments"
import { bookingPaymentAmount, bookingPaymentStatus, OperationKinds } from "../domain"
import {
  AdminReadModel,
  type BookingPaymentRow,
  type BookingRow,
  type DailyCount,
  type PaymentRow,
  type ServiceRow,
  type TopService,
  type TopUser,
  type UserRow
} from "../ports"

/**
 * The back-office's read models as SQL over the owning modules' tables (users, payment_accounts,
 * services, categories, bookings, reviews, payment_operations, provider_applications): read-only,
 * so no module's rules are bypassed; every write goes through the owning module's service.
 * Rows are decoded by the schemas below (camelCase keys, int8 counts and sums as numbers: see
 * platform/database.ts); sums of int8 are cast back to int8, so a sum past 2^53 fails loudly.
 */
const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** char(3) currencies come back padded. */
const Currency = Schema.Trim

/** A person's columns under a prefix (`client`, `provider`), read back as one `Person`. */
const PersonColumns = (prefix: "client" | "provider") =>
  ({
    [`${prefix}Id`]: Schema.String,
    [`${prefix}FirstName`]: Schema.String,
    [`${prefix}LastName`]: Schema.String,
    [`${prefix}Email`]: Schema.String
  }) as Record<`${typeof prefix}${"Id" | "FirstName" | "LastName" | "Email"}`, typeof Schema.String>

const person = (prefix: "client" | "provider", row: Record<string, unknown>) => ({
  id: row[`${prefix}Id`] as string,
  firstName: row[`${prefix}FirstName`] as string,
  lastName: row[`${prefix}LastName`] as string,
  email: row[`${prefix}Email`] as string
})

const Count = Schema.Struct({ n: Schema.Number })
const Total = { total: Schema.Number }

const CountsRow = Schema.Struct({ users: Schema.Number, services: Schema.Number, available: Schema.Number, applications: Schema.Number })
const StatusCountRow = Schema.Struct({ status: Schema.String, n: Schema.Number })
const OperationTotalRow = Schema.Struct({
  kind: Schema.Literal(...OperationKinds),
  count: Schema.Number,
  amountMinor: Schema.Number,
  feeMinor: Schema.Number
})
const UserListRow = Schema.Struct({
  id: Schema.String,
  firstName: Schema.String,
  lastName: Schema.String,
  email: Schema.String,
  phoneNumber: Schema.String,
  role: Role,
  isActive: Schema.Boolean,
  isEmailVerified: Schema.Boolean,
  preferredLanguage: Schema.String,
  timeZone: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  accountId: Schema.NullOr(Schema.String),
  chargesEnabled: Schema.NullOr(Schema.Boolean),
  payoutsEnabled: Schema.NullOr(Schema.Boolean),
  detailsSubmitted: Schema.NullOr(Schema.Boolean),
  ...Total
})
const BookingListRow = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  paymentStatus: Schema.String,
  startTime: Schema.DateFromSelf,
  endTime: Schema.DateFromSelf,
  totalMinor: Schema.Number,
  currency: Currency,
  capturedMinor: Schema.Number,
  refundedMinor: Schema.Number,
  commissionMinor: Schema.Number,
  paymentIssue: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  serviceId: Schema.String,
  serviceTitle: Schema.String,
  categoryNameFr: Schema.String,
  categoryNameEn: Schema.String,
  ...PersonColumns("client"),
  ...PersonColumns("provider"),
  ...Total
})
const ServiceListRow = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  priceMinor: Schema.Number,
  currency: Currency,
  isAvailable: Schema.Boolean,
  location: Schema.String,
  createdAt: Schema.DateFromSelf,
  categoryId: Schema.Number,
  categoryNameFr: Schema.String,
  categoryNameEn: Schema.String,
  ...PersonColumns("provider"),
  ...Total
})
const PaymentListRow = Schema.Struct({
  id: Schema.String,
  bookingId: Schema.String,
  kind: Schema.Literal(...OperationKinds),
  authorization: Schema.NullOr(Schema.Literal("HELD", "CAPTURED", "RELEASED")),
  refundStatus: Schema.NullOr(Schema.Literal(...RefundStatuses)),
  amountMinor: Schema.Number,
  feeMinor: Schema.Number,
  currency: Currency,
  paymentMethod: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  serviceId: Schema.String,
  serviceTitle: Schema.String,
  ...PersonColumns("client"),
  ...PersonColumns("provider"),
  ...Total
})
const BookingPaymentListRow = Schema.Struct({
  id: Schema.String,
  bookingId: Schema.String,
  capturedMinor: Schema.Number,
  refundedMinor: Schema.Number,
  commissionMinor: Schema.Number,
  authorizedMinor: Schema.Number,
  heldMinor: Schema.Number,
  released: Schema.Boolean,
  currency: Currency,
  paymentMethod: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  serviceId: Schema.String,
  serviceTitle: Schema.String,
  ...PersonColumns("client"),
  ...PersonColumns("provider"),
  ...Total
})
const HeldRow = Schema.Struct({ count: Schema.Number, amountMinor: Schema.Number })
const TopUserRow = Schema.Struct({
  id: Schema.String,
  firstName: Schema.String,
  lastName: Schema.String,
  email: Schema.String,
  role: Role,
  services: Schema.Number,
  bookingsAsClient: Schema.Number,
  bookingsAsProvider: Schema.Number,
  reviewsAsProvider: Schema.Number,
  reviewsAsClient: Schema.Number
})
const TopServiceRow = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  priceMinor: Schema.Number,
  currency: Currency,
  rating: Schema.Number,
  reviewCount: Schema.Number,
  firstName: Schema.String,
  lastName: Schema.String,
  bookings: Schema.Number
})
const DayCountRow = Schema.Struct({ day: Schema.String, count: Schema.Number })
const DayRevenueRow = Schema.Struct({
  start: Schema.String,
  grossMinor: Schema.Number,
  refundedMinor: Schema.Number,
  commissionMinor: Schema.Number
})

/**
 * A page and its total from one statement (`count(*) OVER ()`, as the project's other lists do); past
 * the last page no row carries the total, so only then is it counted apart.
 */
const withTotal = <R extends { readonly total: number }, E, Q>(
  page: Effect.Effect<ReadonlyArray<R>, E, Q>,
  countPastTheEnd: Effect.Effect<{ readonly n: number }, E, Q>
) =>
  Effect.flatMap(page, (rows) =>
    rows.length > 0 ? Effect.succeed({ rows, total: rows[0]!.total }) : Effect.map(countPastTheEnd, (count) => ({ rows, total: count.n }))
  )

const day = (d: Date | string) => (typeof d === "string" ? d.slice(0, 10) : d.toISOString().slice(0, 10))

export const AdminReadModelLive = Layer.effect(
  AdminReadModel,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const personColumns = (alias: string, prefix: string) =>
      sql.unsafe(
        `${alias}.id AS ${prefix}_id, ${alias}.first_name AS ${prefix}_first_name, ${alias}.last_name AS ${prefix}_last_name, ${alias}.email::text AS ${prefix}_email`
      )

    /** The authorisation under `alias` is still held (see `held`). */
    const heldCondition = (alias: string) =>
      sql.unsafe(`NOT EXISTS (SELECT 1 FROM payment_operations x WHERE x.booking_id = ${alias}.booking_id
                    AND x.payment_intent_id = ${alias}.payment_intent_id AND x.kind IN ('CAPTURE', 'CANCELLATION'))
        AND NOT EXISTS (SELECT 1 FROM payment_operations l WHERE l.booking_id = ${alias}.booking_id AND l.kind = 'AUTHORIZATION'
                    AND (l.created_at, l.id) > (${alias}.created_at, ${alias}.id))`)
    /** A booking's money from its operations: captured, refunded, commission (capture fees less refund fees). */
    const moneyOf = sql`LEFT JOIN LATERAL (
              SELECT coalesce(sum(o.amount_minor) FILTER (WHERE o.kind = 'CAPTURE'), 0)::int8 AS captured_minor,
                     coalesce(sum(o.amount_minor) FILTER (WHERE o.kind = 'REFUND'), 0)::int8 AS refunded_minor,
                     (coalesce(sum(o.fee_minor) FILTER (WHERE o.kind = 'CAPTURE'), 0)
                       - coalesce(sum(o.fee_minor) FILTER (WHERE o.kind = 'REFUND'), 0))::int8 AS commission_minor
              FROM counted_payment_operations o WHERE o.booking_id = b.id) m ON true`

    return {
      counts: Effect.gen(function* () {
        const row = yield* single(
          "dashboard counts",
          CountsRow,
          sql`
          SELECT (SELECT count(*) FROM users) AS users,
                 (SELECT count(*) FROM services WHERE archived_at IS NULL) AS services,
                 (SELECT count(*) FROM services WHERE archived_at IS NULL AND status = 'ACTIVE') AS available,
                 (SELECT count(*) FROM provider_applications WHERE status = 'PENDING') AS applications`
        )
        const statuses = yield* findAll(
          "bookings by status",
          StatusCountRow,
          sql`SELECT status, count(*) AS n FROM bookings GROUP BY status`
        )
        return {
          users: row.users,
          services: { total: row.services, available: row.available },
          bookingsByStatus: Object.fromEntries(statuses.map((s) => [s.status, s.n])),
          pendingApplications: row.applications
        }
      }).pipe(Effect.orDie),

      operationTotals: (currency, window) =>
        findAll(
          "operation totals",
          OperationTotalRow,
          sql`
          SELECT kind, count(*) AS count, coalesce(sum(amount_minor), 0)::int8 AS amount_minor, coalesce(sum(fee_minor), 0)::int8 AS fee_minor
          FROM counted_payment_operations
          WHERE currency = ${currency} ${window ? sql`AND created_at >= ${window.from} AND created_at < ${window.to}` : sql``}
          GROUP BY kind ORDER BY kind`
        ).pipe(Effect.orDie),

      revenuePerDay: (currency, window) =>
        findAll(
          "revenue per day",
          DayRevenueRow,
          sql`
          SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS start,
                 coalesce(sum(amount_minor) FILTER (WHERE kind = 'CAPTURE'), 0)::int8 AS gross_minor,
                 coalesce(sum(amount_minor) FILTER (WHERE kind = 'REFUND'), 0)::int8 AS refunded_minor,
                 (coalesce(sum(fee_minor) FILTER (WHERE kind = 'CAPTURE'), 0)
                   - coalesce(sum(fee_minor) FILTER (WHERE kind = 'REFUND'), 0))::int8 AS commission_minor
          FROM counted_payment_operations
          WHERE currency = ${currency} AND kind IN ('CAPTURE', 'REFUND') AND created_at >= ${window.from} AND created_at < ${window.to}
          GROUP BY 1 ORDER BY 1`
        ).pipe(Effect.orDie),

      // An authorisation is held until a capture or a release of its intent is recorded, or a later
      // authorisation of its booking replaces it (a renewal): domain.ts, isHeld.
      held: (currency) =>
        single(
          "held authorisations",
          HeldRow,
          sql`
          SELECT count(*) AS count, coalesce(sum(a.amount_minor), 0)::int8 AS amount_minor
          FROM payment_operations a
          WHERE a.kind = 'AUTHORIZATION' AND a.currency = ${currency} AND ${heldCondition("a")}`
        ).pipe(Effect.orDie),

      currencies: findAll(
        "currencies",
        Schema.Struct({ currency: Currency }),
        sql`
        SELECT currency FROM payment_operations GROUP BY currency ORDER BY count(*) DESC, currency`
      ).pipe(
        Effect.map((rows) => rows.map((r) => r.currency)),
        Effect.orDie
      ),

      users: (query) =>
        Effect.gen(function* () {
          const conditions = [sql`true`]
          if (query.search !== undefined) {
            const pattern = like(query.search)
            conditions.push(sql`(u.first_name ILIKE ${pattern} OR u.last_name ILIKE ${pattern} OR u.email::text ILIKE ${pattern}
              OR (u.first_name || ' ' || u.last_name) ILIKE ${pattern})`)
          }
          if (query.role !== undefined) conditions.push(sql`u.role = ${query.role}`)
          if (query.isActive !== undefined) conditions.push(sql`u.is_active = ${query.isActive}`)
          const where = sql.and(conditions)
          const { rows, total } = yield* withTotal(
            findAll(
              "users page",
              UserListRow,
              sql`
            SELECT u.id, u.first_name, u.last_name, u.email::text AS email, u.phone_number, u.role, u.is_active, u.is_email_verified,
                   u.preferred_language, u.time_zone, u.created_at, pa.account_id, pa.charges_enabled, pa.payouts_enabled, pa.details_submitted,
                   count(*) OVER () AS total
            FROM users u LEFT JOIN payment_accounts pa ON pa.user_id = u.id
            WHERE ${where}
            ORDER BY u.created_at DESC, u.id DESC
            LIMIT ${query.limit} OFFSET ${query.offset}`
            ),
            single("users count", Count, sql`SELECT count(*) AS n FROM users u WHERE ${where}`)
          )
          return {
            total,
            rows: rows.map(
              ({ accountId, chargesEnabled, payoutsEnabled, detailsSubmitted, total: _total, ...user }): UserRow => ({
                ...user,
                paymentAccount:
                  accountId === null
                    ? null
                    : {
                        accountId,
                        chargesEnabled: chargesEnabled === true,
                        payoutsEnabled: payoutsEnabled === true,
                        detailsSubmitted: detailsSubmitted === true
                      }
              })
            )
          }
        }).pipe(Effect.orDie),

      bookings: (query) =>
        Effect.gen(function* () {
          const conditions = [sql`true`]
          if (query.search !== undefined) {
            const pattern = like(query.search)
            // A receipt number a client quotes finds its booking too.
            const receipt = receiptIdPattern(query.search)
            conditions.push(sql`(s.title ILIKE ${pattern} OR cu.email::text ILIKE ${pattern} OR pu.email::text ILIKE ${pattern}
              OR (cu.first_name || ' ' || cu.last_name) ILIKE ${pattern} OR (pu.first_name || ' ' || pu.last_name) ILIKE ${pattern}
              ${receipt === undefined ? sql`` : sql`OR b.id::text LIKE ${receipt}`})`)
          }
          if (query.statuses !== undefined && query.statuses.length > 0) {
            const plain = query.statuses.filter((s) => s !== "PAID")
            const paid = query.statuses.includes("PAID")
            conditions.push(sql`(b.status = ANY (${plain}::text[])
              ${paid ? sql`OR (b.status = 'PENDING' AND b.payment_status IN ('AUTHORIZED', 'CARD_SAVED'))` : sql``})`)
          }
          if (query.from !== undefined) conditions.push(sql`b.start_time >= ${query.from}`)
          if (query.to !== undefined) conditions.push(sql`b.start_time < ${query.to}`)
          if (query.currency !== undefined) conditions.push(sql`b.currency = ${query.currency}`)
          const where = sql.and(conditions)
          const from = sql`bookings b JOIN services s ON s.id = b.service_id JOIN categories c ON c.id = s.category_id
            JOIN users cu ON cu.id = b.client_id JOIN users pu ON pu.id = b.provider_id`
          const { rows, total } = yield* withTotal(
            findAll(
              "bookings page",
              BookingListRow,
              sql`
            SELECT b.id, b.status, b.payment_status, b.start_time, b.end_time, b.total_minor, b.currency, m.captured_minor,
                   m.refunded_minor, m.commission_minor, b.payment_issue, b.created_at, s.id AS service_id, s.title AS service_title,
                   c.name_fr AS category_name_fr, c.name_en AS category_name_en,
                   ${personColumns("cu", "client")}, ${personColumns("pu", "provider")}, count(*) OVER () AS total
            FROM ${from} ${moneyOf} WHERE ${where}
            ORDER BY b.start_time DESC, b.id DESC
            LIMIT ${query.limit} OFFSET ${query.offset}`
            ),
            single("bookings count", Count, sql`SELECT count(*) AS n FROM ${from} WHERE ${where}`)
          )
          return {
            total,
            rows: rows.map(
              (r): BookingRow => ({
                id: r.id,
                status: r.status,
                paymentStatus: r.paymentStatus,
                startTime: r.startTime,
                endTime: r.endTime,
                totalMinor: r.totalMinor,
                currency: r.currency,
                capturedMinor: r.capturedMinor,
                refundedMinor: r.refundedMinor,
                commissionMinor: r.commissionMinor,
                paymentIssue: r.paymentIssue,
                createdAt: r.createdAt,
                service: { id: r.serviceId, title: r.serviceTitle, categoryNameFr: r.categoryNameFr, categoryNameEn: r.categoryNameEn },
                client: person("client", r),
                provider: person("provider", r)
              })
            )
          }
        }).pipe(Effect.orDie),

      services: (query) =>
        Effect.gen(function* () {
          const conditions = [sql`s.archived_at IS NULL`]
          if (query.search !== undefined) {
            const pattern = like(query.search)
            conditions.push(
              sql`(s.title ILIKE ${pattern} OR u.email::text ILIKE ${pattern} OR (u.first_name || ' ' || u.last_name) ILIKE ${pattern})`
            )
          }
          if (query.categoryId !== undefined) conditions.push(sql`s.category_id = ${query.categoryId}`)
          if (query.isAvailable !== undefined) conditions.push(query.isAvailable ? sql`s.status = 'ACTIVE'` : sql`s.status <> 'ACTIVE'`)
          const where = sql.and(conditions)
          const { rows, total } = yield* withTotal(
            findAll(
              "services page",
              ServiceListRow,
              sql`
            SELECT s.id, s.title, s.price_minor, s.currency, s.status = 'ACTIVE' AS is_available, s.location, s.created_at,
                   c.id AS category_id, c.name_fr AS category_name_fr, c.name_en AS category_name_en,
                   ${personColumns("u", "provider")}, count(*) OVER () AS total
            FROM services s JOIN categories c ON c.id = s.category_id JOIN users u ON u.id = s.user_id
            WHERE ${where}
            ORDER BY s.created_at DESC, s.id DESC
            LIMIT ${query.limit} OFFSET ${query.offset}`
            ),
            single(
              "services count",
              Count,
              sql`
            SELECT count(*) AS n FROM services s JOIN users u ON u.id = s.user_id WHERE ${where}`
            )
          )
          return {
            total,
            rows: rows.map(
              (r): ServiceRow => ({
                id: r.id,
                title: r.title,
                category: { id: r.categoryId, nameFr: r.categoryNameFr, nameEn: r.categoryNameEn },
                provider: person("provider", r),
                priceMinor: r.priceMinor,
                currency: r.currency,
                isAvailable: r.isAvailable,
                location: r.location,
                createdAt: r.createdAt
              })
            )
          }
        }).pipe(Effect.orDie),

      payments: (query) =>
        Effect.gen(function* () {
          const conditions = [sql`o.kind <> 'CARD_SAVED'`]
          if (query.from !== undefined) conditions.push(sql`o.created_at >= ${query.from}`)
          if (query.to !== undefined) conditions.push(sql`o.created_at < ${query.to}`)
          if (query.currency !== undefined) conditions.push(sql`o.currency = ${query.currency}`)
          const where = sql.and(conditions)
          const { rows, total } = yield* withTotal(
            findAll(
              "payments page",
              PaymentListRow,
              sql`
            SELECT o.id, o.booking_id, o.kind, o.amount_minor, o.fee_minor, o.currency, o.payment_method, o.created_at, o.refund_status,
                   CASE WHEN o.kind <> 'AUTHORIZATION' THEN NULL
                        WHEN ${heldCondition("o")} THEN 'HELD'
                        WHEN EXISTS (SELECT 1 FROM payment_operations c WHERE c.booking_id = o.booking_id AND c.kind = 'CAPTURE'
                                       AND c.payment_intent_id = o.payment_intent_id) THEN 'CAPTURED'
                        ELSE 'RELEASED' END AS "authorization",
                   s.id AS service_id, s.title AS service_title,
                   ${personColumns("cu", "client")}, ${personColumns("pu", "provider")}, count(*) OVER () AS total
            FROM payment_operations o JOIN bookings b ON b.id = o.booking_id JOIN services s ON s.id = b.service_id
              JOIN users cu ON cu.id = b.client_id JOIN users pu ON pu.id = b.provider_id
            WHERE ${where}
            ORDER BY o.created_at DESC, o.id DESC
            LIMIT ${query.limit} OFFSET ${query.offset}`
            ),
            single("payments count", Count, sql`SELECT count(*) AS n FROM payment_operations o WHERE ${where}`)
          )
          return {
            total,
            rows: rows.map(
              (r): PaymentRow => ({
                id: r.id,
                bookingId: r.bookingId,
                kind: r.kind,
                amountMinor: r.amountMinor,
                feeMinor: r.feeMinor,
                currency: r.currency,
                paymentMethod: r.paymentMethod,
                createdAt: r.createdAt,
                authorization: r.authorization,
                refundStatus: r.refundStatus,
                service: { id: r.serviceId, title: r.serviceTitle },
                client: person("client", r),
                provider: person("provider", r)
              })
            )
          }
        }).pipe(Effect.orDie),

      bookingPayments: (query) =>
        Effect.gen(function* () {
          const { rows, total } = yield* withTotal(
            findAll(
              "booking payments page",
              BookingPaymentListRow,
              sql`
            WITH ops AS (SELECT * FROM counted_payment_operations WHERE currency = ${query.currency} AND kind <> 'CARD_SAVED'),
            per AS (
              SELECT booking_id,
                     coalesce(sum(amount_minor) FILTER (WHERE kind = 'CAPTURE'), 0)::int8 AS captured_minor,
                     coalesce(sum(amount_minor) FILTER (WHERE kind = 'REFUND'), 0)::int8 AS refunded_minor,
                     (coalesce(sum(fee_minor) FILTER (WHERE kind = 'CAPTURE'), 0)
                       - coalesce(sum(fee_minor) FILTER (WHERE kind = 'REFUND'), 0))::int8 AS commission_minor,
                     bool_or(kind = 'CANCELLATION') AS released
              FROM ops GROUP BY booking_id),
            latest AS (SELECT DISTINCT ON (booking_id) booking_id, id, created_at, currency FROM ops ORDER BY booking_id, created_at DESC, id DESC),
            authorization_ AS (
              SELECT DISTINCT ON (booking_id) booking_id, id, amount_minor, payment_intent_id, payment_method, created_at
              FROM ops WHERE kind = 'AUTHORIZATION' ORDER BY booking_id, created_at DESC, id DESC)
            SELECT l.id, p.booking_id, p.captured_minor, p.refunded_minor, p.commission_minor, p.released, l.currency, l.created_at,
                   coalesce(a.amount_minor, 0)::int8 AS authorized_minor,
                   (CASE WHEN a.id IS NOT NULL AND ${heldCondition("a")} THEN a.amount_minor ELSE 0 END)::int8 AS held_minor,
                   a.payment_method, s.id AS service_id, s.title AS service_title,
                   ${personColumns("cu", "client")}, ${personColumns("pu", "provider")}, count(*) OVER () AS total
            FROM per p JOIN latest l ON l.booking_id = p.booking_id LEFT JOIN authorization_ a ON a.booking_id = p.booking_id
              JOIN bookings b ON b.id = p.booking_id JOIN services s ON s.id = b.service_id
              JOIN users cu ON cu.id = b.client_id JOIN users pu ON pu.id = b.provider_id
            ORDER BY l.created_at DESC, l.id DESC
            LIMIT ${query.limit} OFFSET ${query.offset}`
            ),
            single(
              "booking payments count",
              Count,
              sql`SELECT count(DISTINCT booking_id) AS n FROM payment_operations WHERE currency = ${query.currency} AND kind <> 'CARD_SAVED'`
            )
          )
          return {
            total,
            rows: rows.map((r): BookingPaymentRow => {
              const facts = { ...r }
              return {
                id: r.id,
                bookingId: r.bookingId,
                status: bookingPaymentStatus(facts),
                amountMinor: bookingPaymentAmount(facts),
                capturedMinor: r.capturedMinor,
                refundedMinor: r.refundedMinor,
                commissionMinor: r.commissionMinor,
                heldMinor: r.heldMinor,
                currency: r.currency,
                paymentMethod: r.paymentMethod,
                createdAt: r.createdAt,
                service: { id: r.serviceId, title: r.serviceTitle },
                client: person("client", r),
                provider: person("provider", r)
              }
            })
          }
        }).pipe(Effect.orDie),

      topUsers: (from, limit) =>
        findAll(
          "top users",
          TopUserRow,
          sql`
          WITH activity AS (
            SELECT u.id, u.first_name, u.last_name, u.email::text AS email, u.role, u.created_at,
              (SELECT count(*) FROM services s WHERE s.user_id = u.id AND s.archived_at IS NULL) AS services,
              (SELECT count(*) FROM bookings b WHERE b.client_id = u.id AND b.created_at >= ${from}) AS bookings_as_client,
              (SELECT count(*) FROM bookings b WHERE b.provider_id = u.id AND b.created_at >= ${from}) AS bookings_as_provider,
              (SELECT count(*) FROM reviews r WHERE r.provider_id = u.id AND r.created_at >= ${from}) AS reviews_as_provider,
              (SELECT count(*) FROM reviews r WHERE r.client_id = u.id AND r.created_at >= ${from}) AS reviews_as_client
            FROM users u)
          SELECT id, first_name, last_name, email, role, services, bookings_as_client, bookings_as_provider, reviews_as_provider, reviews_as_client
          FROM activity
          WHERE bookings_as_client + bookings_as_provider + reviews_as_provider + reviews_as_client > 0
          ORDER BY bookings_as_client + bookings_as_provider DESC, reviews_as_provider + reviews_as_client DESC, created_at, id
          LIMIT ${limit}`
        ).pipe(
          Effect.map((rows): ReadonlyArray<TopUser> => rows),
          Effect.orDie
        ),

      topServices: (from, limit) =>
        findAll(
          "top services",
          TopServiceRow,
          sql`
          SELECT s.id, s.title, s.price_minor, s.currency, s.rating::float8 AS rating, s.review_count,
                 u.first_name, u.last_name, count(b.id) AS bookings
          FROM services s JOIN users u ON u.id = s.user_id
            LEFT JOIN bookings b ON b.service_id = s.id AND b.created_at >= ${from}
          WHERE s.archived_at IS NULL
          GROUP BY s.id, u.id
          HAVING count(b.id) > 0
          ORDER BY count(b.id) DESC, s.rating DESC, s.review_count DESC, s.id
          LIMIT ${limit}`
        ).pipe(
          Effect.map((rows) =>
            rows.map(({ firstName, lastName, ...service }): TopService => ({ ...service, provider: { firstName, lastName } }))
          ),
          Effect.orDie
        ),

      bookingsByStatus: (from) =>
        findAll(
          "bookings by status since",
          StatusCountRow,
          sql`SELECT status, count(*) AS n FROM bookings WHERE created_at >= ${from} GROUP BY status ORDER BY count(*) DESC, status`
        ).pipe(
          Effect.map((rows) => rows.map((r) => ({ status: r.status, count: r.n }))),
          Effect.orDie
        ),

      growth: (from) =>
        Effect.gen(function* () {
          const perDay = (rows: ReadonlyArray<{ day: Date | string; count: number }>): ReadonlyArray<DailyCount> =>
            rows.map((r) => ({ date: day(r.day), count: r.count }))
          const users = yield* findAll(
            "new users per day",
            DayCountRow,
            sql`
            SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS count
            FROM users WHERE created_at >= ${from} GROUP BY 1 ORDER BY 1`
          )
          const bookings = yield* findAll(
            "new bookings per day",
            DayCountRow,
            sql`
            SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS count
            FROM bookings WHERE created_at >= ${from} GROUP BY 1 ORDER BY 1`
          )
          return { users: perDay(users), bookings: perDay(bookings) }
        }).pipe(Effect.orDie)
    }
  })
)

export const AdministrationPostgresAdapters = AdminReadModelLive
