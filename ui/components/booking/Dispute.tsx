// Disputes (issue 13): the client's report of a problem after "service rendered", the thread both
// parties and administrators write in, and the administrator's decision. The server decides everything
// (who may write, amounts); these forms only gather the input and show its answers.

import type { MessageDescriptor } from "@lingui/core"
import { msg } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { useEffect, useId, useState, type FormEvent } from "react"
import { adminApi } from "../../api/admin"
import { ApiError } from "../../api/client"
import {
  type Booking,
  DISPUTE_DESCRIPTION_MAX,
  DISPUTE_FILES_MAX,
  DISPUTE_MESSAGE_MAX,
  DISPUTE_NOTE_MAX,
  DISPUTE_OUTCOMES,
  DISPUTE_REASONS,
  type Dispute,
  type DisputeOutcome,
  type DisputeReason
} from "../../api/contract"
import { bookingsApi } from "../../api/endpoints"
import { shortFileName, toMinor } from "../../format"
import { Alert, DialogActions, SelectField, TextArea } from "../forms"
import { Modal } from "../Modal"
import { reasonOf } from "./ActionDialogs"

export const disputeReasonLabels: Record<DisputeReason, MessageDescriptor> = {
  NOT_DONE: msg`Prestation non réalisée`,
  PARTLY_DONE: msg`Prestation réalisée en partie`,
  QUALITY: msg`Qualité insuffisante`,
  OTHER: msg`Autre problème`
}

export const disputeOutcomeLabels: Record<DisputeOutcome, MessageDescriptor> = {
  CAPTURE_ALL: msg`Encaisser tout le montant`,
  CAPTURE_PART: msg`Encaisser une partie du montant`,
  RELEASE: msg`Tout libérer (aucun débit)`
}

/** The form's files (photos or PDF), at most DISPUTE_FILES_MAX, appended as file1..file3. */
const FilesField = ({ files, onChange }: { files: ReadonlyArray<File>; onChange: (files: ReadonlyArray<File>) => void }) => {
  const { t } = useLingui()
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{t`Photos ou PDF (facultatif, ${DISPUTE_FILES_MAX} au plus, 5 Mo chacun)`}</label>
      <input
        id={id}
        name="files"
        type="file"
        multiple
        accept="image/jpeg,image/png,application/pdf"
        onChange={(event) => onChange(Array.from(event.target.files ?? []).slice(0, DISPUTE_FILES_MAX))}
      />
      {files.length > 0 ? <p className="hint">{files.map((f) => f.name).join(", ")}</p> : null}
    </div>
  )
}

const withFiles = (form: FormData, files: ReadonlyArray<File>) => {
  files.forEach((file, index) => form.append(`file${index + 1}`, file))
  return form
}

/** The client's report: a reason, a description, optional files. */
export const ReportProblemDialog = ({
  booking,
  onDone,
  onClose
}: {
  booking: Booking
  onDone: (answer: { data: { booking: Booking } }) => void
  onClose: () => void
}) => {
  const { t, i18n } = useLingui()
  const [reason, setReason] = useState("")
  const [description, setDescription] = useState("")
  const [files, setFiles] = useState<ReadonlyArray<File>>([])
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<string>()
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(undefined)
    const problems: Record<string, string> = {}
    if (reason === "") problems.reason = t`Choisissez un motif.`
    if (description.trim() === "") problems.description = t`Décrivez le problème.`
    setErrors(problems)
    if (Object.keys(problems).length > 0) return
    setBusy(true)
    try {
      const form = new FormData()
      form.append("reason", reason)
      form.append("description", description.trim())
      onDone(await bookingsApi.reportProblem(booking.id, withFiles(form, files)))
    } catch (cause) {
      setBusy(false)
      const fields = cause instanceof ApiError ? cause.fieldErrors() : {}
      if (Object.keys(fields).length > 0) setErrors(fields)
      else setFailure(reasonOf(cause))
    }
  }

  return (
    <Modal title={t`Signaler un problème`} onClose={onClose}>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <p>{t`Service : ${booking.service.title}. Aucun montant ne sera débité avant la décision de notre équipe ; le prestataire sera prévenu.`}</p>
        {failure ? <Alert kind="error">{failure}</Alert> : null}
        <SelectField
          label={t`Motif`}
          name="reason"
          value={reason}
          onChange={setReason}
          placeholder={t`Choisissez un motif`}
          options={DISPUTE_REASONS.map((r) => ({ value: r, label: i18n._(disputeReasonLabels[r]) }))}
          error={errors.reason}
        />
        <TextArea
          label={t`Description du problème`}
          name="description"
          value={description}
          onChange={setDescription}
          error={errors.description}
          rows={5}
          maxLength={DISPUTE_DESCRIPTION_MAX}
        />
        <FilesField files={files} onChange={setFiles} />
        {(errors.file1 ?? errors.file2 ?? errors.file3) ? <Alert kind="error">{errors.file1 ?? errors.file2 ?? errors.file3}</Alert> : null}
        <DialogActions busy={busy} submit={t`Envoyer le signalement`} dismiss={t`Annuler`} onDismiss={onClose} />
      </form>
    </Modal>
  )
}

/** What the booking card says of its dispute: the reason, and once decided, the amount kept and the note. */
export const DisputeSummary = ({ booking }: { booking: Booking }) => {
  const { t, i18n } = useLingui()
  const d = booking.dispute
  if (!d) return null
  return (
    <div className="dispute-summary" data-testid="dispute-summary">
      <p>
        <strong>{d.status === "OPEN" ? t`Litige en cours` : t`Litige tranché`}</strong> : {i18n._(disputeReasonLabels[d.reason])}
      </p>
      {d.status === "RESOLVED" ? (
        <>
          <p>
            {t`Décision`} : {d.outcome ? i18n._(disputeOutcomeLabels[d.outcome]) : ""} ({t`montant encaissé`} : {d.formattedKept})
          </p>
          <p className="dispute-note">
            {t`Note de l'équipe`} : {d.note}
          </p>
        </>
      ) : null}
    </div>
  )
}

const openFile = async (url: string, onError: () => void) => {
  // The tab opens now (a popup must follow the click), the file arrives with the bearer token.
  const tab = window.open("", "_blank")
  try {
    const blob = await bookingsApi.disputeFile(url)
    const objectUrl = URL.createObjectURL(blob)
    if (tab) tab.location.href = objectUrl
    else window.open(objectUrl, "_blank")
    setTimeout(() => URL.revokeObjectURL(objectUrl), 5000)
  } catch {
    tab?.close()
    onError()
  }
}

/**
 * The dispute's thread: the report and its files, every message with its files, a message form while
 * the dispute is open, and for administrators the decision form.
 */
export const DisputePanel = ({
  booking,
  admin = false,
  onResolved
}: {
  booking: { id: string; currency: string; authorizedMinor?: number; totalMinor: number }
  admin?: boolean
  onResolved?: () => void
}) => {
  const { t, i18n } = useLingui()
  const [dispute, setDispute] = useState<Dispute>()
  const [loadError, setLoadError] = useState<string>()
  const [body, setBody] = useState("")
  const [files, setFiles] = useState<ReadonlyArray<File>>([])
  const [messageError, setMessageError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const [fileError, setFileError] = useState<string>()

  useEffect(() => {
    let live = true
    bookingsApi.dispute(booking.id).then(
      (answer) => live && setDispute(answer.data.dispute),
      (cause) => live && setLoadError(reasonOf(cause))
    )
    return () => {
      live = false
    }
  }, [booking.id])

  if (loadError) return <Alert kind="error">{loadError}</Alert>
  if (!dispute) return <p aria-busy="true">{t`Chargement du litige…`}</p>

  const send = async (event: FormEvent) => {
    event.preventDefault()
    setMessageError(undefined)
    if (body.trim() === "" && files.length === 0) {
      setMessageError(t`Écrivez un message ou joignez un fichier.`)
      return
    }
    setBusy(true)
    try {
      const form = new FormData()
      if (body.trim() !== "") form.append("body", body.trim())
      const answer = await bookingsApi.addDisputeMessage(booking.id, withFiles(form, files))
      setDispute(answer.data.dispute)
      setBody("")
      setFiles([])
    } catch (cause) {
      setMessageError(reasonOf(cause))
    } finally {
      setBusy(false)
    }
  }

  const fileLinks = (list: Dispute["files"]) =>
    list.length > 0 ? (
      <ul className="dispute-files">
        {list.map((f) => (
          <li key={f.id}>
            <button
              type="button"
              className="button-ghost"
              title={f.fileName}
              onClick={() => void openFile(f.url, () => setFileError(t`Impossible d'ouvrir le fichier`))}
            >
              {shortFileName(f.fileName, 30)}
            </button>
          </li>
        ))}
      </ul>
    ) : null
  const authorLabel = (author: "client" | "provider" | "admin") =>
    author === "client" ? t`Client` : author === "provider" ? t`Prestataire` : t`Équipe`

  return (
    <section className="dispute-panel" aria-label={t`Litige`} data-testid="dispute-panel">
      <h3>{t`Litige`}</h3>
      {fileError ? <Alert kind="error">{fileError}</Alert> : null}
      <p>
        <strong>{i18n._(disputeReasonLabels[dispute.reason])}</strong> — {new Date(dispute.openedAt).toLocaleString(i18n.locale)}
      </p>
      <p className="dispute-description">{dispute.description}</p>
      {fileLinks(dispute.files)}
      <ol className="dispute-thread">
        {dispute.messages.map((m) => (
          <li key={m.id}>
            <p className="dispute-author">
              {authorLabel(m.author)} · {m.authorName} · {new Date(m.createdAt).toLocaleString(i18n.locale)}
            </p>
            {m.body ? <p>{m.body}</p> : null}
            {fileLinks(m.files)}
          </li>
        ))}
      </ol>
      {dispute.status === "RESOLVED" ? (
        <Alert kind="info" title={t`Décision`}>
          {dispute.outcome ? i18n._(disputeOutcomeLabels[dispute.outcome]) : ""} ({t`montant encaissé`} : {dispute.formattedKept}).{" "}
          {t`Note de l'équipe`} : {dispute.note}
        </Alert>
      ) : null}
      {dispute.canWrite ? (
        <form className="form" noValidate onSubmit={(event) => void send(event)}>
          {messageError ? <Alert kind="error">{messageError}</Alert> : null}
          <TextArea
            label={t`Ajouter un message`}
            name="body"
            value={body}
            onChange={setBody}
            required={false}
            rows={3}
            maxLength={DISPUTE_MESSAGE_MAX}
          />
          <FilesField files={files} onChange={setFiles} />
          <button type="submit" className="button-secondary" aria-disabled={busy || undefined}>
            {t`Envoyer le message`}
          </button>
        </form>
      ) : null}
      {admin && dispute.status === "OPEN" ? <ResolveForm booking={booking} onResolved={onResolved} /> : null}
    </section>
  )
}

/** The administrator's decision: an outcome, an amount for a partial capture (in major units here, sent in minor units), a note. */
const ResolveForm = ({
  booking,
  onResolved
}: {
  booking: { id: string; currency: string; authorizedMinor?: number; totalMinor: number }
  onResolved?: (() => void) | undefined
}) => {
  const { t, i18n } = useLingui()
  const [outcome, setOutcome] = useState("")
  const [amount, setAmount] = useState("")
  const [note, setNote] = useState("")
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<string>()
  const [busy, setBusy] = useState(false)
  const amountId = useId()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(undefined)
    const problems: Record<string, string> = {}
    if (outcome === "") problems.outcome = t`Choisissez une décision.`
    const major = Number(amount.replace(",", "."))
    if (outcome === "CAPTURE_PART" && (amount.trim() === "" || !Number.isFinite(major) || major <= 0))
      problems.amountMinor = t`Indiquez le montant à encaisser.`
    if (note.trim() === "") problems.note = t`Une note est requise : les deux parties la verront.`
    setErrors(problems)
    if (Object.keys(problems).length > 0) return
    setBusy(true)
    try {
      await adminApi.resolveDispute(booking.id, {
        outcome,
        ...(outcome === "CAPTURE_PART" ? { amountMinor: toMinor(major, booking.currency) } : {}),
        note: note.trim()
      })
      onResolved?.()
    } catch (cause) {
      const fields = cause instanceof ApiError ? cause.fieldErrors() : {}
      if (Object.keys(fields).length > 0) setErrors(fields)
      else setFailure(reasonOf(cause))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="form dispute-decision" noValidate onSubmit={(event) => void submit(event)}>
      <h4>{t`Trancher le litige`}</h4>
      {failure ? <Alert kind="error">{failure}</Alert> : null}
      <SelectField
        label={t`Décision`}
        name="outcome"
        value={outcome}
        onChange={setOutcome}
        placeholder={t`Choisissez une décision`}
        options={DISPUTE_OUTCOMES.map((o) => ({ value: o, label: i18n._(disputeOutcomeLabels[o]) }))}
        error={errors.outcome}
      />
      {outcome === "CAPTURE_PART" ? (
        <div className="field">
          <label htmlFor={amountId}>{t`Montant à encaisser (${booking.currency})`}</label>
          <input
            id={amountId}
            name="amount"
            inputMode="decimal"
            value={amount}
            aria-invalid={errors.amountMinor ? true : undefined}
            onChange={(event) => setAmount(event.target.value)}
          />
          {errors.amountMinor ? <p className="field-error">{errors.amountMinor}</p> : null}
        </div>
      ) : null}
      <TextArea
        label={t`Note aux deux parties`}
        name="note"
        value={note}
        onChange={setNote}
        error={errors.note}
        rows={3}
        maxLength={DISPUTE_NOTE_MAX}
      />
      <button type="submit" className="button" aria-disabled={busy || undefined}>
        {t`Enregistrer la décision`}
      </button>
    </form>
  )
}
