import { useLingui } from "@lingui/react/macro"
import { useId, useState } from "react"
import { Link, useParams } from "wouter"
import { ApiError } from "../api/client"
import type { AdminReport, ModerationAction } from "../api/contract"
import { ReportStatusBadge } from "../admin/reports"
import { useAsync } from "../components/async"
import { Alert } from "../components/forms"
import { isNotFound, Loaded } from "../components/loaded"
import { useReasonLabels } from "../components/messaging/safety"
import { Page } from "../components/page"
import { formatDateTime } from "../format"
import { moderationApi } from "../messaging/api"
import { showToast } from "../state/toasts"

/** /admin/reports/{id}: one report, the reported message as written, and the decision (issue 15). */
export default function AdminReportDetail() {
  const { t } = useLingui()
  const { id = "" } = useParams<{ id: string }>()
  const [state, reload] = useAsync(() => moderationApi.get(id).then((answer) => answer.data.report), [id])
  const [current, setCurrent] = useState<AdminReport | null>(null)
  return (
    <Loaded
      state={state}
      current={current}
      wrapLoading={(spinner) => <Page title={t`Signalement`}>{spinner}</Page>}
      failure={(error) =>
        isNotFound(error) ? (
          <Page title={t`Signalement introuvable`}>
            <p>
              <Link href="/admin/reports">{t`Retour aux signalements`}</Link>
            </p>
          </Page>
        ) : (
          <Page title={t`Signalement`}>
            <Alert kind="error" title={t`Impossible de charger ce signalement.`}>
              <button type="button" className="button-secondary" onClick={() => reload()}>
                {t`Réessayer`}
              </button>
            </Alert>
          </Page>
        )
      }
    >
      {(report) => <ReportDetail report={report} onDecided={setCurrent} />}
    </Loaded>
  )
}

const ReportDetail = ({ report, onDecided }: { report: AdminReport; onDecided: (report: AdminReport) => void }) => {
  const { t, i18n } = useLingui()
  const reasons = useReasonLabels()
  const noteId = useId()
  const [note, setNote] = useState("")
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const reported = `${report.reportedUser.firstName} ${report.reportedUser.lastName}`
  const decide = (action: ModerationAction) => {
    setBusy(true)
    setProblem(null)
    moderationApi.decide(report.id, action, note.trim() || undefined).then(
      (answer) => {
        setBusy(false)
        showToast("success", t`Décision enregistrée.`)
        onDecided(answer.data.report)
      },
      (error: unknown) => {
        setBusy(false)
        setProblem(error instanceof ApiError && error.message ? error.message : t`La décision n'a pas pu être enregistrée.`)
      }
    )
  }
  const actions: ReadonlyArray<{ action: ModerationAction; label: string; danger?: boolean }> = [
    { action: "DISMISS", label: t`Classer sans suite` },
    { action: "WARN", label: t`Avertir ${reported}` },
    ...(report.message ? [{ action: "HIDE_MESSAGE" as const, label: t`Masquer le message` }] : []),
    { action: "DEACTIVATE", label: t`Désactiver le compte`, danger: true }
  ]
  return (
    <Page title={t`Signalement`}>
      <p>
        <Link href="/admin/reports">{t`Retour aux signalements`}</Link>
      </p>
      <dl className="details">
        <dt>{t`Statut`}</dt>
        <dd>
          <ReportStatusBadge status={report.status} />
        </dd>
        <dt>{t`Date`}</dt>
        <dd>{formatDateTime(i18n.locale, report.createdAt)}</dd>
        <dt>{t`Signalé`}</dt>
        <dd>
          <Link href={`/profile/${report.reportedUser.id}`}>{reported}</Link>
          {report.reportedUser.isActive ? null : ` (${t`compte désactivé`})`}
        </dd>
        <dt>{t`Par`}</dt>
        <dd>
          {report.reporter.firstName} {report.reporter.lastName}
        </dd>
        <dt>{t`Motif`}</dt>
        <dd>{reasons[report.reason]}</dd>
        <dt>{t`Précisions`}</dt>
        <dd>{report.details || "—"}</dd>
      </dl>
      {report.message ? (
        <section aria-labelledby="reported-message">
          <h2 id="reported-message">{t`Message signalé`}</h2>
          <blockquote className="reported-message">
            <p className="message-content">{report.message.content}</p>
            <p className="message-mark">
              {formatDateTime(i18n.locale, report.message.createdAt)}
              {report.message.hidden ? ` · ${t`masqué pour les participants`}` : null}
              {report.message.maskedForRecipient ? ` · ${t`coordonnées masquées pour le destinataire`}` : null}
            </p>
          </blockquote>
        </section>
      ) : null}
      {report.status === "OPEN" ? (
        <section aria-labelledby="decision">
          <h2 id="decision">{t`Décision`}</h2>
          {problem ? (
            <Alert kind="error">
              <p>{problem}</p>
            </Alert>
          ) : null}
          <div className="field">
            <label htmlFor={noteId}>{t`Note (envoyée avec l'avertissement)`}</label>
            <textarea id={noteId} rows={2} maxLength={1000} value={note} onChange={(event) => setNote(event.target.value)} />
          </div>
          <div className="actions">
            {actions.map(({ action, label, danger }) => (
              <button
                key={action}
                type="button"
                className={danger ? "button button-danger" : "button-secondary"}
                disabled={busy}
                onClick={() => decide(action)}
              >
                {label}
              </button>
            ))}
          </div>
        </section>
      ) : (
        <p>
          {t`Décidé le`} {report.decidedAt ? formatDateTime(i18n.locale, report.decidedAt) : "—"}
          {report.decisionNote ? ` · ${report.decisionNote}` : null}
        </p>
      )}
    </Page>
  )
}
