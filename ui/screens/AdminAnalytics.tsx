import { useLingui } from "@lingui/react/macro"
import { useState } from "react"
import { adminApi } from "../api/admin"
import type { Role } from "../api/contract"
import { useAsync } from "../components/async"
import { StatCard } from "../components/admin"
import { Loaded } from "../components/catalogue"
import { Page } from "../components/page"
import { formatDate, formatMinor, formatNumber } from "../format"

const PERIODS = [7, 30, 90, 365] as const

export default function AdminAnalytics() {
  const { t, i18n } = useLingui()
  const [period, setPeriod] = useState<number>(30)
  const [state, reload] = useAsync(() => adminApi.analytics(period).then((answer) => answer.data), [period])
  const roleLabels: Record<Role, string> = { CLIENT: t`Client`, PROVIDER: t`Prestataire`, ADMIN: t`Administrateur` }
  const rating = (value: number) => formatNumber(i18n.locale, value, 1)
  return (
    <Page title={t`Statistiques`}>
      <div className="filters">
        <div className="field">
          <label htmlFor="analytics-period">{t`Période`}</label>
          <select id="analytics-period" value={period} onChange={(event) => setPeriod(Number(event.target.value))}>
            {PERIODS.map((days) => (
              <option key={days} value={days}>{t`${days} derniers jours`}</option>
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
              <StatCard label={t`Période`} value={t`${data.period} jours`} />
              <StatCard label={t`Utilisateurs les plus actifs`} value={data.topUsers.length} />
              <StatCard label={t`Services les plus réservés`} value={data.topServices.length} />
              <StatCard label={t`Points de données`} value={data.growth.users.length + data.growth.bookings.length} />
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
                      {t`${u.counts.services} services, ${u.counts.bookingsAsClient + u.counts.bookingsAsProvider} réservations (${u.counts.bookingsAsClient} comme client, ${u.counts.bookingsAsProvider} comme prestataire), ${u.counts.reviewsAsProvider} avis reçus, ${u.counts.reviewsAsClient} avis donnés`}
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
                    <p>{t`Note ${rating(s.rating)}/5 (${s.reviewCount} avis), ${s.bookings} réservations`}</p>
                  </li>
                ))}
              </ul>
            )}
            <div className="detail-sections">
              <section aria-labelledby="growth-users">
                <h2 id="growth-users">{t`Nouveaux utilisateurs`}</h2>
                {data.growth.users.length === 0 ? (
                  <p>{t`Aucun.`}</p>
                ) : (
                  <ul>
                    {data.growth.users.map((d) => (
                      <li key={d.date}>
                        {formatDate(i18n.locale, d.date)} : +{d.count}
                      </li>
                    ))}
                  </ul>
                )}
              </section>
              <section aria-labelledby="growth-bookings">
                <h2 id="growth-bookings">{t`Nouvelles réservations`}</h2>
                {data.growth.bookings.length === 0 ? (
                  <p>{t`Aucune.`}</p>
                ) : (
                  <ul>
                    {data.growth.bookings.map((d) => (
                      <li key={d.date}>
                        {formatDate(i18n.locale, d.date)} : +{d.count}
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            </div>
          </>
        )}
      </Loaded>
    </Page>
  )
}
