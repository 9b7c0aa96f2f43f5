import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { Languages } from "../../../platform/messages"
import { RefundStatuses } from "../../payments"
import { findAll, findOne, single } from "../../../platform/rows"
import {
  type BookingStatus,
  BookingStatuses,
  DisputeOutcomes,
  DisputeReasons,
  DisputeStatuses,
  openProposalOf,
  PaymentIssues,
  PaymentStatuses,
  RescheduleStatuses,
  SlotTaken
} from "../domain"
import { REMINDER_LEAD_MS } from "../reminders"
import { DEFAULT_TIME_ZONE } from "../../../platform/time-zones"
import {
  type Bookable,
  type BookingDetail,
  type BookingRecord,
  BookingRepository,
  DisputeRepository,
  type DisputeSummary,
  type DisputeFileRecord,
  type DisputeMessageRecord,
  type OpenDispute,
  type Participant,
  type PaymentOperation,
  CalendarFeedRepository,
  type PaymentReferences,
  ReminderLog,
  ReviewRepository,
  type ReviewRecord
} from "../ports"
import { AvailabilityRepositoryLive } from "../availability/adapters/postgres"
import type { EarningSource } from "../statements"

// Amounts are bigint columns, read as exact numbers by the client's int8 parser (platform/database.ts).
const RECORD = `
  b.id, b.service_id, b.client_id, b.provider_id, b.status, b.payment_status, b.start_time, b.end_time,
  b.address, b.notes, b.hourly_price_minor, b.currency, b.total_minor,
  b.authorized_minor, b.captured_minor, b.refunded_minor,
  b.hold_expires_at, b.authorization_expires_at, b.rendered_at,
  b.payment_issue, b.cancellation_fee_minor, b.resolved_capture_minor, b.rejection_reason, b.cancelled_by, b.cancellation_reason,
  b.checkout_session_id, b.payment_intent_id, b.gateway_customer_id, b.gateway_payment_method_id,
  b.version, b.created_at, b.updated_at`

const person = (alias: string) =>
  `json_build_object('id', ${alias}.id, 'firstName', ${alias}.first_name, 'lastName', ${alias}.last_name, 'email', ${alias}.email,
     'phoneNumber', ${alias}.phone_number, 'preferredLanguage', ${alias}.preferred_language,
     'timeZone', coalesce(${alias}.time_zone, '${DEFAULT_TIME_ZONE}'))`

function rescheduleJson(alias: string) {
  return `json_build_object('id', ${alias}.id, 'proposedBy', ${alias}.proposed_by, 'startTime', ${alias}.start_time, 'endTime', ${alias}.end_time,
     'totalMinor', ${alias}.total_minor, 'previousStartTime', ${alias}.previous_start_time, 'previousEndTime', ${alias}.previous_end_time,
     'previousTotalMinor', ${alias}.previous_total_minor, 'status', ${alias}.status, 'expiresAt', ${alias}.expires_at,
     'createdAt', ${alias}.created_at, 'decidedAt', ${alias}.decided_at, 'decidedBy', ${alias}.decided_by)`
}

/** A proposal as json_build_object writes it (instants as ISO strings). */
const RescheduleJson = Schema.Struct({
  id: Schema.String,
  proposedBy: Schema.Literal("CLIENT", "PROVIDER"),
  startTime: Schema.Date,
  endTime: Schema.Date,
  totalMinor: Schema.Number,
  previousStartTime: Schema.Date,
  previousEndTime: Schema.Date,
  previousTotalMinor: Schema.Number,
  status: Schema.Literal(...RescheduleStatuses),
  expiresAt: Schema.Date,
  createdAt: Schema.Date,
  decidedAt: Schema.NullOr(Schema.Date),
  decidedBy: Schema.NullOr(Schema.Literal("CLIENT", "PROVIDER", "ADMIN", "SYSTEM"))
})

const DISPUTE_SUMMARY = `json_build_object('id', d.id, 'reason', d.reason, 'status', d.status, 'openedAt', d.opened_at,
     'outcome', d.outcome, 'note', d.note, 'resolvedAt', d.resolved_at)`
/** A dispute as json_build_object writes it. */
const DisputeSummaryJson = Schema.Struct({
  id: Schema.String,
  reason: Schema.Literal(...DisputeReasons),
  status: Schema.Literal(...DisputeStatuses),
  openedAt: Schema.Date,
  outcome: Schema.NullOr(Schema.Literal(...DisputeOutcomes)),
  note: Schema.NullOr(Schema.String),
  resolvedAt: Schema.NullOr(Schema.Date)
}) satisfies Schema.Schema<DisputeSummary, any>

const DETAIL = `${RECORD},
  json_build_object('id', s.id, 'title', s.title, 'description', s.description, 'categoryNameFr', c.name_fr, 'categoryNameEn', c.name_en) AS service,
  ${person("cu")} AS client, ${person("pu")} AS provider,
  (SELECT json_build_object('rating', r.rating, 'comment', r.comment, 'createdAt', r.created_at) FROM reviews r WHERE r.booking_id = b.id) AS review,
  (SELECT coalesce(json_agg(${rescheduleJson("rs")} ORDER BY rs.created_at DESC, rs.id), '[]') FROM booking_reschedules rs WHERE rs.booking_id = b.id) AS reschedules,
  (SELECT ${DISPUTE_SUMMARY} FROM booking_disputes d WHERE d.booking_id = b.id) AS dispute`

const FROM_DETAIL = `bookings b
  JOIN services s ON s.id = b.service_id
  JOIN categories c ON c.id = s.category_id
  JOIN users cu ON cu.id = b.client_id
  JOIN users pu ON pu.id = b.provider_id`

// Rows as decoded (camelCase keys, int8 amounts as numbers: see platform/database.ts). JSON values
// keep their keys as built; a timestamp inside JSON is text, decoded to a Date. `satisfies`: a schema
// decodes exactly its port's type (a field or literal added to one and not the other fails the type check).
const BookingRecordRow = Schema.Struct({
  id: Schema.String,
  serviceId: Schema.String,
  clientId: Schema.String,
  providerId: Schema.String,
  status: Schema.Literal(...BookingStatuses),
  paymentStatus: Schema.Literal(...PaymentStatuses),
  startTime: Schema.DateFromSelf,
  endTime: Schema.DateFromSelf,
  address: Schema.String,
  notes: Schema.String,
  hourlyPriceMinor: Schema.Number,
  currency: Schema.String,
  totalMinor: Schema.Number,
  authorizedMinor: Schema.Number,
  capturedMinor: Schema.Number,
  refundedMinor: Schema.Number,
  holdExpiresAt: Schema.NullOr(Schema.DateFromSelf),
  authorizationExpiresAt: Schema.NullOr(Schema.DateFromSelf),
  renderedAt: Schema.NullOr(Schema.DateFromSelf),
  paymentIssue: Schema.NullOr(Schema.Literal(...PaymentIssues)),
  cancellationFeeMinor: Schema.Number,
  resolvedCaptureMinor: Schema.NullOr(Schema.Number),
  rejectionReason: Schema.NullOr(Schema.String),
  cancelledBy: Schema.NullOr(Schema.String),
  cancellationReason: Schema.NullOr(Schema.String),
  checkoutSessionId: Schema.NullOr(Schema.String),
  paymentIntentId: Schema.NullOr(Schema.String),
  gatewayCustomerId: Schema.NullOr(Schema.String),
  gatewayPaymentMethodId: Schema.NullOr(Schema.String),
  version: Schema.Number,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
}) satisfies Schema.Schema<BookingRecord, any>
const ParticipantJson = Schema.Struct({
  id: Schema.String,
  firstName: Schema.String,
  lastName: Schema.String,
  email: Schema.String,
  phoneNumber: Schema.String,
  preferredLanguage: Schema.Literal(...Languages),
  timeZone: Schema.String
}) satisfies Schema.Schema<Participant, any>
const DetailRow = Schema.extend(
  BookingRecordRow,
  Schema.Struct({
    service: Schema.Struct({
      id: Schema.String,
      title: Schema.String,
      description: Schema.String,
      categoryNameFr: Schema.String,
      categoryNameEn: Schema.String
    }),
    client: ParticipantJson,
    provider: ParticipantJson,
    review: Schema.NullOr(Schema.Struct({ rating: Schema.Number, comment: Schema.String, createdAt: Schema.Date })),
    reschedules: Schema.Array(RescheduleJson),
    dispute: Schema.NullOr(DisputeSummaryJson)
  })
) satisfies Schema.Schema<BookingDetail, any>
/** A booking with its open proposal, picked from its history (the state the rules see). */
const withProposal = <R extends BookingDetail>(row: R): R => ({ ...row, proposal: openProposalOf(row.reschedules) })
const BookableRow = Schema.Struct({
  id: Schema.String,
  userId: Schema.String,
  title: Schema.String,
  description: Schema.String,
  priceMinor: Schema.Number,
  currency: Schema.String,
  status: Schema.String,
  archivedAt: Schema.NullOr(Schema.DateFromSelf),
  categoryNameFr: Schema.String,
  categoryNameEn: Schema.String,
  providerActive: Schema.Boolean,
  provider: ParticipantJson,
  client: ParticipantJson,
  slotTaken: Schema.Boolean
})
const OperationRow = Schema.Struct({
  bookingId: Schema.String,
  gateway: Schema.Literal("stripe", "sandbox"),
  kind: Schema.Literal("AUTHORIZATION", "CARD_SAVED", "CAPTURE", "CANCELLATION", "REFUND", "FAILURE"),
  amountMinor: Schema.Number,
  currency: Schema.String,
  feeMinor: Schema.Number,
  paymentIntentId: Schema.NullOr(Schema.String),
  reference: Schema.String,
  paymentMethod: Schema.NullOr(Schema.String),
  detail: Schema.NullOr(Schema.String),
  refundStatus: Schema.NullOr(Schema.Literal(...RefundStatuses)),
  createdAt: Schema.DateFromSelf
}) satisfies Schema.Schema<PaymentOperation & { readonly createdAt: Date }, any>
const LockedRow = Schema.extend(BookingRecordRow, Schema.Struct({ openProposal: Schema.NullOr(RescheduleJson) }))
const NewReviewRow = Schema.Struct({ id: Schema.String, createdAt: Schema.DateFromSelf })
const ReviewerRow = Schema.Struct({ firstName: Schema.String, lastName: Schema.String })
const ReviewRow = Schema.Struct({
  id: Schema.String,
  bookingId: Schema.String,
  serviceId: Schema.String,
  clientId: Schema.String,
  providerId: Schema.String,
  rating: Schema.Number,
  comment: Schema.String,
  createdAt: Schema.DateFromSelf,
  clientFirstName: Schema.String,
  clientLastName: Schema.String
})
const ReviewStatsRow = Schema.Struct({ total: Schema.Number, average: Schema.NullOr(Schema.Number) })
const IdRow = Schema.Struct({ id: Schema.String })
const EarningSourceRow = Schema.Struct({
  bookingId: Schema.String,
  serviceTitle: Schema.String,
  clientFirstName: Schema.String,
  clientLastName: Schema.String,
  startTime: Schema.DateFromSelf,
  currency: Schema.String,
  paymentStatus: Schema.Literal(...PaymentStatuses),
  totalMinor: Schema.Number,
  authorizedMinor: Schema.Number,
  capturedMinor: Schema.Number,
  refundedMinor: Schema.Number,
  capturedAt: Schema.NullOr(Schema.DateFromSelf),
  authorizedAt: Schema.NullOr(Schema.DateFromSelf)
}) satisfies Schema.Schema<EarningSource, any>
const Total = Schema.Struct({ total: Schema.Number })
const Taken = Schema.Struct({ taken: Schema.Boolean })

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

const sqlStateOf = (error: unknown) =>
  typeof error === "object" && error !== null ? (error as { cause?: { code?: string } }).cause?.code : undefined
const isExclusionViolation = (error: unknown) => sqlStateOf(error) === "23P01"

export const BookingRepositoryLive = Layer.effect(
  BookingRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const record = sql.unsafe(RECORD)
    const detail = sql.unsafe(DETAIL)
    const fromDetail = sql.unsafe(FROM_DETAIL)
    const openReschedule = sql.unsafe(rescheduleJson("rs"))
    const findById = (id: string) =>
      findOne("booking", DetailRow, sql`SELECT ${detail} FROM ${fromDetail} WHERE b.id = ${id}`).pipe(
        Effect.map(Option.map(withProposal)),
        Effect.orDie
      )
    const referenceColumns = (refs: PaymentReferences | undefined) => ({
      ...(refs?.checkoutSessionId !== undefined ? { checkout_session_id: refs.checkoutSessionId } : {}),
      ...(refs?.paymentIntentId !== undefined ? { payment_intent_id: refs.paymentIntentId } : {}),
      ...(refs?.gatewayCustomerId !== undefined ? { gateway_customer_id: refs.gatewayCustomerId } : {}),
      ...(refs?.gatewayPaymentMethodId !== undefined ? { gateway_payment_method_id: refs.gatewayPaymentMethodId } : {})
    })
    const bookableColumns = sql.unsafe(`s.id, s.user_id, s.title, s.description, s.price_minor,
      s.currency, s.status, s.archived_at, c.name_fr AS category_name_fr, c.name_en AS category_name_en,
      pu.is_active AS provider_active, ${person("pu")} AS provider, ${person("cu")} AS client`)
    return {
      bookable: (serviceId, clientId, slot) =>
        // The taken check is the exclusion constraint's own test, answered by its GiST index.
        findOne(
          "bookable service",
          BookableRow,
          sql`SELECT ${bookableColumns},
            EXISTS (SELECT 1 FROM bookings b WHERE b.provider_id = s.user_id AND b.status NOT IN ('REJECTED', 'CANCELLED')
              AND tstzrange(b.start_time, b.end_time, '[)') && tstzrange(${slot.start}, ${slot.end}, '[)')) AS slot_taken
          FROM services s JOIN categories c ON c.id = s.category_id JOIN users pu ON pu.id = s.user_id JOIN users cu ON cu.id = ${clientId}
          WHERE s.id = ${serviceId}`
        ).pipe(
          Effect.map(
            Option.map(
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
        findOne(
          "new booking",
          BookingRecordRow,
          sql`
          INSERT INTO bookings AS b (id, service_id, client_id, provider_id, start_time, end_time, address, notes,
            hourly_price_minor, currency, total_minor, status, payment_status, hold_expires_at)
          VALUES (${b.id}, ${b.serviceId}, ${b.clientId}, ${b.providerId}, ${b.startTime}, ${b.endTime}, ${b.address}, ${b.notes},
            ${b.hourlyPriceMinor}, ${b.currency}, ${b.totalMinor}, ${b.status}, ${b.paymentStatus}, ${b.holdExpiresAt})
          ON CONFLICT ON CONSTRAINT bookings_no_overlap DO NOTHING
          RETURNING ${record}`
        ).pipe(
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
        findOne(
          "locked booking",
          LockedRow,
          sql`SELECT ${record},
            (SELECT ${openReschedule} FROM booking_reschedules rs WHERE rs.booking_id = b.id AND rs.status IN ('OPEN', 'AWAITING_PAYMENT')) AS open_proposal
          FROM bookings b WHERE b.id = ${id} FOR NO KEY UPDATE`
        ).pipe(
          Effect.map(
            Option.map(
              ({ openProposal, ...row }): BookingRecord => ({
                ...row,
                proposal: openProposal === null ? null : openProposalOf([openProposal])
              })
            )
          ),
          Effect.orDie
        ),
      save: (before, decision, refs) => {
        const n = decision.next
        const moves = n.startTime.getTime() !== before.startTime.getTime() || n.endTime.getTime() !== before.endTime.getTime()
        // Two moves of one provider's bookings onto overlapping times would each wait, in the exclusion
        // check, on the other's new row: a deadlock. Moves of a provider's bookings take turns instead
        // (a lock held to the transaction's end); the second then meets the first's committed row: 409.
        const turn = moves ? sql`SELECT pg_advisory_xact_lock(hashtextextended(${before.providerId}, 0))` : Effect.void
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
          cancellation_fee_minor: n.cancellationFeeMinor,
          resolved_capture_minor: n.resolvedCaptureMinor ?? null,
          // A move (an accepted proposal): the exclusion constraint checks the new time.
          ...(moves ? { start_time: n.startTime, end_time: n.endTime } : {}),
          ...(n.totalMinor !== before.totalMinor ? { total_minor: n.totalMinor } : {}),
          ...(decision.rejectionReason !== undefined ? { rejection_reason: decision.rejectionReason } : {}),
          ...(decision.cancellation !== undefined
            ? { cancelled_by: decision.cancellation.by, cancellation_reason: decision.cancellation.reason }
            : {}),
          ...referenceColumns(refs)
        }
        // The provider's acceptance (their public cancellation rate counts from it).
        const confirmed = n.status === "CONFIRMED" && before.status !== "CONFIRMED" ? sql`, confirmed_at = now()` : sql``
        const r = decision.reschedule
        const proposal =
          r === undefined
            ? Effect.void
            : r._tag === "Open"
              ? sql`INSERT INTO booking_reschedules (id, booking_id, proposed_by, start_time, end_time, total_minor,
                    previous_start_time, previous_end_time, previous_total_minor, status, expires_at, created_at)
                  VALUES (${r.proposal.id}, ${before.id}, ${r.proposal.by === "client" ? "CLIENT" : "PROVIDER"}, ${r.proposal.startTime},
                    ${r.proposal.endTime}, ${r.proposal.totalMinor}, ${r.previous.startTime}, ${r.previous.endTime}, ${r.previous.totalMinor},
                    'OPEN', ${r.proposal.expiresAt}, ${r.at})`
              : r._tag === "AwaitPayment"
                ? sql`UPDATE booking_reschedules SET status = 'AWAITING_PAYMENT', decided_at = ${r.at}, decided_by = ${r.by}
                  WHERE id = ${r.proposalId} AND booking_id = ${before.id} AND status = 'OPEN'`
                : // (A proposal accepted and awaiting the payment keeps when and by whom it was accepted.)
                  sql`UPDATE booking_reschedules SET status = ${r.status}, decided_at = coalesce(decided_at, ${r.at}),
                    decided_by = coalesce(decided_by, ${r.by})
                  WHERE id = ${r.proposalId} AND booking_id = ${before.id} AND status IN ('OPEN', 'AWAITING_PAYMENT')`
        return Effect.zipRight(
          turn,
          findOne(
            "saved booking",
            BookingRecordRow,
            sql`
          UPDATE bookings AS b SET ${sql.update(changes)}, version = b.version + 1, updated_at = now()${confirmed}
          WHERE b.id = ${before.id} AND b.version = ${before.version}
          RETURNING ${record}`
          )
        ).pipe(
          Effect.flatMap(
            Option.match({
              onNone: () => Effect.dieMessage(`booking ${before.id} changed under its lock (version ${before.version})`),
              onSome: Effect.succeed
            })
          ),
          Effect.tap(() => proposal),
          // A move onto a slot another booking holds (taken since the proposal, or by a racing move; a
          // deadlock with a racing new booking's insert is the same race).
          Effect.catchAll((error) =>
            isExclusionViolation(error) || (moves && sqlStateOf(error) === "40P01") ? Effect.fail(SlotTaken) : Effect.die(error)
          )
        )
      },
      slotTaken: (providerId, slot, ignoreBookingId) =>
        single(
          "slot taken",
          Taken,
          sql`SELECT EXISTS (SELECT 1 FROM bookings b WHERE b.provider_id = ${providerId}
            AND b.status NOT IN ('REJECTED', 'CANCELLED') AND b.id <> ${ignoreBookingId}
            AND tstzrange(b.start_time, b.end_time, '[)') && tstzrange(${slot.start}, ${slot.end}, '[)')) AS taken`
        ).pipe(
          Effect.map(({ taken }) => taken),
          Effect.orDie
        ),
      setReferences: (id, refs) => {
        const changes = referenceColumns(refs)
        if (Object.keys(changes).length === 0) return Effect.void
        return sql`UPDATE bookings SET ${sql.update(changes)}, updated_at = now() WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
      },
      extendHold: (id, until) =>
        sql`UPDATE bookings SET hold_expires_at = ${until}, updated_at = now()
            WHERE id = ${id} AND status = 'PENDING' AND hold_expires_at IS NOT NULL AND hold_expires_at < ${until}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
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
          const [items, counted] = yield* Effect.all(
            [
              findAll(
                "bookings page",
                DetailRow,
                sql`
                WITH page AS (SELECT b.id FROM bookings b WHERE ${where} ORDER BY b.start_time DESC, b.id DESC LIMIT ${q.limit} OFFSET ${q.offset})
                SELECT ${detail} FROM page JOIN ${fromDetail} ON b.id = page.id ORDER BY b.start_time DESC, b.id DESC`
              ),
              single("bookings count", Total, sql`SELECT count(*) AS total FROM bookings b WHERE ${where}`)
            ],
            { concurrency: 1 }
          )
          return { items: items.map(withProposal), total: counted.total }
        }).pipe(Effect.orDie),
      activeForService: (serviceId, clientId) =>
        findOne(
          "active booking of a service",
          DetailRow,
          sql`SELECT ${detail} FROM ${fromDetail}
          WHERE b.service_id = ${serviceId} AND b.client_id = ${clientId}
            AND b.status IN ('PENDING', 'CONFIRMED', 'IN_PROGRESS', 'SERVICE_RENDERED')
          ORDER BY b.created_at DESC LIMIT 1`
        ).pipe(Effect.map(Option.map(withProposal)), Effect.orDie),
      calendar: (providerId, from, to) =>
        findAll(
          "provider calendar",
          DetailRow,
          sql`SELECT ${detail} FROM ${fromDetail}
          WHERE b.provider_id = ${providerId} AND b.status NOT IN ('REJECTED', 'CANCELLED')
            AND NOT (b.status = 'PENDING' AND b.payment_status NOT IN ('AUTHORIZED', 'CARD_SAVED'))
            AND b.start_time < ${to} AND b.end_time > ${from}
          ORDER BY b.start_time LIMIT 2000`
        ).pipe(
          Effect.map((rows) => rows.map(withProposal)),
          Effect.orDie
        ),
      dueIds: (now, limit) =>
        // A wide net on the small set of open bookings; the sweep asks the rules what is really due.
        findAll(
          "due bookings",
          IdRow,
          sql`SELECT b.id FROM bookings b
          WHERE b.status IN ('PENDING', 'CONFIRMED', 'IN_PROGRESS', 'SERVICE_RENDERED', 'DISPUTED')
            AND (b.hold_expires_at <= ${now}
              OR (b.status IN ('PENDING', 'CONFIRMED') AND b.start_time <= ${now})
              OR (b.status = 'SERVICE_RENDERED' AND GREATEST(b.rendered_at, b.end_time) <= ${now}::timestamptz - interval '7 days')
              OR (b.payment_status = 'CARD_SAVED' AND b.start_time <= ${now}::timestamptz + interval '3 days')
              OR (b.payment_status = 'AUTHORIZED' AND b.authorization_expires_at <= ${now}::timestamptz + interval '1 day'))
          ORDER BY b.start_time LIMIT ${limit}`
        ).pipe(
          Effect.map((rows) => rows.map((r) => r.id)),
          Effect.orDie
        ),
      captureDueIds: (limit) =>
        findAll(
          "bookings to settle",
          IdRow,
          sql`SELECT b.id FROM bookings b
          WHERE (b.status IN ('COMPLETED', 'VALIDATED') AND b.payment_status IN ('AUTHORIZED', 'CARD_SAVED'))
             OR (b.status = 'RESOLVED' AND b.resolved_capture_minor > 0 AND b.payment_status IN ('AUTHORIZED', 'CARD_SAVED'))
             OR (b.status IN ('CANCELLED', 'REJECTED') AND b.payment_status = 'AUTHORIZED')
             OR (b.status = 'RESOLVED' AND b.resolved_capture_minor = 0 AND b.payment_status = 'AUTHORIZED')
          ORDER BY b.updated_at LIMIT ${limit}`
        ).pipe(
          Effect.map((rows) => rows.map((r) => r.id)),
          Effect.orDie
        ),
      findIdByPaymentReference: (ref) =>
        findOne(
          "booking of a payment reference",
          IdRow,
          ref.paymentIntentId !== undefined
            ? sql`SELECT id FROM bookings WHERE payment_intent_id = ${ref.paymentIntentId} LIMIT 1`
            : sql`SELECT id FROM bookings WHERE checkout_session_id = ${ref.checkoutSessionId ?? ""} LIMIT 1`
        ).pipe(Effect.map(Option.map((r) => r.id)), Effect.orDie),
      advanceChargeClock: (paymentIntentId, occurredAt) =>
        // One statement: the first event of an intent, or one not older than the last applied, moves the clock.
        findOne(
          "charge clock",
          Schema.Struct({ applied: Schema.Boolean }),
          sql`INSERT INTO charge_event_clocks AS c (payment_intent_id, last_event_at) VALUES (${paymentIntentId}, ${occurredAt})
            ON CONFLICT (payment_intent_id) DO UPDATE SET last_event_at = EXCLUDED.last_event_at
              WHERE c.last_event_at <= EXCLUDED.last_event_at
            RETURNING true AS applied`
        ).pipe(Effect.map(Option.isSome), Effect.orDie),
      recordOperation: (op) =>
        // A refund recorded again takes its reported state, but failed and canceled are final (refundStatusAfter).
        sql`INSERT INTO payment_operations (booking_id, gateway, kind, amount_minor, currency, fee_minor, payment_intent_id, reference, payment_method,
              detail, refund_status)
            VALUES (${op.bookingId}, ${op.gateway}, ${op.kind}, ${op.amountMinor}, ${op.currency}, ${op.feeMinor}, ${op.paymentIntentId},
              ${op.reference}, ${op.paymentMethod}, ${op.detail}, ${op.refundStatus})
            ON CONFLICT (kind, reference) DO UPDATE SET detail = coalesce(payment_operations.detail, excluded.detail),
              refund_status = CASE WHEN payment_operations.refund_status IN ('failed', 'canceled') THEN payment_operations.refund_status
                ELSE excluded.refund_status END`.pipe(Effect.asVoid, Effect.orDie),
      earningSources: (providerId) =>
        // The provider's bookings that hold money or ever had some captured, with their payment records
        // summed per kind; a hold only counts while the booking holds it.
        findAll(
          "earning sources",
          EarningSourceRow,
          sql`SELECT b.id AS booking_id, s.title AS service_title, c.first_name AS client_first_name, c.last_name AS client_last_name,
              b.start_time, b.currency, b.payment_status, b.total_minor, b.authorized_minor,
              coalesce(sum(o.amount_minor) FILTER (WHERE o.kind = 'CAPTURE'), 0)::int8 AS captured_minor,
              coalesce(sum(o.amount_minor) FILTER (WHERE o.kind = 'REFUND'), 0)::int8 AS refunded_minor,
              min(o.created_at) FILTER (WHERE o.kind = 'CAPTURE') AS captured_at,
              max(o.created_at) FILTER (WHERE o.kind = 'AUTHORIZATION' AND o.payment_intent_id = b.payment_intent_id) AS authorized_at
            FROM bookings b
            JOIN services s ON s.id = b.service_id
            JOIN users c ON c.id = b.client_id
            LEFT JOIN counted_payment_operations o ON o.booking_id = b.id
            WHERE b.provider_id = ${providerId}
              AND (b.payment_status = 'AUTHORIZED' OR b.captured_minor > 0
                OR EXISTS (SELECT 1 FROM payment_operations x WHERE x.booking_id = b.id AND x.kind = 'CAPTURE'))
            GROUP BY b.id, s.title, c.first_name, c.last_name`
        ).pipe(Effect.orDie),
      operations: (bookingId) =>
        findAll(
          "payment operations",
          OperationRow,
          sql`SELECT booking_id, gateway, kind, amount_minor, currency, fee_minor, payment_intent_id, reference, payment_method, detail,
              refund_status, created_at
            FROM payment_operations WHERE booking_id = ${bookingId} ORDER BY created_at, id`
        ).pipe(Effect.orDie)
    }
  })
)

export const ReviewRepositoryLive = Layer.effect(
  ReviewRepository,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    insert: (r) =>
      Effect.gen(function* () {
        const inserted = yield* findOne(
          "new review",
          NewReviewRow,
          sql`
          INSERT INTO reviews (booking_id, service_id, client_id, provider_id, rating, comment)
          VALUES (${r.bookingId}, ${r.serviceId}, ${r.clientId}, ${r.providerId}, ${r.rating}, ${r.comment})
          ON CONFLICT (booking_id) DO NOTHING
          RETURNING id, created_at`
        )
        if (Option.isNone(inserted)) return Option.none<ReviewRecord>()
        const client = yield* findOne("reviewer", ReviewerRow, sql`SELECT first_name, last_name FROM users WHERE id = ${r.clientId}`)
        return Option.some({
          ...r,
          id: inserted.value.id,
          createdAt: inserted.value.createdAt,
          client: Option.getOrElse(client, () => ({ firstName: "", lastName: "" }))
        })
      }).pipe(Effect.orDie),
    ofService: (serviceId, limit, offset) =>
      Effect.gen(function* () {
        const items = yield* findAll(
          "reviews of a service",
          ReviewRow,
          sql`
          SELECT r.id, r.booking_id, r.service_id, r.client_id, r.provider_id,
                 r.rating, r.comment, r.created_at, u.first_name AS client_first_name, u.last_name AS client_last_name
          FROM reviews r JOIN users u ON u.id = r.client_id
          WHERE r.service_id = ${serviceId} ORDER BY r.created_at DESC, r.id DESC LIMIT ${limit} OFFSET ${offset}`
        )
        // avg is numeric (text on the wire): read as float8.
        const stats = yield* single(
          "review statistics",
          ReviewStatsRow,
          sql`SELECT count(*) AS total, round(avg(rating), 2)::float8 AS average FROM reviews WHERE service_id = ${serviceId}`
        )
        return {
          items: items.map(({ clientFirstName, clientLastName, ...r }) => ({
            ...r,
            client: { firstName: clientFirstName, lastName: clientLastName }
          })),
          total: stats.total,
          average: stats.average ?? 0
        }
      }).pipe(Effect.orDie)
  }))
)

const CandidateRow = Schema.Struct({ id: Schema.String, startTime: Schema.DateFromSelf })
const NonceRow = Schema.Struct({ nonce: Schema.String })
const ProviderRow = Schema.Struct({ providerId: Schema.String })

export const ReminderLogLive = Layer.effect(
  ReminderLog,
  Effect.map(SqlClient.SqlClient, (sql) =>
    ReminderLog.of({
      candidates: (now, withinMs, limit) =>
        // The kind due is the 2-hour one inside two hours of the start, else the day-before one (reminders.ts).
        findAll(
          "reminder candidates",
          CandidateRow,
          sql`SELECT b.id, b.start_time FROM bookings b
          WHERE b.status = 'CONFIRMED' AND b.start_time > ${now} AND b.start_time <= ${new Date(now.getTime() + withinMs)}
            AND NOT EXISTS (SELECT 1 FROM booking_reminders r WHERE r.booking_id = b.id AND r.start_time = b.start_time
              AND r.kind = CASE WHEN b.start_time <= ${new Date(now.getTime() + REMINDER_LEAD_MS["2h"])} THEN '2h' ELSE '24h' END)
          ORDER BY b.start_time LIMIT ${limit}`
        ).pipe(Effect.orDie),
      record: (bookingId, kind, startTime) =>
        findAll(
          "recorded reminder",
          Schema.Struct({ bookingId: Schema.String }),
          sql`INSERT INTO booking_reminders (booking_id, kind, start_time) VALUES (${bookingId}, ${kind}, ${startTime})
          ON CONFLICT DO NOTHING RETURNING booking_id`
        ).pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
    })
  )
)

/** 32 random bytes (256 bits), URL-safe. */

export const CalendarFeedRepositoryLive = Layer.effect(
  CalendarFeedRepository,
  Effect.map(SqlClient.SqlClient, (sql) =>
    CalendarFeedRepository.of({
      nonceOf: (providerId, candidate) =>
        single(
          "calendar feed nonce",
          NonceRow,
          // An existing key is kept; a feed from before derivation (no nonce) takes the candidate, its old URL still working.
          sql`INSERT INTO calendar_feeds (provider_id, nonce, token_hash) VALUES (${providerId}, ${candidate.nonce}, ${candidate.tokenHash})
          ON CONFLICT (provider_id) DO UPDATE SET nonce = coalesce(calendar_feeds.nonce, EXCLUDED.nonce),
            token_hash = coalesce(calendar_feeds.token_hash, EXCLUDED.token_hash)
          RETURNING nonce`
        ).pipe(
          Effect.map((row) => row.nonce),
          Effect.orDie
        ),
      replace: (providerId, key) =>
        sql`INSERT INTO calendar_feeds (provider_id, nonce, token_hash) VALUES (${providerId}, ${key.nonce}, ${key.tokenHash})
          ON CONFLICT (provider_id) DO UPDATE SET nonce = EXCLUDED.nonce, token_hash = EXCLUDED.token_hash,
            legacy_token_hash = NULL, created_at = now()`.pipe(Effect.asVoid, Effect.orDie),
      providerOf: (tokenHash) =>
        findOne(
          "calendar feed owner",
          ProviderRow,
          sql`SELECT provider_id FROM calendar_feeds WHERE token_hash = ${tokenHash} OR legacy_token_hash = ${tokenHash}`
        ).pipe(Effect.map(Option.map((row) => row.providerId)), Effect.orDie)
    })
  )
)

const DisputeRow = Schema.Struct({
  id: Schema.String,
  bookingId: Schema.String,
  reason: Schema.Literal(...DisputeReasons),
  description: Schema.String,
  openedBy: Schema.String,
  openedAt: Schema.DateFromSelf,
  status: Schema.Literal(...DisputeStatuses),
  outcome: Schema.NullOr(Schema.Literal(...DisputeOutcomes)),
  note: Schema.NullOr(Schema.String),
  resolvedAt: Schema.NullOr(Schema.DateFromSelf)
})
const DisputeMessageRow = Schema.Struct({
  id: Schema.String,
  authorId: Schema.String,
  authorRole: Schema.Literal("CLIENT", "PROVIDER", "ADMIN"),
  authorName: Schema.String,
  body: Schema.String,
  createdAt: Schema.DateFromSelf
}) satisfies Schema.Schema<DisputeMessageRecord, any>
const DisputeFileRow = Schema.Struct({
  id: Schema.String,
  messageId: Schema.NullOr(Schema.String),
  uploadedBy: Schema.String,
  fileName: Schema.String,
  contentType: Schema.Literal("image/jpeg", "image/png", "image/webp", "application/pdf"),
  size: Schema.Number,
  storageKey: Schema.String,
  createdAt: Schema.DateFromSelf
}) satisfies Schema.Schema<DisputeFileRecord, any>
const OpenDisputeRow = Schema.Struct({
  bookingId: Schema.String,
  reason: Schema.Literal(...DisputeReasons),
  openedAt: Schema.DateFromSelf,
  serviceTitle: Schema.String,
  clientName: Schema.String,
  providerName: Schema.String,
  totalMinor: Schema.Number,
  currency: Schema.String
}) satisfies Schema.Schema<OpenDispute, any>

export const DisputeRepositoryLive = Layer.effect(
  DisputeRepository,
  Effect.map(SqlClient.SqlClient, (sql) =>
    DisputeRepository.of({
      open: (d) =>
        sql`INSERT INTO booking_disputes (id, booking_id, reason, description, opened_by, opened_at)
          VALUES (${d.id}, ${d.bookingId}, ${d.reason}, ${d.description}, ${d.openedBy}, ${d.openedAt})`.pipe(Effect.asVoid, Effect.orDie),
      addMessage: (m) =>
        sql`INSERT INTO booking_dispute_messages (id, dispute_id, author_id, author_role, body, created_at)
          VALUES (${m.id}, ${m.disputeId}, ${m.authorId}, ${m.authorRole}, ${m.body}, ${m.createdAt})`.pipe(Effect.asVoid, Effect.orDie),
      addFiles: (disputeId, files, at) =>
        files.length === 0
          ? Effect.void
          : sql`INSERT INTO booking_dispute_files ${sql.insert(
              files.map((f, position) => ({
                id: f.id,
                dispute_id: disputeId,
                message_id: f.messageId,
                uploaded_by: f.uploadedBy,
                file_name: f.fileName,
                content_type: f.contentType,
                size_bytes: f.size,
                storage_key: f.storageKey,
                position,
                created_at: at
              }))
            )}`.pipe(Effect.asVoid, Effect.orDie),
      resolve: (bookingId, d) =>
        sql`UPDATE booking_disputes SET status = 'RESOLVED', outcome = ${d.outcome}, note = ${d.note}, resolved_by = ${d.resolvedBy},
            resolved_at = ${d.resolvedAt}
          WHERE booking_id = ${bookingId} AND status = 'OPEN'`.pipe(Effect.asVoid, Effect.orDie),
      thread: (bookingId) =>
        Effect.gen(function* () {
          const found = yield* findOne(
            "dispute",
            DisputeRow,
            sql`SELECT id, booking_id, reason, description, opened_by, opened_at, status, outcome, note, resolved_at
              FROM booking_disputes WHERE booking_id = ${bookingId}`
          )
          if (Option.isNone(found)) return Option.none()
          const d = found.value
          const messages = yield* findAll(
            "dispute messages",
            DisputeMessageRow,
            sql`SELECT m.id, m.author_id, m.author_role, u.first_name || ' ' || u.last_name AS author_name, m.body, m.created_at
              FROM booking_dispute_messages m JOIN users u ON u.id = m.author_id
              WHERE m.dispute_id = ${d.id} ORDER BY m.created_at, m.id`
          )
          const files = yield* findAll(
            "dispute files",
            DisputeFileRow,
            sql`SELECT id, message_id, uploaded_by, file_name, content_type, size_bytes AS size, storage_key, created_at
              FROM booking_dispute_files WHERE dispute_id = ${d.id} ORDER BY created_at, position, id`
          )
          return Option.some({ ...d, messages, files })
        }).pipe(Effect.orDie),
      unresolved: (limit) =>
        findAll(
          "open disputes",
          OpenDisputeRow,
          sql`SELECT d.booking_id, d.reason, d.opened_at, s.title AS service_title,
              cu.first_name || ' ' || cu.last_name AS client_name, pu.first_name || ' ' || pu.last_name AS provider_name,
              b.total_minor, b.currency
            FROM booking_disputes d JOIN bookings b ON b.id = d.booking_id JOIN services s ON s.id = b.service_id
              JOIN users cu ON cu.id = b.client_id JOIN users pu ON pu.id = b.provider_id
            WHERE d.status = 'OPEN' ORDER BY d.opened_at, d.id LIMIT ${limit}`
        ).pipe(Effect.orDie)
    })
  )
)

export const BookingPostgresAdapters = Layer.mergeAll(
  DisputeRepositoryLive,
  BookingRepositoryLive,
  ReviewRepositoryLive,
  AvailabilityRepositoryLive,
  ReminderLogLive,
  CalendarFeedRepositoryLive
)
