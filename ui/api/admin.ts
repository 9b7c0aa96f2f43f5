// The back-office's calls (spec admin-and-onboarding section 7). Screens show their failures inline
// where the spec says so (`quiet`); the rest go to the global toasts.

import { api } from "./client"
import { queryString } from "./query"
import type {
  AdminBooking,
  AdminBookingRow,
  AdminPayment,
  AdminService,
  AdminUser,
  Analytics,
  ConnectStatus,
  Dashboard,
  FinancialStats,
  Pagination,
  Role
} from "./contract"

export type { AdminUser, AdminPaymentStatus as PaymentStatus } from "./contract"

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
