import { Trans, useLingui } from "@lingui/react/macro"
import { useState } from "react"
import { adminApi } from "../api/admin"
import { ApiError } from "../api/client"
import { type ExchangeRates, REFERENCE_CURRENCY } from "../api/contract"
import { useAsync } from "../components/async"
import { Loaded } from "../components/loaded"
import { Page } from "../components/page"
import { formatDateTime } from "../format"
import { showToast } from "../state/toasts"

/**
 * /admin/rates (issue 14 item 4): the exchange rates searches compare prices with, as units of each
 * currency for 1 € (the reference). Saving sends the changed rates; the server checks them (422 per
 * currency, shown beside its field) and records the decision in the audit log.
 */
export default function AdminRates() {
  const { t } = useLingui()
  const [state, reload] = useAsync(() => adminApi.rates().then((answer) => answer.data), [])
  const [current, setCurrent] = useState<ExchangeRates>()
  return (
    <Page
      title={t`Taux de change`}
      intro={
        <p>
          <Trans>
            Les recherches comparent les prix en euros : indiquez combien d'unités de chaque devise vaut 1 €. Un taux publié chaque jour par
            la Banque centrale européenne les remplace quand <code>ECB_RATES_URL</code> est configuré.
          </Trans>
        </p>
      }
    >
      <Loaded
        state={state}
        current={current}
        loadingLabel={t`Chargement des taux…`}
        errorTitle={t`Impossible de charger les taux de change`}
        errorSubtitle={t`Veuillez réessayer.`}
        onRetry={() => reload()}
      >
        {(data) => <RatesForm key={JSON.stringify(data.rates)} data={data} onSaved={setCurrent} />}
      </Loaded>
    </Page>
  )
}

const RatesForm = ({ data, onSaved }: { data: ExchangeRates; onSaved: (data: ExchangeRates) => void }) => {
  const { t, i18n } = useLingui()
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(data.rates.map((r) => [r.currency, r.rate])))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [saving, setSaving] = useState(false)
  const sources: Record<string, string> = {
    DEMO: t`Démo`,
    ADMIN: t`Administrateur`,
    CLI: t`Ligne de commande`,
    ECB: t`BCE`
  }
  const changed = data.rates.filter((r) => r.currency !== REFERENCE_CURRENCY && values[r.currency]?.trim() !== r.rate)

  const save = async () => {
    setSaving(true)
    setErrors({})
    try {
      const answer = await adminApi.setRates(changed.map((r) => ({ currency: r.currency, rate: values[r.currency]!.trim() })))
      showToast("success", t`Taux de change enregistrés.`)
      onSaved(answer.data)
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) setErrors(error.fieldErrors())
      else throw error
    } finally {
      setSaving(false)
    }
  }

  return (
    <form
      className="rates-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      <div className="table-wrap">
        <table className="rates-table">
          <caption className="sr-only">{t`Taux de change pour 1 €`}</caption>
          <thead>
            <tr>
              <th scope="col">{t`Devise`}</th>
              <th scope="col">{t`Pour 1 €`}</th>
              <th scope="col">{t`Source`}</th>
              <th scope="col">{t`Mis à jour`}</th>
            </tr>
          </thead>
          <tbody>
            {data.rates.map((rate) => {
              const id = `rate-${rate.currency}`
              const error = errors[`rates.${rate.currency}`]
              return (
                <tr key={rate.currency} data-currency={rate.currency}>
                  <th scope="row">
                    <label htmlFor={id}>{rate.currency}</label>
                  </th>
                  <td>
                    <input
                      id={id}
                      name={rate.currency}
                      inputMode="decimal"
                      autoComplete="off"
                      value={values[rate.currency] ?? ""}
                      readOnly={rate.currency === REFERENCE_CURRENCY}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `${id}-error` : undefined}
                      onChange={(event) => setValues({ ...values, [rate.currency]: event.target.value })}
                    />
                    {error ? (
                      <p className="field-error" id={`${id}-error`}>
                        {error}
                      </p>
                    ) : null}
                  </td>
                  <td>{sources[rate.source] ?? rate.source}</td>
                  <td>{formatDateTime(i18n.locale, rate.updatedAt)}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
      {errors.rates ? <p className="field-error">{errors.rates}</p> : null}
      <button type="submit" className="button" disabled={saving || changed.length === 0}>
        {saving ? t`Enregistrement…` : t`Enregistrer les taux`}
      </button>
    </form>
  )
}
