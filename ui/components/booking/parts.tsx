// Small pieces shared by the booking screens: status badge, stars, date ranges, amounts.

import { plural } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { useId } from "react"
import type { Booking, DisplayStatus, PaymentStatus } from "../../api/contract"
import { paymentLabels, statusLabels, statusTone } from "../../booking/labels"
import { RATING_MAX, RATING_MIN } from "../../booking/rules"
import { formatDateRangeIn, sameTimeIn, zoneName } from "../../format"
import { useViewerZone } from "../../state/session"

export const StatusBadge = ({ status }: { status: DisplayStatus }) => {
  const { i18n } = useLingui()
  return <span className={`badge status status-${statusTone[status]}`}>{i18n._(statusLabels[status])}</span>
}

export const usePaymentLabel = () => {
  const { i18n } = useLingui()
  return (status: PaymentStatus) => i18n._(paymentLabels[status])
}

/** "★★★★☆" for the eyes, "4 sur 5" for screen readers. */
export const Stars = ({ rating }: { rating: number }) => {
  const { t } = useLingui()
  const full = Math.max(0, Math.min(RATING_MAX, Math.round(rating)))
  return (
    <span className="stars">
      <span aria-hidden="true">
        {"★".repeat(full)}
        <span className="stars-empty">{"☆".repeat(RATING_MAX - full)}</span>
      </span>
      <span className="sr-only">{t`${full} sur 5`}</span>
    </span>
  )
}

/** The rating input of the completion review: five labelled radio buttons drawn as stars. */
export const StarInput = ({ value, onChange, error }: { value: number; onChange: (value: number) => void; error?: string | undefined }) => {
  const { t } = useLingui()
  const name = useId()
  const errorId = `${name}-error`
  const values = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i)
  return (
    <fieldset className="field star-input" aria-describedby={error ? errorId : undefined}>
      <legend>{t`Note`}</legend>
      <div className="star-options">
        {values.map((n) => (
          <label key={n} className={n <= value ? "star-option star-on" : "star-option"}>
            <input
              type="radio"
              name={name}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              aria-invalid={error ? true : undefined}
            />
            <span aria-hidden="true">★</span>
            <span className="sr-only">{plural(n, { one: "# étoile", other: "# étoiles" })}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}

/**
 * A booking's time in the viewer's zone, named ("lundi 2 juin 2026, 15:00 – 16:00 · heure de Paris"),
 * and, when the other party's zone writes it differently, the same time in that zone, named too (the
 * provider's for a client, the client's for a provider or an administrator).
 */
export const DateRange = ({
  start,
  end,
  other
}: {
  start: string
  end: string
  other?: { readonly zone: string; readonly who: "provider" | "client" } | undefined
}) => {
  const { i18n, t } = useLingui()
  const zone = useViewerZone()
  const elsewhere = other !== undefined && !sameTimeIn(zone, other.zone, start) ? other : undefined
  const otherText = elsewhere
    ? `${formatDateRangeIn(i18n.locale, start, end, elsewhere.zone)}, ${zoneName(i18n.locale, elsewhere.zone)}`
    : ""
  return (
    <span className="date-range">
      <time dateTime={start}>{formatDateRangeIn(i18n.locale, start, end, zone)}</time>
      <span className="zone-name"> · {zoneName(i18n.locale, zone)}</span>
      {elsewhere ? (
        <span className="zone-other" data-testid="other-zone">
          {elsewhere.who === "provider" ? t`Pour le prestataire : ${otherText}` : t`Pour le client : ${otherText}`}
        </span>
      ) : null}
    </span>
  )
}

/**
 * The client's notes in a booking's details, with why some of them are hidden: the provider reads
 * contact details masked until the booking is agreed (private until booked, as in messages).
 */
export const BookingNotes = ({ booking }: { booking: Pick<Booking, "notes" | "notesMasked" | "role"> }) => {
  const { t } = useLingui()
  if (!booking.notes) return null
  return (
    <>
      <dt>{t`Notes`}</dt>
      <dd className="booking-notes">
        {booking.notes}
        {booking.notesMasked ? (
          <span className="field-hint booking-notes-masked">
            {booking.role === "provider"
              ? t`Des coordonnées ont été masquées : elles seront visibles une fois la réservation confirmée.`
              : t`Le prestataire verra vos coordonnées une fois la réservation confirmée.`}
          </span>
        ) : null}
      </dd>
    </>
  )
}
