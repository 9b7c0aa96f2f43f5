import type { Brand } from "../../platform/brand"
import { type Language, translate } from "../../platform/messages"
import { formatWithZone, zoneOf } from "../../platform/time-zones"
import { composeMail, type MailRecipient, type OutgoingMail } from "../notifications"
import type { DocumentSlot, Resubmission } from "./domain"

/** "2 décembre 2026 à 15:00, heure de Paris": the instant in the recipient's zone, named (DEFAULT_TIME_ZONE while unknown). */
const dateIn = (language: Language, date: Date, zone: string | null | undefined) => formatWithZone(language, date, zoneOf(zone))

/** To the applicant when an admin approves: next step, activate payments. */
export const approvalMail = (to: MailRecipient, brand: Brand): OutgoingMail => {
  const language = to.preferredLanguage
  return composeMail(
    "application-decision",
    to,
    translate(language, "mail.applicationApproved.subject"),
    [translate(language, "mail.applicationApproved.body")],
    {
      label: translate(language, "mail.applicationApproved.action"),
      link: `${brand.publicUrl}/provider/payments/setup`
    },
    brand.siteName
  )
}

/** To the applicant when an admin rejects: the reason, and when (or whether) a resubmission is possible. */
export const rejectionMail = (
  to: MailRecipient,
  input: {
    readonly reason: string
    readonly resubmission: Resubmission
    readonly attemptsLeft: number
    /** The applicant's IANA zone (null: not known yet). */
    readonly timeZone?: string | null | undefined
  },
  brand: Brand
): OutgoingMail => {
  const language = to.preferredLanguage
  const next =
    input.resubmission.state === "FINALLY_REFUSED"
      ? translate(language, "mail.applicationRejected.final")
      : input.resubmission.state === "COOLDOWN"
        ? translate(language, "mail.applicationRejected.resubmitOn", {
            date: dateIn(language, input.resubmission.until, input.timeZone),
            attempts: String(input.attemptsLeft)
          })
        : translate(language, "mail.applicationRejected.resubmitNow", { attempts: String(input.attemptsLeft) })
  return composeMail(
    "application-decision",
    to,
    translate(language, "mail.applicationRejected.subject"),
    [
      translate(language, "mail.applicationRejected.body"),
      `${translate(language, "mail.applicationRejected.reason")} ${input.reason}`,
      next
    ],
    { label: translate(language, "mail.applicationRejected.action"), link: `${brand.publicUrl}/become-provider` },
    brand.siteName
  )
}

/** To the applicant when an admin asks for one document again: which one, why, and where to send it (no cooldown). */
export const documentRequestedMail = (
  to: MailRecipient,
  input: { readonly slot: DocumentSlot; readonly reason: string },
  brand: Brand
): OutgoingMail => {
  const language = to.preferredLanguage
  return composeMail(
    "application-decision",
    to,
    translate(language, "mail.documentRequested.subject"),
    [
      translate(language, "mail.documentRequested.body", { document: translate(language, `onboarding.document.${input.slot}`) }),
      `${translate(language, "mail.documentRequested.reason")} ${input.reason}`
    ],
    { label: translate(language, "mail.documentRequested.action"), link: `${brand.publicUrl}/become-provider` },
    brand.siteName
  )
}
