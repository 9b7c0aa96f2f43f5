import { plural } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { useRef, useState } from "react"
import { Chart } from "../admin/chart"
import { adminApi, type AdminPaymentStatus } from "../api/admin"
import { useAsync } from "../components/async"
import { CurrencySelect, PaymentBadge, StatCard } from "../components/admin"
import { Loaded } from "../components/catalogue"
import { Page } from "../components/page"
import { DataTable } from "../components/table"
import { formatDateTime, formatMinor, formatMinorCompact, formatNumber, formatUtcDay } from "../format"

const PERIODS = ["week", "month", "year"] as const
/** The table shows the latest 10 payments (spec section 2). */
const LATEST = 10

export default function AdminFinancial() {
  const { t, i18n } = useLingui()
  const [period, setPeriod] = useState<(typeof PERIODS)[number]>("month")
  const [currency, setCurrency] = useState("")
  const [stats, reloadStats] = useAsync(
    () => adminApi.financialStats(period, currency || undefined).then((answer) => answer.data),
    [period, currency]
  )
  // The shown currency (the most active by default) and every one recorded, kept while the next figures
  // load so that the select, and its focus, stay in place.
  const shown = useRef<{ readonly currency: string; readonly choices: ReadonlyArray<string> }>({ currency: "", choices: [] })
  if (stats.status === "ok") {
    shown.current = {
      currency: stats.data.currency,
      choices: [...new Set([...shown.current.choices, stats.data.currency, ...stats.data.currencies])]
    }
  }
  // The latest payments in the same currency (one row per booking).
  const [payments, reloadPayments] = useAsync(
    () => adminApi.payments(LATEST, currency || undefined).then((answer) => answer.data.payments),
    [currency]
  )
  const periodLabels = { week: t`Semaine`, month: t`Mois`, year: t`Année` }
  const statusLabels: Record<AdminPaymentStatus, string> = {
    COMPLETED: t`Encaissés`,
    PENDING: t`Retenus sur les cartes`,
    REFUNDED: t`Remboursés`,
    CANCELLED: t`Libérés`,
    FAILED: t`Échoués`
  }
  const money = (minor: number, code: string) => formatMinor(i18n.locale, minor, code)
  // The CSV exports of the currency shown (the most active until another is chosen).
  const [exportFailed, setExportFailed] = useState(false)
  const download = (what: "bookings" | "payments") => {
    const code = shown.current.currency
    setExportFailed(false)
    adminApi.exportCsv(what, code || undefined).then(
      (blob) => {
        const url = URL.createObjectURL(blob)
        const link = document.createElement("a")
        link.href = url
        link.download = `${what}${code ? `-${code}` : ""}.csv`
        document.body.append(link)
        link.click()
        link.remove()
        setTimeout(() => URL.revokeObjectURL(url), 10_000)
      },
      () => setExportFailed(true)
    )
  }
  return (
    <Page title={t`Finances`}>
      <div className="filters">
        <div className="field">
          <label htmlFor="finance-period">{t`Période`}</label>
          <select id="finance-period" value={period} onChange={(event) => setPeriod(event.target.value as (typeof PERIODS)[number])}>
            {PERIODS.map((p) => (
              <option key={p} value={p}>
                {periodLabels[p]}
              </option>
            ))}
          </select>
        </div>
        <CurrencySelect
          id="finance-currency"
          label={t`Devise`}
          value={shown.current.currency}
          choices={shown.current.choices}
          onChange={setCurrency}
        />
      </div>
      <div className="admin-actions">
        <button type="button" className="button-secondary" onClick={() => download("payments")}>
          {t`Exporter les paiements (CSV)`}
        </button>
        <button type="button" className="button-secondary" onClick={() => download("bookings")}>
          {t`Exporter les réservations (CSV)`}
        </button>
      </div>
      {exportFailed ? <p role="alert" className="alert alert-error">{t`L'export a échoué. Veuillez réessayer.`}</p> : null}
      <Loaded
        state={stats}
        errorTitle={t`Une erreur est survenue`}
        errorSubtitle={t`Impossible de charger les données financières.`}
        onRetry={() => reloadStats()}
      >
        {(data) => (
          <>
            <div className="stat-grid" data-testid="finance-figures">
              <StatCard label={t`Revenu brut`} value={money(data.grossRevenue, data.currency)} detail={t`Encaissé sur la période`} />
              <StatCard label={t`Remboursements`} value={money(data.refundedAmount, data.currency)} />
              <StatCard
                label={t`Encaissé net des remboursements`}
                value={money(data.keptRevenue, data.currency)}
                detail={t`Revenu brut − remboursements`}
              />
              <StatCard
                label={t`Commissions`}
                value={money(data.totalCommissions, data.currency)}
                detail={t`5 % de l'encaissé net. Marge : ${formatNumber(i18n.locale, data.commissionMargin, 2)} %`}
              />
              <StatCard
                label={t`Revenu net des prestataires`}
                value={money(data.netRevenue, data.currency)}
                detail={t`Encaissé net des remboursements − commissions`}
              />
              <StatCard
                label={t`Retenu sur les cartes`}
                value={money(data.heldAmount, data.currency)}
                detail={t`Autorisations en cours aujourd'hui, ni encaissées ni libérées`}
              />
              <StatCard
                label={t`Paiements`}
                value={`${data.payments.completed} / ${data.payments.pending} / ${data.payments.failed}`}
                detail={t`encaissés / retenus sur les cartes / échoués`}
              />
            </div>
            <Chart
              id="chart-revenue"
              kind="line"
              title={data.series.unit === "day" ? t`Revenus et commissions par jour (UTC)` : t`Revenus et commissions par mois (UTC)`}
              xLabel={data.series.unit === "day" ? t`Jour (UTC)` : t`Mois (UTC)`}
              categories={data.series.points.map((p) => formatUtcDay(i18n.locale, p.start, data.series.unit === "day" ? "day" : "month"))}
              rowLabels={data.series.points.map((p) => formatUtcDay(i18n.locale, p.start, data.series.unit === "day" ? "date" : "month"))}
              yLabel={t`Montant (${data.currency})`}
              format={(minor) => money(minor, data.currency)}
              formatAxis={(minor) => formatMinorCompact(i18n.locale, minor, data.currency)}
              series={[
                { label: t`Revenu brut`, values: data.series.points.map((p) => p.grossMinor), color: "--chart-1" },
                { label: t`Remboursements`, values: data.series.points.map((p) => p.refundedMinor), color: "--chart-2" },
                { label: t`Commissions`, values: data.series.points.map((p) => p.commissionMinor), color: "--chart-3" }
              ]}
            />
            <h2>{t`Revenus par statut`}</h2>
            {data.revenueByStatus.length === 0 ? (
              <p className="empty-state">{t`Aucun paiement sur cette période.`}</p>
            ) : (
              <ul className="admin-user-list">
                {data.revenueByStatus.map((r) => (
                  <li key={r.status} className="card">
                    <PaymentBadge status={r.status} /> {statusLabels[r.status]} : {money(r.amountMinor, data.currency)} (
                    {plural(r.count, { one: "# paiement", other: "# paiements" })})
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </Loaded>
      <h2>{t`Derniers paiements`}</h2>
      <Loaded
        state={payments}
        errorTitle={t`Une erreur est survenue`}
        errorSubtitle={t`Impossible de charger les données financières.`}
        onRetry={() => reloadPayments()}
      >
        {(data) =>
          data.length === 0 ? (
            <p className="empty-state">{t`Aucun paiement pour le moment.`}</p>
          ) : (
            <>
              <DataTable caption={t`Derniers paiements`}>
                <thead>
                  <tr>
                    <th scope="col">{t`Service`}</th>
                    <th scope="col">{t`Client`}</th>
                    <th scope="col">{t`Montant`}</th>
                    <th scope="col">{t`Commission`}</th>
                    <th scope="col">{t`Statut`}</th>
                    <th scope="col">{t`Date`}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((p) => (
                    <tr key={p.id}>
                      <td>
                        {p.service.title}
                        <br />
                        <small>
                          {p.provider.firstName} {p.provider.lastName}
                        </small>
                      </td>
                      <td>
                        {p.client.firstName} {p.client.lastName}
                        <br />
                        <small>{p.client.email}</small>
                      </td>
                      <td>
                        {money(p.amountMinor, p.currency)}
                        {p.refundedMinor ? (
                          <>
                            <br />
                            <small>{t`Remboursé : ${money(p.refundedMinor, p.currency)}`}</small>
                          </>
                        ) : null}
                      </td>
                      <td>{money(p.commissionMinor, p.currency)}</td>
                      <td>
                        <PaymentBadge status={p.status} />
                      </td>
                      <td>{formatDateTime(i18n.locale, p.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
            </>
          )
        }
      </Loaded>
    </Page>
  )
}
