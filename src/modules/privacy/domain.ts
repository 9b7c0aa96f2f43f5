import { Conflict, NotFound } from "../../platform/errors"

// Account deletion and data export (issue 15, item 3): the pure rules. The data itself is read and
// erased by the adapter (SQL over every module's tables, in one transaction).

/** An export's download link lives this long (the mail says 7 days). */
export const EXPORT_TTL_MS = 7 * 86_400_000

/** What stands in the way of deleting an account (read in the deletion's transaction). */
export interface DeletionBlockers {
  /** A booking of theirs (as client or provider) that is not terminal: pending, confirmed, in progress, rendered or disputed. */
  readonly bookingUnderWay: boolean
  /** Money held for one of their bookings: an authorisation (a hold) not yet captured or released. */
  readonly moneyHeld: boolean
}

export const BookingUnderWay = new Conflict({ code: "BOOKING_UNDER_WAY", key: "privacy.bookingUnderWay" })
export const MoneyHeld = new Conflict({ code: "MONEY_HELD", key: "privacy.moneyHeld" })
export const ExportNotFound = new NotFound({ code: "EXPORT_NOT_FOUND", key: "privacy.exportNotFound" })

/** The reason a deletion is refused, the booking first (it is the one the user can act on); none when it may go ahead. */
export const deletionRefusal = (blockers: DeletionBlockers): Conflict | undefined =>
  blockers.bookingUnderWay ? BookingUnderWay : blockers.moneyHeld ? MoneyHeld : undefined

/** What the other party of a booking, a review or a conversation is called in an export: a display name, nothing more. */
export const displayName = (firstName: string, lastName: string): string => {
  const initial = Array.from(lastName.trim())[0]
  return initial ? `${firstName.trim()} ${initial.toLocaleUpperCase()}.` : firstName.trim()
}

/**
 * The strings that name a person in free text the platform keeps about others (mails in the outbox,
 * messages, notes, the gateway's records), longest first: the full name as mails write it, the email and
 * the phone number (3 characters or more each). A first or last name alone is not replaced: it would
 * also rewrite other people who share it.
 */
export const identifyingStrings = (person: {
  readonly email: string
  readonly firstName: string
  readonly lastName: string
  readonly phoneNumber: string
}): ReadonlyArray<string> => {
  const first = person.firstName.trim()
  const last = person.lastName.trim()
  const candidates = [`${first} ${last}`.trim(), person.email.trim(), person.phoneNumber.trim()]
  return [...new Set(candidates.filter((value) => value.length >= 3))].sort((a, b) => b.length - a.length)
}

/** What replaces a deleted person's name, email or phone in text the platform keeps (the default language's words). */
export const FORMER_MEMBER = "ancien membre"
