// The back-office's calls (spec admin-and-onboarding section 7). Screens show their failures inline
// where the spec says so (`quiet`); the rest go to the global toasts.

import { api, apiBlob } from "./client"
import { queryString } from "./query"
import type { AdministrationApi, Answer, ExchangeRates, Role } from "./contract"

export type { AdminUser, AdminPaymentStatus } from "./contract"

/** The data of a back-office endpoint's answer, from the contract. */
type Admin<Name extends string> = Answer<typeof AdministrationApi, Name>

const id = encodeURIComponent
const patch = <T>(path: string, body: unknown, quiet?: ReadonlyArray<number>) =>
  api<T>(path, { method: "PATCH", body, ...(quiet ? { quiet } : {}) })

export const adminApi = {
  rates: () => api<ExchangeRates>("/rates", { quiet: true }),
  /** Sets exchange rates (units per euro, as typed); a 422 names each wrong currency (`rates.CAD`). */
  setRates: (rates: ReadonlyArray<{ currency: string; rate: string }>) =>
    api<ExchangeRates>("/rates", { method: "PUT", body: { rates }, quiet: [422] }),
  dashboard: (currency?: string) => api<Admin<"dashboard">>(`/admin/dashboard${queryString({ currency })}`, { quiet: true }),
  users: (query: { search?: string; role?: string; isActive?: string; page?: number; limit?: number }) =>
    api<Admin<"users">>(`/admin/users${queryString(query)}`, { quiet: true }),
  setUser: (userId: string, body: { isActive?: boolean; role?: Role }) =>
    patch<Admin<"updateUser">>(`/admin/users/${id(userId)}/status`, body, [409, 422]),
  createAccount: (userId: string) =>
    api<Admin<"createPaymentAccount">>(`/admin/users/${id(userId)}/stripe-connect`, { method: "POST", body: {}, quiet: true }),
  accountLink: (userId: string) => api<Admin<"paymentAccountLink">>(`/admin/users/${id(userId)}/stripe-connect/link`, { quiet: true }),
  accountStatus: (userId: string) =>
    api<Admin<"paymentAccountStatus">>(`/admin/users/${id(userId)}/stripe-connect/status`, { quiet: true }),
  accountDashboard: (userId: string) =>
    api<Admin<"paymentAccountDashboard">>(`/admin/users/${id(userId)}/stripe-connect/dashboard`, { quiet: true }),
  deleteAccount: (userId: string) =>
    api<Admin<"deletePaymentAccount">>(`/admin/users/${id(userId)}/stripe-connect`, { method: "DELETE", quiet: true }),
  bookings: (query: { search?: string; status?: string; page?: number; limit?: number }) =>
    api<Admin<"bookings">>(`/admin/bookings${queryString(query)}`, { quiet: true }),
  booking: (bookingId: string) => api<Admin<"booking">>(`/admin/bookings/${id(bookingId)}`, { quiet: true }),
  setBookingStatus: (bookingId: string, status: string, reason?: string) =>
    patch<Admin<"setBookingStatus">>(`/admin/bookings/${id(bookingId)}/status`, { status, ...(reason ? { reason } : {}) }, [409, 422]),
  /** A refund (the whole refundable amount without `amountMinor`); its refusals are shown in the form. */
  refund: (bookingId: string, body: { amountMinor?: number; reason: string }) =>
    api<Admin<"refundBooking">>(`/admin/bookings/${id(bookingId)}/refund`, { method: "POST", body, quiet: [404, 409, 422] }),
  audit: (query: {
    action?: string
    actor?: string
    subjectType?: string
    subjectId?: string
    from?: string
    to?: string
    page?: number
    limit?: number
  }) => api<Admin<"audit">>(`/admin/audit${queryString(query)}`, { quiet: true }),
  /** Decides a booking's open dispute (issue 13): capture all, part (amountMinor), or release everything, with a note. */
  resolveDispute: (bookingId: string, body: { outcome: string; amountMinor?: number; note: string }) =>
    api<Admin<"resolveDispute">>(`/admin/bookings/${id(bookingId)}/dispute/resolve`, { method: "POST", body, quiet: [409, 422] }),
  services: (query: { search?: string; categoryId?: string; isAvailable?: string; page?: number; limit?: number }) =>
    api<Admin<"services">>(`/admin/services${queryString(query)}`, { quiet: true }),
  setServiceAvailability: (serviceId: string, isAvailable: boolean) =>
    api<Admin<"setServiceAvailability">>(`/admin/services/${id(serviceId)}/status`, {
      method: "PATCH",
      body: { isAvailable },
      quiet: true
    }),
  financialStats: (period: string, currency?: string) =>
    api<Admin<"financialStats">>(`/admin/financial/stats${queryString({ period, currency })}`, { quiet: true }),
  payments: (limit: number, currency?: string) =>
    api<Admin<"payments">>(`/admin/payments${queryString({ limit, currency })}`, { quiet: true }),
  /** A CSV export (RFC 4180) of the bookings or the payment operations, in one currency. */
  exportCsv: (what: "bookings" | "payments", currency?: string) => apiBlob(`/admin/exports/${what}${queryString({ currency })}`),
  analytics: (period: number) => api<Admin<"analytics">>(`/admin/analytics${queryString({ period })}`, { quiet: true })
}
