// The back-office's literal lists, in a file that imports nothing: the domain, the contract and the UI share it.

/** A payment's status as the back-office shows it: COMPLETED green, PENDING amber, anything else red. */
export const AdminPaymentStatuses = ["COMPLETED", "PENDING", "REFUNDED", "CANCELLED", "FAILED"] as const
export type AdminPaymentStatus = (typeof AdminPaymentStatuses)[number]

/**
 * The audit log's action codes (issue 13 item 4): one per kind of administrator's decision. Written by
 * the owning modules through the platform's AuditTrail (src/platform/audit/), in the decision's own
 * transaction; the /admin/audit screen and `audit:list` filter by them.
 */
export const AuditActions = [
  "APPLICATION_APPROVED",
  "APPLICATION_REJECTED",
  "DOCUMENT_VERIFIED",
  "DOCUMENT_REPLACEMENT_REQUESTED",
  "USER_ACTIVATED",
  "USER_DEACTIVATED",
  "USER_ROLE_CHANGED",
  "BOOKING_STATUS_CHANGED",
  "BOOKING_REFUNDED",
  "DISPUTE_RESOLVED",
  "SERVICE_ENABLED",
  "SERVICE_DISABLED",
  "PAYMENT_ACCOUNT_CREATED",
  "PAYMENT_ACCOUNT_DELETED",
  "REPORT_MODERATED",
  "EXCHANGE_RATES_SET",
  // Reading is audited where it hands out much personal data or a provider's payout access (issue 23, item 13).
  "BOOKINGS_EXPORTED",
  "PAYMENTS_EXPORTED",
  "PAYOUT_ONBOARDING_LINK_CREATED",
  "PAYOUT_DASHBOARD_OPENED"
] as const
export type AuditAction = (typeof AuditActions)[number]

/** What an audit entry is about (its subject id is that record's id; a payment account's is its provider's user id). */
export const AuditSubjectTypes = ["APPLICATION", "DOCUMENT", "USER", "BOOKING", "SERVICE", "REPORT", "EXCHANGE_RATES", "EXPORT"] as const
export type AuditSubjectType = (typeof AuditSubjectTypes)[number]

/** Audit entries per page when the request names no size. */
export const AUDIT_PAGE_SIZE = 50
