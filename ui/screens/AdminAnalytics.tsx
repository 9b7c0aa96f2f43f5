import { plural } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { useState } from "react"
import { Chart } from "../admin/chart"
import { adminStatusLabels } from "../admin/labels"
import { adminApi } from "../api/admin"
import type { Role } from "../api/contract"
import { useAsync } from "../components/async"
import { StatCard } from "../components/admin"
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
        {(data) => (
          <>
            <div className="stat-grid">
              <StatCard label={t`Période`} value={plural(data.period, { one: "# jour", other: "# jours" })} />
              <StatCard label={t`Nouveaux utilisateurs`} value={count(total(data.growth.users))} />
              <StatCard label={t`Nouvelles réservations`} value={count(total(data.growth.bookings))} />
              <StatCard label={t`Services les plus réservés`} value={data.topServices.length} />
            </div>
            <h2>{t`Utilisateurs les plus actifs`}</h2>
            {data.topUsers.length === 0 ? (
              <p className="empty-state">{t`Aucune activité sur cette période.`}</p>
            ) : (
              <ul className="admin-user-list">
                {data.topUsers.map((u) => (
                  <li key={u.id} className="card">
                    <p>
                      <strong>
                        {u.firstName} {u.lastName}
                      </strong>{" "}
                      · {roleLabels[u.role]} · {u.email}
                    </p>
                    <p>
                      {plural(u.counts.services, { one: "# service", other: "# services" })},{" "}
                      {plural(u.counts.bookingsAsClient + u.counts.bookingsAsProvider, { one: "# réservation", other: "# réservations" })} (
                      {plural(u.counts.bookingsAsClient, { one: "# comme client", other: "# comme client" })},{" "}
                      {plural(u.counts.bookingsAsProvider, { one: "# comme prestataire", other: "# comme prestataire" })}),{" "}
                      {plural(u.counts.reviewsAsProvider, { one: "# avis reçu", other: "# avis reçus" })},{" "}
                      {plural(u.counts.reviewsAsClient, { one: "# avis donné", other: "# avis donnés" })}
                    </p>
                  </li>
                ))}
              </ul>
            )}
            <h2>{t`Services les plus réservés`}</h2>
            {data.topServices.length === 0 ? (
              <p className="empty-state">{t`Aucune réservation sur cette période.`}</p>
            ) : (
              <ul className="admin-user-list">
                {data.topServices.map((s) => (
                  <li key={s.id} className="card">
                    <p>
                      <strong>{s.title}</strong> · {t`${formatMinor(i18n.locale, s.priceMinor, s.currency)} / h`} · {s.provider.firstName}{" "}
                      {s.provider.lastName}
                    </p>
                    <p>
                      {reviewsText(s.rating, s.reviewCount)}, {plural(s.bookings, { one: "# réservation", other: "# réservations" })}
                    </p>
                  </li>
                ))}
              </ul>
            )}
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
          </>
        )}
      </Loaded>
    </Page>
  )
}
