// The in-page card form (Stripe Elements). Its own chunk, loaded only when the checkout answer
// carries a client secret and a publishable key; Stripe's script comes from js.stripe.com, so a
// slow or unreachable provider ends in a clear message with the hosted page as the way out.

import { useLingui } from "@lingui/react/macro"
import { CardElement, Elements, useElements, useStripe } from "@stripe/react-stripe-js"
import type { Stripe } from "@stripe/stripe-js"
import { loadStripe } from "@stripe/stripe-js/pure"
import { useEffect, useId, useRef, useState, type FormEvent } from "react"
import type { BillingDetails, CheckoutAnswer } from "../../api/contract"
import { PAYMENT_PROVIDER_TIMEOUT_MS } from "../../booking/rules"
import { Alert, SubmitButton } from "../forms"
import { Loading } from "../page"

const withTimeout = <T,>(promise: Promise<T>, ms: number) =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error instanceof Error ? error : new Error(String(error)))
      }
    )
  })

type Props = {
  readonly answer: CheckoutAnswer & { readonly clientSecret: string; readonly publishableKey: string }
  readonly billing: BillingDetails
  readonly amountLabel: string
  readonly onPaid: () => void
}

const Unreachable = ({ url, onRetry }: { url: string; onRetry: () => void }) => {
  const { t } = useLingui()
  return (
    <Alert kind="error" title={t`Prestataire de paiement injoignable`}>
      <p>{t`Le formulaire de carte n'a pas pu être chargé. Vérifiez votre connexion, réessayez, ou continuez sur la page de paiement sécurisée.`}</p>
      <div className="actions">
        <button type="button" className="button-secondary" onClick={onRetry}>
          {t`Réessayer`}
        </button>
        <button type="button" className="button" onClick={() => window.location.assign(url)}>
          {t`Continuer vers la page de paiement`}
        </button>
      </div>
    </Alert>
  )
}

const CardForm = ({ answer, billing, amountLabel, onPaid, onUnreachable }: Props & { onUnreachable: () => void }) => {
  const { t } = useLingui()
  const stripe = useStripe()
  const elements = useElements()
  const legendId = useId()
  const [ready, setReady] = useState(false)
  const [complete, setComplete] = useState(false)
  const [cardError, setCardError] = useState<string>()
  const [failure, setFailure] = useState<string>()
  const [busy, setBusy] = useState(false)
  const amount = amountLabel

  const unreachable = useRef(onUnreachable)
  unreachable.current = onUnreachable

  // The card field is an iframe from the provider: if it never becomes ready, say so.
  useEffect(() => {
    if (ready) return
    const timer = setTimeout(() => unreachable.current(), PAYMENT_PROVIDER_TIMEOUT_MS)
    return () => clearTimeout(timer)
  }, [ready])

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(undefined)
    const card = elements?.getElement(CardElement)
    if (!stripe || !card) {
      setFailure(t`Le formulaire de carte est introuvable. Rechargez la page puis réessayez.`)
      return
    }
    if (!complete) {
      setCardError(t`Veuillez saisir les informations de votre carte.`)
      return
    }
    setBusy(true)
    const billingDetails = {
      name: billing.name,
      email: billing.email,
      address: {
        line1: billing.address.line1,
        city: billing.address.city,
        postal_code: billing.address.postal_code,
        country: billing.address.country
      }
    }
    try {
      if (answer.mode === "save_card") {
        const result = await stripe.confirmCardSetup(answer.clientSecret, { payment_method: { card, billing_details: billingDetails } })
        const reason = result.error?.message ?? ""
        if (result.error) setFailure(t`Erreur de paiement : ${reason}`)
        else if (result.setupIntent.status !== "succeeded") {
          // Stripe's status (requires_payment_method...) is a code, not a sentence for the client.
          setFailure(t`Le paiement n'a pas abouti. Réessayez ou utilisez une autre carte.`)
        } else return onPaid()
      } else {
        const result = await stripe.confirmCardPayment(answer.clientSecret, { payment_method: { card, billing_details: billingDetails } })
        const reason = result.error?.message ?? ""
        // Manual capture: an authorised payment waits for capture ("requires_capture").
        if (result.error) setFailure(t`Erreur de paiement : ${reason}`)
        else if (!["requires_capture", "succeeded", "processing"].includes(result.paymentIntent.status)) {
          // Stripe's status (requires_payment_method...) is a code, not a sentence for the client.
          setFailure(t`Le paiement n'a pas abouti. Réessayez ou utilisez une autre carte.`)
        } else return onPaid()
      }
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error)
      setFailure(t`Erreur inattendue : ${detail}`)
    }
    setBusy(false)
  }

  return (
    <form className="form" noValidate onSubmit={(event) => void submit(event)}>
      {failure ? <Alert kind="error">{failure}</Alert> : null}
      <fieldset className="field card-field" aria-describedby={cardError ? `${legendId}-error` : undefined}>
        <legend id={legendId}>{t`Carte bancaire`}</legend>
        {ready ? null : <Loading label={t`Chargement du formulaire de carte…`} />}
        <div className="card-element">
          <CardElement
            options={{ hidePostalCode: true }}
            onReady={() => setReady(true)}
            onChange={(event) => {
              setComplete(event.complete)
              setCardError(event.error?.message)
            }}
          />
        </div>
        {cardError ? (
          <p className="field-error" id={`${legendId}-error`}>
            {cardError}
          </p>
        ) : null}
      </fieldset>
      <div className="actions">
        <SubmitButton busy={busy} disabled={!ready}>
          {t`Payer ${amount}`}
        </SubmitButton>
      </div>
    </form>
  )
}

/** Loads Stripe (at most ~8 s), then the card form; on failure the hosted checkout stays available. */
export default function CardPayment(props: Props) {
  const { t, i18n } = useLingui()
  const [stripe, setStripe] = useState<Stripe | null | "failed">(null)
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    let live = true
    setStripe(null)
    withTimeout(loadStripe(props.answer.publishableKey, { locale: i18n.locale === "en" ? "en" : "fr" }), PAYMENT_PROVIDER_TIMEOUT_MS).then(
      (loaded) => live && setStripe(loaded ?? "failed"),
      () => live && setStripe("failed")
    )
    return () => {
      live = false
    }
  }, [props.answer.publishableKey, attempt])

  if (stripe === "failed") return <Unreachable url={props.answer.url} onRetry={() => setAttempt((n) => n + 1)} />
  if (stripe === null) return <Loading label={t`Connexion au prestataire de paiement…`} />
  return (
    <Elements stripe={stripe} options={{ locale: i18n.locale === "en" ? "en" : "fr" }}>
      <CardForm {...props} onUnreachable={() => setStripe("failed")} />
    </Elements>
  )
}
