import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import type { BookingStatus } from "../domain"
import {
  type Bookable,
  type BookingDetail,
  type BookingRecord,
  BookingRepository,
  type PaymentReferences,
  ReviewRepository,
  type ReviewRecord
} from "../ports"
import { AvailabilityRepositoryLive } from "../availability/adapters/postgres"

// Amounts are read as float8 (exact below 2^53); the client now also parses int8 as a number (platform/database.ts),
// so these casts can go when the rows are decoded by Schema.
const RECORD = `
  b.id, b.service_id AS "serviceId", b.client_id AS "clientId", b.provider_id AS "providerId",
  b.status, b.payment_status AS "paymentStatus", b.start_time AS "startTime", b.end_time AS "endTime",
  b.address, b.notes, b.hourly_price_minor::float8 AS "hourlyPriceMinor", b.currency, b.total_minor::float8 AS "totalMinor",
  b.authorized_minor::float8 AS "authorizedMinor", b.captured_minor::float8 AS "capturedMinor", b.refunded_minor::float8 AS "refundedMinor",
  b.hold_expires_at AS "holdExpiresAt", b.authorization_expires_at AS "authorizationExpiresAt", b.rendered_at AS "renderedAt",
  b.payment_issue AS "paymentIssue", b.rejection_reason AS "rejectionReason", b.cancelled_by AS "cancelledBy", b.cancellation_reason AS "cancellationReason",
  b.checkout_session_id AS "checkoutSessionId", b.payment_intent_id AS "paymentIntentId",
  b.gateway_customer_id AS "gatewayCustomerId", b.gateway_payment_method_id AS "gatewayPaymentMethodId",
  b.version, b.created_at AS "createdAt", b.updated_at AS "updatedAt"`

const person = (alias: string) =>
  `json_build_object('id', ${alias}.id, 'firstName', ${alias}.first_name, 'lastName', ${alias}.last_name, 'email', ${alias}.email,
     'phoneNumber', ${alias}.phone_number, 'preferredLanguage', ${alias}.preferred_language)`

const DETAIL = `${RECORD},
  json_build_object('id', s.id, 'title', s.title, 'description', s.description, 'categoryNameFr', c.name_fr, 'categoryNameEn', c.name_en) AS service,
  ${person("cu")} AS client, ${person("pu")} AS provider,
  (SELECT json_build_object('rating', r.rating, 'comment', r.comment, 'createdAt', r.created_at) FROM reviews r WHERE r.booking_id = b.id) AS review`

const FROM_DETAIL = `bookings b
  JOIN services s ON s.id = b.service_id
  JOIN categories c ON c.id = s.category_id
  JOIN users cu ON cu.id = b.client_id
  JOIN users pu ON pu.id = b.provider_id`

type DetailRow = Omit<BookingDetail, "review"> & { review: { rating: number; comment: string; createdAt: string } | null }
const toDetail = (row: DetailRow): BookingDetail => ({
  ...row,
  review: row.review ? { ...row.review, createdAt: new Date(row.review.createdAt) } : null
})

/** PAID is the spec's label of a pending booking whose payment is secured. */
const statusFilter = (sql: SqlClient.SqlClient, statuses: ReadonlyArray<BookingStatus | "PAID"> | undefined) => {
  if (!statuses || statuses.length === 0) return sql`TRUE`
  const plain = statuses.filter((s): s is BookingStatus => s !== "PAID")
  const paid = statuses.includes("PAID")
  const pendingToo = plain.includes("PENDING")
  const others = plain.filter((s) => s !== "PENDING")
  const parts = [
    others.length > 0 ? sql`b.status IN ${sql.in(others)}` : undefined,
    // PENDING alone means "still unpaid" once PAID exists as its own label, unless both are asked.
    pendingToo && paid ? sql`b.status = 'PENDING'` : undefined,
    pendingToo && !paid ? sql`(b.status = 'PENDING' AND b.payment_status NOT IN ('AUTHORIZED', 'CARD_SAVED'))` : undefined,
    paid && !pendingToo ? sql`(b.status = 'PENDING' AND b.payment_status IN ('AUTHORIZED', 'CARD_SAVED'))` : undefined
  ].filter((p) => p !== undefined)
  return sql`(${sql.or(parts)})`
}

const isExclusionViolation = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { cause?: { code?: string } }).cause?.code === "23P01"

export const BookingRepositoryLive = Layer.effect(
  BookingRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const record = sql.unsafe(RECORD)
    const detail = sql.unsafe(DETAIL)
    const fromDetail = sql.unsafe(FROM_DETAIL)
    const findById = (id: string) =>
      sql<DetailRow>`SELECT ${detail} FROM ${fromDetail} WHERE b.id = ${id}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toDetail)),
        Effect.orDie
      )
    const referenceColumns = (refs: PaymentReferences | undefined) => ({
      ...(refs?.checkoutSessionId !== undefined ? { checkout_session_id: refs.checkoutSessionId } : {}),
      ...(refs?.paymentIntentId !== undefined ? { payment_intent_id: refs.paymentIntentId } : {}),
      ...(refs?.gatewayCustomerId !== undefined ? { gateway_customer_id: refs.gatewayCustomerId } : {}),
      ...(refs?.gatewayPaymentMethodId !== undefined ? { gateway_payment_method_id: refs.gatewayPaymentMethodId } : {})
    })
    const bookableColumns = sql.unsafe(`s.id, s.user_id AS "userId", s.title, s.description, s.price_minor::float8 AS "priceMinor",
      s.currency, s.status, s.archived_at AS "archivedAt", c.name_fr AS "categoryNameFr", c.name_en AS "categoryNameEn",
      pu.is_active AS "providerActive", ${person("pu")} AS provider, ${person("cu")} AS client`)
    return {
      bookable: (serviceId, clientId, slot) =>
        // The taken check is the exclusion constraint's own test, answered by its GiST index.
        sql<Bookable["service"] & Pick<Bookable, "providerActive" | "provider" | "client" | "slotTaken">>`SELECT ${bookableColumns},
            EXISTS (SELECT 1 FROM bookings b WHERE b.provider_id = s.user_id AND b.status NOT IN ('REJECTED', 'CANCELLED')
              AND tstzrange(b.start_time, b.end_time, '[)') && tstzrange(${slot.start}, ${slot.end}, '[)')) AS "slotTaken"
          FROM services s JOIN categories c ON c.id = s.category_id JOIN users pu ON pu.id = s.user_id JOIN users cu ON cu.id = ${clientId}
          WHERE s.id = ${serviceId}`.pipe(
          Effect.map((rows) =>
            Option.map(
              Option.fromNullable(rows[0]),
              ({ providerActive, provider, client, slotTaken, ...service }): Bookable => ({
                service,
                providerActive,
                provider,
                client,
                slotTaken
              })
            )
          ),
          Effect.orDie
        ),
      insert: (b) =>
        // ON CONFLICT on the exclusion constraint: a loser of a race for the slot gets no row at
        // once, instead of waiting on (and deadlocking with) the winner's index entry.
        sql<BookingRecord>`
          INSERT INTO bookings AS b (id, service_id, client_id, provider_id, start_time, end_time, address, notes,
            hourly_price_minor, currency, total_minor, status, payment_status, hold_expires_at)
          VALUES (${b.id}, ${b.serviceId}, ${b.clientId}, ${b.providerId}, ${b.startTime}, ${b.endTime}, ${b.address}, ${b.notes},
            ${b.hourlyPriceMinor}, ${b.currency}, ${b.totalMinor}, ${b.status}, ${b.paymentStatus}, ${b.holdExpiresAt})
          ON CONFLICT ON CONSTRAINT bookings_no_overlap DO NOTHING
          RETURNING ${record}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0])),
          // Within one transaction a conflicting row of a concurrent, uncommitted insert can still
          // surface as a violation: it is the same answer, the slot is taken.
          Effect.catchAll((error) => (isExclusionViolation(error) ? Effect.succeed(Option.none()) : Effect.die(error)))
        ),
      findById,
      // NO KEY UPDATE: the lock a booking's own UPDATE takes. It still serialises the booking's changes,
      // but lets rows that only reference the booking (payment operations, reviews) be inserted
      // meanwhile: with FOR UPDATE their foreign-key check waited on the lock, and a webhook holding it
      // while recording the same operation deadlocked with the insert (a 500 under a racing webhook).
      lock: (id) =>
        sql<BookingRecord>`SELECT ${record} FROM bookings b WHERE b.id = ${id} FOR NO KEY UPDATE`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),
      save: (before, decision, refs) => {
        const n = decision.next
        const changes = {
          status: n.status,
          payment_status: n.paymentStatus,
          authorized_minor: n.authorizedMinor,
          captured_minor: n.capturedMinor,
          refunded_minor: n.refundedMinor,
          hold_expires_at: n.holdExpiresAt,
          authorization_expires_at: n.authorizationExpiresAt,
          rendered_at: n.renderedAt,
          payment_issue: n.paymentIssue,
          ...(decision.rejectionReason !== undefined ? { rejection_reason: decision.rejectionReason } : {}),
          ...(decision.cancellation !== undefined
            ? { cancelled_by: decision.cancellation.by, cancellation_reason: decision.cancellation.reason }
            : {}),
          ...referenceColumns(refs)
        }
        return sql<BookingRecord>`
          UPDATE bookings AS b SET ${sql.update(changes)}, version = b.version + 1, updated_at = now()
          WHERE b.id = ${before.id} AND b.version = ${before.version}
          RETURNING ${record}`.pipe(
          Effect.flatMap((rows) =>
            rows[0] ? Effect.succeed(rows[0]) : Effect.dieMessage(`booking ${before.id} changed under its lock (version ${before.version})`)
          ),
          Effect.orDie
        )
      },
      setReferences: (id, refs) => {
        const changes = referenceColumns(refs)
        if (Object.keys(changes).length === 0) return Effect.void
        return sql`UPDATE bookings SET ${sql.update(changes)}, updated_at = now() WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
      },
      list: (q) =>
        Effect.gen(function* () {
          const side =
            q.userId === undefined
              ? sql`TRUE`
              : q.as === "client"
                ? sql`b.client_id = ${q.userId}`
                : q.as === "provider"
                  ? sql`b.provider_id = ${q.userId}`
                  : sql`(b.client_id = ${q.userId} OR b.provider_id = ${q.userId})`
          const where = sql`${side} AND ${statusFilter(sql, q.statuses)}`
          // Page ids first on the (user, start_time) indexes, then join the few rows the page shows.
          const [rows, counted] = yield* Effect.all(
            [
              sql<DetailRow>`
                WITH page AS (SELECT b.id FROM bookings b WHERE ${where} ORDER BY b.start_time DESC, b.id DESC LIMIT ${q.limit} OFFSET ${q.offset})
                SELECT ${detail} FROM page JOIN ${fromDetail} ON b.id = page.id ORDER BY b.start_time DESC, b.id DESC`,
              sql<{ total: number }>`SELECT count(*)::int AS total FROM bookings b WHERE ${where}`
            ],
            { concurrency: 1 }
          )
          return { items: rows.map(toDetail), total: counted[0]?.total ?? 0 }
        }).pipe(Effect.orDie),
      activeForService: (serviceId, clientId) =>
        sql<DetailRow>`SELECT ${detail} FROM ${fromDetail}
          WHERE b.service_id = ${serviceId} AND b.client_id = ${clientId}
            AND b.status IN ('PENDING', 'CONFIRMED', 'IN_PROGRESS', 'SERVICE_RENDERED')
          ORDER BY b.created_at DESC LIMIT 1`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toDetail)),
          Effect.orDie
        ),
      calendar: (providerId, from, to) =>
        sql<DetailRow>`SELECT ${detail} FROM ${fromDetail}
          WHERE b.provider_id = ${providerId} AND b.status NOT IN ('REJECTED', 'CANCELLED')
            AND NOT (b.status = 'PENDING' AND b.payment_status NOT IN ('AUTHORIZED', 'CARD_SAVED'))
            AND b.start_time < ${to} AND b.end_time > ${from}
          ORDER BY b.start_time LIMIT 2000`.pipe(
          Effect.map((rows) => rows.map(toDetail)),
          Effect.orDie
        ),
      dueIds: (now, limit) =>
        // A wide net on the small set of open bookings; the sweep asks the rules what is really due.
        sql<{ id: string }>`SELECT b.id FROM bookings b
          WHERE b.status IN ('PENDING', 'CONFIRMED', 'IN_PROGRESS', 'SERVICE_RENDERED')
            AND (b.hold_expires_at <= ${now}
              OR (b.status IN ('PENDING', 'CONFIRMED') AND b.start_time <= ${now})
              OR (b.status = 'SERVICE_RENDERED' AND GREATEST(b.rendered_at, b.end_time) <= ${now}::timestamptz - interval '7 days')
              OR (b.payment_status = 'CARD_SAVED' AND b.start_time <= ${now}::timestamptz + interval '3 days')
              OR (b.payment_status = 'AUTHORIZED' AND b.authorization_expires_at <= ${now}::timestamptz + interval '1 day'))
          ORDER BY b.start_time LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map((r) => r.id)),
          Effect.orDie
        ),
      captureDueIds: (limit) =>
        sql<{ id: string }>`SELECT b.id FROM bookings b
          WHERE (b.status IN ('COMPLETED', 'VALIDATED') AND b.payment_status IN ('AUTHORIZED', 'CARD_SAVED'))
             OR (b.status IN ('CANCELLED', 'REJECTED') AND b.payment_status = 'AUTHORIZED')
          ORDER BY b.updated_at LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map((r) => r.id)),
          Effect.orDie
        ),
      findIdByPaymentReference: (ref) =>
        (ref.paymentIntentId !== undefined
          ? sql<{ id: string }>`SELECT id FROM bookings WHERE payment_intent_id = ${ref.paymentIntentId} LIMIT 1`
          : sql<{ id: string }>`SELECT id FROM bookings WHERE checkout_session_id = ${ref.checkoutSessionId ?? ""} LIMIT 1`
        ).pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (r) => r.id)),
          Effect.orDie
        ),
      advanceChargeClock: (paymentIntentId, occurredAt) =>
        // One statement: the first event of an intent, or one not older than the last applied, moves the clock.
        sql<{
          applied: boolean
        }>`INSERT INTO charge_event_clocks AS c (payment_intent_id, last_event_at) VALUES (${paymentIntentId}, ${occurredAt})
            ON CONFLICT (payment_intent_id) DO UPDATE SET last_event_at = EXCLUDED.last_event_at
              WHERE c.last_event_at <= EXCLUDED.last_event_at
            RETURNING true AS applied`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      recordOperation: (op) =>
        sql`INSERT INTO payment_operations (booking_id, gateway, kind, amount_minor, currency, fee_minor, payment_intent_id, reference, payment_method, detail)
            VALUES (${op.bookingId}, ${op.gateway}, ${op.kind}, ${op.amountMinor}, ${op.currency}, ${op.feeMinor}, ${op.paymentIntentId},
              ${op.reference}, ${op.paymentMethod}, ${op.detail})
            ON CONFLICT (kind, reference) DO NOTHING`.pipe(Effect.asVoid, Effect.orDie),
      operations: (bookingId) =>
        sql<any>`SELECT booking_id AS "bookingId", gateway, kind, amount_minor::float8 AS "amountMinor", currency, fee_minor::float8 AS "feeMinor",
              payment_intent_id AS "paymentIntentId", reference, payment_method AS "paymentMethod", detail, created_at AS "createdAt"
            FROM payment_operations WHERE booking_id = ${bookingId} ORDER BY created_at, id`.pipe(Effect.orDie)
    }
  })
)

export const ReviewRepositoryLive = Layer.effect(
  ReviewRepository,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    insert: (r) =>
      Effect.gen(function* () {
        const rows = yield* sql<{ id: string; createdAt: Date }>`
          INSERT INTO reviews (booking_id, service_id, client_id, provider_id, rating, comment)
          VALUES (${r.bookingId}, ${r.serviceId}, ${r.clientId}, ${r.providerId}, ${r.rating}, ${r.comment})
          ON CONFLICT (booking_id) DO NOTHING
          RETURNING id, created_at AS "createdAt"`
        if (rows.length === 0) return Option.none<ReviewRecord>()
        const [client] = yield* sql<{ firstName: string; lastName: string }>`
          SELECT first_name AS "firstName", last_name AS "lastName" FROM users WHERE id = ${r.clientId}`
        return Option.some({ ...r, id: rows[0]!.id, createdAt: rows[0]!.createdAt, client: client ?? { firstName: "", lastName: "" } })
      }).pipe(Effect.orDie),
    ofService: (serviceId, limit, offset) =>
      Effect.gen(function* () {
        const items = yield* sql<ReviewRecord & { clientFirstName: string; clientLastName: string }>`
          SELECT r.id, r.booking_id AS "bookingId", r.service_id AS "serviceId", r.client_id AS "clientId", r.provider_id AS "providerId",
                 r.rating, r.comment, r.created_at AS "createdAt", u.first_name AS "clientFirstName", u.last_name AS "clientLastName"
          FROM reviews r JOIN users u ON u.id = r.client_id
          WHERE r.service_id = ${serviceId} ORDER BY r.created_at DESC, r.id DESC LIMIT ${limit} OFFSET ${offset}`
        const [stats] = yield* sql<{ total: number; average: number | null }>`
          SELECT count(*)::int AS total, round(avg(rating), 2)::float8 AS average FROM reviews WHERE service_id = ${serviceId}`
        return {
          items: items.map(({ clientFirstName, clientLastName, ...r }) => ({
            ...r,
            client: { firstName: clientFirstName, lastName: clientLastName }
          })),
          total: stats?.total ?? 0,
          average: stats?.average ?? 0
        }
      }).pipe(Effect.orDie)
  }))
)

export const BookingPostgresAdapters = Layer.mergeAll(BookingRepositoryLive, ReviewRepositoryLive, AvailabilityRepositoryLive)
