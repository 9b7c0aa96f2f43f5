import { plural } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { useEffect, useRef, useState } from "react"
import { Link } from "wouter"
import { adminApi } from "../api/admin"
import { useAsync } from "../components/async"
import { CurrencySelect, StatCard } from "../components/admin"
import { Loaded } from "../components/catalogue"
import { Page } from "../components/page"
import { formatDateTime, formatMinor, formatNumber } from "../format"
import { disputeReasonLabels } from "../components/booking/Dispute"

/** Refreshed every 30 seconds (spec section 9). */
const REFRESH_MS = 30_000

export default function AdminDashboard() {
  const { t, i18n } = useLingui()
  // The revenue's currency: the most active one until the admin picks another (every currency with payments is offered).
  const [currency, setCurrency] = useState("")
  const [state, reload] = useAsync(() => adminApi.dashboard(currency || undefined).then((answer) => answer.data), [currency])
  // Kept while the next figures load, so that the select, and its focus, stay in place.
  const shown = useRef<{ readonly currency: string; readonly choices: ReadonlyArray<string> }>({ currency: "", choices: [] })
  if (state.status === "ok") shown.current = { currency: state.data.revenue.currency, choices: state.data.currencies }
  useEffect(() => {
    const timer = setInterval(() => reload({ quiet: true }), REFRESH_MS)
    return () => clearInterval(timer)
  }, [reload])
  const percent = (value: number) => formatNumber(i18n.locale, value, 1) + " %"
  return (
    <Page title={t`Tableau de bord d'administration`}>
      <div className="admin-actions">
        <Link href="/admin/users" className="button-secondary">{t`Gérer les utilisateurs`}</Link>
        <Link href="/admin/services" className="button-secondary">{t`Gérer les services`}</Link>
        <Link href="/admin/applications" className="button-secondary">{t`Voir les candidatures`}</Link>
        <Link href="/admin/bookings" className="button-secondary">{t`Voir les réservations`}</Link>
      </div>
      <div className="filters">
        <CurrencySelect
          id="dashboard-currency"
          label={t`Devise des revenus`}
          value={shown.current.currency}
          choices={shown.current.choices}
          onChange={setCurrency}
        />
      </div>
      <Loaded
        state={state}
        errorTitle={t`Impossible de charger le tableau de bord`}
        errorSubtitle={t`Veuillez réessayer.`}
        onRetry={() => reload()}
      >
        {(data) => (
          <>
            <section aria-labelledby="disputes">
              <h2 id="disputes">{t`Litiges à trancher (${data.disputes.length})`}</h2>
              {data.disputes.length === 0 ? (
                <p>{t`Aucun litige en attente.`}</p>
              ) : (
                <ul className="dispute-list">
                  {data.disputes.map((d) => (
                    <li key={d.bookingId}>
                      <Link href={`/admin/bookings/${d.bookingId}`}>
                        {d.serviceTitle} · {d.clientName} / {d.providerName}
                      </Link>{" "}
                      · {i18n._(disputeReasonLabels[d.reason])} · {formatMinor(i18n.locale, d.totalMinor, d.currency)} ·{" "}
                      {formatDateTime(i18n.locale, d.openedAt)}
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <h2>{t`Activité`}</h2>
            <div className="stat-grid">
              <StatCard label={t`Utilisateurs`} value={data.users.total} />
              <StatCard
                label={t`Services`}
                value={data.services.total}
                detail={`${plural(data.services.available, { one: "# disponible", other: "# disponibles" })}, ${plural(data.services.unavailable, { one: "# indisponible", other: "# indisponibles" })}`}
              />
              <StatCard
                label={t`Réservations`}
                value={data.bookings.total}
                detail={t`Taux de validation : ${percent(data.bookings.validationRate)}`}
              />
              <StatCard label={t`En attente`} value={data.bookings.pending} />
              <StatCard label={t`Confirmées`} value={data.bookings.confirmed} />
              <StatCard label={t`En cours`} value={data.bookings.ongoing} />
              <StatCard label={t`Terminées`} value={data.bookings.completed} />
              <StatCard label={t`Validées`} value={data.bookings.validated} />
              <StatCard label={t`Candidatures en attente`} value={data.applications.pending} />
            </div>
            <h2>{t`Revenus (${data.revenue.currency})`}</h2>
            <div className="stat-grid" data-testid="dashboard-revenue">
              <StatCard
                label={t`Encaissé brut sur 30 jours`}
                value={formatMinor(i18n.locale, data.revenue.monthly, data.revenue.currency)}
                detail={t`Captures des 30 derniers jours, avant remboursements`}
              />
              <StatCard
                label={t`Commissions sur 30 jours`}
                value={formatMinor(i18n.locale, data.revenue.monthlyCommissions, data.revenue.currency)}
                detail={t`5 % des captures, moins celles rendues avec les remboursements`}
              />
              <StatCard
                label={t`Retenu sur les cartes`}
                value={formatMinor(i18n.locale, data.revenue.pending, data.revenue.currency)}
                detail={plural(data.revenue.pendingCount, {
                  one: "# autorisation en cours, ni encaissée ni libérée",
                  other: "# autorisations en cours, ni encaissées ni libérées"
                })}
              />
              <StatCard
                label={t`Encaissé net des remboursements (depuis le début)`}
                value={formatMinor(i18n.locale, data.revenue.validated, data.revenue.currency)}
              />
            </div>
          </>
        )}
      </Loaded>
    </Page>
  )
}
