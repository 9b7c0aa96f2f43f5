import { useLingui } from "@lingui/react/macro"
import { useId, useMemo, useState, type FormEvent } from "react"
import { useSearch } from "wouter"
import { ApiError } from "../api/client"
import { connectApi } from "../api/endpoints"
import type { ConnectStatus } from "../api/contract"
import { PAYOUT_COUNTRIES } from "../catalogue/rules"
import { useAsync } from "../components/async"
import { Alert } from "../components/forms"
import { Loaded } from "../components/loaded"
import { Page } from "../components/page"
import { disabledReasonLabel, requirementLabel } from "../payments/requirements"

/** Failures this screen shows in its red box; a 401 or 403 still gets the global handling. */
const SHOWN = [0, 400, 404, 409, 422, 429, 500, 502, 503]

const useCountryName = () => {
  const { i18n } = useLingui()
  return useMemo(() => {
    let names: Intl.DisplayNames | undefined
    try {
      names = new Intl.DisplayNames([i18n.locale], { type: "region" })
    } catch {
      names = undefined
    }
    return (code: string) => names?.of(code) ?? code
  }, [i18n.locale])
}

/** What the payment provider still needs, and why it restricted the account, in words. */
const Requirements = ({ status }: { status: ConnectStatus }) => {
  const { t, i18n } = useLingui()
  if (status.requirementsDue.length === 0 && status.disabledReason === null) return null
  // One line per distinct need (several codes may name the same one).
  const needs = [...new Set(status.requirementsDue.map((code) => i18n._(requirementLabel(code))))]
  return (
    <div className="alert alert-warning" role="status" data-testid="payout-requirements">
      {status.disabledReason !== null && <p>{i18n._(disabledReasonLabel(status.disabledReason))}</p>}
      {needs.length > 0 && (
        <>
          <p>{t`Le prestataire de paiement attend encore :`}</p>
          <ul>
            {needs.map((need) => (
              <li key={need}>{need}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}

const StatusPanel = ({ status }: { status: ConnectStatus }) => {
  const { t } = useLingui()
  const countryName = useCountryName()
  const headingId = useId()
  const yesNo = (flag: boolean) => <span className={flag ? "flag flag-yes" : "flag flag-no"}>{flag ? t`Oui` : t`Non`}</span>
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t`État de votre compte`}</h2>
      <Requirements status={status} />
      {status.hasAccount ? (
        <dl className="facts">
          <dt>{t`Identifiant du compte`}</dt>
          <dd>
            <code>{status.accountId}</code>
          </dd>
          <dt>{t`Pays`}</dt>
          <dd>{status.country ? countryName(status.country) : t`Non renseigné`}</dd>
          <dt>{t`Paiements par carte activés`}</dt>
          <dd>{yesNo(status.chargesEnabled)}</dd>
          <dt>{t`Virements activés`}</dt>
          <dd>{yesNo(status.payoutsEnabled)}</dd>
          <dt>{t`Informations fournies`}</dt>
          <dd>{yesNo(status.detailsSubmitted)}</dd>
        </dl>
      ) : (
        <p>{t`Aucun compte de paiement n'a encore été créé.`}</p>
      )}
    </section>
  )
}

export default function PaymentsSetup() {
  const { t } = useLingui()
  const countryName = useCountryName()
  const params = new URLSearchParams(useSearch())
  const returned = params.get("onboarding")
  const countryId = useId()
  const [state, reload] = useAsync(() => connectApi.status(SHOWN).then(({ data }) => data.data), [])
  const [chosen, setChosen] = useState<string>()
  const [countryError, setCountryError] = useState<string>()
  const [failure, setFailure] = useState<string>()
  const [starting, setStarting] = useState(false)
  const [opening, setOpening] = useState(false)

  const status = state.status === "ok" ? state.data : undefined
  const country = chosen ?? status?.country ?? ""
  const countries = useMemo(
    () => [...PAYOUT_COUNTRIES].map((code) => ({ code, name: countryName(code) })).sort((a, b) => a.name.localeCompare(b.name)),
    [countryName]
  )
  const generic = t`Une erreur est survenue. Réessayez plus tard.`

  const activate = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(undefined)
    setCountryError(undefined)
    if (country === "") {
      setCountryError(t`Veuillez sélectionner votre pays.`)
      document.getElementById(countryId)?.focus()
      return
    }
    setStarting(true)
    try {
      const { data } = await connectApi.onboarding(country, SHOWN)
      // The payment provider's onboarding (in the sandbox, a local page) comes back to this screen.
      window.location.assign(data.data.accountLink)
    } catch (error) {
      setStarting(false)
      if (!(error instanceof ApiError)) throw error
      const field = error.fieldErrors().country
      if (error.status === 422 && field) {
        setCountryError(field)
        document.getElementById(countryId)?.focus()
      } else setFailure(error.message || generic)
    }
  }

  const openDashboard = async () => {
    setFailure(undefined)
    setOpening(true)
    // Opened now, while the click still counts as a user gesture; filled in once the link is known.
    const tab = window.open("", "_blank")
    try {
      const { data } = await connectApi.dashboard(SHOWN)
      const url = data.data.dashboardUrl
      if (!url) throw new Error("no dashboard URL")
      if (tab && !tab.closed) {
        tab.opener = null
        tab.location.href = url
      } else window.location.assign(url)
    } catch (error) {
      tab?.close()
      setFailure(error instanceof ApiError && error.message ? error.message : generic)
    } finally {
      setOpening(false)
    }
  }

  const returnNotice =
    returned === "complete" ? (
      status?.chargesEnabled ? (
        <Alert kind="success">{t`Configuration terminée : les paiements par carte sont activés sur votre compte.`}</Alert>
      ) : (
        <Alert kind="info">{t`Vous êtes de retour de la configuration. Si des informations manquent encore, reprenez-la ci-dessous.`}</Alert>
      )
    ) : returned === "refresh" ? (
      <Alert kind="warning">{t`La configuration n'est pas terminée. Reprenez-la pour activer vos paiements.`}</Alert>
    ) : null

  return (
    <Page
      title={t`Configuration des paiements`}
      intro={t`Pour publier des services et recevoir l'argent de vos clients, ouvrez un compte de paiement connecté. La configuration se fait chez notre prestataire de paiement sécurisé.`}
    >
      {returnNotice}
      {failure ? <Alert kind="error">{failure}</Alert> : null}
      <Loaded
        state={state}
        loadingLabel={t`Chargement de l'état de votre compte…`}
        failure={() => (
          <Alert kind="error">
            <p>{t`Impossible de charger l'état de votre compte de paiement.`}</p>
            <button type="button" className="button-secondary" onClick={() => reload()}>
              {t`Réessayer`}
            </button>
          </Alert>
        )}
      >
        {(status) => (
          <div className="payments-grid">
            <form className="form" noValidate onSubmit={(event) => void activate(event)}>
              <div className="field">
                <label htmlFor={countryId}>{t`Pays de votre compte`}</label>
                <select
                  id={countryId}
                  name="country"
                  value={country}
                  required
                  disabled={status.hasAccount}
                  aria-invalid={countryError ? true : undefined}
                  aria-describedby={`${countryId}-hint${countryError ? ` ${countryId}-error` : ""}`}
                  onChange={(event) => {
                    setChosen(event.target.value)
                    setCountryError(undefined)
                  }}
                >
                  <option value="">{t`Choisissez votre pays`}</option>
                  {countries.map(({ code, name }) => (
                    <option key={code} value={code}>
                      {name}
                    </option>
                  ))}
                </select>
                <p className="field-hint" id={`${countryId}-hint`}>
                  {status.hasAccount
                    ? t`Le pays d'un compte existant ne peut plus être changé.`
                    : t`Le pays où vous exercez et où votre banque est établie.`}
                </p>
                {countryError ? (
                  <p className="field-error" id={`${countryId}-error`}>
                    {countryError}
                  </p>
                ) : null}
              </div>
              <div className="actions">
                <button type="submit" className="button" disabled={starting} aria-busy={starting || undefined}>
                  {starting ? <span className="spinner" aria-hidden="true" /> : null}
                  {!status.hasAccount
                    ? t`Activer les paiements`
                    : status.chargesEnabled
                      ? t`Mettre à jour mes informations`
                      : t`Reprendre la configuration`}
                </button>
                <button type="button" className="button-secondary" onClick={() => reload({ quiet: true })}>
                  {t`Actualiser l'état`}
                </button>
                <button
                  type="button"
                  className="button-secondary"
                  disabled={!status.hasAccount || opening}
                  aria-busy={opening || undefined}
                  onClick={() => void openDashboard()}
                >
                  {t`Ouvrir le tableau de bord`}
                  <span className="sr-only"> {t`(nouvel onglet)`}</span>
                </button>
              </div>
            </form>
            <StatusPanel status={status} />
          </div>
        )}
      </Loaded>
    </Page>
  )
}
