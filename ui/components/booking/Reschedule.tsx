import { useLingui } from "@lingui/react/macro"
import { useState, type FormEvent } from "react"
import { ApiError } from "../../api/client"
import type { Booking, Reschedule } from "../../api/contract"
import { slotsApi } from "../../api/endpoints"
import { otherParty } from "../../booking/rules"
import { OUTSIDE_AVAILABILITY, SLOT_TAKEN } from "../../booking/slots"
import { formatDateTime, formatMinor } from "../../format"
import { useViewerZone } from "../../state/session"
import { Alert, DialogActions } from "../forms"
import { Modal } from "../Modal"
import { DateRange } from "./parts"
import { reasonOf } from "./ActionDialogs"
import { SlotPicker } from "./SlotPicker"

/**
 * Rescheduling (issue 12): either party proposes a new time for a booking that has not started; the
 * other accepts (the booking moves) or declines. The new time is picked among the provider's free
 * slots, as in the booking form (the booking itself left out, so the times around it are offered),
 * in the viewer's zone with the provider's beside it.
 */

/** "Propose a new time": a duration and a free slot, starting from the booked duration. */
export const RescheduleDialog = ({
  booking,
  onSubmit,
  onClose
}: {
  booking: Booking
  onSubmit: (times: { startTime: string; endTime: string }) => Promise<void>
  onClose: () => void
}) => {
  const { t } = useLingui()
  const zone = useViewerZone()
  const [duration, setDuration] = useState(booking.duration)
  const [startTime, setStartTime] = useState("")
  const [error, setError] = useState<string>()
  const [failure, setFailure] = useState<string>()
  const [round, setRound] = useState(0)
  const [busy, setBusy] = useState(false)
  const title = booking.service.title

  /** The slot was refused as no longer free: load the slots anew and say why. */
  const slotGone = (message: string) => {
    slotsApi.refresh()
    setStartTime("")
    setRound((n) => n + 1)
    setError(message)
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(undefined)
    if (startTime === "") return setError(t`Choisissez un horaire libre.`)
    setError(undefined)
    setBusy(true)
    try {
      const end = new Date(new Date(startTime).getTime() + duration * 60_000)
      await onSubmit({ startTime, endTime: end.toISOString() })
    } catch (cause) {
      setBusy(false)
      if (cause instanceof ApiError && (cause.code === SLOT_TAKEN || cause.code === OUTSIDE_AVAILABILITY))
        return slotGone(t`Cet horaire n'est plus libre. Les disponibilités sont à jour : choisissez-en un autre.`)
      const fields = cause instanceof ApiError ? cause.fieldErrors() : {}
      const fieldError = fields.startTime ?? fields.endTime
      if (fieldError) setError(fieldError)
      else {
        const text = reasonOf(cause)
        setFailure(t`La proposition a échoué : ${text}`)
      }
    }
  }

  return (
    <Modal title={t`Proposer un nouvel horaire`} onClose={onClose} wide>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <p>
          {t`Service : ${title}. Horaire actuel :`} <DateRange start={booking.startTime} end={booking.endTime} />.{" "}
          {t`L'autre partie accepte ou refuse votre proposition ; si la durée change, le total change aussi.`}
        </p>
        {failure ? <Alert kind="error">{failure}</Alert> : null}
        <SlotPicker
          source={{ bookingId: booking.id }}
          providerId={booking.providerId}
          zone={zone}
          duration={duration}
          defaultDuration={booking.duration}
          startTime={startTime}
          round={round}
          error={error}
          onDuration={setDuration}
          onStart={(chosen) => {
            setStartTime(chosen)
            if (chosen !== "") setError(undefined)
          }}
        />
        <DialogActions busy={busy} submit={t`Envoyer la proposition`} dismiss={t`Annuler`} onDismiss={onClose} />
      </form>
    </Modal>
  )
}

const useRescheduleStatus = () => {
  const { t } = useLingui()
  return (status: Reschedule["status"]) =>
    status === "OPEN"
      ? t`En attente`
      : status === "AWAITING_PAYMENT"
        ? t`Acceptée, en attente du paiement`
        : status === "ACCEPTED"
          ? t`Acceptée`
          : status === "DECLINED"
            ? t`Refusée`
            : status === "UNAVAILABLE"
              ? t`Horaire pris entre-temps`
              : t`Expirée`
}

/** The open proposal: accept or decline it (the other side), or wait for the answer (the proposer). */
export const OpenProposal = ({
  booking,
  busy,
  onAnswer
}: {
  booking: Booking
  busy: boolean
  onAnswer: (proposal: Reschedule, answer: "accept" | "decline") => void
}) => {
  const { t, i18n } = useLingui()
  const proposal = booking.openProposal
  if (!proposal) return null
  const other = otherParty(booking)
  const otherName = `${other.firstName} ${other.lastName}`
  const mine = booking.role === proposal.proposedBy
  const total = formatMinor(i18n.locale, proposal.totalMinor, booking.currency)
  const title = booking.service.title
  return (
    <div className="booking-proposal" role="region" aria-label={t`Nouvel horaire proposé`}>
      <p>
        <strong>{mine ? t`Vous proposez un nouvel horaire :` : t`${otherName} propose un nouvel horaire :`}</strong>{" "}
        <DateRange start={proposal.startTime} end={proposal.endTime} />
        {proposal.totalMinor !== proposal.previousTotalMinor ? <> ({t`nouveau total : ${total}`})</> : null}
      </p>
      {proposal.canAnswer ? (
        <div className="card-actions" role="group" aria-label={t`Répondre à la proposition`}>
          <button type="button" className="button" aria-disabled={busy || undefined} onClick={() => !busy && onAnswer(proposal, "accept")}>
            {t`Accepter le nouvel horaire`}
            <span className="sr-only"> : {title}</span>
          </button>
          <button
            type="button"
            className="button-secondary"
            aria-disabled={busy || undefined}
            onClick={() => !busy && onAnswer(proposal, "decline")}
          >
            {t`Refuser le nouvel horaire`}
            <span className="sr-only"> : {title}</span>
          </button>
        </div>
      ) : proposal.status === "AWAITING_PAYMENT" ? (
        <p className="hint" data-testid="awaiting-payment">
          {booking.role === "client"
            ? t`Accepté : autorisez le nouveau montant (${total}) avec « Payer ». La réservation sera déplacée dès qu'il sera autorisé, et le montant réservé jusqu'ici sera alors libéré.`
            : t`Accepté : la réservation sera déplacée dès que le client aura autorisé le nouveau montant (${total}).`}
        </p>
      ) : mine ? (
        <p className="hint">{t`En attente de la réponse de ${otherName}.`}</p>
      ) : null}
      {proposal.status === "OPEN" ? (
        <p className="hint">{t`Sans réponse, la proposition expire au début prévu (${formatDateTime(i18n.locale, new Date(proposal.expiresAt))}).`}</p>
      ) : null}
    </div>
  )
}

/** Every proposal to move the booking, newest first. */
export const RescheduleHistory = ({ booking }: { booking: Booking }) => {
  const { t, i18n } = useLingui()
  const statusOf = useRescheduleStatus()
  if (booking.reschedules.length === 0) return null
  return (
    <details className="booking-history">
      <summary>{t`Historique des horaires`}</summary>
      <ul>
        {booking.reschedules.map((r) => {
          const when = formatDateTime(i18n.locale, new Date(r.createdAt))
          return (
            <li key={r.id}>
              <DateRange start={r.previousStartTime} end={r.previousEndTime} /> → <DateRange start={r.startTime} end={r.endTime} /> ·{" "}
              {r.proposedBy === "client" ? t`proposé par le client le ${when}` : t`proposé par le prestataire le ${when}`} ·{" "}
              <span className="reschedule-status">{statusOf(r.status)}</span>
            </li>
          )
        })}
      </ul>
    </details>
  )
}
