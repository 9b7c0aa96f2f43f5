import { useLingui } from "@lingui/react/macro"
import { useMemo, useState, type FormEvent } from "react"
import { navigate } from "wouter/use-browser-location"
import { ApiError } from "../../api/client"
import { bookingsApi } from "../../api/endpoints"
import type { Booking, ServiceDetail, User } from "../../api/contract"
import { bookingProblemTexts } from "../../booking/labels"
import {
  ADDRESS_MAX,
  bookingFieldOf,
  bookingRequestOf,
  bookingTotal,
  checkBookingForm,
  NOTES_MAX,
  toLocalInputValue,
  type BookingField,
  type BookingFormValues
} from "../../booking/rules"
import { loginRedirect } from "../../routing/access"
import { Duration, PricePerHour } from "../catalogue"
import { Alert, DialogActions, TextArea, TextField, useFocusFirstInvalid } from "../forms"
import { Modal } from "../Modal"
import { currencyDecimals, formatDateRangeIn, formatPrice, sameTimeIn, zoneName } from "../../format"
import { useViewerZone } from "../../state/session"

const DRAFT_KEY = "booking-draft:"

/** A visitor's filled form is kept for the way back from the login screen. */
export const readDraft = (serviceId: string): BookingFormValues | undefined => {
  try {
    const raw = sessionStorage.getItem(DRAFT_KEY + serviceId)
    if (!raw) return undefined
    const value = JSON.parse(raw) as Partial<BookingFormValues>
    return { startTime: value.startTime ?? "", endTime: value.endTime ?? "", address: value.address ?? "", notes: value.notes ?? "" }
  } catch {
    return undefined
  }
}
const saveDraft = (serviceId: string, values: BookingFormValues) => {
  try {
    sessionStorage.setItem(DRAFT_KEY + serviceId, JSON.stringify(values))
  } catch {
    // The visitor types it again.
  }
}
export const dropDraft = (serviceId: string) => {
  try {
    sessionStorage.removeItem(DRAFT_KEY + serviceId)
  } catch {
    // Nothing stored.
  }
}

const EMPTY: BookingFormValues = { startTime: "", endTime: "", address: "", notes: "" }

/**
 * The booking form (spec sections 2 and 5): start, end, address, notes; the total follows the
 * dates. A visitor is sent to the login screen on submit, with the way back and the form kept.
 */
export const BookingForm = ({
  service,
  user,
  initial,
  onClose,
  onBooked
}: {
  service: ServiceDetail
  user: User | null
  initial?: BookingFormValues | undefined
  onClose: () => void
  onBooked: (booking: Booking) => void
}) => {
  const { t, i18n } = useLingui()
  const [values, setValues] = useState<BookingFormValues>(initial ?? EMPTY)
  const [errors, setErrors] = useState<Partial<Record<BookingField, string>>>({})
  const [invalidDuration, setInvalidDuration] = useState(false)
  const [failure, setFailure] = useState<string>()
  const [busy, setBusy] = useState(false)
  const form = useFocusFirstInvalid(errors)
  const now = useMemo(() => new Date(), [])
  const set = (field: BookingField) => (value: string) => setValues((current) => ({ ...current, [field]: value }))
  // The times typed are the viewer's (their account's zone, else the browser's), named; the provider's
  // own time is said beside them when their zone writes it differently.
  const zone = useViewerZone()

  const check = checkBookingForm(values, new Date(), zone)
  const request = bookingRequestOf(service.id, values, zone)
  const providerTime =
    check.minutes > 0 && !sameTimeIn(zone, service.providerTimeZone, request.startTime ?? now)
      ? `${formatDateRangeIn(i18n.locale, request.startTime!, request.endTime!, service.providerTimeZone)}, ${zoneName(i18n.locale, service.providerTimeZone)}`
      : undefined
  const viewerZoneName = zoneName(i18n.locale, zone)
  const digits = currencyDecimals(service.currency)
  const total = bookingTotal(service.price, check.minutes, digits)
  const title = service.title

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(undefined)
    const result = checkBookingForm(values, new Date(), zone)
    setInvalidDuration(result.invalidDuration)
    const problems = Object.fromEntries(
      Object.entries(result.problems).map(([field, problem]) => [field, i18n._(bookingProblemTexts[problem])])
    )
    setErrors(problems)
    if (Object.keys(problems).length > 0) return
    if (!user) {
      saveDraft(service.id, values)
      navigate(`${loginRedirect(`/services/${service.id}`)}&message=book`)
      return
    }
    setBusy(true)
    try {
      const { data } = await bookingsApi.create(bookingRequestOf(service.id, values, zone))
      dropDraft(service.id)
      onBooked(data.bookingData)
    } catch (error) {
      setBusy(false)
      if (!(error instanceof ApiError)) throw error
      const fieldErrors: Partial<Record<BookingField, string>> = {}
      for (const detail of error.details) {
        const field = bookingFieldOf(detail.field)
        if (field && !fieldErrors[field]) fieldErrors[field] = detail.message
      }
      setErrors(fieldErrors)
      const reason = error.message || error.code
      if (error.status !== 422 || Object.keys(fieldErrors).length === 0) setFailure(t`Erreur de validation de la réservation : ${reason}`)
    }
  }

  return (
    <Modal title={t`Réserver : ${title}`} onClose={onClose}>
      <form ref={form} className="form booking-form" noValidate onSubmit={(event) => void submit(event)}>
        {invalidDuration ? (
          <Alert kind="error" title={t`Durée invalide`}>
            <p>{t`La durée de la réservation doit être positive : choisissez une fin postérieure au début.`}</p>
          </Alert>
        ) : null}
        {failure ? <Alert kind="error">{failure}</Alert> : null}
        <div className="field-row">
          <TextField
            label={t`Date et heure de début`}
            name="startTime"
            type="datetime-local"
            value={values.startTime}
            onChange={set("startTime")}
            error={errors.startTime}
            min={toLocalInputValue(now, zone)}
          />
          <TextField
            label={t`Date et heure de fin`}
            name="endTime"
            type="datetime-local"
            value={values.endTime}
            onChange={set("endTime")}
            error={errors.endTime}
            min={values.startTime || toLocalInputValue(now, zone)}
          />
        </div>
        <p className="field-hint" data-testid="booking-zone">
          {t`Horaires à l’${viewerZoneName}.`}
          {providerTime ? <> {t`Pour le prestataire : ${providerTime}.`}</> : null}
        </p>
        <TextField
          label={t`Adresse de la prestation`}
          name="address"
          value={values.address}
          onChange={set("address")}
          error={errors.address}
          autoComplete="street-address"
          maxLength={ADDRESS_MAX}
        />
        <TextArea
          label={t`Notes (facultatif)`}
          name="notes"
          value={values.notes}
          onChange={set("notes")}
          error={errors.notes}
          required={false}
          rows={3}
          maxLength={NOTES_MAX}
        />
        <dl className="booking-summary" aria-live="polite">
          <dt>{t`Tarif`}</dt>
          <dd>
            <PricePerHour price={service.price} currency={service.currency} />
          </dd>
          <dt>{t`Durée`}</dt>
          <dd>{check.minutes > 0 ? <Duration minutes={check.minutes} /> : "—"}</dd>
          <dt>{t`Total`}</dt>
          <dd className="booking-total" data-testid="booking-total">
            {check.minutes > 0 ? formatPrice(i18n.locale, total, service.currency) : "—"}
          </dd>
        </dl>
        {user ? null : <p className="field-hint">{t`Vous devrez vous connecter pour confirmer la réservation.`}</p>}
        <DialogActions busy={busy} submit={t`Confirmer la réservation`} dismiss={t`Annuler`} onDismiss={onClose} />
      </form>
    </Modal>
  )
}
