// The cancellation policy (issue 13): stated before booking (service page, booking form, FAQ) with the
// figures the server is configured with, and on each booking with the terms the server computed for it
// (the UI never applies the rule itself).

import { useLingui } from "@lingui/react/macro"
import { freeCancellationUntil } from "../../../src/modules/booking/rules"
import type { Booking } from "../../api/contract"
import { cancellationPolicyApi } from "../../api/endpoints"
import { formatDateTimeIn } from "../../format"
import { useViewerZone } from "../../state/session"
import { useAsync } from "../async"
import { Alert } from "../forms"

type Policy = Awaited<ReturnType<typeof cancellationPolicyApi.get>>

/** The policy in force, once loaded (undefined while loading or when it could not be read). */
export const useCancellationPolicy = (): Policy | undefined => {
  const [state] = useAsync(() => cancellationPolicyApi.get(), [])
  return state.status === "ok" ? state.data : undefined
}

/** The whole policy in one sentence or three, from its figures. */
export const useCancellationPolicyText = () => {
  const { t } = useLingui()
  return (policy: Policy) => {
    const hours = policy.freeHours
    const percent = policy.feePercent
    return [
      t`Annulation gratuite jusqu'à ${hours} h avant le début de la prestation.`,
      t`Ensuite, si le prestataire a confirmé la réservation, des frais d'annulation tardive de ${percent} % du total sont prélevés sur le montant réservé sur votre carte, et le reste est libéré.`,
      t`Si aucun montant n'est réservé sur votre carte à ce moment-là (carte seulement enregistrée, paiement non effectué ou en attente de votre action), rien n'est prélevé.`,
      t`Une demande pas encore confirmée s'annule toujours gratuitement, et si le prestataire annule, tout vous est rendu.`
    ].join(" ")
  }
}

/**
 * The policy as a short section (service page, booking form). With the chosen slot's start, a slot
 * already inside the fee window says so first: once confirmed, cancelling it is never free.
 */
export const CancellationPolicyNote = ({ start }: { readonly start?: string | undefined }) => {
  const { t } = useLingui()
  const policy = useCancellationPolicy()
  const text = useCancellationPolicyText()
  if (!policy) return null
  const hours = policy.freeHours
  const percent = policy.feePercent
  const insideFeeWindow =
    start !== undefined &&
    start !== "" &&
    percent > 0 &&
    Date.now() >= freeCancellationUntil({ startTime: new Date(start) }, policy).getTime()
  return (
    <div className="cancellation-policy" data-testid="cancellation-policy">
      {insideFeeWindow ? (
        <Alert kind="warning">
          {t`Annulation gratuite impossible : la séance commence dans moins de ${hours} h. Une fois la réservation confirmée, l'annuler coûtera ${percent} % du total.`}
        </Alert>
      ) : null}
      <p className="field-hint">
        <strong>{t`Conditions d'annulation`}</strong> : {text(policy)}
      </p>
    </div>
  )
}

/** The booking card's line about cancelling: what it costs now, until when it is free, or the fee charged. */
export const CancellationTerms = ({ booking }: { booking: Booking }) => {
  const { t, i18n } = useLingui()
  const zone = useViewerZone()
  const terms = booking.cancellation
  let text: string | null = null
  if (booking.status === "CANCELLED" && terms.chargedMinor > 0) {
    text = t`Frais d'annulation tardive prélevés : ${terms.formattedCharged}`
  } else if (booking.role === "client" && booking.actions.includes("cancel")) {
    const until = formatDateTimeIn(i18n.locale, terms.freeUntil, zone)
    const percent = terms.feePercent
    text =
      terms.feeMinor > 0
        ? t`Annuler maintenant coûtera ${terms.formattedFee} (${percent} % du total).`
        : booking.status !== "CONFIRMED"
          ? t`Annulation gratuite tant que la réservation n'est pas confirmée.`
          : new Date(terms.freeUntil).getTime() > Date.now()
            ? t`Annulation gratuite jusqu'au ${until}.`
            : t`Annulation sans frais : aucun montant n'est réservé sur votre carte.`
  }
  if (text === null) return null
  return (
    <>
      <dt>{t`Annulation`}</dt>
      <dd data-testid="cancellation-terms">{text}</dd>
    </>
  )
}

/** The cancel dialog's sentence: the fee when late, the release otherwise. */
export const useCancelDialogText = () => {
  const { t } = useLingui()
  return (booking: Booking) =>
    booking.cancellation.feeMinor > 0
      ? t`Annuler maintenant coûtera ${booking.cancellation.formattedFee} : ces frais d'annulation tardive sont prélevés sur le montant réservé sur votre carte, le reste est libéré.`
      : t`Le montant éventuellement réservé sur la carte sera libéré, sans frais.`
}
