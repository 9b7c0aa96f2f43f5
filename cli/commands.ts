import ApplicationsApprove from "./commands/applications/approve"
import ApplicationsList from "./commands/applications/list"
import ApplicationsReject from "./commands/applications/reject"
import BookingsList from "./commands/bookings/list"
import BookingsStatus from "./commands/bookings/status"
import Migrate from "./commands/migrate"
import NotificationsDigest from "./commands/notifications/digest"
import PaymentsRefund from "./commands/payments/refund"
import Seed from "./commands/seed"
import SeedBulk from "./commands/seed/bulk"
import CreateAdmin from "./commands/users/create-admin"

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
  "payments:refund": PaymentsRefund,
  "notifications:digest": NotificationsDigest
}
