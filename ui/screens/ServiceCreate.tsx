import { useLingui } from "@lingui/react/macro"
import { useEffect } from "react"
import { Link } from "wouter"
import { navigate } from "wouter/use-browser-location"
import { ApiError } from "../api/client"
import { catalogueApi, connectApi } from "../api/endpoints"
import { useAsync } from "../components/async"
import { useCategories } from "../components/catalogue"
import { Alert } from "../components/forms"
import { Loading, Page } from "../components/page"
import { currencyForCountry, EMPTY_SERVICE_FORM, ServiceForm } from "../components/ServiceForm"
import { showToast } from "../state/toasts"

/** Providers only (route guard); without a payment-ready account the provider is sent to set one up. */
export default function ServiceCreate() {
  const { t } = useLingui()
  const categories = useCategories()
  const [status, reload] = useAsync(() => connectApi.status(true).then(({ data }) => data.data), [])
  const ready = status.status === "ok" && status.data.hasAccount && status.data.chargesEnabled

  useEffect(() => {
    if (status.status === "ok" && !ready) navigate("/provider/payments/required", { replace: true })
  }, [status, ready])

  if (status.status === "loading" || (status.status === "ok" && !ready)) {
    return (
      <Page title={t`Créer un service`}>
        <Loading label={t`Vérification de votre compte de paiement…`} />
      </Page>
    )
  }

  return (
    <Page title={t`Créer un service`} intro={t`Décrivez votre prestation : elle sera visible dans le catalogue dès sa création.`}>
      {status.status === "ok" ? (
        <div className="alert alert-info banner" role="status">
          <p>{t`Votre compte de paiement est prêt : vous recevrez les paiements de vos clients.`}</p>
          <Link href="/provider/payments/setup" className="button-secondary">
            {t`Gérer mes paiements`}
          </Link>
        </div>
      ) : (
        <Alert kind="warning">
          <p>{t`Impossible de vérifier votre compte de paiement pour le moment.`}</p>
          <div className="actions">
            <button type="button" className="button-secondary" onClick={() => reload()}>
              {t`Réessayer`}
            </button>
            <Link href="/provider/payments/setup" className="button-secondary">
              {t`Configurer mes paiements`}
            </Link>
          </div>
        </Alert>
      )}
      <ServiceForm
        mode="create"
        initial={{ ...EMPTY_SERVICE_FORM, currency: currencyForCountry(status.status === "ok" ? status.data.country : null) }}
        categories={categories}
        submitLabel={t`Créer le service`}
        onSubmit={async (body, files) => {
          const answer = await catalogueApi.create(body)
          showToast("success", answer.message ?? t`Service créé.`)
          const id = answer.data.service.id
          try {
            for (const file of files) await catalogueApi.addPhoto(id, file)
          } catch (error) {
            // The service exists: its photos are finished on its edit form.
            if (!(error instanceof ApiError)) throw error
            showToast("error", t`Une photo n'a pas pu être ajoutée : ${error.message}`)
            navigate(`/services/${id}/edit`)
            return
          }
          navigate("/services/my")
        }}
      />
    </Page>
  )
}
