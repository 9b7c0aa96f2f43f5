// The back-office's literal lists, in a file that imports nothing: the domain, the contract and the UI share it.

/** A payment's status as the back-office shows it: COMPLETED green, PENDING amber, anything else red. */
export const AdminPaymentStatuses = ["COMPLETED", "PENDING", "REFUNDED", "CANCELLED", "FAILED"] as const
export type AdminPaymentStatus = (typeof AdminPaymentStatuses)[number]
