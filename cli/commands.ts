import ApplicationsApprove from "./commands/applications/approve"
import ApplicationsList from "./commands/applications/list"
import ApplicationsReject from "./commands/applications/reject"
import BookingsList from "./commands/bookings/list"
import BookingsStatus from "./commands/bookings/status"
import Migrate from "./commands/migrate"
import NotificationsDigest from "./commands/notifications/digest"
import PaymentsReconcile from "./commands/payments/reconcile"
import PaymentsRefund from "./commands/payments/refund"
import Seed from "./commands/seed"
import SeedBulk from "./commands/seed/bulk"
import CreateAdmin from "./commands/users/create-admin"
import UsersList from "./commands/users/list"
import UsersRole from "./commands/users/role"
import UsersStatus from "./commands/users/status"
import ExportBookings from "./commands/export/bookings"
import ExportPayments from "./commands/export/payments"
import FinanceStats from "./commands/finance/stats"
import AuditList from "./commands/audit/list"
import RatesList from "./commands/rates/list"
import RatesSet from "./commands/rates/set"

/** oclif's explicit command strategy: the bundle carries its commands (no directory scan). */
export const commands = {
  migrate: Migrate,
  seed: Seed,
  "seed:bulk": SeedBulk,
  "users:create-admin": CreateAdmin,
  "applications:list": ApplicationsList,
  "applications:approve": ApplicationsApprove,
  "applications:reject": ApplicationsReject,
  "bookings:list": BookingsList,
  "bookings:status": BookingsStatus,
  "payments:reconcile": PaymentsReconcile,
  "payments:refund": PaymentsRefund,
  "users:list": UsersList,
  "users:status": UsersStatus,
  "users:role": UsersRole,
  "export:bookings": ExportBookings,
  "export:payments": ExportPayments,
  "finance:stats": FinanceStats,
  "audit:list": AuditList,
  "rates:list": RatesList,
  "rates:set": RatesSet,
  "notifications:digest": NotificationsDigest
}
