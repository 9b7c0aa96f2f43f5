import { useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { Link } from "wouter"
import { navigate } from "wouter/use-browser-location"
import { ApiError } from "../api/client"
import { catalogueApi } from "../api/endpoints"
import type { Service } from "../api/contract"
import { useAsync } from "../components/async"
import { failureText, useCategories } from "../components/catalogue"
import { Loaded } from "../components/loaded"
import { Page } from "../components/page"
import { ServiceForm, type ServiceFormInitial } from "../components/ServiceForm"
import { userAtom } from "../state/session"
import { showToast } from "../state/toasts"

const formOf = (service: Service): ServiceFormInitial => ({
  title: service.title,
  description: service.description,
  price: String(service.price),
  duration: String(service.duration),
  location: service.location,
  category: String(service.categoryId),
  newCategoryName: "",
  lat: service.lat === 0 && service.lng === 0 ? "" : String(service.lat),
  lng: service.lat === 0 && service.lng === 0 ? "" : String(service.lng),
  currency: service.currency
})

class NotMine extends Error {}

export default function ServiceEdit({ params }: { params: { id: string } }) {
  const { t } = useLingui()
  const user = useAtomValue(userAtom)
  const categories = useCategories()
  const id = params.id
  const [state, reload] = useAsync(async () => {
    const { data } = await catalogueApi.service(id)
    // Someone else's service is "not found" here: the screen edits only one's own.
    if (data.service.userId !== user?.id) throw new NotMine()
    return data.service
  }, [id, user?.id])

  const failure = (error: unknown) => {
    const missing = error instanceof NotMine || (error instanceof ApiError && (error.status === 404 || error.status === 403))
    return (
      <Page title={missing ? t`Service introuvable` : t`Modifier le service`}>
        <div className={missing ? "empty-state" : "alert alert-error"} role={missing ? undefined : "alert"}>
          <p>
            {missing
              ? t`Le service que vous recherchez n'existe pas ou vous n'avez pas les droits pour le modifier.`
              : t`Erreur lors du chargement du service : ${failureText(error)}`}
          </p>
          <div className="actions">
            {missing ? null : (
              <button type="button" className="button-secondary" onClick={() => reload()}>
                {t`Réessayer`}
              </button>
            )}
            <Link href="/services/my" className="button">
              {t`Retour à mes services`}
            </Link>
          </div>
        </div>
      </Page>
    )
  }
  return (
    <Loaded state={state} wrapLoading={(spinner) => <Page title={t`Modifier le service`}>{spinner}</Page>} failure={failure}>
      {(service) => (
        <Page title={t`Modifier le service`} intro={service.title}>
          <ServiceForm
            mode="edit"
            initial={formOf(service)}
            categories={categories}
            photos={{ serviceId: service.id, initial: service.photos }}
            submitLabel={t`Enregistrer les modifications`}
            onSubmit={async (body) => {
              const answer = await catalogueApi.update(service.id, body)
              showToast("success", answer.message ?? t`Service mis à jour.`)
              navigate("/services/my")
            }}
          />
          <p>
            <Link href="/services/my">{t`Annuler et revenir à mes services`}</Link>
          </p>
        </Page>
      )}
    </Loaded>
  )
}
