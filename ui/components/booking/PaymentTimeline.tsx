import { useLingui } from "@lingui/react/macro"
import { useState } from "react"
import { receiptsApi } from "../../api/endpoints"
import type { Booking, PaymentTimelineEvent } from "../../api/contract"
import { cardText, paymentEventLabels, paymentMethodLabel } from "../../booking/labels"
import { formatDateTimeIn, formatMinor, zoneName } from "../../format"
import { useViewerZone } from "../../state/session"
import { useAsync } from "../async"
import { Loaded } from "../loaded"

/** A card as people write it ("Visa •••• 4242"), or the method's name. */
const useMethodText = () => {
  const { i18n } = useLingui()
  return (method: string) => cardText(method) ?? i18n._(paymentMethodLabel(method))
}

/**
 * A booking's payment events, oldest first: what each did, its amount, the card, when (in the
 * reader's zone, named once), and the commission where the reader is shown it.
 */
export const PaymentEventList = ({ events }: { events: ReadonlyArray<PaymentTimelineEvent> }) => {
  const { t, i18n } = useLingui()
  const zone = useViewerZone()
  const methodText = useMethodText()
  const money = (minor: number, currency: string) => formatMinor(i18n.locale, minor, currency)
  return (
    <>
      <ol className="payment-timeline">
        {events.map((e, index) => (
          <li key={index}>
            <span className="payment-event">{i18n._(paymentEventLabels[e.event])}</span>
            {e.event === "cardSaved" ? null : <> · {money(e.amountMinor, e.currency)}</>}
            {e.method ? <> · {methodText(e.method)}</> : null}
            {" · "}
            <time dateTime={e.at}>{formatDateTimeIn(i18n.locale, e.at, zone)}</time>
            {e.feeMinor ? (
              <>
                {" · "}
                {e.event === "refunded"
                  ? t`commission rendue : ${money(e.feeMinor, e.currency)}`
                  : t`commission : ${money(e.feeMinor, e.currency)}`}
              </>
            ) : null}
          </li>
        ))}
      </ol>
      <p className="field-hint">{t`Heures en ${zoneName(i18n.locale, zone)}.`}</p>
    </>
  )
}

const Timeline = ({ bookingId }: { bookingId: string }) => {
  const { t } = useLingui()
  const [state, reload] = useAsync(() => receiptsApi.payments(bookingId).then(({ data }) => data.payments), [bookingId])
  return (
    <Loaded
      state={state}
      loadingLabel={t`Chargement des paiements…`}
      errorTitle={t`Paiements indisponibles`}
      errorSubtitle={t`Ils n'ont pas pu être chargés.`}
      onRetry={() => reload()}
    >
      {(events) => (events.length === 0 ? <p>{t`Aucun paiement pour l'instant.`}</p> : <PaymentEventList events={events} />)}
    </Loaded>
  )
}

/** "Historique des paiements" on a booking card: the timeline, read when opened. */
export const PaymentHistory = ({ booking }: { booking: Booking }) => {
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  if (booking.paymentStatus === "UNPAID") return null
  return (
    <details className="payment-history" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{t`Historique des paiements`}</summary>
      {open ? <Timeline bookingId={booking.id} /> : null}
    </details>
  )
}
