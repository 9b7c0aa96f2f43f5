// Onboarding's literal lists, in a file that imports nothing: the domain, the contract and the UI share it.

export const ApplicationStatuses = ["PENDING", "APPROVED", "REJECTED"] as const
export type ApplicationStatus = (typeof ApplicationStatuses)[number]

/** The four files of the form (multipart field names). */
export const DocumentSlots = ["identityDocument", "addressDocument", "bankDocument", "profilePicture"] as const
export type DocumentSlot = (typeof DocumentSlots)[number]

export const DocumentTypes = [
  "IDENTITY_CARD",
  "PASSPORT",
  "DRIVERS_LICENSE",
  "UTILITY_BILL",
  "RENTAL_AGREEMENT",
  "BANK_STATEMENT",
  "PROFILE_PICTURE",
  "BANK_CHECK_SAMPLE",
  "BANK_RIB",
  "BANK_ACCOUNT_INFO"
] as const
export type DocumentType = (typeof DocumentTypes)[number]

/** Where a rejected application stands (the views' `resubmissionState`). */
export const ResubmissionStates = ["NOT_REJECTED", "CAN_RESUBMIT", "COOLDOWN", "FINALLY_REFUSED"] as const
export type ResubmissionState = (typeof ResubmissionStates)[number]
