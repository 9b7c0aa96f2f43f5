import { Plural, useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useEffect, useId, useRef, useState } from "react"
import { Link, useSearch } from "wouter"
import { ApiError } from "../api/client"
import { bookingsApi } from "../api/endpoints"
import type { Booking, BookingAction, Reschedule } from "../api/contract"
import { statusFilterLabels } from "../booking/labels"
import { BOOKINGS_PAGE_SIZE, otherParty, REFRESH_MS, STATUS_FILTERS, type StatusFilter } from "../booking/rules"
import { CompletionDialog, reasonOf, RejectDialog } from "../components/booking/ActionDialogs"
import { BookingNotes, DateRange, Stars, StatusBadge, usePaymentLabel } from "../components/booking/parts"
import { formatPrice } from "../format"
import { PaymentDialog } from "../components/booking/PaymentDialog"
import { CancellationTerms, useCancelDialogText } from "../components/booking/Cancellation"
import { OpenProposal, RescheduleDialog, RescheduleHistory } from "../components/booking/Reschedule"
import { DisputePanel, DisputeSummary, ReportProblemDialog } from "../components/booking/Dispute"
import { PaymentHistory } from "../components/booking/PaymentTimeline"
import { Loaded, Pager } from "../components/catalogue"
import { ConfirmDialog } from "../components/ConfirmDialog"
import { Alert } from "../components/forms"
import { useLive } from "../components/live"
import { Page } from "../components/page"
import { userAtom } from "../state/session"
import { showToast } from "../state/toasts"

type Side = "all" | "client" | "provider"
/** A booking whose payment was captured has a receipt (issue 13): the client's, and the provider's with the commission. */
const RECEIPT_STATUSES: ReadonlyArray<Booking["paymentStatus"]> = ["CAPTURED", "PARTIALLY_REFUNDED", "REFUNDED"]
type Dialog = { readonly kind: "reject" | "cancel" | "complete" | "pay" | "reschedule" | "report"; readonly booking: Booking }
type Notice = { readonly kind: "success" | "error"; readonly text: string }

const useCancellationReason = () => {
  const { t } = useLingui()
  return (reason: string) =>
    reason === "EXPIRED"
      ? t`Délai de paiement dépassé`
      : reason === "NOT_CONFIRMED_IN_TIME"
        ? t`Non confirmée avant la date prévue`
        : reason
}

const BookingCard = ({
  booking,
  highlighted,
  busy,
  onAction,
  onAnswer
}: {
  booking: Booking
  highlighted: boolean
  busy: boolean
  onAction: (booking: Booking, action: BookingAction) => void
  onAnswer: (booking: Booking, proposal: Reschedule, answer: "accept" | "decline") => void
}) => {
  const { t, i18n } = useLingui()
  const titleId = useId()
  const paymentLabel = usePaymentLabel()
  const cancellationReason = useCancellationReason()
  const article = useRef<HTMLElement>(null)
  const title = booking.service.title
  const other = otherParty(booking)
  const otherName = `${other.firstName} ${other.lastName}`
  const asProvider = booking.role === "provider"
  const [showDispute, setShowDispute] = useState(false)

  useEffect(() => {
    if (!highlighted) return
    article.current?.scrollIntoView({ block: "center" })
    article.current?.focus()
  }, [highlighted])

  const button = (action: BookingAction, label: string, className = "button-secondary") =>
    booking.actions.includes(action) ? (
      <button type="button" className={className} aria-disabled={busy || undefined} onClick={() => !busy && onAction(booking, action)}>
        {label}
        <span className="sr-only"> : {title}</span>
      </button>
    ) : null

  return (
    <li className={highlighted ? "card booking-card booking-highlight" : "card booking-card"}>
      <article aria-labelledby={titleId} ref={article} tabIndex={-1} data-booking-id={booking.id}>
        <div className="booking-head">
          <h2 id={titleId} className="service-title">
            <Link href={`/services/${booking.serviceId}`}>{title}</Link>
          </h2>
          <StatusBadge status={booking.displayStatus} />
        </div>
        <dl className="booking-facts">
          <dt>{asProvider ? t`Client` : t`Prestataire`}</dt>
          <dd>{otherName}</dd>
          <dt>{t`Date`}</dt>
          <dd>
            <DateRange
              start={booking.startTime}
              end={booking.endTime}
              other={asProvider ? { zone: booking.clientTimeZone, who: "client" } : { zone: booking.providerTimeZone, who: "provider" }}
            />
          </dd>
          <dt>{t`Adresse`}</dt>
          <dd>{booking.address}</dd>
          <dt>{t`Total`}</dt>
          <dd className="booking-total">{formatPrice(i18n.locale, booking.totalPrice, booking.currency)}</dd>
          <dt>{t`Paiement`}</dt>
          <dd>{paymentLabel(booking.paymentStatus)}</dd>
          <BookingNotes booking={booking} />
          {booking.status === "REJECTED" ? (
            <>
              <dt>{t`Motif du refus`}</dt>
              <dd>{booking.rejectionReason || t`Non précisé`}</dd>
            </>
          ) : null}
          {booking.status === "CANCELLED" && booking.cancellationReason ? (
            <>
              <dt>{t`Motif d'annulation`}</dt>
              <dd>{cancellationReason(booking.cancellationReason)}</dd>
            </>
          ) : null}
          <CancellationTerms booking={booking} />
          {booking.review ? (
            <>
              <dt>{t`Avis`}</dt>
              <dd>
                <Stars rating={booking.review.rating} /> {booking.review.comment}
              </dd>
            </>
          ) : null}
        </dl>
        <OpenProposal booking={booking} busy={busy} onAnswer={(proposal, answer) => onAnswer(booking, proposal, answer)} />
        <RescheduleHistory booking={booking} />
        <PaymentHistory booking={booking} />
        <DisputeSummary booking={booking} />
        {booking.dispute && showDispute ? <DisputePanel booking={booking} /> : null}
        <div className="card-actions" role="group" aria-label={t`Actions pour ${title}`}>
          {button("pay", t`Payer`, "button")}
          {button("confirm", t`Confirmer`, "button")}
          {button("reject", t`Refuser`)}
          {button("markRendered", t`Marquer comme rendu`, "button")}
          {button("confirmCompletion", t`Confirmer la réception`, "button")}
          {button("reportProblem", t`Signaler un problème`, "button-secondary")}
          {booking.dispute ? (
            <button type="button" className="button-secondary" aria-expanded={showDispute} onClick={() => setShowDispute(!showDispute)}>
              {showDispute ? t`Masquer le litige` : t`Voir le litige`}
              <span className="sr-only"> : {title}</span>
            </button>
          ) : null}
          {button("reschedule", t`Proposer un nouvel horaire`)}
          {booking.role !== "admin" && RECEIPT_STATUSES.includes(booking.paymentStatus) ? (
            <Link href={`/bookings/${booking.id}/receipt`} className="button-secondary">
              {t`Reçu`}
              <span className="sr-only"> : {title}</span>
            </Link>
          ) : null}
          {booking.role !== "admin" ? (
            <Link href={`/messaging?userId=${encodeURIComponent(other.id)}`} className="button-secondary">
              {asProvider ? t`Contacter le client` : t`Contacter le prestataire`}
              <span className="sr-only"> : {title}</span>
            </Link>
          ) : null}
          {button("cancel", t`Annuler la réservation`, "button-ghost button-danger-text")}
        </div>
      </article>
    </li>
  )
}

export default function Bookings() {
  const { t, i18n } = useLingui()
  const user = useAtomValue(userAtom)
  const params = new URLSearchParams(useSearch())
  const paymentSuccess = params.get("payment") === "success"
  // The booking to point at (back from payment, or from the calendar), until the list is filtered.
  const [highlightId, setHighlightId] = useState(params.get("booking"))
  const isProvider = user?.role === "PROVIDER"
  const [side, setSide] = useState<Side>("all")
  const [status, setStatus] = useState<StatusFilter>("")
  const [page, setPage] = useState(1)
  const [dialog, setDialog] = useState<Dialog>()
  // The server refused a cancellation whose fee rose since the dialog opened: its message, shown in the dialog.
  const [feeChange, setFeeChange] = useState<string>()
  const [busyId, setBusyId] = useState<string>()
  const [notice, setNotice] = useState<Notice | undefined>(() => {
    if (!paymentSuccess) return undefined
    // Back from the hosted checkout: read the bookings afresh.
    bookingsApi.refresh()
    return {
      kind: "success",
      text: t`Paiement effectué ! Votre réservation est enregistrée : le prestataire doit maintenant la confirmer.`
    }
  })
  const statusId = useId()

  const as = isProvider && side !== "all" ? side : undefined
  const [state, reload] = useLive(
    (fresh) => bookingsApi.mine({ as, status: status || undefined, page, limit: BOOKINGS_PAGE_SIZE }, fresh).then(({ data }) => data),
    [as, status, page, i18n.locale, user?.id],
    REFRESH_MS,
    dialog === undefined
  )

  // A write answers the updated booking: shown at once, until the refreshed list arrives.
  const [updated, setUpdated] = useState<Readonly<Record<string, Booking>>>({})
  useEffect(() => setUpdated({}), [state])
  const done = (answer: { data: { booking: Booking } }, text: string) => {
    const booking = answer.data.booking
    if (booking?.id) setUpdated((current) => ({ ...current, [booking.id]: booking }))
    showToast("success", text)
    setDialog(undefined)
    reload({ quiet: true })
  }

  /** Confirm and mark rendered run at once; their failure shows above the list (spec section 8). */
  const runInline = async (booking: Booking, action: "confirm" | "markRendered") => {
    setBusyId(booking.id)
    setNotice(undefined)
    try {
      if (action === "confirm") {
        done(await bookingsApi.confirm(booking.id), t`Réservation confirmée.`)
      } else {
        done(await bookingsApi.markRendered(booking.id), t`Service marqué comme rendu : le client va confirmer la réception.`)
      }
    } catch (error) {
      const reason = reasonOf(error)
      setNotice({
        kind: "error",
        text:
          action === "confirm"
            ? t`Erreur lors de la confirmation : ${reason}`
            : t`Erreur lors du marquage du service comme rendu : ${reason}`
      })
    } finally {
      setBusyId(undefined)
    }
  }

  const cancel = async (booking: Booking) => {
    setBusyId(booking.id)
    setNotice(undefined)
    setFeeChange(undefined)
    try {
      done(await bookingsApi.cancel(booking.id, booking.cancellation.feeMinor), t`Réservation annulée.`)
    } catch (error) {
      if (error instanceof ApiError && error.code === "CANCELLATION_FEE_CHANGED") {
        // Nothing was cancelled: the dialog stays, with the booking as it is now and the new fee.
        setFeeChange(error.message)
        const fresh = await bookingsApi.get(booking.id).catch(() => undefined)
        if (fresh) setDialog({ kind: "cancel", booking: fresh.data.booking })
        reload({ quiet: true })
        return
      }
      const reason = reasonOf(error)
      setDialog(undefined)
      setNotice({ kind: "error", text: t`Erreur lors de l'annulation : ${reason}` })
    } finally {
      setBusyId(undefined)
    }
  }

  /** Accepting moves the booking (or answers why not: slot taken, time refused); declining keeps it. */
  const answerProposal = async (booking: Booking, proposal: Reschedule, answer: "accept" | "decline") => {
    setBusyId(booking.id)
    setNotice(undefined)
    try {
      done(
        await bookingsApi.answerReschedule(booking.id, proposal.id, answer),
        answer === "accept" ? t`Nouvel horaire accepté : la réservation est déplacée.` : t`Nouvel horaire refusé.`
      )
    } catch (error) {
      const reason = reasonOf(error)
      setNotice({ kind: "error", text: t`La réponse à la proposition a échoué : ${reason}` })
      reload({ quiet: true })
    } finally {
      setBusyId(undefined)
    }
  }

  const onAction = (booking: Booking, action: BookingAction) => {
    if (action === "confirm" || action === "markRendered") void runInline(booking, action)
    else if (action === "reject") setDialog({ kind: "reject", booking })
    else if (action === "cancel") setDialog({ kind: "cancel", booking })
    else if (action === "confirmCompletion") setDialog({ kind: "complete", booking })
    else if (action === "reschedule") setDialog({ kind: "reschedule", booking })
    else if (action === "reportProblem") setDialog({ kind: "report", booking })
    else setDialog({ kind: "pay", booking })
  }

  const filtered = status !== "" || as !== undefined
  const sides: ReadonlyArray<readonly [Side, string]> = [
    ["all", t`Toutes`],
    ["client", t`En tant que client`],
    ["provider", t`En tant que prestataire`]
  ]
  const dialogTitle = dialog?.booking.service.title ?? ""
  const cancelDialogText = useCancelDialogText()

  return (
    <Page title={t`Mes réservations`}>
      <div className="actions page-actions">
        <Link href="/services" className="button-secondary">
          {t`Parcourir les services`}
        </Link>
      </div>
      {notice ? (
        <Alert kind={notice.kind}>
          <p>{notice.text}</p>
          <button type="button" className="button-ghost button-small" onClick={() => setNotice(undefined)}>
            {t`Fermer le message`}
          </button>
        </Alert>
      ) : null}
      <div className="filters booking-filters">
        {isProvider ? (
          <div className="segmented" role="group" aria-label={t`Afficher les réservations`}>
            {sides.map(([value, label]) => (
              <button
                key={value}
                type="button"
                className="segment"
                aria-pressed={side === value}
                onClick={() => {
                  setSide(value)
                  setPage(1)
                  setHighlightId(null)
                }}
              >
                {label}
              </button>
            ))}
          </div>
        ) : null}
        <div className="field field-inline">
          <label htmlFor={statusId}>{t`Statut`}</label>
          <select
            id={statusId}
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as StatusFilter)
              setPage(1)
              setHighlightId(null)
            }}
          >
            {STATUS_FILTERS.map((value) => (
              <option key={value} value={value}>
                {i18n._(statusFilterLabels[value])}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Loaded
        state={state}
        loadingLabel={t`Chargement de vos réservations…`}
        errorTitle={t`Impossible de charger vos réservations`}
        errorSubtitle={t`Vérifiez votre connexion puis réessayez.`}
        onRetry={() => reload()}
      >
        {(data) =>
          data.bookings.length === 0 ? (
            <div className="empty-state">
              <p className="empty-title">
                {filtered ? t`Aucune réservation ne correspond à ces filtres` : t`Vous n'avez pas encore de réservation`}
              </p>
              <p>{t`Trouvez un prestataire et réservez votre premier service.`}</p>
              <Link href="/services" className="button">
                {t`Voir les services`}
              </Link>
            </div>
          ) : (
            <>
              <p className="results-count">
                <Plural value={data.pagination.total} one="# réservation" other="# réservations" />
              </p>
              <ul className="bookings">
                {data.bookings
                  .map((listed) => updated[listed.id] ?? listed)
                  .map((booking) => (
                    <BookingCard
                      key={booking.id}
                      booking={booking}
                      highlighted={booking.id === highlightId}
                      busy={busyId === booking.id}
                      onAction={onAction}
                      onAnswer={(booking, proposal, answer) => void answerProposal(booking, proposal, answer)}
                    />
                  ))}
              </ul>
              <Pager
                page={page}
                pages={data.pagination.pages}
                onPage={(next) => {
                  setPage(next)
                  setHighlightId(null)
                }}
              />
            </>
          )
        }
      </Loaded>
      {dialog?.kind === "reject" ? (
        <RejectDialog
          title={dialogTitle}
          onClose={() => setDialog(undefined)}
          onSubmit={async (reason) => {
            done(await bookingsApi.reject(dialog.booking.id, reason), t`Réservation refusée.`)
          }}
        />
      ) : null}
      {dialog?.kind === "complete" ? (
        <CompletionDialog
          title={dialogTitle}
          onClose={() => setDialog(undefined)}
          onSubmit={async (rating, comment) => {
            done(await bookingsApi.confirmCompletion(dialog.booking.id, rating, comment), t`Merci ! Réception confirmée et avis publié.`)
          }}
        />
      ) : null}
      {dialog?.kind === "cancel" ? (
        <ConfirmDialog
          title={t`Annuler cette réservation ?`}
          confirmLabel={t`Oui, annuler la réservation`}
          busy={busyId === dialog.booking.id}
          onConfirm={() => void cancel(dialog.booking)}
          onCancel={() => {
            setDialog(undefined)
            setFeeChange(undefined)
          }}
        >
          {feeChange ? <Alert kind="warning">{feeChange}</Alert> : null}
          <p>{t`La réservation « ${dialogTitle} » sera annulée.`}</p>
          <p data-testid="cancel-cost">{cancelDialogText(dialog.booking)}</p>
        </ConfirmDialog>
      ) : null}
      {dialog?.kind === "reschedule" ? (
        <RescheduleDialog
          booking={dialog.booking}
          onClose={() => setDialog(undefined)}
          onSubmit={async (times) => {
            const answer = await bookingsApi.reschedule(dialog.booking.id, times)
            done({ data: { booking: answer.data.booking } }, t`Proposition envoyée : l'autre partie va l'accepter ou la refuser.`)
          }}
        />
      ) : null}
      {dialog?.kind === "report" ? (
        <ReportProblemDialog
          booking={dialog.booking}
          onClose={() => setDialog(undefined)}
          onDone={(answer) => done(answer, t`Problème signalé : aucun montant ne sera débité avant la décision de notre équipe.`)}
        />
      ) : null}
      {dialog?.kind === "pay" ? <PaymentDialog booking={dialog.booking} user={user} onClose={() => setDialog(undefined)} /> : null}
    </Page>
  )
}
