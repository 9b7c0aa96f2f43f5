import { useLingui } from "@lingui/react/macro"
import { useState } from "react"
import { Link } from "wouter"
import { adminApi } from "../api/admin"
import { AUDIT_ACTIONS, AUDIT_SUBJECT_TYPES, type AuditEntry } from "../api/contract"
import { auditActionLabels, auditSubjectLabels } from "../admin/labels"
import { useAsync } from "../components/async"
import { AdminPager, useListQuery } from "../components/admin"
import { Loaded } from "../components/loaded"
import { Page } from "../components/page"
import { DataTable } from "../components/table"
import { formatDateTime } from "../format"

/** Where a subject is shown in the back-office, when it has a page there. */
const subjectHref = (entry: AuditEntry) =>
  entry.subjectType === "BOOKING"
    ? `/admin/bookings/${entry.subjectId}`
    : entry.subjectType === "APPLICATION"
      ? `/admin/applications/${entry.subjectId}`
      : entry.subjectType === "REPORT"
        ? `/admin/reports/${entry.subjectId}`
        : entry.subjectType === "EXCHANGE_RATES"
          ? "/admin/rates"
          : undefined

const json = (value: unknown) => (value === null ? "—" : JSON.stringify(value))

/**
 * /admin/audit (issue 13 item 4): every administrator's decision, newest first, filtered by action,
 * actor (id or email), subject and days (UTC), paged like every admin list.
 */
export default function AdminAudit() {
  const { t, i18n } = useLingui()
  const { query, setFilter, setPage, setLimit } = useListQuery(
    { action: "ALL", subjectType: "ALL", subjectId: "", actor: "", from: "", to: "" } as Record<string, string>,
    50
  )
  // Text filters apply when the form is sent (not at each key).
  const [actor, setActor] = useState("")
  const [subjectId, setSubjectId] = useState("")
  const [state, reload] = useAsync(
    () =>
      adminApi
        .audit({
          action: query.action,
          subjectType: query.subjectType,
          subjectId: query.subjectId,
          actor: query.actor,
          from: query.from,
          to: query.to,
          page: query.page,
          limit: query.limit
        })
        .then((answer) => answer.data),
    [query.action, query.subjectType, query.subjectId, query.actor, query.from, query.to, query.page, query.limit]
  )
  return (
    <Page title={t`Journal d'audit`}>
      <form
        className="filters"
        onSubmit={(event) => {
          event.preventDefault()
          setFilter("actor", actor.trim())
          setFilter("subjectId", subjectId.trim())
        }}
      >
        <div className="field">
          <label htmlFor="audit-action">{t`Action`}</label>
          <select id="audit-action" value={query.action} onChange={(event) => setFilter("action", event.target.value)}>
            <option value="ALL">{t`Toutes les actions`}</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {i18n._(auditActionLabels[action]!)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-subject-type">{t`Objet`}</label>
          <select id="audit-subject-type" value={query.subjectType} onChange={(event) => setFilter("subjectType", event.target.value)}>
            <option value="ALL">{t`Tous les objets`}</option>
            {AUDIT_SUBJECT_TYPES.map((type) => (
              <option key={type} value={type}>
                {i18n._(auditSubjectLabels[type]!)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-subject-id">{t`Identifiant de l'objet`}</label>
          <input id="audit-subject-id" value={subjectId} onChange={(event) => setSubjectId(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="audit-actor">{t`Administrateur (email ou identifiant)`}</label>
          <input id="audit-actor" value={actor} onChange={(event) => setActor(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="audit-from">{t`Du`}</label>
          <input id="audit-from" type="date" value={query.from} onChange={(event) => setFilter("from", event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="audit-to">{t`Au`}</label>
          <input id="audit-to" type="date" value={query.to} onChange={(event) => setFilter("to", event.target.value)} />
        </div>
        <button type="submit" className="button">{t`Filtrer`}</button>
      </form>
      <Loaded
        state={state}
        loadingLabel={t`Chargement du journal…`}
        errorTitle={t`Impossible de charger le journal d'audit`}
        errorSubtitle={t`Vérifiez les filtres puis réessayez.`}
        onRetry={() => reload()}
      >
        {(data) =>
          data.entries.length === 0 ? (
            <p className="empty-state">{t`Aucune décision ne correspond.`}</p>
          ) : (
            <>
              <DataTable caption={t`Journal d'audit`}>
                <thead>
                  <tr>
                    <th scope="col">{t`Date`}</th>
                    <th scope="col">{t`Action`}</th>
                    <th scope="col">{t`Par`}</th>
                    <th scope="col">{t`Objet`}</th>
                    <th scope="col">{t`Avant`}</th>
                    <th scope="col">{t`Après`}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.entries.map((entry) => {
                    const href = subjectHref(entry)
                    // Exchange rates are named by their currencies ("CAD,USD"), exports by their action alone, the rest by an id's start.
                    const shortId =
                      entry.subjectType === "EXCHANGE_RATES"
                        ? entry.subjectId
                        : entry.subjectType === "EXPORT"
                          ? ""
                          : entry.subjectId.slice(0, 8)
                    const subject = `${i18n._(auditSubjectLabels[entry.subjectType]!)} ${shortId}`.trim()
                    return (
                      <tr key={entry.id} data-audit-action={entry.action} data-subject-id={entry.subjectId}>
                        <td>{formatDateTime(i18n.locale, entry.createdAt)}</td>
                        <td>{i18n._(auditActionLabels[entry.action]!)}</td>
                        <td>
                          {entry.actor ? (
                            <>
                              {entry.actor.firstName} {entry.actor.lastName}
                              <br />
                              <small>{entry.actor.email}</small>
                            </>
                          ) : (
                            t`Opérateur (ligne de commande)`
                          )}
                        </td>
                        <td>{href ? <Link href={href}>{subject}</Link> : subject}</td>
                        <td>
                          <code className="audit-data">{json(entry.before)}</code>
                        </td>
                        <td>
                          <code className="audit-data">{json(entry.after)}</code>
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
