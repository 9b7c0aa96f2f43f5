import { plural } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { useState } from "react"
import { Link } from "wouter"
import { adminApplicationsApi } from "../api/endpoints"
import { useAsync } from "../components/async"
import { Loaded, Pager } from "../components/catalogue"
import { ResubmissionLabel, StatusBadge } from "../components/onboarding"
import { formatDate } from "../format"
import { Page } from "../components/page"
import { DataTable } from "../components/table"

const STATUSES = ["ALL", "PENDING", "APPROVED", "REJECTED"] as const

export default function AdminApplications() {
  const { t, i18n } = useLingui()
  const [search, setSearch] = useState("")
  const [query, setQuery] = useState("")
  const [status, setStatus] = useState<(typeof STATUSES)[number]>("ALL")
  const [page, setPage] = useState(1)
  const [state, reload] = useAsync(
    () =>
      adminApplicationsApi.list({ search: query, status: status === "ALL" ? "" : status, page, limit: 20 }).then((answer) => answer.data),
    [query, status, page]
  )
  const statusLabels = { ALL: t`Tous les statuts`, PENDING: t`En attente`, APPROVED: t`Approuvées`, REJECTED: t`Refusées` }
  return (
    <Page title={t`Candidatures prestataires`}>
      <form
        className="filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault()
          setPage(1)
          setQuery(search.trim())
        }}
      >
        <div className="field">
          <label htmlFor="applications-search">{t`Rechercher un candidat`}</label>
          <input id="applications-search" type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="applications-status">{t`Statut`}</label>
          <select
            id="applications-status"
            value={status}
            onChange={(event) => {
              setPage(1)
              setStatus(event.target.value as (typeof STATUSES)[number])
            }}
          >
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {statusLabels[value]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button-secondary">
          {t`Rechercher`}
        </button>
      </form>
      <Loaded
        state={state}
        errorTitle={t`Impossible de charger les candidatures`}
        errorSubtitle={t`Veuillez réessayer.`}
        onRetry={() => reload()}
      >
        {(data) =>
          data.applications.length === 0 ? (
            <p className="empty-state">{t`Aucune candidature ne correspond.`}</p>
          ) : (
            <>
              <p>{plural(data.pagination.total, { one: "# candidature", other: "# candidatures" })}</p>
              <DataTable caption={t`Candidatures prestataires`}>
                <thead>
                  <tr>
                    <th scope="col">{t`Candidat`}</th>
                    <th scope="col">{t`Email`}</th>
                    <th scope="col">{t`Téléphone`}</th>
                    <th scope="col">{t`Statut`}</th>
                    <th scope="col">{t`Date`}</th>
                    <th scope="col">{t`Documents`}</th>
                    <th scope="col">
                      <span className="sr-only">{t`Actions`}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.applications.map((row) => {
                    const name = `${row.user.firstName} ${row.user.lastName}`
                    return (
                      <tr key={row.id}>
                        <td>{name}</td>
                        <td>{row.user.email}</td>
                        <td>{row.user.phoneNumber}</td>
                        <td>
                          <StatusBadge status={row.status} />
                          <ResubmissionLabel info={row} />
                        </td>
                        <td>{formatDate(i18n.locale, row.submittedAt ?? row.createdAt)}</td>
                        <td>{row.documentCount}</td>
                        <td>
                          <Link href={`/admin/applications/${row.id}`}>
                            {t`Voir`}
                            <span className="sr-only"> : {name}</span>
                          </Link>
                        </td>
                      </tr>
                    )
                  })}
                </tbody>
              </DataTable>
              <Pager page={data.pagination.page} pages={data.pagination.pages} onPage={setPage} />
            </>
          )
        }
      </Loaded>
    </Page>
  )
}
