import { composeMail } from "../notifications"
import type { OutgoingMail } from "../notifications"
import { type MessageKey, translate } from "../../platform/messages"
import { formatMoney } from "../../platform/money"
import type { NotificationEvent } from "./domain"
import type { BookingDetail, Participant } from "./ports"

const locale = (language: "fr" | "en") => (language === "fr" ? "fr-FR" : "en-CA")

/** "12 mars 2027 à 14:00 (UTC)": mails cannot know the reader's time zone, so they say which one they use. */
// Intl formatters are costly to build (20 to 45 µs each) and immutable: one per language (and currency).
const dateFormat = (language: "fr" | "en") =>
  new Intl.DateTimeFormat(locale(language), { dateStyle: "long", timeStyle: "short", timeZone: "UTC", hourCycle: "h23" })
const dateFormats = { fr: dateFormat("fr"), en: dateFormat("en") }
const when = (language: "fr" | "en", date: Date) => `${dateFormats[language].format(date)} (UTC)`

/** An amount in minor units as a mail or a view writes it ("45,50 €", "$45.50"). */
export const formatAmount = (language: "fr" | "en", minor: number, currency: string) => formatMoney(locale(language), minor, currency)

/** A reschedule mail's words: the latest proposal's time, the time it replaces, and the other party's name. */
const rescheduleParams = (language: "fr" | "en", side: "client" | "provider", booking: BookingDetail) => {
  const latest = booking.reschedules[0]
  const other = side === "client" ? booking.provider : booking.client
  return {
    other: `${other.firstName} ${other.lastName}`,
    proposed: latest ? when(language, latest.startTime) : "",
    previous: latest ? when(language, latest.previousStartTime) : ""
  }
}

/** The mail of a booking event to one of its two people, in that person's language. */
export const bookingMail = (
  event: NotificationEvent,
  to: Participant,
  side: "client" | "provider",
  booking: BookingDetail,
  publicUrl: string
): OutgoingMail => {
  const language = to.preferredLanguage
  const params = {
    service: booking.service.title,
    when: when(language, booking.startTime),
    client: `${booking.client.firstName} ${booking.client.lastName}`,
    amount: formatAmount(language, booking.capturedMinor > 0 ? booking.capturedMinor : booking.totalMinor, booking.currency),
    reason: booking.rejectionReason ?? "",
    ...rescheduleParams(language, side, booking),
    // A proposal names the total at its own duration.
    ...(event === "rescheduleProposed" && booking.reschedules[0]
      ? { amount: formatAmount(language, booking.reschedules[0].totalMinor, booking.currency) }
      : {})
  }
  return composeMail(
    "booking",
    { email: to.email, firstName: to.firstName, preferredLanguage: language },
    translate(language, `mail.booking.${event}.subject` as MessageKey),
    [translate(language, `mail.booking.${event}.${side}` as MessageKey, params)],
    { label: translate(language, "mail.booking.action"), link: `${publicUrl.replace(/\/+$/, "")}/bookings` }
  )
}
