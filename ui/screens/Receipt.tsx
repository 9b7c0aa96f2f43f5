import { useLingui } from "@lingui/react/macro"
import { useState } from "react"
import { Link, useParams } from "wouter"
import { ApiError } from "../api/client"
import { receiptsApi } from "../api/endpoints"
import type { Receipt as ReceiptData } from "../api/contract"
import { useAsync } from "../components/async"
import { saveBlob } from "../components/download"
import { Alert } from "../components/forms"
import { LoadError, Loaded } from "../components/loaded"
import { Page } from "../components/page"
import { formatDateTimeIn, formatMinor, zoneName } from "../format"

/** A party's name, and under it their postal address when their profile gives one. */
const Party = ({ party, testId }: { party: ReceiptData["client"]; testId: string }) => (
  <span data-testid={testId}>
    {party.firstName} {party.lastName}
    {party.postalAddress !== null && (
      <>
        <br />
        <span className="receipt-postal">{party.postalAddress}</span>
      </>
    )}
  </span>
)

const ReceiptBody = ({ receipt }: { receipt: ReceiptData }) => {
  const { t, i18n } = useLingui()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const zone = receipt.clientTimeZone
  const when = (iso: string) => `${formatDateTimeIn(i18n.locale, iso, zone, "long")}, ${zoneName(i18n.locale, zone)}`
  const money = (minor: number) => formatMinor(i18n.locale, minor, receipt.currency)
  const share = receipt.providerShare
  const percent = share?.percent ?? 0

  const download = async () => {
    setBusy(true)
    setError(undefined)
    try {
      saveBlob(await receiptsApi.pdf(receipt.bookingId), `${t`recu`}-${receipt.number}.pdf`)
    } catch {
      setError(t`Impossible de télécharger le reçu. Réessayez.`)
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="card receipt" aria-labelledby="receipt-issuer">
      <header className="receipt-head">
        <div>
          <h2 id="receipt-issuer">{receipt.platform}</h2>
          <p className="receipt-issuer">{receipt.platformEmail}</p>
        </div>
        <p className="receipt-number">
          {t`Reçu n°`} <strong data-testid="receipt-number">{receipt.number}</strong>
        </p>
      </header>
      <dl className="booking-facts">
        <dt>{t`Date du paiement`}</dt>
        <dd>{when(receipt.paidAt)}</dd>
        <dt>{t`Client`}</dt>
        <dd>
          <Party party={receipt.client} testId="receipt-client" />
        </dd>
        <dt>{t`Prestataire`}</dt>
        <dd>
          <Party party={receipt.provider} testId="receipt-provider" />
        </dd>
        <dt>{t`Service`}</dt>
        <dd>{receipt.service.title}</dd>
        <dt>{t`Date de la prestation`}</dt>
        <dd>{receipt.formattedPeriod}</dd>
        <dt>{t`Lieu de la prestation`}</dt>
        <dd>{receipt.address}</dd>
        <dt>{t`Moyen de paiement`}</dt>
        <dd data-testid="receipt-method">{receipt.paymentMethod}</dd>
      </dl>
      <div className="table-wrap" tabIndex={0} role="region" aria-label={t`Montants`}>
        <table className="receipt-amounts">
          <caption className="sr-only">{t`Montants`}</caption>
          <tbody>
            <tr>
              <th scope="row">{t`Tarif horaire × durée`}</th>
              <td>{receipt.formattedRate}</td>
            </tr>
            <tr>
              <th scope="row">{t`Montant payé`}</th>
              <td data-testid="receipt-paid">{money(receipt.paidMinor)}</td>
            </tr>
            {receipt.refunds.map((refund) => (
              <tr key={refund.refundedAt}>
                <th scope="row">{t`Remboursement du ${formatDateTimeIn(i18n.locale, refund.refundedAt, zone, "long")}`}</th>
                <td>{money(-refund.amountMinor)}</td>
              </tr>
            ))}
            {receipt.refunds.length > 0 ? (
              <tr>
                <th scope="row">{t`Total payé après remboursements`}</th>
                <td data-testid="receipt-net">
                  <strong>{money(receipt.netPaidMinor)}</strong>
                </td>
              </tr>
            ) : null}
            {share ? (
              <>
                <tr>
                  <th scope="row">{t`Commission de la plateforme (${percent} %)`}</th>
                  <td data-testid="receipt-commission">{money(-share.commissionMinor)}</td>
                </tr>
                <tr>
                  <th scope="row">{t`Net pour le prestataire`}</th>
                  <td data-testid="receipt-provider-net">
                    <strong>{money(share.netMinor)}</strong>
                  </td>
                </tr>
              </>
            ) : null}
          </tbody>
        </table>
      </div>
      <p className="receipt-note">{receipt.taxNote}</p>
      {error ? <Alert kind="error">{error}</Alert> : null}
      <div className="card-actions">
        <button type="button" className="button" aria-disabled={busy || undefined} onClick={() => !busy && void download()}>
          {busy ? t`Téléchargement…` : t`Télécharger le PDF`}
        </button>
        <Link href="/bookings" className="button-secondary">
          {t`Retour à mes réservations`}
        </Link>
      </div>
    </section>
  )
}

export default function Receipt() {
  const { t } = useLingui()
  const { id = "" } = useParams<{ id: string }>()
  const [state, reload] = useAsync(() => receiptsApi.get(id).then((answer) => answer.data.receipt), [id])
  const title = t`Reçu de paiement`
  return (
    <Page title={title}>
      <Loaded
        state={state}
        failure={(error) =>
          error instanceof ApiError && error.status === 409 ? (
            <div className="empty-state">
              <p>{t`Aucun paiement n'a encore été encaissé pour cette réservation : le reçu sera disponible après l'encaissement.`}</p>
              <Link href="/bookings">{t`Retour à mes réservations`}</Link>
            </div>
          ) : error instanceof ApiError && error.status === 404 ? (
            <div className="empty-state">
              <p>{t`Ce reçu est introuvable.`}</p>
              <Link href="/bookings">{t`Retour à mes réservations`}</Link>
            </div>
          ) : (
            <LoadError
              title={t`Une erreur est survenue`}
              subtitle={t`Impossible de charger le reçu.`}
              error={error}
              onRetry={() => reload()}
            />
          )
        }
      >
        {(receipt) => <ReceiptBody receipt={receipt} />}
      </Loaded>
    </Page>
  )
}
