import { useLingui } from "@lingui/react/macro"
import { useState, type FormEvent } from "react"
import { navigate } from "wouter/use-browser-location"
import { ApiError } from "../../api/client"
import { bookingsApi, slotsApi } from "../../api/endpoints"
import type { Booking, ServiceDetail, User } from "../../api/contract"
import { bookingProblemTexts } from "../../booking/labels"
import {
  ADDRESS_MAX,
  bookingFieldOf,
  bookingRequestOf,
  bookingTotal,
  checkBookingForm,
  NOTES_MAX,
  type BookingField,
  type BookingFormValues
} from "../../booking/rules"
import { OUTSIDE_AVAILABILITY, SLOT_TAKEN, slotDuration } from "../../booking/slots"
import { loginRedirect } from "../../routing/access"
import { Duration, PricePerHour } from "../catalogue"
import { Alert, DialogActions, TextArea, TextField, useFocusFirstInvalid } from "../forms"
import { Modal } from "../Modal"
import { currencyDecimals, formatDateTimeIn, formatPrice } from "../../format"
import { useViewerZone } from "../../state/session"
import { CancellationPolicyNote } from "./Cancellation"
import { SlotPicker } from "./SlotPicker"

const DRAFT_KEY = "booking-draft:"

/** A visitor's filled form is kept for the way back from the login screen. */
export const readDraft = (serviceId: string): BookingFormValues | undefined => {
  try {
    const raw = sessionStorage.getItem(DRAFT_KEY + serviceId)
    if (!raw) return undefined
    const value = JSON.parse(raw) as Partial<BookingFormValues>
    const duration = typeof value.duration === "number" && value.duration > 0 ? value.duration : undefined
    return {
      // A draft of the older form (a local date and time, no duration) keeps only its text.
      startTime: duration !== undefined && typeof value.startTime === "string" ? value.startTime : "",
      duration: duration ?? 0,
      address: value.address ?? "",
      notes: value.notes ?? ""
    }
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

/** The booking's slot as chosen elsewhere (a next free slot of the service page), or a kept draft. */
export type BookingPreset = Partial<BookingFormValues>

const PAIR_BLOCKED = "USER_BLOCKED"

/**
 * The booking form (spec sections 2 and 5; issue 12): a free slot picked for a duration (the
 * service's by default) in the provider's free time, the address, notes; the total follows the
 * duration. A visitor is sent to the login screen on submit, with the way back and the form kept.
 * A refusal because the slot was just taken (409) or is outside the provider's availability (422)
 * loads the slots anew and says so.
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
  initial?: BookingPreset | undefined
  onClose: () => void
  onBooked: (booking: Booking) => void
}) => {
  const { t, i18n } = useLingui()
  const defaultDuration = slotDuration(service.duration)
  const [values, setValues] = useState<BookingFormValues>(() => ({
    startTime: initial?.startTime ?? "",
    duration: initial?.duration !== undefined && initial.duration > 0 ? initial.duration : defaultDuration,
    address: initial?.address ?? "",
    notes: initial?.notes ?? ""
  }))
  const [errors, setErrors] = useState<Partial<Record<BookingField, string>>>({})
  const [failure, setFailure] = useState<string>()
  const [slotGone, setSlotGone] = useState<string>()
  const [round, setRound] = useState(0)
  const [busy, setBusy] = useState(false)
  const form = useFocusFirstInvalid(errors)
  // Times are the viewer's (their account's zone, else the browser's); the picker names the provider's beside them.
  const zone = useViewerZone()
  const set = (field: "address" | "notes") => (value: string) => setValues((current) => ({ ...current, [field]: value }))

  const check = checkBookingForm(values, new Date())
  const digits = currencyDecimals(service.currency)
  const total = bookingTotal(service.price, check.minutes, digits)
  const title = service.title
  const chosen = values.startTime === "" ? "—" : formatDateTimeIn(i18n.locale, values.startTime, zone)

  /** The slot was refused as no longer free: drop it, load the slots anew, say why. */
  const refreshSlots = (message: string) => {
    slotsApi.refresh()
    setValues((current) => ({ ...current, startTime: "" }))
    setRound((n) => n + 1)
    setSlotGone(message)
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(undefined)
    setSlotGone(undefined)
    const result = checkBookingForm(values, new Date())
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
      const { data } = await bookingsApi.create(bookingRequestOf(service.id, values))
      dropDraft(service.id)
      onBooked(data.bookingData)
    } catch (error) {
      setBusy(false)
      if (!(error instanceof ApiError)) throw error
      if (error.code === SLOT_TAKEN) {
        refreshSlots(
          t`Ce créneau vient d'être réservé par quelqu'un d'autre. Les disponibilités sont à jour : choisissez un autre horaire.`
        )
        return
      }
      if (error.code === OUTSIDE_AVAILABILITY) {
        refreshSlots(
          t`Ce créneau n'est plus dans les disponibilités du prestataire. Les disponibilités sont à jour : choisissez un autre horaire.`
        )
        return
      }
      // Blocked either way: the server's sentence says it all.
      if (error.code === PAIR_BLOCKED) return setFailure(error.message)
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
    <Modal title={t`Réserver : ${title}`} onClose={onClose} wide>
      <form ref={form} className="form booking-form" noValidate onSubmit={(event) => void submit(event)}>
        {failure ? <Alert kind="error">{failure}</Alert> : null}
        {slotGone ? (
          <Alert kind="warning" title={t`Créneau indisponible`}>
            <p>{slotGone}</p>
          </Alert>
        ) : null}
        <SlotPicker
          source={{ serviceId: service.id }}
          providerId={service.userId}
          zone={zone}
          duration={values.duration}
          defaultDuration={defaultDuration}
          startTime={values.startTime}
          round={round}
          error={errors.startTime}
          onDuration={(duration) => setValues((current) => ({ ...current, duration }))}
          onStart={(startTime) => setValues((current) => ({ ...current, startTime }))}
        />
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
          <dt>{t`Horaire`}</dt>
          <dd data-testid="booking-start">{chosen}</dd>
          <dt>{t`Tarif`}</dt>
          <dd>
            <PricePerHour price={service.price} currency={service.currency} />
          </dd>
          <dt>{t`Durée`}</dt>
          <dd>
            <Duration minutes={check.minutes} />
          </dd>
          <dt>{t`Total`}</dt>
          <dd className="booking-total" data-testid="booking-total">
            {formatPrice(i18n.locale, total, service.currency)}
          </dd>
        </dl>
        <CancellationPolicyNote start={values.startTime} />
        {user ? null : <p className="field-hint">{t`Vous devrez vous connecter pour confirmer la réservation.`}</p>}
        <DialogActions busy={busy} submit={t`Confirmer la réservation`} dismiss={t`Annuler`} onDismiss={onClose} />
      </form>
    </Modal>
  )
}
