import { useLingui } from "@lingui/react/macro"
import { useState } from "react"
import { earningsApi } from "../api/endpoints"
import type { Earning, EarningsPage, EarningState } from "../api/contract"
import { useAsync } from "../components/async"
import { Loaded, Pager } from "../components/catalogue"
import { saveBlob } from "../components/download"
import { Alert } from "../components/forms"
import { Page } from "../components/page"
import { formatDate, formatMinor } from "../format"

/** Lines per page. */
const PAGE_SIZE = 20

const useStateLabel = () => {
  const { t } = useLingui()
  const labels: Record<EarningState, string> = {
    HELD: t`Autorisé (non encaissé)`,
    CAPTURED: t`Encaissé`,
    PARTIALLY_REFUNDED: t`Remboursé en partie`,
    REFUNDED: t`Remboursé`
  }
  return (state: EarningState) => labels[state]
}

/** "novembre 2026" / "November 2026" for a YYYY-MM month (the provider's zone counted it). */
const monthLabel = (locale: string, month: string) => {
  const [year, number] = month.split("-").map(Number)
  return new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(Date.UTC(year ?? 1970, (number ?? 1) - 1, 1))
  )
}

const Totals = ({ data }: { data: EarningsPage }) => {
  const { t, i18n } = useLingui()
  const money = (minor: number, currency: string) => formatMinor(i18n.locale, minor, currency)
  return (
    <>
      <h2>{t`Totaux par devise`}</h2>
      <div className="stat-grid">
        {data.totals.byCurrency.map((total) => (
          <div className="stat-card" key={total.currency} data-currency={total.currency}>
            <p className="stat-label">{t`Net (${total.currency})`}</p>
            <p className="stat-value" data-testid={`earnings-net-${total.currency}`}>
              {money(total.netMinor, total.currency)}
            </p>
            <p className="stat-detail">
              {t`Brut ${money(total.grossMinor, total.currency)} − commission ${money(total.commissionMinor, total.currency)}`}
            </p>
            {total.heldMinor > 0 ? (
              <p className="stat-detail">{t`Autorisé, pas encore encaissé : ${money(total.heldMinor, total.currency)}`}</p>
            ) : null}
          </div>
        ))}
      </div>
      <h2>{t`Totaux par mois`}</h2>
      <div className="table-wrap" tabIndex={0} role="region" aria-label={t`Totaux par mois et par devise`}>
        <table>
          <caption className="sr-only">{t`Totaux par mois et par devise`}</caption>
          <thead>
            <tr>
              <th scope="col">{t`Mois`}</th>
              <th scope="col">{t`Devise`}</th>
              <th scope="col">{t`Brut`}</th>
              <th scope="col">{t`Commission`}</th>
              <th scope="col">{t`Net`}</th>
              <th scope="col">{t`Autorisé`}</th>
            </tr>
          </thead>
          <tbody>
            {data.totals.byMonth.map((m) => (
              <tr key={`${m.month}-${m.currency}`}>
                <td>{monthLabel(i18n.locale, m.month)}</td>
                <td>{m.currency}</td>
                <td>{money(m.grossMinor, m.currency)}</td>
                <td>{money(m.commissionMinor, m.currency)}</td>
                <td>{money(m.netMinor, m.currency)}</td>
                <td>{money(m.heldMinor, m.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}

const Lines = ({ lines }: { lines: ReadonlyArray<Earning> }) => {
  const { t, i18n } = useLingui()
  const stateLabel = useStateLabel()
  const money = (minor: number, currency: string) => formatMinor(i18n.locale, minor, currency)
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={t`Revenus par réservation`}>
      <table>
        <caption className="sr-only">{t`Revenus par réservation`}</caption>
        <thead>
          <tr>
            <th scope="col">{t`Date`}</th>
            <th scope="col">{t`Service`}</th>
            <th scope="col">{t`Client`}</th>
            <th scope="col">{t`État`}</th>
            <th scope="col">{t`Brut`}</th>
            <th scope="col">{t`Commission`}</th>
            <th scope="col">{t`Net`}</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={line.bookingId} data-booking-id={line.bookingId}>
              <td>{formatDate(i18n.locale, line.date)}</td>
              <td>{line.serviceTitle}</td>
              <td>{line.clientName}</td>
              <td>{stateLabel(line.state)}</td>
              <td>{money(line.grossMinor, line.currency)}</td>
              <td>{money(line.commissionMinor, line.currency)}</td>
              <td data-testid="earning-net">{money(line.netMinor, line.currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

export default function ProviderEarnings() {
  const { t } = useLingui()
  const [page, setPage] = useState(1)
  const [state, reload] = useAsync(() => earningsApi.mine({ page, limit: PAGE_SIZE }).then((answer) => answer.data), [page])
  const [exporting, setExporting] = useState(false)
  const [error, setError] = useState<string>()

  const exportCsv = async () => {
    setExporting(true)
    setError(undefined)
    try {
      saveBlob(await earningsApi.csv(), "earnings.csv")
    } catch {
      setError(t`Impossible d'exporter les revenus. Réessayez.`)
    } finally {
      setExporting(false)
    }
  }

  return (
    <Page title={t`Revenus`}>
      <Loaded
        state={state}
        errorTitle={t`Une erreur est survenue`}
        errorSubtitle={t`Impossible de charger vos revenus.`}
        onRetry={() => reload()}
      >
        {(data) =>
          data.pagination.total === 0 ? (
            <p className="empty-state">{t`Aucun revenu pour l'instant : les paiements de vos réservations apparaîtront ici.`}</p>
          ) : (
            <>
              <p className="lead">
                {t`Pour chaque réservation payée : le montant brut (encaissé moins remboursé), la commission de la plateforme (${data.commissionPercent} %) et le net qui vous revient. Les virements vers votre compte bancaire sont faits par le prestataire de paiement.`}
              </p>
              <div className="card-actions">
                <button
                  type="button"
                  className="button-secondary"
                  aria-disabled={exporting || undefined}
                  onClick={() => !exporting && void exportCsv()}
                >
                  {exporting ? t`Export en cours…` : t`Exporter en CSV`}
                </button>
              </div>
              {error ? <Alert kind="error">{error}</Alert> : null}
              <Totals data={data} />
              <h2>{t`Par réservation`}</h2>
              <Lines lines={data.earnings} />
              <Pager page={data.pagination.page} pages={data.pagination.pages} onPage={setPage} />
            </>
          )
        }
      </Loaded>
    </Page>
  )
}
