import { plural } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { Link } from "wouter"
import { adminApi } from "../api/admin"
import { ADMIN_STATUSES, adminStatusLabels, adminStatusTone, paymentIssueLabels } from "../admin/labels"
import { paymentLabels } from "../booking/labels"
import type { PaymentStatus } from "../api/contract"
import { useAsync } from "../components/async"
import { AdminPager, useListQuery } from "../components/admin"
import { Loaded } from "../components/catalogue"
import { Page } from "../components/page"
import { DataTable } from "../components/table"
import { formatDateTimeIn, formatMinor, formatTimeIn } from "../format"
import { useViewerZone } from "../state/session"

export default function AdminBookings() {
  const { t, i18n } = useLingui()
  const zone = useViewerZone()
  const list = useListQuery({ status: "" }, 10)
  const [state, reload] = useAsync(() => adminApi.bookings(list.query).then((answer) => answer.data), [list.query])
  return (
    <Page title={t`Réservations`}>
      <Link href="/admin" className="button-secondary">{t`Retour au tableau de bord`}</Link>
      <form className="filters" role="search" onSubmit={list.submitSearch}>
        <div className="field">
          <label htmlFor="bookings-search">{t`Rechercher (service, client, prestataire, n° de reçu)`}</label>
          <input id="bookings-search" type="search" value={list.search} onChange={(event) => list.setSearch(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="bookings-status">{t`Statut`}</label>
          <select id="bookings-status" value={list.query.status} onChange={(event) => list.setFilter("status", event.target.value)}>
            <option value="">{t`Tous les statuts`}</option>
            {ADMIN_STATUSES.map((value) => (
              <option key={value} value={value}>
                {i18n._(adminStatusLabels[value]!)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button-secondary">{t`Rechercher`}</button>
      </form>
      <Loaded
        state={state}
        errorTitle={t`Impossible de charger les réservations`}
        errorSubtitle={t`Veuillez réessayer.`}
        onRetry={() => reload()}
      >
        {(data) =>
          data.bookings.length === 0 ? (
            <p className="empty-state">{t`Aucune réservation ne correspond.`}</p>
          ) : (
            <>
              <p>{plural(data.pagination.total, { one: "# réservation", other: "# réservations" })}</p>
              <DataTable caption={t`Réservations`}>
                <thead>
                  <tr>
                    <th scope="col">{t`Service`}</th>
                    <th scope="col">{t`Client`}</th>
                    <th scope="col">{t`Prestataire`}</th>
                    <th scope="col">{t`Date`}</th>
                    <th scope="col">{t`Prix`}</th>
                    <th scope="col">{t`Statut`}</th>
                    <th scope="col">
                      <span className="sr-only">{t`Actions`}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.bookings.map((b) => (
                    <tr key={b.id}>
                      <td>
                        {b.service.title}
                        <br />
                        <small>{b.service.category.name}</small>
                      </td>
                      <td>
                        {b.client.firstName} {b.client.lastName}
                        <br />
                        <small>{b.client.email}</small>
                      </td>
                      <td>
                        {b.provider.firstName} {b.provider.lastName}
                        <br />
                        <small>{b.provider.email}</small>
                      </td>
                      <td>
                        {formatDateTimeIn(i18n.locale, b.startTime, zone)} – {formatTimeIn(i18n.locale, b.endTime, zone)}
                      </td>
                      <td>
                        {formatMinor(i18n.locale, b.totalMinor, b.currency)}
                        <br />
                        <small>{i18n._(paymentLabels[b.paymentStatus as PaymentStatus] ?? adminStatusLabels.PENDING!)}</small>
                      </td>
                      <td>
                        <span className={`badge status-${adminStatusTone(b.status)}`}>
                          {i18n._(adminStatusLabels[b.displayStatus] ?? adminStatusLabels[b.status]!)}
                        </span>
                        {b.paymentIssue && paymentIssueLabels[b.paymentIssue] ? (
                          <>
                            <br />
                            <span className="badge status-danger">{i18n._(paymentIssueLabels[b.paymentIssue]!)}</span>
                          </>
                        ) : null}
                      </td>
                      <td>
                        <Link href={`/admin/bookings/${b.id}`}>
                          {t`Détails`}
                          <span className="sr-only">
                            {" "}
                            : {b.service.title}, {b.id.slice(0, 8)}
                          </span>
                        </Link>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
              <AdminPager pagination={data.pagination} onPage={list.setPage} onLimit={list.setLimit} />
            </>
          )
        }
      </Loaded>
    </Page>
  )
}
