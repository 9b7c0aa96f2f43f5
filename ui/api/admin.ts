// The back-office's calls (spec admin-and-onboarding section 7). Screens show their failures inline
// where the spec says so (`quiet`); the rest go to the global toasts.

import { api } from "./client"
import { queryString } from "./query"
import type { ConnectStatus, Pagination, Role } from "./types"

export interface Person {
  readonly id: string
  readonly firstName: string
  readonly lastName: string
  readonly email: string
}
export interface AdminUser extends Person {
  readonly phoneNumber: string
  readonly role: Role
  readonly isActive: boolean
  readonly isEmailVerified: boolean
  readonly createdAt: string
  readonly stripeAccountId: string | null
  readonly paymentAccount: { readonly accountId: string; readonly chargesEnabled: boolean; readonly payoutsEnabled: boolean; readonly detailsSubmitted: boolean; readonly isComplete: boolean } | null
}
export interface AdminBookingRow {
  readonly id: string
  readonly status: string
  readonly displayStatus: string
  readonly paymentStatus: string
  readonly startTime: string
  readonly endTime: string
  readonly totalMinor: number
  readonly currency: string
  /** Why a finished booking holds no captured money (flagged for the back-office); null when nothing is wrong. */
  readonly paymentIssue: string | null
  readonly service: { readonly id: string; readonly title: string; readonly category: { readonly name: string } }
  readonly client: Person
  readonly provider: Person
}
export type PaymentStatus = "COMPLETED" | "PENDING" | "REFUNDED" | "CANCELLED" | "FAILED"
export interface AdminBooking extends AdminBookingRow {
  readonly createdAt: string
  readonly updatedAt: string
  readonly durationHours: number
  readonly isReviewed: boolean
  readonly service: AdminBookingRow["service"] & { readonly hourlyPriceMinor: number }
  readonly client: Person & { readonly phoneNumber: string }
  readonly payments: ReadonlyArray<{
    readonly kind: string
    readonly status: PaymentStatus
    readonly amountMinor: number
    readonly currency: string
    readonly paymentMethod: string | null
    readonly createdAt: string
    readonly refundedMinor: number | null
  }>
  readonly reviews: ReadonlyArray<{ readonly rating: number; readonly comment: string | null; readonly createdAt: string; readonly client: { readonly firstName: string; readonly lastName: string } }>
}
export interface AdminService {
  readonly id: string
  readonly title: string
  readonly category: { readonly id: number; readonly name: string }
  readonly provider: Person
  readonly priceMinor: number
  readonly currency: string
  readonly isAvailable: boolean
  readonly location: string
  readonly createdAt: string
}
export interface AdminPayment {
  readonly id: string
  readonly bookingId: string
  readonly kind: string
  readonly status: PaymentStatus
  readonly amountMinor: number
  readonly currency: string
  readonly createdAt: string
  readonly refundedMinor: number | null
  readonly service: { readonly id: string; readonly title: string }
  readonly client: Person
  readonly provider: Person
}
export interface Dashboard {
  readonly users: { readonly total: number }
  readonly services: { readonly total: number; readonly available: number; readonly unavailable: number }
  readonly bookings: {
    readonly total: number
    readonly pending: number
    readonly confirmed: number
    readonly completed: number
    readonly validated: number
    readonly ongoing: number
    readonly validationRate: number
  }
  readonly revenue: { readonly monthly: number; readonly pending: number; readonly validated: number; readonly currency: string }
  readonly applications: { readonly pending: number }
}
export interface FinancialStats {
  readonly period: string
  readonly currency: string
  readonly currencies: ReadonlyArray<string>
  readonly grossRevenue: number
  readonly totalCommissions: number
  readonly netRevenue: number
  readonly commissionMargin: number
  readonly refundedAmount: number
  readonly payments: { readonly completed: number; readonly pending: number; readonly failed: number }
  readonly revenueByStatus: ReadonlyArray<{ readonly status: PaymentStatus; readonly count: number; readonly amountMinor: number }>
}
export interface Analytics {
  readonly period: number
  readonly topUsers: ReadonlyArray<
    Person & {
      readonly role: Role
      readonly counts: { readonly services: number; readonly bookingsAsClient: number; readonly bookingsAsProvider: number; readonly reviewsAsProvider: number; readonly reviewsAsClient: number }
    }
  >
  readonly topServices: ReadonlyArray<{
    readonly id: string
    readonly title: string
    readonly priceMinor: number
    readonly currency: string
    readonly rating: number
    readonly reviewCount: number
    readonly provider: { readonly firstName: string; readonly lastName: string }
    readonly bookings: number
  }>
  readonly growth: { readonly users: ReadonlyArray<{ readonly date: string; readonly count: number }>; readonly bookings: ReadonlyArray<{ readonly date: string; readonly count: number }> }
}

const id = encodeURIComponent
const patch = <T>(path: string, body: unknown, quiet?: ReadonlyArray<number>) => api<T>(path, { method: "PATCH", body, ...(quiet ? { quiet } : {}) })

export const adminApi = {
  dashboard: () => api<Dashboard>("/admin/dashboard", { quiet: true }),
  users: (query: { search?: string; role?: string; isActive?: string; page?: number; limit?: number }) =>
    api<{ users: ReadonlyArray<AdminUser>; pagination: Pagination }>(`/admin/users${queryString(query)}`, { quiet: true }),
  setUser: (userId: string, body: { isActive?: boolean; role?: Role }) => patch<{ user: AdminUser }>(`/admin/users/${id(userId)}/status`, body, [409, 422]),
  createAccount: (userId: string) => api<{ accountLink: string }>(`/admin/users/${id(userId)}/stripe-connect`, { method: "POST", body: {}, quiet: true }),
  accountLink: (userId: string) => api<{ accountLink: string }>(`/admin/users/${id(userId)}/stripe-connect/link`, { quiet: true }),
  accountStatus: (userId: string) => api<ConnectStatus>(`/admin/users/${id(userId)}/stripe-connect/status`, { quiet: true }),
  accountDashboard: (userId: string) => api<{ dashboardUrl: string }>(`/admin/users/${id(userId)}/stripe-connect/dashboard`, { quiet: true }),
  deleteAccount: (userId: string) => api<{ deleted: true }>(`/admin/users/${id(userId)}/stripe-connect`, { method: "DELETE", quiet: true }),
  bookings: (query: { search?: string; status?: string; page?: number; limit?: number }) =>
    api<{ bookings: ReadonlyArray<AdminBookingRow>; pagination: Pagination }>(`/admin/bookings${queryString(query)}`, { quiet: true }),
  booking: (bookingId: string) => api<{ booking: AdminBooking }>(`/admin/bookings/${id(bookingId)}`, { quiet: true }),
  setBookingStatus: (bookingId: string, status: string, reason?: string) =>
    patch<{ booking: AdminBooking }>(`/admin/bookings/${id(bookingId)}/status`, { status, ...(reason ? { reason } : {}) }, [409, 422]),
  services: (query: { search?: string; categoryId?: string; isAvailable?: string; page?: number; limit?: number }) =>
    api<{ services: ReadonlyArray<AdminService>; pagination: Pagination }>(`/admin/services${queryString(query)}`, { quiet: true }),
  setServiceAvailability: (serviceId: string, isAvailable: boolean) =>
    api<{ service: { id: string; isAvailable: boolean } }>(`/admin/services/${id(serviceId)}/status`, { method: "PATCH", body: { isAvailable }, quiet: true }),
  financialStats: (period: string, currency?: string) => api<FinancialStats>(`/admin/financial/stats${queryString({ period, currency })}`, { quiet: true }),
  payments: (limit: number) => api<{ payments: ReadonlyArray<AdminPayment>; pagination: Pagination }>(`/admin/payments${queryString({ limit })}`, { quiet: true }),
  analytics: (period: number) => api<Analytics>(`/admin/analytics${queryString({ period })}`, { quiet: true })
}
