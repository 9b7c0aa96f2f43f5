import { useLingui } from "@lingui/react/macro"
import { useState, type FormEvent } from "react"
import { ApiError } from "../../api/client"
import { checkReview, COMMENT_MAX, DEFAULT_RATING, REASON_MAX } from "../../booking/rules"
import { failureText } from "../catalogue"
import { Alert, DialogActions, TextArea, useFocusFirstInvalid } from "../forms"
import { Modal } from "../Modal"
import { StarInput } from "./parts"

/** The server's message of a failed call (or its code, or the raw error). */
export const reasonOf = (error: unknown) => (error instanceof ApiError ? error.message || error.code : failureText(error))

/** Reject: a required reason (spec section 4). */
export const RejectDialog = ({
  title,
  onSubmit,
  onClose
}: {
  title: string
  onSubmit: (reason: string) => Promise<void>
  onClose: () => void
}) => {
  const { t } = useLingui()
  const [reason, setReason] = useState("")
  const [error, setError] = useState<string>()
  const [failure, setFailure] = useState<string>()
  const [busy, setBusy] = useState(false)
  const form = useFocusFirstInvalid(error)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(undefined)
    if (reason.trim() === "") {
      setError(t`Veuillez indiquer le motif du refus.`)
      return
    }
    setError(undefined)
    setBusy(true)
    try {
      await onSubmit(reason.trim())
    } catch (cause) {
      setBusy(false)
      const detail = cause instanceof ApiError ? cause.fieldErrors().reason : undefined
      if (detail) setError(detail)
      else {
        const text = reasonOf(cause)
        setFailure(t`Erreur lors du refus : ${text}`)
      }
    }
  }

  return (
    <Modal title={t`Refuser la réservation`} onClose={onClose}>
      <form ref={form} className="form" noValidate onSubmit={(event) => void submit(event)}>
        <p>{t`Service : ${title}. Le client sera prévenu et le montant éventuellement réservé sur sa carte sera libéré.`}</p>
        {failure ? <Alert kind="error">{failure}</Alert> : null}
        <TextArea
          label={t`Motif du refus`}
          name="reason"
          value={reason}
          onChange={setReason}
          error={error}
          rows={4}
          maxLength={REASON_MAX}
        />
        <DialogActions busy={busy} submit={t`Refuser la réservation`} dismiss={t`Annuler`} onDismiss={onClose} />
      </form>
    </Modal>
  )
}

/** Confirm reception: a rating of 1 to 5 (default 5) and a required comment (spec section 5). */
export const CompletionDialog = ({
  title,
  onSubmit,
  onClose
}: {
  title: string
  onSubmit: (rating: number, comment: string) => Promise<void>
  onClose: () => void
}) => {
  const { t } = useLingui()
  const [rating, setRating] = useState(DEFAULT_RATING)
  const [comment, setComment] = useState("")
  const [errors, setErrors] = useState<{ rating?: string; comment?: string }>({})
  const [failure, setFailure] = useState<string>()
  const [busy, setBusy] = useState(false)
  const form = useFocusFirstInvalid(errors)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(undefined)
    const problems = checkReview(rating, comment)
    const next: { rating?: string; comment?: string } = {}
    if (problems.rating) next.rating = t`La note doit être entre 1 et 5 étoiles`
    if (problems.comment === "required") next.comment = t`Veuillez laisser un commentaire`
    else if (problems.comment) next.comment = t`Ce texte est trop long.`
    setErrors(next)
    if (next.rating || next.comment) return
    setBusy(true)
    try {
      await onSubmit(rating, comment.trim())
    } catch (cause) {
      setBusy(false)
      const fields = cause instanceof ApiError ? cause.fieldErrors() : {}
      if (fields.rating || fields.comment) setErrors({ rating: fields.rating, comment: fields.comment })
      const text = reasonOf(cause)
      setFailure(t`Erreur lors de la confirmation de réception : ${text}`)
    }
  }

  return (
    <Modal title={t`Confirmer la réception du service`} onClose={onClose}>
      <form ref={form} className="form" noValidate onSubmit={(event) => void submit(event)}>
        <p>{t`Service : ${title}. Votre avis est publié sur la page du service et le paiement est alors versé au prestataire.`}</p>
        {failure ? <Alert kind="error">{failure}</Alert> : null}
        <StarInput value={rating} onChange={setRating} error={errors.rating} />
        <TextArea
          label={t`Commentaire`}
          name="comment"
          value={comment}
          onChange={setComment}
          error={errors.comment}
          rows={4}
          maxLength={COMMENT_MAX}
        />
        <DialogActions busy={busy} submit={t`Confirmer la réception`} dismiss={t`Annuler`} onDismiss={onClose} />
      </form>
    </Modal>
  )
}
