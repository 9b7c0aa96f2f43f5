import { useLingui } from "@lingui/react/macro"
import { useState } from "react"
import { adminApi } from "../api/admin"
import { ApiError } from "../api/client"
import { currencyDecimals, formatMinor, toMinor } from "../format"
import { showToast } from "../state/toasts"

/**
 * The back-office's refund of a booking (issue 13 item 3): an amount in the booking's currency (empty:
 * everything left to refund) and a required reason. The server decides (POST /admin/bookings/{id}/refund);
 * its refusals show here, per field.
 */
export const RefundForm = ({
  bookingId,
  currency,
  refundableMinor,
  onDone
}: {
  bookingId: string
  currency: string
  refundableMinor: number
  onDone: () => void
}) => {
  const { t, i18n } = useLingui()
  const [amount, setAmount] = useState("")
  const [reason, setReason] = useState("")
  const [sending, setSending] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [fields, setFields] = useState<Record<string, string>>({})
  const left = formatMinor(i18n.locale, refundableMinor, currency)

  const submit = () => {
    setProblem(null)
    setFields({})
    const text = amount.trim().replace(",", ".")
    const major = text === "" ? undefined : Number(text)
    if (major !== undefined && (!Number.isFinite(major) || major <= 0)) {
      setFields({ amountMinor: t`Indiquez un montant positif, par exemple 25 ou 12.50.` })
      return
    }
    setSending(true)
    adminApi.refund(bookingId, { ...(major === undefined ? {} : { amountMinor: toMinor(major, currency) }), reason: reason.trim() }).then(
      () => {
        setSending(false)
        setAmount("")
        setReason("")
        showToast("success", t`Remboursement effectué.`)
        onDone()
      },
      (error: unknown) => {
        setSending(false)
        if (error instanceof ApiError) {
          setFields(error.fieldErrors())
          setProblem(error.message)
        } else setProblem(t`Le remboursement a échoué.`)
      }
    )
  }

  return (
    <form
      className="filters"
      aria-labelledby="refund-title"
      onSubmit={(event) => {
        event.preventDefault()
        submit()
      }}
      noValidate
    >
      <h3 id="refund-title">{t`Rembourser`}</h3>
      <p>{t`Reste remboursable : ${left}`}</p>
      <div className="field">
        <label htmlFor="refund-amount">{t`Montant (${currency}), vide pour tout rembourser`}</label>
        <input
          id="refund-amount"
          inputMode={currencyDecimals(currency) > 0 ? "decimal" : "numeric"}
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          aria-invalid={fields.amountMinor ? true : undefined}
          aria-describedby={fields.amountMinor ? "refund-amount-error" : undefined}
        />
        {fields.amountMinor ? (
          <p id="refund-amount-error" className="field-error">
            {fields.amountMinor}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor="refund-reason">{t`Raison du remboursement`}</label>
        <input
          id="refund-reason"
          value={reason}
          required
          onChange={(event) => setReason(event.target.value)}
          aria-invalid={fields.reason ? true : undefined}
          aria-describedby={fields.reason ? "refund-reason-error" : undefined}
        />
        {fields.reason ? (
          <p id="refund-reason-error" className="field-error">
            {fields.reason}
          </p>
        ) : null}
      </div>
      <button type="submit" className="button" disabled={sending}>
        {sending ? t`Remboursement…` : t`Rembourser`}
      </button>
      {problem ? (
        <p className="alert alert-error" role="alert">
          {problem}
        </p>
      ) : null}
    </form>
  )
}
