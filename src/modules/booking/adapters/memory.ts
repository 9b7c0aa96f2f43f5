import { Context, Effect, Layer, Option } from "effect"
import * as crypto from "node:crypto"
import { CategoryRepository, ServiceRepository } from "../../catalogue"
import { UserRepository } from "../../identity"
import { countsInFigures, refundStatusAfter } from "../../payments"
import { DEFAULT_TIME_ZONE, zoneOf } from "../../../platform/time-zones"
import { type BookingStatus, dueAuthorization, dueCommand, openProposalOf, SLOT_HOLDING, SlotTaken } from "../domain"
import {
  type BookingDetail,
  type BookingRecord,
  BookingRepository,
  CalendarFeedRepository,
  type FeedKey,
  DisputeRepository,
  type DisputeThread,
  type Participant,
  type PaymentOperation,
  type PaymentReferences,
  ReminderLog,
  type RescheduleRecord,
  ReviewRepository,
  type ReviewRecord
} from "../ports"
import { makeAvailabilityMemory } from "../availability/adapters/memory"
import { AvailabilityRepository } from "../availability/ports"
import { dueReminder } from "../reminders"
import type { EarningSource } from "../statements"

const OPEN: ReadonlyArray<BookingStatus> = ["PENDING", "CONFIRMED", "IN_PROGRESS", "SERVICE_RENDERED"]
/** Open bookings the sweep watches (a disputed booking's hold is renewed until an admin decides). */
const SWEPT: ReadonlyArray<BookingStatus> = [...OPEN, "DISPUTED"]
const SECURED = ["AUTHORIZED", "CARD_SAVED"]
const byStartDesc = (a: BookingRecord, b: BookingRecord) => b.startTime.getTime() - a.startTime.getTime() || (a.id < b.id ? 1 : -1)

/**
 * Bookings and reviews in memory (the in-memory domain and fast tests). The overlap rule is the
 * exclusion constraint's: a provider's slot-holding bookings never overlap.
 */
export const BookingMemoryAdapters = Layer.effectContext(
  Effect.gen(function* () {
    const users = yield* UserRepository
    const services = yield* ServiceRepository
    const categories = yield* CategoryRepository
    const bookings = new Map<string, BookingRecord>()
    const reviews = new Map<string, ReviewRecord>()
    const operations: Array<PaymentOperation & { createdAt: Date }> = []
    const chargeClocks = new Map<string, number>()
    /** Each booking's proposals to move it, newest first. */
    const reschedules = new Map<string, Array<RescheduleRecord>>()
    const historyOf = (id: string): ReadonlyArray<RescheduleRecord> => reschedules.get(id) ?? []
    /** Disputes by booking id. */
    const disputes = new Map<string, { -readonly [K in keyof DisputeThread]: DisputeThread[K] }>()

    const participant = (id: string) =>
      Effect.map(
        users.findById(id),
        (u): Participant =>
          Option.match(u, {
            onNone: () => ({
              id,
              firstName: "",
              lastName: "",
              email: "",
              phoneNumber: "",
              preferredLanguage: "fr",
              timeZone: DEFAULT_TIME_ZONE
            }),
            onSome: (user) => ({
              id: user.id,
              firstName: user.firstName,
              lastName: user.lastName,
              email: user.email,
              phoneNumber: user.phoneNumber,
              preferredLanguage: user.preferredLanguage,
              timeZone: zoneOf(user.timeZone)
            })
          })
      )
    const detailOf = (b: BookingRecord) =>
      Effect.gen(function* () {
        const service = Option.getOrThrow(yield* services.findById(b.serviceId))
        const category = Option.getOrUndefined(yield* categories.findById(service.categoryId))
        const review = reviews.get(b.id)
        return {
          ...b,
          service: {
            id: service.id,
            title: service.title,
            description: service.description,
            categoryNameFr: category?.nameFr ?? "",
            categoryNameEn: category?.nameEn ?? ""
          },
          client: yield* participant(b.clientId),
          provider: yield* participant(b.providerId),
          review: review ? { rating: review.rating, comment: review.comment, createdAt: review.createdAt } : null,
          reschedules: historyOf(b.id),
          proposal: openProposalOf(historyOf(b.id)),
          dispute: ((d) =>
            d
              ? {
                  id: d.id,
                  reason: d.reason,
                  status: d.status,
                  openedAt: d.openedAt,
                  outcome: d.outcome,
                  note: d.note,
                  resolvedAt: d.resolvedAt
                }
              : null)(disputes.get(b.id))
        } satisfies BookingDetail
      })
    const withReferences = (b: BookingRecord, refs: PaymentReferences | undefined): BookingRecord => ({ ...b, ...(refs ?? {}) })

    /** What the exclusion constraint tests: a slot-holding booking of the provider overlaps [start, end). */
    const slotHeld = (providerId: string, start: Date, end: Date, ignoreId?: string) =>
      [...bookings.values()].some(
        (o) => o.id !== ignoreId && o.providerId === providerId && SLOT_HOLDING.includes(o.status) && o.startTime < end && start < o.endTime
      )

    const repository: BookingRepository["Type"] = {
      bookable: (serviceId, clientId, slot) =>
        Effect.gen(function* () {
          const found = yield* services.findById(serviceId)
          if (Option.isNone(found)) return Option.none()
          const s = found.value
          const category = Option.getOrUndefined(yield* categories.findById(s.categoryId))
          return Option.some({
            service: {
              id: s.id,
              userId: s.userId,
              title: s.title,
              description: s.description,
              priceMinor: s.priceMinor,
              currency: s.currency,
              status: s.status,
              archivedAt: s.archivedAt,
              categoryNameFr: category?.nameFr ?? "",
              categoryNameEn: category?.nameEn ?? ""
            },
            providerActive: s.provider.isActive,
            provider: yield* participant(s.userId),
            client: yield* participant(clientId),
            slotTaken: slotHeld(s.userId, slot.start, slot.end)
          })
        }),
      insert: (b) =>
        Effect.sync(() => {
          if (slotHeld(b.providerId, b.startTime, b.endTime)) return Option.none()
          const now = new Date()
          const record: BookingRecord = {
            ...b,
            rejectionReason: null,
            cancelledBy: null,
            cancellationReason: null,
            checkoutSessionId: null,
            paymentIntentId: null,
            gatewayCustomerId: null,
            gatewayPaymentMethodId: null,
            resolvedCaptureMinor: null,
            version: 0,
            createdAt: now,
            updatedAt: now
          }
          bookings.set(record.id, record)
          return Option.some(record)
        }),
      findById: (id) => {
        const b = bookings.get(id)
        return b ? Effect.map(detailOf(b), Option.some) : Effect.succeed(Option.none())
      },
      lock: (id) =>
        Effect.sync(() => Option.map(Option.fromNullable(bookings.get(id)), (b) => ({ ...b, proposal: openProposalOf(historyOf(id)) }))),
      slotTaken: (providerId, slot, ignoreBookingId) => Effect.sync(() => slotHeld(providerId, slot.start, slot.end, ignoreBookingId)),
      save: (before, decision, refs) =>
        Effect.suspend(() => {
          const current = bookings.get(before.id)
          if (!current || current.version !== before.version) return Effect.dieMessage(`booking ${before.id} changed under its lock`)
          const { proposal: _open, ...next } = decision.next
          const moved = next.startTime.getTime() !== current.startTime.getTime() || next.endTime.getTime() !== current.endTime.getTime()
          // The exclusion constraint's answer to a move onto another booking's slot.
          if (moved && SLOT_HOLDING.includes(next.status) && slotHeld(next.providerId, next.startTime, next.endTime, next.id))
            return Effect.fail(SlotTaken)
          const r = decision.reschedule
          if (r?._tag === "Open") {
            if (historyOf(before.id).some((p) => p.status === "OPEN" || p.status === "AWAITING_PAYMENT"))
              return Effect.dieMessage(`booking ${before.id} has an open proposal`)
            reschedules.set(before.id, [
              {
                id: r.proposal.id,
                proposedBy: r.proposal.by === "client" ? "CLIENT" : "PROVIDER",
                startTime: r.proposal.startTime,
                endTime: r.proposal.endTime,
                totalMinor: r.proposal.totalMinor,
                previousStartTime: r.previous.startTime,
                previousEndTime: r.previous.endTime,
                previousTotalMinor: r.previous.totalMinor,
                status: "OPEN",
                expiresAt: r.proposal.expiresAt,
                createdAt: r.at,
                decidedAt: null,
                decidedBy: null
              },
              ...historyOf(before.id)
            ])
          } else if (r?._tag === "AwaitPayment") {
            reschedules.set(
              before.id,
              historyOf(before.id).map((p) =>
                p.id === r.proposalId && p.status === "OPEN" ? { ...p, status: "AWAITING_PAYMENT", decidedAt: r.at, decidedBy: r.by } : p
              )
            )
          } else if (r?._tag === "Close") {
            reschedules.set(
              before.id,
              historyOf(before.id).map((p) =>
                p.id === r.proposalId && (p.status === "OPEN" || p.status === "AWAITING_PAYMENT")
                  ? { ...p, status: r.status, decidedAt: p.decidedAt ?? r.at, decidedBy: p.decidedBy ?? r.by }
                  : p
              )
            )
          }
          const saved: BookingRecord = withReferences(
            {
              ...current,
              ...next,
              ...(decision.rejectionReason !== undefined ? { rejectionReason: decision.rejectionReason } : {}),
              ...(decision.cancellation !== undefined
                ? { cancelledBy: decision.cancellation.by, cancellationReason: decision.cancellation.reason }
                : {}),
              version: current.version + 1,
              updatedAt: new Date()
            },
            refs
          )
          bookings.set(saved.id, saved)
          return Effect.succeed(saved)
        }),
      setReferences: (id, refs) =>
        Effect.sync(() => {
          const b = bookings.get(id)
          if (b) bookings.set(id, withReferences({ ...b, updatedAt: new Date() }, refs))
        }),
      extendHold: (id, until) =>
        Effect.sync(() => {
          const b = bookings.get(id)
          if (b && b.status === "PENDING" && b.holdExpiresAt !== null && b.holdExpiresAt < until)
            bookings.set(id, { ...b, holdExpiresAt: until, updatedAt: new Date() })
        }),
      list: (q) =>
        Effect.gen(function* () {
          const matches = [...bookings.values()]
            .filter(
              (b) =>
                q.userId === undefined ||
                (q.as === "client"
                  ? b.clientId === q.userId
                  : q.as === "provider"
                    ? b.providerId === q.userId
                    : b.clientId === q.userId || b.providerId === q.userId)
            )
            .filter((b) => {
              if (!q.statuses || q.statuses.length === 0) return true
              const paid = b.status === "PENDING" && SECURED.includes(b.paymentStatus)
              if (b.status === "PENDING")
                return q.statuses.includes("PAID") && q.statuses.includes("PENDING")
                  ? true
                  : paid
                    ? q.statuses.includes("PAID")
                    : q.statuses.includes("PENDING")
              return q.statuses.includes(b.status)
            })
            .sort(byStartDesc)
          const items = yield* Effect.forEach(matches.slice(q.offset, q.offset + q.limit), detailOf)
          return { items, total: matches.length }
        }),
      activeForService: (serviceId, clientId) => {
        const found = [...bookings.values()]
          .filter((b) => b.serviceId === serviceId && b.clientId === clientId && OPEN.includes(b.status))
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0]
        return found ? Effect.map(detailOf(found), Option.some) : Effect.succeed(Option.none())
      },
      calendar: (providerId, from, to) =>
        Effect.forEach(
          [...bookings.values()]
            .filter(
              (b) =>
                b.providerId === providerId &&
                SLOT_HOLDING.includes(b.status) &&
                !(b.status === "PENDING" && !SECURED.includes(b.paymentStatus)) &&
                b.startTime < to &&
                b.endTime > from
            )
            .sort((a, b) => a.startTime.getTime() - b.startTime.getTime()),
          detailOf
        ),
      dueIds: (now, limit) =>
        Effect.sync(() =>
          [...bookings.values()]
            .filter((b) => SWEPT.includes(b.status) && (dueCommand(b, now) !== undefined || dueAuthorization(b, now) !== undefined))
            .sort((a, b) => a.startTime.getTime() - b.startTime.getTime())
            .slice(0, limit)
            .map((b) => b.id)
        ),
      captureDueIds: (limit) =>
        Effect.sync(() =>
          [...bookings.values()]
            .filter(
              (b) =>
                (b.paymentStatus === "AUTHORIZED" && ["COMPLETED", "VALIDATED", "CANCELLED", "REJECTED", "RESOLVED"].includes(b.status)) ||
                (b.paymentStatus === "CARD_SAVED" && (["COMPLETED", "VALIDATED"].includes(b.status) || (b.resolvedCaptureMinor ?? 0) > 0))
            )
            .slice(0, limit)
            .map((b) => b.id)
        ),
      advanceChargeClock: (paymentIntentId, occurredAt) =>
        Effect.sync(() => {
          const last = chargeClocks.get(paymentIntentId)
          if (last !== undefined && occurredAt.getTime() < last) return false
          chargeClocks.set(paymentIntentId, occurredAt.getTime())
          return true
        }),
      findIdByPaymentReference: (ref) =>
        Effect.sync(() =>
          Option.fromNullable(
            [...bookings.values()].find((b) =>
              ref.paymentIntentId !== undefined ? b.paymentIntentId === ref.paymentIntentId : b.checkoutSessionId === ref.checkoutSessionId
            )?.id
          )
        ),
      recordOperation: (op) =>
        Effect.sync(() => {
          const at = operations.findIndex((o) => o.kind === op.kind && o.reference === op.reference)
          if (at === -1) operations.push({ ...op, createdAt: new Date() })
          else {
            const stored = operations[at]!
            operations[at] = {
              ...stored,
              detail: stored.detail ?? op.detail,
              refundStatus: op.refundStatus === null ? stored.refundStatus : refundStatusAfter(stored.refundStatus, op.refundStatus)
            }
          }
        }),
      operations: (bookingId) => Effect.sync(() => operations.filter((o) => o.bookingId === bookingId)),
      earningSources: (providerId) =>
        Effect.forEach(
          [...bookings.values()].filter(
            (b) =>
              b.providerId === providerId &&
              (b.paymentStatus === "AUTHORIZED" ||
                b.capturedMinor > 0 ||
                operations.some((o) => o.bookingId === b.id && o.kind === "CAPTURE"))
          ),
          (b) =>
            Effect.map(detailOf(b), (d): EarningSource => {
              const own = operations.filter((o) => o.bookingId === b.id && countsInFigures(o))
              const total = (kind: string) => own.filter((o) => o.kind === kind).reduce((sum, o) => sum + o.amountMinor, 0)
              const captures = own.filter((o) => o.kind === "CAPTURE").map((o) => o.createdAt.getTime())
              const holds = own
                .filter((o) => o.kind === "AUTHORIZATION" && o.paymentIntentId === b.paymentIntentId)
                .map((o) => o.createdAt.getTime())
              return {
                bookingId: b.id,
                serviceTitle: d.service.title,
                clientFirstName: d.client.firstName,
                clientLastName: d.client.lastName,
                startTime: b.startTime,
                currency: b.currency,
                paymentStatus: b.paymentStatus,
                totalMinor: b.totalMinor,
                authorizedMinor: b.authorizedMinor,
                capturedMinor: total("CAPTURE"),
                refundedMinor: total("REFUND"),
                capturedAt: captures.length > 0 ? new Date(Math.min(...captures)) : null,
                authorizedAt: holds.length > 0 ? new Date(Math.max(...holds)) : null
              }
            })
        )
    }

    const reviewRepository: ReviewRepository["Type"] = {
      insert: (r) =>
        Effect.gen(function* () {
          if (reviews.has(r.bookingId)) return Option.none()
          const client = yield* participant(r.clientId)
          const review: ReviewRecord = {
            ...r,
            id: crypto.randomUUID(),
            createdAt: new Date(),
            client: { firstName: client.firstName, lastName: client.lastName }
          }
          reviews.set(r.bookingId, review)
          return Option.some(review)
        }),
      ofService: (serviceId, limit, offset) =>
        Effect.sync(() => {
          const all = [...reviews.values()]
            .filter((r) => r.serviceId === serviceId)
            .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
          const average = all.length === 0 ? 0 : Math.round((all.reduce((sum, r) => sum + r.rating, 0) / all.length) * 100) / 100
          return { items: all.slice(offset, offset + limit), total: all.length, average }
        })
    }
    // Availability reads the slot-holding bookings of this store.
    const availability = makeAvailabilityMemory({
      users,
      services,
      held: (providerId) => [...bookings.values()].filter((b) => b.providerId === providerId && SLOT_HOLDING.includes(b.status))
    })
    // Reminders sent, keyed by booking, kind and start; feed tokens by provider.
    const reminders = new Set<string>()
    const feeds = new Map<string, FeedKey>()
    const reminderLog: ReminderLog["Type"] = {
      candidates: (now, withinMs, limit) =>
        Effect.sync(() =>
          [...bookings.values()]
            .filter((b) => {
              const kind = dueReminder(b.startTime, now)
              return (
                b.status === "CONFIRMED" &&
                b.startTime.getTime() <= now.getTime() + withinMs &&
                kind !== undefined &&
                !reminders.has(`${b.id}|${kind}|${b.startTime.toISOString()}`)
              )
            })
            .sort((a, b) => a.startTime.getTime() - b.startTime.getTime())
            .slice(0, limit)
            .map((b) => ({ id: b.id, startTime: b.startTime }))
        ),
      record: (bookingId, kind, startTime) =>
        Effect.sync(() => {
          const key = `${bookingId}|${kind}|${startTime.toISOString()}`
          if (reminders.has(key)) return false
          reminders.add(key)
          return true
        })
    }
    const feedRepository: CalendarFeedRepository["Type"] = {
      nonceOf: (providerId, candidate) =>
        Effect.sync(() => {
          const existing = feeds.get(providerId)
          if (existing !== undefined) return existing.nonce
          feeds.set(providerId, candidate)
          return candidate.nonce
        }),
      replace: (providerId, key) => Effect.sync(() => void feeds.set(providerId, key)),
      providerOf: (tokenHash) => Effect.sync(() => Option.fromNullable([...feeds].find(([, key]) => key.tokenHash === tokenHash)?.[0]))
    }
    const nameOf = (id: string) => Effect.map(participant(id), (p) => `${p.firstName} ${p.lastName}`)
    const disputeRepository: DisputeRepository["Type"] = {
      open: (d) =>
        Effect.sync(() => {
          disputes.set(d.bookingId, {
            ...d,
            status: "OPEN",
            outcome: null,
            note: null,
            resolvedAt: null,
            messages: [],
            files: []
          })
        }),
      addMessage: (m) =>
        Effect.gen(function* () {
          const d = [...disputes.values()].find((x) => x.id === m.disputeId)
          if (!d) return yield* Effect.dieMessage(`no dispute ${m.disputeId}`)
          d.messages = [
            ...d.messages,
            {
              id: m.id,
              authorId: m.authorId,
              authorRole: m.authorRole,
              authorName: yield* nameOf(m.authorId),
              body: m.body,
              createdAt: m.createdAt
            }
          ]
        }),
      addFiles: (disputeId, files, at) =>
        Effect.sync(() => {
          const d = [...disputes.values()].find((x) => x.id === disputeId)
          if (d) d.files = [...d.files, ...files.map((f) => ({ ...f, createdAt: at }))]
        }),
      resolve: (bookingId, decision) =>
        Effect.sync(() => {
          const d = disputes.get(bookingId)
          if (d && d.status === "OPEN") {
            d.status = "RESOLVED"
            d.outcome = decision.outcome
            d.note = decision.note
            d.resolvedAt = decision.resolvedAt
          }
        }),
      thread: (bookingId) => Effect.sync(() => Option.fromNullable(disputes.get(bookingId)).pipe(Option.map((d) => ({ ...d })))),
      unresolved: (limit) =>
        Effect.forEach(
          [...disputes.values()]
            .filter((d) => d.status === "OPEN")
            .sort((a, b) => a.openedAt.getTime() - b.openedAt.getTime())
            .slice(0, limit),
          (d) =>
            Effect.gen(function* () {
              const b = bookings.get(d.bookingId)!
              const service = Option.getOrThrow(yield* services.findById(b.serviceId))
              return {
                bookingId: d.bookingId,
                reason: d.reason,
                openedAt: d.openedAt,
                serviceTitle: service.title,
                clientName: yield* nameOf(b.clientId),
                providerName: yield* nameOf(b.providerId),
                totalMinor: b.totalMinor,
                currency: b.currency
              }
            })
        )
    }
    return Context.make(BookingRepository, repository).pipe(
      Context.add(DisputeRepository, disputeRepository),
      Context.add(ReviewRepository, reviewRepository),
      Context.add(AvailabilityRepository, availability),
      Context.add(ReminderLog, reminderLog),
      Context.add(CalendarFeedRepository, feedRepository)
    )
  })
)
