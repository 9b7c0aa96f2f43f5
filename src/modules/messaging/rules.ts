// Messaging's limits, in a file that imports nothing: the domain and the UI (its composer and lists) share it.

/** A message's text, in characters. */
export const MAX_CONTENT_LENGTH = 2000
/** Spec section 9: messages are paged by 50. */
export const MESSAGES_PAGE_SIZE = 50
export const CONVERSATIONS_PAGE_SIZE = 20

// ---- Safety: reports and moderation (issue 15) ------------------------------------------------

/** Why a user reports a message or a profile. OFF_PLATFORM: asks to deal or pay outside the platform. */
/**
 * Whether the reader may write in a conversation: NONE, BY_ME (the reader blocks the other: lifting it
 * is theirs), BY_OTHER (the other blocks the reader). Blocked either way, nobody writes and presence is not shown.
 */
export const BlockStates = ["NONE", "BY_ME", "BY_OTHER"] as const
export type BlockState = (typeof BlockStates)[number]

/** Of some people, those the reader blocks and those who block the reader. */
export interface BlocksAround {
  readonly blockedByMe: ReadonlySet<string>
  readonly blockingMe: ReadonlySet<string>
}

/** A conversation's block state for its reader, from the blocks around them (the reader's own block first). */
export const blockStateOf = (otherIds: ReadonlyArray<string>, around: BlocksAround): BlockState =>
  otherIds.some((id) => around.blockedByMe.has(id)) ? "BY_ME" : otherIds.some((id) => around.blockingMe.has(id)) ? "BY_OTHER" : "NONE"

export const ReportReasons = ["SPAM", "HARASSMENT", "INAPPROPRIATE", "SCAM", "OFF_PLATFORM", "OTHER"] as const
export type ReportReason = (typeof ReportReasons)[number]
/** OPEN until an admin decides; each decision is the status it leaves. */
export const ReportStatuses = ["OPEN", "DISMISSED", "WARNED", "MESSAGE_HIDDEN", "ACCOUNT_DEACTIVATED"] as const
export type ReportStatus = (typeof ReportStatuses)[number]
/** What an admin does with a report. */
export const ModerationActions = ["DISMISS", "WARN", "HIDE_MESSAGE", "DEACTIVATE"] as const
export type ModerationAction = (typeof ModerationActions)[number]
/** A report's details and a decision's note, in characters. */
export const REPORT_DETAILS_MAX = 1000
/** Reports a user may file per day. */
export const REPORTS_PER_DAY = 10
export const REPORTS_PAGE_SIZE = 20
