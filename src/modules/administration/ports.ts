import { Context, type Effect } from "effect"
import type { RefundStatus } from "../payments"
import type { Role } from "../identity"
import type { AdminPaymentStatus, AuthorizationState, Held, OperationKind, OperationTotal, RevenuePoint } from "./domain"

export interface Page<A> {
  readonly rows: ReadonlyArray<A>
  readonly total: number
}

interface Paged {
  readonly limit: number
  readonly offset: number
}

export interface UserQuery extends Paged {
  readonly search?: string | undefined
  readonly role?: Role | undefined
  readonly isActive?: boolean | undefined
}

export interface UserRow {
  readonly id: string
  readonly firstName: string
  readonly lastName: string
  readonly email: string
  readonly phoneNumber: string
  readonly role: Role
  readonly isActive: boolean
  readonly isEmailVerified: boolean
  readonly preferredLanguage: string
  /** The account's IANA zone; null until known. */
  readonly timeZone: string | null
  readonly createdAt: Date
  readonly paymentAccount: {
    readonly accountId: string
    readonly chargesEnabled: boolean
    readonly payoutsEnabled: boolean
    readonly detailsSubmitted: boolean
  } | null
}

export interface Person {
  readonly id: string
  readonly firstName: string
  readonly lastName: string
  readonly email: string
}

export interface BookingQuery extends Paged {
  /** Service title, client or provider name or email (case-insensitive substring). */
  readonly search?: string | undefined
  readonly statuses?: ReadonlyArray<string> | undefined
  /** Start time bounds, [from, to). */
  readonly from?: Date | undefined
  readonly to?: Date | undefined
  readonly currency?: string | undefined
}

export interface BookingRow {
  readonly id: string
  readonly status: string
  readonly paymentStatus: string
  readonly startTime: Date
  readonly endTime: Date
  readonly totalMinor: number
  readonly currency: string
  /** From the booking's payment operations: captures, refunds, capture fees less refund fees. */
  readonly capturedMinor: number
  readonly refundedMinor: number
  readonly commissionMinor: number
  /** Why a finished booking holds no captured money (flagged for the back-office); null when nothing is wrong. */
  readonly paymentIssue?: string | null | undefined
  readonly createdAt: Date
  readonly service: { readonly id: string; readonly title: string; readonly categoryNameFr: string; readonly categoryNameEn: string }
  readonly client: Person
  readonly provider: Person
}

export interface ServiceQuery extends Paged {
  /** Title, provider name or email. */
  readonly search?: string | undefined
  readonly categoryId?: number | undefined
  readonly isAvailable?: boolean | undefined
}

export interface ServiceRow {
  readonly id: string
  readonly title: string
  readonly category: { readonly id: number; readonly nameFr: string; readonly nameEn: string }
  readonly provider: Person
  readonly priceMinor: number
  readonly currency: string
  readonly isAvailable: boolean
  readonly location: string
  readonly createdAt: Date
}

export interface PaymentQuery extends Paged {
  readonly from?: Date | undefined
  readonly to?: Date | undefined
  readonly currency?: string | undefined
}

/** A booking's payment, from all its operations in its currency (README, "Figures"): one row per booking. */
export interface BookingPaymentRow {
  /** The booking's latest operation (its id and time date the row). */
  readonly id: string
  readonly bookingId: string
  readonly status: AdminPaymentStatus
  /** Captured, or else the last authorised amount. */
  readonly amountMinor: number
  readonly capturedMinor: number
  readonly refundedMinor: number
  readonly commissionMinor: number
  /** Authorised and still held now (0: none). */
  readonly heldMinor: number
  readonly currency: string
  readonly paymentMethod: string | null
  readonly createdAt: Date
  readonly service: { readonly id: string; readonly title: string }
  readonly client: Person
  readonly provider: Person
}

/** One gateway operation of payment_operations with its booking's service and people. */
export interface PaymentRow {
  readonly id: string
  readonly bookingId: string
  readonly kind: OperationKind
  readonly amountMinor: number
  readonly feeMinor: number
  readonly currency: string
  readonly paymentMethod: string | null
  readonly createdAt: Date
  /** For an authorisation: held now, captured, or released (or replaced); null for other operations. */
  readonly authorization: AuthorizationState | null
  /** For a refund: as the gateway last said it (a failed or canceled one gave nothing back); null for other operations. */
  readonly refundStatus: RefundStatus | null
  readonly service: { readonly id: string; readonly title: string }
  readonly client: Person
  readonly provider: Person
}

export interface DashboardCounts {
  readonly users: number
  readonly services: { readonly total: number; readonly available: number }
  readonly bookingsByStatus: Readonly<Record<string, number>>
  readonly pendingApplications: number
}

export interface TopUser {
  readonly id: string
  readonly firstName: string
  readonly lastName: string
  readonly email: string
  readonly role: Role
  readonly services: number
  readonly bookingsAsClient: number
  readonly bookingsAsProvider: number
  readonly reviewsAsProvider: number
  readonly reviewsAsClient: number
}

export interface TopService {
  readonly id: string
  readonly title: string
  readonly priceMinor: number
  readonly currency: string
  readonly rating: number
  readonly reviewCount: number
  readonly provider: { readonly firstName: string; readonly lastName: string }
  readonly bookings: number
}

export interface StatusCount {
  readonly status: string
  readonly count: number
}

export interface DailyCount {
  /** YYYY-MM-DD (UTC). */
  readonly date: string
  readonly count: number
}

/**
 * The back-office's read models over the owning modules' tables (see README, "Read models"). Writes
 * never go through here: admin actions use the owning modules' services.
 */
export interface AdminReadModelShape {
  readonly counts: Effect.Effect<DashboardCounts>
  /** Totals per operation kind in one currency, operations created in [from, to) (all time without bounds). */
  readonly operationTotals: (
    currency: string,
    window?: { readonly from: Date; readonly to: Date }
  ) => Effect.Effect<ReadonlyArray<OperationTotal>>
  /**
   * Captured, refunded and commission (capture fees less refund fees) per UTC day in one currency,
   * operations created in [from, to); days without any left out, oldest first.
   */
  readonly revenuePerDay: (
    currency: string,
    window: { readonly from: Date; readonly to: Date }
  ) => Effect.Effect<ReadonlyArray<RevenuePoint>>
  /** Authorisations still held now (not captured, released nor replaced by a renewal), in one currency. */
  readonly held: (currency: string) => Effect.Effect<Held>
  /** The currencies operations were recorded in, most used first. */
  readonly currencies: Effect.Effect<ReadonlyArray<string>>
  readonly users: (query: UserQuery) => Effect.Effect<Page<UserRow>>
  readonly bookings: (query: BookingQuery) => Effect.Effect<Page<BookingRow>>
  readonly services: (query: ServiceQuery) => Effect.Effect<Page<ServiceRow>>
  /** Operations, latest first (card-saved steps, which move no money, left out). */
  readonly payments: (query: PaymentQuery) => Effect.Effect<Page<PaymentRow>>
  /** Bookings' payments in one currency, the latest operation first. */
  readonly bookingPayments: (query: Paged & { readonly currency: string }) => Effect.Effect<Page<BookingPaymentRow>>
  /**
   * Users ranked by bookings made or received since `from` (then reviews), those with no activity
   * in the period left out; services ranked by bookings since `from`, then rating.
   */
  readonly topUsers: (from: Date, limit: number) => Effect.Effect<ReadonlyArray<TopUser>>
  readonly topServices: (from: Date, limit: number) => Effect.Effect<ReadonlyArray<TopService>>
  /** Bookings created since `from` per status (statuses without any left out), most first. */
  readonly bookingsByStatus: (from: Date) => Effect.Effect<ReadonlyArray<StatusCount>>
  /** New accounts and new bookings per UTC day since `from`, days without any left out, oldest first. */
  readonly growth: (
    from: Date
  ) => Effect.Effect<{ readonly users: ReadonlyArray<DailyCount>; readonly bookings: ReadonlyArray<DailyCount> }>
}
export class AdminReadModel extends Context.Tag("administration/AdminReadModel")<AdminReadModel, AdminReadModelShape>() {}
