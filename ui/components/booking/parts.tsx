// Small pieces shared by the booking screens: status badge, stars, date ranges, amounts.

import { useLingui } from "@lingui/react/macro"
import { useId } from "react"
import type { DisplayStatus, PaymentStatus } from "../../api/contract"
import { paymentLabels, statusLabels, statusTone } from "../../booking/labels"
import { RATING_MAX, RATING_MIN } from "../../booking/rules"
import { formatDateRange } from "../../format"

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
            <span className="sr-only">{n === 1 ? t`1 étoile` : t`${n} étoiles`}</span>
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

export const DateRange = ({ start, end }: { start: string; end: string }) => {
  const { i18n } = useLingui()
  return <time dateTime={start}>{formatDateRange(i18n.locale, new Date(start), new Date(end))}</time>
}
