import { plural } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { useState } from "react"
import { Chart } from "../admin/chart"
import { adminStatusLabels } from "../admin/labels"
import { adminApi } from "../api/admin"
import type { Role } from "../api/contract"
import { useAsync } from "../components/async"
import { StatCard } from "../components/admin"
import { DataTable } from "../components/table"
import { Loaded } from "../components/catalogue"
import { Page } from "../components/page"
import { formatMinor, formatNumber, formatUtcDay } from "../format"

const PERIODS = [7, 30, 90, 365] as const

export default function AdminAnalytics() {
  const { t, i18n } = useLingui()
  const [period, setPeriod] = useState<number>(30)
  const [state, reload] = useAsync(() => adminApi.analytics(period).then((answer) => answer.data), [period])
  const roleLabels: Record<Role, string> = { CLIENT: t`Client`, PROVIDER: t`Prestataire`, ADMIN: t`Administrateur` }
  const rating = (value: number) => formatNumber(i18n.locale, value, 1)
  const reviewsText = (value: number, reviews: number) => {
    const score = rating(value)
    return reviews === 0 ? t`Pas encore d'avis` : plural(reviews, { one: `Note ${score}/5 (# avis)`, other: `Note ${score}/5 (# avis)` })
  }
  const count = (value: number) => formatNumber(i18n.locale, value)
  const total = (days: ReadonlyArray<{ readonly count: number }>) => days.reduce((n, d) => n + d.count, 0)
  const statusLabel = (status: string) => {
    const label = adminStatusLabels[status]
    return label ? i18n._(label) : status
  }
  return (
    <Page title={t`Statistiques`}>
      <div className="filters">
        <div className="field">
          <label htmlFor="analytics-period">{t`Période`}</label>
          <select id="analytics-period" value={period} onChange={(event) => setPeriod(Number(event.target.value))}>
            {PERIODS.map((days) => (
              <option key={days} value={days}>
                {plural(days, { one: "Dernier jour", other: "# derniers jours" })}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Loaded
        state={state}
        errorTitle={t`Une erreur est survenue`}
        errorSubtitle={t`Impossible de charger les statistiques.`}
        onRetry={() => reload()}
      >
        {(data) => {
          const users = total(data.growth.users)
          const bookings = total(data.growth.bookings)
          const finished = data.bookingsByStatus
            .filter((s) => s.status === "COMPLETED" || s.status === "VALIDATED")
            .reduce((n, s) => n + s.count, 0)
          return (
            <>
              <div className="stat-grid">
                <StatCard label={t`Nouveaux utilisateurs`} value={count(users)} />
                <StatCard label={t`Nouvelles réservations`} value={count(bookings)} />
                <StatCard label={t`Réservations par jour, en moyenne`} value={formatNumber(i18n.locale, bookings / data.period, 1)} />
                <StatCard label={t`Réservations terminées`} value={count(finished)} />
              </div>
              <div className="chart-grid">
                <Chart
                  id="chart-growth"
                  kind="line"
                  title={t`Croissance par jour (UTC)`}
                  xLabel={t`Jour (UTC)`}
                  categories={data.growth.users.map((d) => formatUtcDay(i18n.locale, d.date, "day"))}
                  rowLabels={data.growth.users.map((d) => formatUtcDay(i18n.locale, d.date, "date"))}
                  yLabel={t`Nombre par jour`}
                  format={count}
                  series={[
                    { label: t`Nouveaux utilisateurs`, values: data.growth.users.map((d) => d.count), color: "--chart-1" },
                    { label: t`Nouvelles réservations`, values: data.growth.bookings.map((d) => d.count), color: "--chart-2" }
                  ]}
                />
                {data.bookingsByStatus.length === 0 ? (
                  <section className="chart" aria-labelledby="chart-statuses-title">
                    <h2 id="chart-statuses-title">{t`Réservations par statut`}</h2>
                    <p className="empty-state">{t`Aucune réservation sur cette période.`}</p>
                  </section>
                ) : (
                  <Chart
                    id="chart-statuses"
                    kind="bars"
                    title={t`Réservations par statut`}
                    xLabel={t`Statut`}
                    categories={data.bookingsByStatus.map((s) => statusLabel(s.status))}
                    yLabel={t`Réservations`}
                    format={count}
                    series={[{ label: t`Réservations`, values: data.bookingsByStatus.map((s) => s.count), color: "--chart-1" }]}
                  />
                )}
              </div>
              <h2>{t`Utilisateurs les plus actifs`}</h2>
              {data.topUsers.length === 0 ? (
                <p className="empty-state">{t`Aucune activité sur cette période.`}</p>
              ) : (
                <DataTable caption={t`Utilisateurs les plus actifs`} className="ranked-table">
                  <thead>
                    <tr>
                      <th scope="col">{t`Utilisateur`}</th>
                      <th scope="col">{t`Rôle`}</th>
                      <th scope="col">{t`Services`}</th>
                      <th scope="col">{t`Réservations comme client`}</th>
                      <th scope="col">{t`Réservations comme prestataire`}</th>
                      <th scope="col">{t`Avis reçus`}</th>
                      <th scope="col">{t`Avis donnés`}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.topUsers.map((u) => (
                      <tr key={u.id}>
                        <td>
                          <strong>
                            {u.firstName} {u.lastName}
                          </strong>
                          <span className="cell-note">{u.email}</span>
                        </td>
                        <td>{roleLabels[u.role]}</td>
                        <td className="number">{count(u.counts.services)}</td>
                        <td className="number">{count(u.counts.bookingsAsClient)}</td>
                        <td className="number">{count(u.counts.bookingsAsProvider)}</td>
                        <td className="number">{count(u.counts.reviewsAsProvider)}</td>
                        <td className="number">{count(u.counts.reviewsAsClient)}</td>
                      </tr>
                    ))}
                  </tbody>
                </DataTable>
              )}
              <h2>{t`Services les plus réservés`}</h2>
              {data.topServices.length === 0 ? (
                <p className="empty-state">{t`Aucune réservation sur cette période.`}</p>
              ) : (
                <DataTable caption={t`Services les plus réservés`} className="ranked-table">
                  <thead>
                    <tr>
                      <th scope="col">{t`Service`}</th>
                      <th scope="col">{t`Prestataire`}</th>
                      <th scope="col">{t`Tarif`}</th>
                      <th scope="col">{t`Note des clients`}</th>
                      <th scope="col">{t`Réservations`}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.topServices.map((s) => (
                      <tr key={s.id}>
                        <td>
                          <strong>{s.title}</strong>
                        </td>
                        <td>
                          {s.provider.firstName} {s.provider.lastName}
                        </td>
                        <td className="number">{t`${formatMinor(i18n.locale, s.priceMinor, s.currency)} / h`}</td>
                        <td>{reviewsText(s.rating, s.reviewCount)}</td>
                        <td className="number">{count(s.bookings)}</td>
                      </tr>
                    ))}
                  </tbody>
                </DataTable>
              )}
            </>
          )
        }}
      </Loaded>
    </Page>
  )
}
