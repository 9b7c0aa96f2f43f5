import { useLingui } from "@lingui/react/macro"
import { lazy, Suspense, useId, useMemo, useState, type FormEvent } from "react"
import { navigate } from "wouter/use-browser-location"
import { ApiError } from "../../api/client"
import { bookingsApi, checkoutApi } from "../../api/endpoints"
import type { BillingDetails, Booking, CheckoutAnswer, User } from "../../api/contract"
import { billingProblemText } from "../../booking/labels"
import {
  BILLING_COUNTRIES,
  billingDetailsOf,
  billingFieldOf,
  checkBilling,
  defaultBillingCountry,
  type BillingField,
  type BillingValues
} from "../../booking/rules"
import { showToast } from "../../state/toasts"
import { Alert, DialogActions, SelectField, TextField, useFocusFirstInvalid } from "../forms"
import { Modal } from "../Modal"
import { Loading } from "../page"
import { formatMinor, formatTimeIn } from "../../format"
import { browserLanguages } from "../../i18n"
import { useViewerZone } from "../../state/session"
import { DateRange } from "./parts"

// Stripe's libraries are their own chunk, loaded only for the in-page card form.
const CardPayment = lazy(() => import("./CardPayment"))

type Stage =
  | { readonly kind: "billing" }
  | { readonly kind: "redirecting" }
  | {
      readonly kind: "card"
      readonly answer: CheckoutAnswer & { clientSecret: string; publishableKey: string }
      readonly billing: BillingDetails
    }

const useCountries = (extra: string) => {
  const { i18n } = useLingui()
  return useMemo(() => {
    let names: Intl.DisplayNames | undefined
    try {
      names = new Intl.DisplayNames([i18n.locale], { type: "region" })
    } catch {
      names = undefined
    }
    const codes = new Set<string>([...BILLING_COUNTRIES, extra])
    return [...codes]
      .map((code) => ({ value: code, label: names?.of(code) ?? code }))
      .sort((a, b) => a.label.localeCompare(b.label, i18n.locale))
  }, [i18n.locale, extra])
}

/**
 * The secure-payment step (spec sections 4 and 5): billing details, then the hosted checkout (the
 * browser leaves for it) or, when the server hands a client secret, the in-page card form.
 */
export const PaymentDialog = ({ booking, user, onClose }: { booking: Booking; user: User | null; onClose: () => void }) => {
  const { t, i18n } = useLingui()
  const defaultCountry = useMemo(() => defaultBillingCountry(browserLanguages()), [])
  const countries = useCountries(defaultCountry)
  const [values, setValues] = useState<BillingValues>({
    name: user ? `${user.firstName} ${user.lastName}`.trim() : "",
    email: user?.email ?? "",
    line1: "",
    city: "",
    postalCode: "",
    country: defaultCountry
  })
  const [errors, setErrors] = useState<Partial<Record<BillingField, string>>>({})
  const [incomplete, setIncomplete] = useState(false)
  const [failure, setFailure] = useState<string>()
  const [busy, setBusy] = useState(false)
  const [stage, setStage] = useState<Stage>({ kind: "billing" })
  const form = useFocusFirstInvalid(errors)
  const summaryId = useId()
  const set = (field: BillingField) => (value: string) => setValues((current) => ({ ...current, [field]: value }))

  // What the payment authorises: the new total of an accepted move awaiting it, else the booking's total.
  const amount = formatMinor(i18n.locale, booking.amountDueMinor, booking.currency)
  const title = booking.service.title
  const zone = useViewerZone()
  const holdUntil = booking.holdExpiresAt ? formatTimeIn(i18n.locale, booking.holdExpiresAt, zone) : undefined

  const pay = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(undefined)
    const problems = checkBilling(values)
    const texts = Object.fromEntries(
      Object.entries(problems).map(([field, problem]) => [field, i18n._(billingProblemText(field as BillingField, problem))])
    )
    setErrors(texts)
    setIncomplete(Object.keys(problems).length > 0)
    if (Object.keys(problems).length > 0) return
    setBusy(true)
    const billing = billingDetailsOf(values)
    try {
      const { data } = await checkoutApi.createSession({
        bookingId: booking.id,
        amountCents: booking.amountDueMinor,
        currency: booking.currency,
        productName: booking.service.title,
        quantity: 1,
        billingDetails: billing
      })
      if (data.clientSecret && data.publishableKey) {
        setBusy(false)
        setStage({ kind: "card", answer: { ...data, clientSecret: data.clientSecret, publishableKey: data.publishableKey }, billing })
        return
      }
      setStage({ kind: "redirecting" })
      window.location.assign(data.url)
    } catch (error) {
      setBusy(false)
      if (!(error instanceof ApiError)) throw error
      const fieldErrors: Partial<Record<BillingField, string>> = {}
      for (const detail of error.details) {
        const field = billingFieldOf(detail.field)
        if (field && !fieldErrors[field]) fieldErrors[field] = detail.message
      }
      setErrors(fieldErrors)
      const reason = error.message || error.code
      setFailure(t`Erreur de paiement : ${reason}`)
    }
  }

  const paid = () => {
    showToast("success", t`Paiement effectué : votre réservation attend la confirmation du prestataire.`)
    bookingsApi.refresh()
    onClose()
    navigate(`/bookings?payment=success&booking=${encodeURIComponent(booking.id)}`)
  }

  return (
    <Modal title={t`Paiement sécurisé`} onClose={onClose}>
      <section className="payment-summary" aria-labelledby={summaryId}>
        <h3 id={summaryId} className="sr-only">
          {t`Récapitulatif`}
        </h3>
        <dl className="facts">
          <dt>{t`Service`}</dt>
          <dd>{title}</dd>
          <dt>{t`Date`}</dt>
          <dd>
            <DateRange start={booking.startTime} end={booking.endTime} other={{ zone: booking.providerTimeZone, who: "provider" }} />
          </dd>
          <dt>{t`Montant`}</dt>
          <dd className="booking-total">{amount}</dd>
        </dl>
        <p className="field-hint">{t`Le montant est pré-autorisé sur votre carte et n'est débité qu'après la validation du service.`}</p>
        {holdUntil && booking.paymentStatus === "UNPAID" ? (
          <p className="field-hint">{t`Ce créneau vous est réservé jusqu'à ${holdUntil} : payez avant cette heure.`}</p>
        ) : null}
      </section>
      {stage.kind === "card" ? (
        <Suspense fallback={<Loading label={t`Chargement du formulaire de paiement…`} />}>
          <CardPayment answer={stage.answer} billing={stage.billing} amountLabel={amount} onPaid={paid} />
        </Suspense>
      ) : stage.kind === "redirecting" ? (
        <Loading label={t`Redirection vers la page de paiement sécurisée…`} />
      ) : (
        <form ref={form} className="form billing-form" noValidate onSubmit={(event) => void pay(event)}>
          <h3>{t`Informations de facturation`}</h3>
          {incomplete ? <Alert kind="error">{t`Veuillez compléter vos informations de facturation.`}</Alert> : null}
          {failure ? <Alert kind="error">{failure}</Alert> : null}
          <TextField
            label={t`Nom complet`}
            name="name"
            value={values.name}
            onChange={set("name")}
            error={errors.name}
            autoComplete="name"
          />
          <TextField
            label={t`Email`}
            name="email"
            type="email"
            value={values.email}
            onChange={set("email")}
            error={errors.email}
            autoComplete="email"
          />
          <TextField
            label={t`Adresse`}
            name="line1"
            value={values.line1}
            onChange={set("line1")}
            error={errors.line1}
            autoComplete="address-line1"
          />
          <div className="field-row">
            <TextField
              label={t`Ville`}
              name="city"
              value={values.city}
              onChange={set("city")}
              error={errors.city}
              autoComplete="address-level2"
            />
            <TextField
              label={t`Code postal`}
              name="postalCode"
              value={values.postalCode}
              onChange={set("postalCode")}
              error={errors.postalCode}
              autoComplete="postal-code"
            />
          </div>
          <SelectField
            label={t`Pays`}
            name="country"
            value={values.country}
            onChange={set("country")}
            options={countries}
            placeholder={t`Choisissez un pays`}
            error={errors.country}
          />
          <DialogActions busy={busy} submit={t`Payer ${amount}`} dismiss={t`Régler plus tard`} onDismiss={onClose} />
        </form>
      )}
    </Modal>
  )
}
