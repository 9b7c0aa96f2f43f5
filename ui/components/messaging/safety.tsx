import { useLingui } from "@lingui/react/macro"
import { useId, useState } from "react"
import { ApiError } from "../../api/client"
import { REPORT_REASONS, type ReportReason } from "../../api/contract"
import { safetyApi } from "../../messaging/api"
import { Alert } from "../forms"

// Safety between strangers (issue 15): the privacy note, the marks of masked and hidden messages,
// blocking and reporting. Shared by the conversation dialog and the public profile.

const failureText = (error: unknown, fallback: string) => (error instanceof ApiError && error.message ? error.message : fallback)

/** Why contact details are masked: shown in a conversation whose two members have no booking agreed yet. */
export const PrivacyNote = () => {
  const { t } = useLingui()
  return (
    <p className="privacy-note" role="note">
      {t`Pour votre sécurité, les coordonnées (téléphone, adresse e-mail, liens vers d'autres messageries) sont masquées tant qu'aucune réservation n'est confirmée entre vous. Échangez et payez sur la plateforme : vous restez protégés.`}
    </p>
  )
}

/** The mark under a message: masked for me, masked for the other side, or hidden by moderation. */
export const MessageMark = ({
  message,
  otherName
}: {
  message: { readonly masked: boolean; readonly maskedForRecipient: boolean; readonly hidden: boolean }
  otherName: string
}) => {
  const { t } = useLingui()
  if (message.hidden) return <p className="message-mark">{t`Message masqué par la modération.`}</p>
  if (message.masked) return <p className="message-mark">{t`Des coordonnées ont été masquées dans ce message.`}</p>
  if (message.maskedForRecipient)
    return <p className="message-mark">{t`Coordonnées masquées pour ${otherName} jusqu'à une réservation confirmée.`}</p>
  return null
}

export const useReasonLabels = (): Record<ReportReason, string> => {
  const { t } = useLingui()
  return {
    SPAM: t`Contenu indésirable (spam)`,
    HARASSMENT: t`Harcèlement`,
    INAPPROPRIATE: t`Contenu inapproprié`,
    SCAM: t`Arnaque`,
    OFF_PLATFORM: t`Propose de traiter ou de payer hors de la plateforme`,
    OTHER: t`Autre`
  }
}

/** A report of a message or a profile: a reason from the list and optional details. */
export const ReportForm = ({
  target,
  onDone,
  onCancel
}: {
  target: { readonly messageId: string } | { readonly userId: string }
  /** Called with the server's words: thanks, or that this was already reported and is being reviewed. */
  onDone: (message: string) => void
  onCancel: () => void
}) => {
  const { t } = useLingui()
  const labels = useReasonLabels()
  const reasonId = useId()
  const detailsId = useId()
  const [reason, setReason] = useState<ReportReason | "">("")
  const [details, setDetails] = useState("")
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = () => {
    if (reason === "") return setError(t`Choisissez un motif.`)
    setBusy(true)
    setError(null)
    safetyApi.report({ reason, ...(details.trim() ? { details: details.trim() } : {}), ...target }).then(
      (answer) => onDone(answer.message ?? t`Merci : votre signalement sera examiné par notre équipe.`),
      (cause: unknown) => {
        setBusy(false)
        setError(failureText(cause, t`Le signalement n'a pas pu être envoyé.`))
      }
    )
  }
  return (
    <form
      className="report-form"
      aria-label={"messageId" in target ? t`Signaler ce message` : t`Signaler ce profil`}
      onSubmit={(event) => {
        event.preventDefault()
        submit()
      }}
    >
      <div className="field">
        <label htmlFor={reasonId}>{t`Motif du signalement`}</label>
        <select id={reasonId} name="reason" value={reason} onChange={(event) => setReason(event.target.value as ReportReason)}>
          <option value="">{t`Choisissez un motif`}</option>
          {REPORT_REASONS.map((value) => (
            <option key={value} value={value}>
              {labels[value]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={detailsId}>{t`Précisions (facultatif)`}</label>
        <textarea
          id={detailsId}
          name="details"
          rows={2}
          maxLength={1000}
          value={details}
          onChange={(event) => setDetails(event.target.value)}
        />
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" className="button" disabled={busy} aria-busy={busy || undefined}>
          {t`Envoyer le signalement`}
        </button>
        <button type="button" className="button-secondary" onClick={onCancel}>
          {t`Annuler`}
        </button>
      </div>
    </form>
  )
}

/** "Block X" with an inline confirmation; `onBlocked` once the server recorded it. */
export const BlockAction = ({ userId, name, onBlocked }: { userId: string; name: string; onBlocked?: () => void }) => {
  const { t } = useLingui()
  const [state, setState] = useState<"idle" | "confirming" | "busy" | "blocked">("idle")
  const [error, setError] = useState<string | null>(null)
  if (state === "blocked")
    return (
      <Alert kind="success">
        <p>{t`Vous avez bloqué ${name}. Vous pouvez le débloquer depuis vos paramètres.`}</p>
      </Alert>
    )
  if (state === "idle")
    return (
      <button type="button" className="button-secondary button-small" onClick={() => setState("confirming")}>
        {t`Bloquer ${name}`}
      </button>
    )
  const confirm = () => {
    setState("busy")
    setError(null)
    safetyApi.block(userId).then(
      () => {
        setState("blocked")
        onBlocked?.()
      },
      (cause: unknown) => {
        setState("confirming")
        setError(failureText(cause, t`Le blocage a échoué.`))
      }
    )
  }
  return (
    <div className="block-confirm" role="group" aria-label={t`Bloquer ${name}`}>
      <p>{t`Bloquer ${name} ? Aucun de vous deux ne pourra plus écrire à l'autre. Vos réservations en cours ne changent pas.`}</p>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="actions">
        <button type="button" className="button button-danger button-small" onClick={confirm} disabled={state === "busy"}>
          {t`Confirmer le blocage`}
        </button>
        <button type="button" className="button-secondary button-small" onClick={() => setState("idle")}>
          {t`Annuler`}
        </button>
      </div>
    </div>
  )
}

/** In place of the send box of a conversation blocked either way: why nobody can write, and what to do. */
export const BlockedNotice = ({ state, name }: { state: "BY_ME" | "BY_OTHER"; name: string }) => {
  const { t } = useLingui()
  return (
    <Alert kind="info" title={state === "BY_ME" ? t`Vous avez bloqué ${name}` : t`Conversation fermée`}>
      <p>
        {state === "BY_ME"
          ? t`Ni vous ni ${name} ne pouvez écrire ici. Débloquez cette personne depuis vos paramètres pour reprendre la conversation.`
          : t`Vous ne pouvez plus écrire à ${name}.`}
      </p>
    </Alert>
  )
}

/** "Report this profile" with its form inline (public profiles). */
export const ReportProfileAction = ({ userId }: { userId: string }) => {
  const { t } = useLingui()
  const [state, setState] = useState<"idle" | "open" | { readonly sent: string }>("idle")
  if (typeof state === "object")
    return (
      <Alert kind="success">
        <p>{state.sent}</p>
      </Alert>
    )
  if (state === "idle")
    return (
      <button type="button" className="button-secondary button-small" onClick={() => setState("open")}>
        {t`Signaler ce profil`}
      </button>
    )
  return <ReportForm target={{ userId }} onDone={(sent) => setState({ sent })} onCancel={() => setState("idle")} />
}
