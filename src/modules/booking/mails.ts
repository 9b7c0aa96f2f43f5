import { composeMail } from "../notifications"
import type { OutgoingMail } from "../notifications"
import type { Brand } from "../../platform/brand"
import { formattingLocale, type MessageKey, translate } from "../../platform/messages"
import { formatMoney } from "../../platform/money"
import { formatWithZone } from "../../platform/time-zones"
import type { NotificationEvent } from "./domain"
import { bookingIcsAttachment } from "./ics"
import type { ReminderKind } from "./reminders"
import type { BookingDetail, Participant } from "./ports"

const locale = formattingLocale

/** The bookings page, from the public origin (written with or without a trailing slash). */
const bookingsPage = (brand: Brand) => `${brand.publicUrl.replace(/\/+$/, "")}/bookings`

/**
 * "12 mars 2027 à 14:00, heure de Montréal" / "March 12, 2027 at 2:00 PM, Montreal time": in the
 * recipient's zone, named (the toolkit caches its Intl formatters). English times are written the "en"
 * way (2:00 PM); amounts keep en-CA's.
 */
const when = (language: "fr" | "en", date: Date, zone: string) => formatWithZone(language, date, zone)

/** An amount in minor units as a mail or a view writes it ("45,50 €", "$45.50"). */
export const formatAmount = (language: "fr" | "en", minor: number, currency: string) => formatMoney(locale(language), minor, currency)

/** A reschedule mail's words: the latest proposal's time, the time it replaces, and the other party's name. */
const rescheduleParams = (language: "fr" | "en", side: "client" | "provider", booking: BookingDetail, zone: string) => {
  const latest = booking.reschedules[0]
  const other = side === "client" ? booking.provider : booking.client
  return {
    other: `${other.firstName} ${other.lastName}`,
    proposed: latest ? when(language, latest.startTime, zone) : "",
    previous: latest ? when(language, latest.previousStartTime, zone) : ""
  }
}

/** The mail of a booking event to one of its two people, in that person's language. */
export const bookingMail = (
  event: NotificationEvent,
  to: Participant,
  side: "client" | "provider",
  booking: BookingDetail,
  brand: Brand
): OutgoingMail => {
  const language = to.preferredLanguage
  const params = {
    service: booking.service.title,
    when: when(language, booking.startTime, to.timeZone),
    client: `${booking.client.firstName} ${booking.client.lastName}`,
    amount: formatAmount(language, booking.capturedMinor > 0 ? booking.capturedMinor : booking.totalMinor, booking.currency),
    reason: booking.rejectionReason ?? "",
    fee: formatAmount(language, booking.cancellationFeeMinor, booking.currency),
    ...rescheduleParams(language, side, booking, to.timeZone),
    // A dispute's decision: what it keeps (charged to the client), and the administrator's note.
    note: booking.dispute?.note ?? "",
    ...(event === "disputeResolved" ? { amount: formatAmount(language, booking.resolvedCaptureMinor ?? 0, booking.currency) } : {}),
    // A proposal names the total at its own duration.
    ...((event === "rescheduleProposed" || event === "rescheduleAwaitingPayment" || event === "rescheduleUnavailable") &&
    booking.reschedules[0]
      ? { amount: formatAmount(language, booking.reschedules[0].totalMinor, booking.currency) }
      : {})
  }
  // A client's late cancellation names the fee taken (the plain cancellation mail says nothing is charged).
  const body = event === "cancelled" && booking.cancellationFeeMinor > 0 ? "cancelledLate" : event
  const mail = composeMail(
    "booking",
    { email: to.email, firstName: to.firstName, preferredLanguage: language },
    translate(language, `mail.booking.${event}.subject` as MessageKey),
    [translate(language, `mail.booking.${body}.${side}` as MessageKey, params)],
    { label: translate(language, "mail.booking.action"), link: bookingsPage(brand) },
    brand.siteName
  )
  // The confirmation carries the booking as an .ics file, to add it to any calendar.
  return event === "confirmed" ? { ...mail, attachments: [bookingIcsAttachment(booking, bookingsPage(brand))] } : mail
}

/**
 * A reminder before a confirmed booking, to one of its two people, in that person's language. It is
 * a "booking-reminder" mail (the recipient's frequency and quiet hours apply) that expires at the
 * start: held back until then, it is not sent at all.
 */
export const reminderMail = (
  kind: ReminderKind,
  to: Participant,
  side: "client" | "provider",
  booking: BookingDetail,
  brand: Brand
): OutgoingMail => {
  const language = to.preferredLanguage
  const event = kind === "24h" ? "reminder24h" : "reminder2h"
  const params = {
    service: booking.service.title,
    when: when(language, booking.startTime, to.timeZone),
    client: `${booking.client.firstName} ${booking.client.lastName}`,
    address: booking.address
  }
  const mail = composeMail(
    "booking-reminder",
    { email: to.email, firstName: to.firstName, preferredLanguage: language },
    translate(language, `mail.booking.${event}.subject`),
    [translate(language, `mail.booking.${event}.${side}`, params)],
    { label: translate(language, "mail.booking.action"), link: bookingsPage(brand) },
    brand.siteName
  )
  return { ...mail, expiresAt: booking.startTime }
}

/**
 * The client's receipt, mailed when their payment is captured, in their language, with the receipt's
 * PDF attached (`pdf`: its bytes). A "receipt" mail: essential, it goes out at once whatever the
 * client's preferences (a digest would drop the attachment).
 */
export const receiptMail = (
  booking: BookingDetail,
  figures: { readonly paidMinor: number; readonly paidAt: Date },
  pdf: Uint8Array,
  brand: Brand
): OutgoingMail => {
  const to = booking.client
  const language = to.preferredLanguage
  const link = `${bookingsPage(brand)}/${booking.id}/receipt`
  const mail = composeMail(
    "receipt",
    { email: to.email, firstName: to.firstName, preferredLanguage: language },
    translate(language, "mail.booking.receipt.subject", { service: booking.service.title }),
    [
      translate(language, "mail.booking.receipt.client", {
        amount: formatAmount(language, figures.paidMinor, booking.currency),
        service: booking.service.title,
        provider: `${booking.provider.firstName} ${booking.provider.lastName}`,
        when: when(language, figures.paidAt, to.timeZone)
      })
    ],
    { label: translate(language, "mail.booking.receipt.action"), link },
    brand.siteName
  )
  return {
    ...mail,
    attachments: [
      {
        filename: `${translate(language, "receipt.fileName")}-${booking.id.slice(0, 8)}.pdf`,
        contentType: "application/pdf",
        content: Buffer.from(pdf).toString("base64"),
        encoding: "base64"
      }
    ]
  }
}
