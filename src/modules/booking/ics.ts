import ical, { ICalCalendarMethod } from "ical-generator"

// iCalendar (RFC 5545) documents of bookings, through ical-generator: the .ics attached to the
// confirmation mail and the providers' private calendar feeds. Times are written in UTC (`…Z`), so
// every calendar application shows them in its own zone.

/** What an event of a booking says. */
export interface CalendarBooking {
  readonly id: string
  readonly startTime: Date
  readonly endTime: Date
  readonly address: string
  readonly version: number
  readonly updatedAt: Date
  readonly service: { readonly title: string }
}

/** Stable per booking (a calendar replaces the event when the booking moves), whatever the host name. */
export const bookingUid = (bookingId: string) => `booking-${bookingId}@marketplace`

/** A calendar of bookings (METHOD:PUBLISH): one VEVENT per booking, summary the service, location its address. */
export const bookingsCalendar = (
  bookings: ReadonlyArray<CalendarBooking>,
  options: { readonly name: string; readonly link: string }
): string => {
  const calendar = ical({
    name: options.name,
    method: ICalCalendarMethod.PUBLISH,
    prodId: { company: "marketplace", product: "bookings", language: "EN" }
  })
  for (const booking of bookings) {
    calendar.createEvent({
      id: bookingUid(booking.id),
      // Each change of the booking makes a newer revision of the same event.
      sequence: booking.version,
      stamp: booking.updatedAt,
      start: booking.startTime,
      end: booking.endTime,
      summary: booking.service.title,
      location: booking.address,
      url: options.link
    })
  }
  return calendar.toString()
}

/** The .ics file of one booking, as a mail attachment. */
export const bookingIcsAttachment = (booking: CalendarBooking, link: string) => ({
  filename: "booking.ics",
  contentType: "text/calendar; charset=utf-8; method=PUBLISH",
  content: bookingsCalendar([booking], { name: booking.service.title, link })
})
