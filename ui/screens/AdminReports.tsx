import { useLingui } from "@lingui/react/macro"
import { Link } from "wouter"
import { REPORT_STATUSES, type ReportStatus } from "../api/contract"
import { ReportStatusBadge, useReportStatusLabels } from "../admin/reports"
import { useAsync } from "../components/async"
import { AdminPager, useListQuery } from "../components/admin"
import { Loaded } from "../components/loaded"
import { useReasonLabels } from "../components/messaging/safety"
import { Page } from "../components/page"
import { DataTable } from "../components/table"
import { formatDateTime } from "../format"
import { moderationApi } from "../messaging/api"

/** /admin/reports: the moderation queue (issue 15), open reports first by default, newest first. */
export default function AdminReports() {
  const { t, i18n } = useLingui()
  const { query, setFilter, setPage, setLimit } = useListQuery({ status: "OPEN" as string }, 20)
  const [state, reload] = useAsync(
    () => moderationApi.list({ status: query.status, page: query.page, limit: query.limit }).then((answer) => answer.data),
    [query.status, query.page, query.limit]
  )
  const statusLabels = useReportStatusLabels()
  const reasons = useReasonLabels()
  return (
    <Page title={t`Signalements`}>
      <div className="filters">
        <div className="field">
          <label htmlFor="reports-status">{t`Statut`}</label>
          <select id="reports-status" value={query.status} onChange={(event) => setFilter("status", event.target.value)}>
            <option value="ALL">{t`Tous les statuts`}</option>
            {REPORT_STATUSES.map((status: ReportStatus) => (
              <option key={status} value={status}>
                {statusLabels[status]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Loaded
        state={state}
        loadingLabel={t`Chargement des signalements…`}
        errorTitle={t`Impossible de charger les signalements`}
        errorSubtitle={t`Veuillez réessayer.`}
        onRetry={() => reload()}
      >
        {(data) =>
          data.reports.length === 0 ? (
            <p className="empty-state">{t`Aucun signalement ne correspond.`}</p>
          ) : (
            <>
              <DataTable caption={t`Signalements`}>
                <thead>
                  <tr>
                    <th scope="col">{t`Date`}</th>
                    <th scope="col">{t`Signalé`}</th>
                    <th scope="col">{t`Par`}</th>
                    <th scope="col">{t`Motif`}</th>
                    <th scope="col">{t`Objet`}</th>
                    <th scope="col">{t`Statut`}</th>
                    <th scope="col">
                      <span className="sr-only">{t`Actions`}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.reports.map((report) => {
                    const reported = `${report.reportedUser.firstName} ${report.reportedUser.lastName}`
                    return (
                      <tr key={report.id} data-report-id={report.id}>
                        <td>{formatDateTime(i18n.locale, report.createdAt)}</td>
                        <td>{reported}</td>
                        <td>
                          {report.reporter.firstName} {report.reporter.lastName}
                        </td>
                        <td>{reasons[report.reason]}</td>
                        <td>{report.messageId ? t`Message` : t`Profil`}</td>
                        <td>
                          <ReportStatusBadge status={report.status} />
                        </td>
                        <td>
                          <Link href={`/admin/reports/${report.id}`}>
                            {t`Examiner`}
                            <span className="sr-only"> : {reported}</span>
                          </Link>
                        </td>
                      </tr>
                    )
                  })}
                </tbody>
              </DataTable>
              <AdminPager pagination={data.pagination} onPage={setPage} onLimit={setLimit} />
            </>
          )
        }
      </Loaded>
    </Page>
  )
}
