import { useLingui } from "@lingui/react/macro"
import { useState } from "react"
import { Link, useParams } from "wouter"
import { adminApi } from "../api/admin"
import { ApiError } from "../api/client"
import type { PaymentStatus } from "../api/contract"
import { adminStatusLabels, adminStatusTone, paymentIssueLabels } from "../admin/labels"
import { paymentLabels } from "../booking/labels"
import { useAsync } from "../components/async"
import { PaymentEventList } from "../components/booking/PaymentTimeline"
import { Loaded } from "../components/catalogue"
import { Page } from "../components/page"
import { showToast } from "../state/toasts"
import { formatDateRangeIn, formatDateTime, formatDateTimeIn, formatMinor, sameTimeIn, zoneName } from "../format"
import { RefundForm } from "../admin/refund"
import { useViewerZone } from "../state/session"
import { DisputePanel } from "../components/booking/Dispute"

export default function AdminBookingDetail() {
  const { t, i18n } = useLingui()
  const zone = useViewerZone()
  const { id = "" } = useParams<{ id: string }>()
  const [state, reload] = useAsync(() => adminApi.booking(id).then((answer) => answer.data.booking), [id])
  const [next, setNext] = useState("")
  const [reason, setReason] = useState("")
  const [updating, setUpdating] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const na = t`Non disponible`
  const title = state.status === "ok" ? t`Réservation n° ${state.data.id.slice(0, 8)}` : t`Réservation`
  const submit = () => {
    setUpdating(true)
    setProblem(null)
    adminApi.setBookingStatus(id, next, next === "REJECTED" ? reason : undefined).then(
      () => {
        setUpdating(false)
        setNext("")
        setReason("")
        showToast("success", t`Statut de la réservation mis à jour.`)
        reload({ quiet: true })
      },
      (error: unknown) => {
        setUpdating(false)
        setProblem(error instanceof ApiError ? error.message : t`La mise à jour a échoué.`)
      }
    )
  }
  return (
    <Page title={title}>
      <Link href="/admin/bookings" className="button-secondary">{t`Retour aux réservations`}</Link>
      <Loaded
        state={state}
        errorTitle={t`Impossible de charger la réservation`}
        errorSubtitle={t`Veuillez réessayer.`}
        onRetry={() => reload()}
      >
        {(data) => (
          <>
            <div className="detail-sections">
              <section aria-labelledby="general">
                <h2 id="general">{t`Informations générales`}</h2>
                <dl>
                  <dt>{t`Statut`}</dt>
                  <dd>
                    <span className={`badge status-${adminStatusTone(data.status)}`}>
                      {i18n._(adminStatusLabels[data.displayStatus] ?? adminStatusLabels[data.status]!)}
                    </span>
                  </dd>
                  <dt>{t`Prix total`}</dt>
                  <dd>{formatMinor(i18n.locale, data.totalMinor, data.currency)}</dd>
                  <dt>{t`Paiement`}</dt>
                  <dd>
                    {i18n._(paymentLabels[data.paymentStatus as PaymentStatus] ?? adminStatusLabels.PENDING!)}
                    {data.paymentIssue && paymentIssueLabels[data.paymentIssue] ? (
                      <>
                        {" "}
                        <span className="badge status-danger">{i18n._(paymentIssueLabels[data.paymentIssue]!)}</span>
                      </>
                    ) : null}
                  </dd>
                  <dt>{t`Créée le`}</dt>
                  <dd>{formatDateTime(i18n.locale, data.createdAt)}</dd>
                  <dt>{t`Mise à jour`}</dt>
                  <dd>{formatDateTime(i18n.locale, data.updatedAt)}</dd>
                </dl>
              </section>
              <section aria-labelledby="service">
                <h2 id="service">{t`Service réservé`}</h2>
                <dl>
                  <dt>{t`Titre`}</dt>
                  <dd>{data.service.title}</dd>
                  <dt>{t`Catégorie`}</dt>
                  <dd>{data.service.category.name || na}</dd>
                  <dt>{t`Prix horaire`}</dt>
                  <dd>{formatMinor(i18n.locale, data.service.hourlyPriceMinor, data.currency)}</dd>
                </dl>
              </section>
              <section aria-labelledby="participants">
                <h2 id="participants">{t`Participants`}</h2>
                <dl>
                  <dt>{t`Client`}</dt>
                  <dd>
                    {data.client.firstName} {data.client.lastName}
                  </dd>
                  <dt>{t`Email du client`}</dt>
                  <dd>{data.client.email}</dd>
                  <dt>{t`Téléphone`}</dt>
                  <dd>{data.client.phoneNumber || na}</dd>
                  <dt>{t`Prestataire`}</dt>
                  <dd>
                    {data.provider.firstName} {data.provider.lastName}
                  </dd>
                  <dt>{t`Email du prestataire`}</dt>
                  <dd>{data.provider.email}</dd>
                </dl>
              </section>
              <section aria-labelledby="details">
                <h2 id="details">{t`Détails de la réservation`}</h2>
                <dl>
                  <dt>{t`Début`}</dt>
                  <dd>
                    {formatDateTimeIn(i18n.locale, data.startTime, zone)} <span className="zone-name">· {zoneName(i18n.locale, zone)}</span>
                  </dd>
                  <dt>{t`Fin`}</dt>
                  <dd>{formatDateTimeIn(i18n.locale, data.endTime, zone)}</dd>
                  {sameTimeIn(zone, data.providerTimeZone, data.startTime) ? null : (
                    <>
                      <dt>{t`Chez le prestataire`}</dt>
                      <dd data-testid="provider-zone-time">
                        {formatDateRangeIn(i18n.locale, data.startTime, data.endTime, data.providerTimeZone)},{" "}
                        {zoneName(i18n.locale, data.providerTimeZone)}
                      </dd>
                    </>
                  )}
                  {sameTimeIn(zone, data.clientTimeZone, data.startTime) ? null : (
                    <>
                      <dt>{t`Chez le client`}</dt>
                      <dd>
                        {formatDateRangeIn(i18n.locale, data.startTime, data.endTime, data.clientTimeZone)},{" "}
                        {zoneName(i18n.locale, data.clientTimeZone)}
                      </dd>
                    </>
                  )}
                  <dt>{t`Durée`}</dt>
                  <dd>{t`${data.durationHours} h`}</dd>
                  <dt>{t`Avis laissé`}</dt>
                  <dd>{data.isReviewed ? t`Oui` : t`Non`}</dd>
                </dl>
              </section>
            </div>
            {data.payments.length > 0 ? (
              <section aria-labelledby="payments">
                <h2 id="payments">{t`Paiements`}</h2>
                <PaymentEventList events={data.payments} />
              </section>
            ) : null}
            {data.dispute ? (
              <section aria-labelledby="dispute">
                <h2 id="dispute">{t`Litige signalé par le client`}</h2>
                <DisputePanel
                  key={`${data.id}:${data.dispute.status}`}
                  booking={data}
                  admin
                  onResolved={() => {
                    showToast("success", t`Litige tranché : les deux parties sont prévenues.`)
                    reload({ quiet: true })
                  }}
                />
              </section>
            ) : null}
            <section aria-labelledby="refunds">
              <h2 id="refunds">{t`Remboursements`}</h2>
              {data.refunds.length === 0 ? (
                <p>{t`Aucun remboursement.`}</p>
              ) : (
                <ul className="admin-user-list" data-testid="refunds">
                  {data.refunds.map((r, index) => (
                    <li key={index} className="card">
                      {formatMinor(i18n.locale, r.amountMinor, r.currency)} · {formatDateTime(i18n.locale, r.createdAt)}
                      {r.reason ? <> · {r.reason}</> : null}
                    </li>
                  ))}
                </ul>
              )}
              {data.refundableMinor > 0 ? (
                <RefundForm
                  bookingId={data.id}
                  currency={data.currency}
                  refundableMinor={data.refundableMinor}
                  onDone={() => reload({ quiet: true })}
                />
              ) : null}
            </section>
            <section aria-labelledby="reviews">
              <h2 id="reviews">{t`Avis (${data.reviews.length})`}</h2>
              {data.reviews.map((r, index) => (
                <div key={index} className="card">
                  <p>
                    {r.client.firstName} {r.client.lastName} · {formatDateTime(i18n.locale, r.createdAt)} · {t`${r.rating}/5`}
                  </p>
                  {r.comment ? <p>{r.comment}</p> : null}
                </div>
              ))}
            </section>
            <section aria-labelledby="actions">
              <h2 id="actions">{t`Changer le statut`}</h2>
              {data.allowedStatuses.length === 0 ? (
                <p>{t`Aucun changement de statut n'est possible pour cette réservation.`}</p>
              ) : (
                <form
                  className="filters"
                  onSubmit={(event) => {
                    event.preventDefault()
                    if (next) submit()
                  }}
                >
                  <div className="field">
                    <label htmlFor="new-status">{t`Nouveau statut`}</label>
                    <select id="new-status" value={next} onChange={(event) => setNext(event.target.value)}>
                      <option value="">{t`Choisir un statut`}</option>
                      {/* Only the changes the server allows for this booking now (it refuses the others anyway). */}
                      {data.allowedStatuses.map((value) => (
                        <option key={value} value={value}>
                          {adminStatusLabels[value] ? i18n._(adminStatusLabels[value]!) : value}
                        </option>
                      ))}
                    </select>
                  </div>
                  {next === "REJECTED" ? (
                    <div className="field">
                      <label htmlFor="reject-reason">{t`Raison du refus`}</label>
                      <input id="reject-reason" value={reason} onChange={(event) => setReason(event.target.value)} />
                    </div>
                  ) : null}
                  <button type="submit" className="button" disabled={!next || updating}>
                    {updating ? t`Mise à jour…` : t`Mettre à jour`}
                  </button>
                </form>
              )}
              {problem ? (
                <p className="alert alert-error" role="alert">
                  {problem}
                </p>
              ) : null}
            </section>
          </>
        )}
      </Loaded>
    </Page>
  )
}
