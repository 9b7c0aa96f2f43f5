import { Context, Effect, Layer, Option } from "effect"
import { Conflict, type Forbidden, type NotFound } from "../../platform/errors"
import { isUuid } from "../../platform/ids"
import { type Language, translate } from "../../platform/messages"
import { formatWithZone, zoneOf } from "../../platform/time-zones"
import { formatRangeInZone, zoneName } from "../../platform/zoned-time"
import { type Actor, ProfileRepository, requireRole, UserRepository } from "../identity"
import { BookingNotFound, COMMISSION_PERCENT } from "./domain"
import { formatAmount } from "./mails"
import { type BookingDetail, BookingRepository } from "./ports"
import { type PaymentEvent, paymentTimeline, type TimelineReader } from "./payment-timeline"
import type { ReceiptDocument } from "./receipt-pdf"
import {
  type EarningLine,
  earningLines,
  type EarningTotals,
  earningTotals,
  type ReceiptFigures,
  receiptFigures,
  receiptNumber
} from "./statements"

// Receipts for clients and earnings for providers (issue 13, item 5). The figures are statements.ts's,
// from the payment records; the receipt's PDF is receipt-pdf.ts's, its mail mails.ts's.

export const ReceiptNotAvailable = new Conflict({ code: "RECEIPT_NOT_AVAILABLE", key: "booking.receiptNotAvailable" })

/** A receipt: the booking and its money as the payment records say. */
export interface Receipt {
  readonly booking: BookingDetail
  readonly figures: ReceiptFigures
  /** The card the money was taken from ("visa •••• 4242"), as the payment records name it; null when none is known. */
  readonly method: string | null
  /** Who reads it: the provider's (and an administrator's) shows the platform's commission and what is left to the provider. */
  readonly reader: TimelineReader
  /** Both parties' postal addresses from their profiles ("12 rue Oberkampf, 75011 Paris, France"); null where none is given. */
  readonly postal: { readonly client: string | null; readonly provider: string | null }
}

/** A profile's postal address on one line, as a bill prints it; null when the profile gives none. */
const postalLine = (p: { address: string; postalCode: string; city: string; country: string }): string | null => {
  const parts = [p.address, `${p.postalCode} ${p.city}`, p.country].map((part) => part.trim()).filter((part) => part !== "")
  return parts.length === 0 ? null : parts.join(", ")
}

/** Who issues receipts: the platform (SITE_NAME) and where to write to it (SUPPORT_EMAIL). */
export interface ReceiptIssuer {
  readonly name: string
  readonly email: string
}

/** The booking's receipt from its payment records, or undefined while nothing was captured. */
const receiptOf = (
  booking: BookingDetail,
  operations: Parameters<typeof paymentTimeline>[0],
  reader: TimelineReader,
  postal: Receipt["postal"]
): Receipt | undefined => {
  const figures = receiptFigures(operations)
  if (figures === undefined) return undefined
  const events = paymentTimeline(operations, "client")
  const method = (events.find((e) => e.event === "captured") ?? events.find((e) => e.method !== null))?.method ?? null
  return { booking, figures, method, reader, postal }
}

/**
 * Reads a booking's receipt for a reader: its payment records and both parties' postal addresses
 * (one way for the page, the PDF and the mailed receipt to get the same one).
 */
export const ReceiptReader = Effect.gen(function* () {
  const bookings = yield* BookingRepository
  const profiles = yield* ProfileRepository
  const postalOf = (userId: string) =>
    profiles.find(userId).pipe(Effect.map((profile) => Option.getOrNull(Option.flatMapNullable(profile, postalLine))))
  return (booking: BookingDetail, reader: TimelineReader) =>
    Effect.gen(function* () {
      const postal = yield* Effect.all({ client: postalOf(booking.clientId), provider: postalOf(booking.providerId) })
      return receiptOf(booking, yield* bookings.operations(booking.id), reader, postal)
    })
})

export interface Earnings {
  /** Every line, newest money first (the handler pages them). */
  readonly lines: ReadonlyArray<EarningLine>
  readonly totals: EarningTotals
  /** The provider's zone: months are counted in it. */
  readonly timeZone: string
}

export class BookingStatements extends Context.Tag("booking/BookingStatements")<
  BookingStatements,
  {
    /**
     * The booking's receipt for its client, its provider (with the platform's commission) or an
     * administrator; 404 for anyone else, 409 while nothing is captured.
     */
    readonly receipt: (actor: Actor, bookingId: string) => Effect.Effect<Receipt, NotFound | Conflict>
    /** The booking's payment timeline for its client, its provider or an administrator; 404 for anyone else. */
    readonly payments: (actor: Actor, bookingId: string) => Effect.Effect<ReadonlyArray<PaymentEvent>, NotFound>
    /** The caller's (a provider's) earnings: every line and the totals per currency and per month. */
    readonly earnings: (actor: Actor) => Effect.Effect<Earnings, Forbidden>
  }
>() {}

/** Which side of the booking the caller reads its payments from; undefined: not theirs to read. */
const readerOf = (actor: Actor, booking: BookingDetail): TimelineReader | undefined =>
  actor.role === "ADMIN" ? "admin" : actor.id === booking.clientId ? "client" : actor.id === booking.providerId ? "provider" : undefined

export const BookingStatementsLive = Layer.effect(
  BookingStatements,
  Effect.gen(function* () {
    const bookings = yield* BookingRepository
    const users = yield* UserRepository
    const readReceipt = yield* ReceiptReader
    return {
      receipt: (actor, bookingId) =>
        Effect.gen(function* () {
          if (!isUuid(bookingId)) return yield* BookingNotFound
          const found = yield* bookings.findById(bookingId)
          const reader = Option.isSome(found) ? readerOf(actor, found.value) : undefined
          // Strangers do not see the booking.
          if (Option.isNone(found) || reader === undefined) return yield* BookingNotFound
          const receipt = yield* readReceipt(found.value, reader)
          if (receipt === undefined) return yield* ReceiptNotAvailable
          return receipt
        }),
      payments: (actor, bookingId) =>
        Effect.gen(function* () {
          if (!isUuid(bookingId)) return yield* BookingNotFound
          const found = yield* bookings.findById(bookingId)
          if (Option.isNone(found)) return yield* BookingNotFound
          const reader = readerOf(actor, found.value)
          if (reader === undefined) return yield* BookingNotFound
          return paymentTimeline(yield* bookings.operations(bookingId), reader)
        }),
      earnings: (actor) =>
        Effect.gen(function* () {
          yield* requireRole(actor, "PROVIDER")
          const timeZone = zoneOf(Option.getOrNull(Option.flatMapNullable(yield* users.findById(actor.id), (u) => u.timeZone)))
          const lines = earningLines(yield* bookings.earningSources(actor.id), timeZone)
          return { lines, totals: earningTotals(lines), timeZone }
        })
    }
  })
)

/** "Visa •••• 4242" from the records' "visa •••• 4242"; a card with no brand known in words; another method type as it is. */
export const methodText = (language: Language, method: string | null) =>
  method === null ? "—" : method === "card" ? translate(language, "receipt.methodCard") : method.replace(/^[a-z]/, (c) => c.toUpperCase())

/** Hours as people read them on a bill ("1,5 h", "2 hr"). */
const hoursText = (language: Language, minutes: number) =>
  new Intl.NumberFormat(language, { style: "unit", unit: "hour", maximumFractionDigits: 2 }).format(minutes / 60)

/** What the service cost: "45,00 € / h × 1,5 h". */
export const rateText = (language: Language, b: BookingDetail) =>
  `${formatAmount(language, b.hourlyPriceMinor, b.currency)} / h × ${hoursText(language, (b.endTime.getTime() - b.startTime.getTime()) / 60_000)}`

/** When the service took place, in the client's zone, named ("2 juin 2026, 15:00 – 16:30, heure de Paris"). */
export const periodText = (language: Language, b: BookingDetail) =>
  `${formatRangeInZone(language, b.startTime, b.endTime, b.client.timeZone, { dateStyle: "long", timeStyle: "short" })}, ${zoneName(language, b.client.timeZone)}`

/** A party as the PDF's line names it: "Camille Durand, 12 rue Oberkampf, 75011 Paris, France". */
const partyText = (name: string, postal: string | null) => (postal === null ? name : `${name}, ${postal}`)

/** The receipt's words in a language, for its PDF and its mail; `issuer` (SITE_NAME, SUPPORT_EMAIL) issues it. */
export const receiptDocument = (language: Language, receipt: Receipt, issuer: ReceiptIssuer): ReceiptDocument => {
  const { booking: b, figures } = receipt
  const zone = b.client.timeZone
  const t = translate
  const money = (minor: number) => formatAmount(language, minor, b.currency)
  const number = receiptNumber(b.id)
  return {
    language,
    title: t(language, "receipt.title"),
    platform: issuer.name,
    number: t(language, "receipt.number", { number }),
    issuer: `${issuer.name} · ${issuer.email}`,
    lines: [
      { label: t(language, "receipt.paidAt"), value: formatWithZone(language, figures.paidAt, zone) },
      { label: t(language, "receipt.client"), value: partyText(`${b.client.firstName} ${b.client.lastName}`, receipt.postal.client) },
      {
        label: t(language, "receipt.provider"),
        value: partyText(`${b.provider.firstName} ${b.provider.lastName}`, receipt.postal.provider)
      },
      { label: t(language, "receipt.service"), value: b.service.title },
      { label: t(language, "receipt.period"), value: periodText(language, b) },
      { label: t(language, "receipt.place"), value: b.address },
      { label: t(language, "receipt.method"), value: methodText(language, receipt.method) }
    ],
    amounts: [
      { label: t(language, "receipt.rate"), value: rateText(language, b) },
      { label: t(language, "receipt.paid"), value: money(figures.paidMinor), strong: figures.refunds.length === 0 },
      ...figures.refunds.map((r) => ({
        label: t(language, "receipt.refund", { date: formatWithZone(language, r.at, zone, { dateStyle: "long" }) }),
        value: money(-r.amountMinor)
      })),
      ...(figures.refunds.length > 0 ? [{ label: t(language, "receipt.netPaid"), value: money(figures.netPaidMinor), strong: true }] : []),
      ...(receipt.reader === "client"
        ? []
        : [
            { label: t(language, "receipt.commission", { percent: String(COMMISSION_PERCENT) }), value: money(-figures.commissionMinor) },
            { label: t(language, "receipt.providerNet"), value: money(figures.netPaidMinor - figures.commissionMinor), strong: true }
          ])
    ],
    notes: [t(language, "receipt.taxes"), t(language, "receipt.footer", { siteName: issuer.name, reference: number, currency: b.currency })]
  }
}
