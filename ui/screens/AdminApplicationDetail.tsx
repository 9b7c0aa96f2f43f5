import { useLingui } from "@lingui/react/macro"
import { useId, useState } from "react"
import { Link, useParams } from "wouter"
import { ApiError } from "../api/client"
import { adminApplicationsApi } from "../api/endpoints"
import type { AdminApplication, AdminDocument } from "../api/contract"
import { useAsync } from "../components/async"
import { failureText, LoadError } from "../components/catalogue"
import { ConfirmDialog } from "../components/ConfirmDialog"
import { Alert } from "../components/forms"
import { formatFileType, formatSize, ResubmissionLabel, StatusBadge } from "../components/onboarding"
import { formatDate, shortFileName } from "../format"
import { isNotFound, Loaded } from "../components/loaded"
import { SegmentedControl } from "../components/SegmentedControl"
import { Page } from "../components/page"
import { showToast } from "../state/toasts"

type Verdict = "verified" | "rejected" | "pending"
const toVerdict = (value: boolean | null): Verdict => (value === true ? "verified" : value === false ? "rejected" : "pending")
const fromVerdict = (value: Verdict) => (value === "verified" ? true : value === "rejected" ? false : null)

const DocumentItem = ({
  document,
  pending,
  onChange
}: {
  document: AdminDocument
  /** The application is under review: a document can be asked for again. */
  pending: boolean
  onChange: (next: AdminDocument) => void
}) => {
  const { t, i18n } = useLingui()
  const id = useId()
  const [verdict, setVerdict] = useState<Verdict>(toVerdict(document.isVerified))
  const [notes, setNotes] = useState(document.notes ?? "")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const [askReason, setAskReason] = useState("")
  const [askError, setAskError] = useState<string>()
  const slots: Record<string, string> = {
    identityDocument: t`Pièce d'identité`,
    addressDocument: t`Justificatif de domicile`,
    bankDocument: t`Document bancaire`,
    profilePicture: t`Photo de profil`
  }
  const label = slots[document.slot] ?? document.slot
  const verdictLabels: Record<Verdict, string> = { verified: t`Vérifié`, rejected: t`Rejeté`, pending: t`En attente` }

  const open = async () => {
    setError(undefined)
    // The tab opens now (a popup must follow the click), the file arrives with the bearer token.
    const tab = window.open("", "_blank")
    try {
      const blob = await adminApplicationsApi.file(document.id)
      const url = URL.createObjectURL(blob)
      if (tab) tab.location.href = url
      else window.open(url, "_blank")
      setTimeout(() => URL.revokeObjectURL(url), 5000)
    } catch {
      tab?.close()
      setError(t`Impossible d'ouvrir le document`)
    }
  }

  const save = async () => {
    setBusy(true)
    setError(undefined)
    try {
      const { data } = await adminApplicationsApi.verify(document.id, fromVerdict(verdict), notes.trim())
      onChange(data.document)
      showToast("success", t`Vérification enregistrée.`)
    } catch (cause) {
      setError(cause instanceof ApiError ? cause.message || cause.code : String(cause))
    } finally {
      setBusy(false)
    }
  }

  const askAgain = async () => {
    if (!askReason.trim()) return setAskError(t`Dites au candidat ce qui ne va pas dans ce document.`)
    setBusy(true)
    setAskError(undefined)
    try {
      const { data } = await adminApplicationsApi.requestReplacement(document.id, askReason.trim())
      onChange(data.document)
      setAskReason("")
      showToast("success", t`Document redemandé : le candidat a été prévenu par email.`)
    } catch (cause) {
      setAskError(cause instanceof ApiError ? (cause.fieldErrors().reason ?? (cause.message || cause.code)) : String(cause))
    } finally {
      setBusy(false)
    }
  }

  return (
    <li className="panel document">
      <h3>{label}</h3>
      <p>
        <span title={document.fileName}>{shortFileName(document.fileName, 40)}</span> · {formatFileType(document.contentType)} ·{" "}
        {formatSize(i18n.locale, document.size)} · <strong>{verdictLabels[toVerdict(document.isVerified)]}</strong>
      </p>
      {document.replacementRequested ? (
        <Alert kind="warning">{t`Redemandé au candidat : ${document.replacementReason ?? ""}`}</Alert>
      ) : null}
      <button type="button" className="button-secondary button-small" onClick={() => void open()}>
        {t`Ouvrir le document`}
        <span className="sr-only"> : {label}</span>
      </button>
      <div className="verify">
        <SegmentedControl
          legend={t`Vérification : ${label}`}
          name={`${id}-verdict`}
          value={verdict}
          onChange={setVerdict}
          options={[
            { value: "verified", label: verdictLabels.verified, tone: "success" },
            { value: "rejected", label: verdictLabels.rejected, tone: "danger" },
            { value: "pending", label: verdictLabels.pending }
          ]}
        />
        <div className="field">
          <label htmlFor={`${id}-notes`}>{t`Notes (facultatif)`}</label>
          <textarea id={`${id}-notes`} rows={2} maxLength={1000} value={notes} onChange={(event) => setNotes(event.target.value)} />
        </div>
        <button
          type="button"
          className="button-secondary button-small"
          disabled={busy}
          aria-busy={busy || undefined}
          onClick={() => void save()}
        >
          {t`Enregistrer la vérification`}
          <span className="sr-only"> : {label}</span>
        </button>
      </div>
      {pending ? (
        <fieldset className="verify">
          <legend>{t`Document illisible ? Redemander : ${label}`}</legend>
          <div className="field">
            <label htmlFor={`${id}-ask`}>{t`Ce qui ne va pas (envoyé au candidat)`}</label>
            <textarea
              id={`${id}-ask`}
              rows={2}
              maxLength={1000}
              value={askReason}
              aria-invalid={askError ? true : undefined}
              aria-describedby={askError ? `${id}-ask-error` : undefined}
              onChange={(event) => setAskReason(event.target.value)}
            />
            {askError ? (
              <p className="field-error" id={`${id}-ask-error`}>
                {askError}
              </p>
            ) : null}
          </div>
          <button
            type="button"
            className="button-secondary button-small"
            disabled={busy}
            aria-busy={busy || undefined}
            onClick={() => void askAgain()}
          >
            {t`Redemander ce document`}
            <span className="sr-only"> : {label}</span>
          </button>
        </fieldset>
      ) : null}
      {error ? <Alert kind="error">{error}</Alert> : null}
    </li>
  )
}

const Decision = ({ application, onDone }: { application: AdminApplication; onDone: (next: AdminApplication) => void }) => {
  const { t } = useLingui()
  const [confirming, setConfirming] = useState(false)
  const [reason, setReason] = useState("")
  const [reasonError, setReasonError] = useState<string>()
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  if (application.status !== "PENDING") return null

  const approve = async () => {
    setBusy(true)
    try {
      const { data } = await adminApplicationsApi.approve(application.id)
      setConfirming(false)
      showToast("success", t`Candidature approuvée.`)
      onDone(data.application)
    } catch (cause) {
      setConfirming(false)
      setError(failureText(cause))
    } finally {
      setBusy(false)
    }
  }
  const reject = async () => {
    if (!reason.trim()) {
      setReasonError(t`Veuillez saisir un motif de refus.`)
      return
    }
    setReasonError(undefined)
    setBusy(true)
    try {
      const { data } = await adminApplicationsApi.reject(application.id, reason.trim())
      showToast("success", t`Candidature refusée.`)
      onDone(data.application)
    } catch (cause) {
      if (cause instanceof ApiError && cause.fieldErrors().rejectionReason) setReasonError(cause.fieldErrors().rejectionReason)
      else setError(failureText(cause))
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="panel decision" aria-labelledby="decision-title">
      <h2 id="decision-title">{t`Décision`}</h2>
      {error ? <Alert kind="error">{error}</Alert> : null}
      <button type="button" className="button" onClick={() => setConfirming(true)}>
        {t`Approuver la candidature`}
      </button>
      <div className="field">
        <label htmlFor="rejection-reason">{t`Motif du refus`}</label>
        <textarea
          id="rejection-reason"
          rows={3}
          maxLength={1000}
          value={reason}
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={reasonError ? "rejection-reason-error" : undefined}
          onChange={(event) => setReason(event.target.value)}
        />
        {reasonError ? (
          <p className="field-error" id="rejection-reason-error">
            {reasonError}
          </p>
        ) : null}
      </div>
      <button type="button" className="button button-danger" disabled={busy} onClick={() => void reject()}>
        {t`Refuser la candidature`}
      </button>
      {confirming ? (
        <ConfirmDialog
          title={t`Approuver cette candidature ?`}
          confirmLabel={t`Approuver`}
          busy={busy}
          onConfirm={() => void approve()}
          onCancel={() => setConfirming(false)}
        >
          <p>{t`Le candidat deviendra prestataire et recevra un email de confirmation.`}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  )
}

export default function AdminApplicationDetail() {
  const { t, i18n } = useLingui()
  const { id = "" } = useParams<{ id: string }>()
  const [state, reload] = useAsync(() => adminApplicationsApi.get(id).then((answer) => answer.data.application), [id])
  const [latest, setLatest] = useState<AdminApplication | null>(null)
  const back = (
    <p>
      <Link href="/admin/applications">{t`← Toutes les candidatures`}</Link>
    </p>
  )
  const page = (application: AdminApplication) => {
    const name = `${application.user.firstName} ${application.user.lastName}`
    return (
      <Page title={t`Candidature de ${name}`}>
        {back}
        <section className="panel">
          <h2>{t`Candidat`}</h2>
          <dl className="facts">
            <dt>{t`Email`}</dt>
            <dd>{application.user.email}</dd>
            <dt>{t`Téléphone`}</dt>
            <dd>{application.user.phoneNumber}</dd>
            <dt>{t`Date de naissance`}</dt>
            <dd>{application.dateOfBirth ?? "—"}</dd>
            <dt>{t`Envoyée le`}</dt>
            <dd>{formatDate(i18n.locale, application.submittedAt)}</dd>
            <dt>{t`Statut`}</dt>
            <dd>
              <StatusBadge status={application.status} />
            </dd>
          </dl>
          <ResubmissionLabel info={application} />
          {application.rejectionReason ? (
            <p>
              {t`Dernier motif de refus`} : {application.rejectionReason}
            </p>
          ) : null}
        </section>
        <section className="panel">
          <h2>{t`Compétences`}</h2>
          <p className="description">{application.skills}</p>
          <h2>{t`Expérience`}</h2>
          <p className="description">{application.experience}</p>
          <h2>{t`Motivation`}</h2>
          <p className="description">{application.motivation}</p>
        </section>
        <section>
          <h2>{t`Documents`}</h2>
          <ul className="documents">
            {application.documents.map((document) => (
              <DocumentItem
                key={document.id}
                document={document}
                pending={application.status === "PENDING"}
                onChange={(next) =>
                  setLatest({ ...application, documents: application.documents.map((d) => (d.id === next.id ? next : d)) })
                }
              />
            ))}
          </ul>
        </section>
        <Decision application={application} onDone={setLatest} />
      </Page>
    )
  }
  return (
    <Loaded
      state={state}
      current={latest}
      failure={(error) => (
        <Page title={t`Candidature introuvable`}>
          {back}
          {isNotFound(error) ? (
            <p>{t`Cette candidature n'existe pas.`}</p>
          ) : (
            <LoadError
              title={t`Impossible de charger la candidature`}
              subtitle={t`Veuillez réessayer.`}
              error={error}
              onRetry={() => reload()}
            />
          )}
        </Page>
      )}
    >
      {page}
    </Loaded>
  )
}
