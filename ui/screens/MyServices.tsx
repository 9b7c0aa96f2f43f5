import { useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useState } from "react"
import { Link } from "wouter"
import { ApiError } from "../api/client"
import { catalogueApi } from "../api/endpoints"
import type { Service } from "../api/contract"
import { useAsync } from "../components/async"
import { Duration, failureText, Loaded, PricePerHour } from "../components/catalogue"
import { ConfirmDialog } from "../components/ConfirmDialog"
import { Alert } from "../components/forms"
import { Page } from "../components/page"
import { userAtom } from "../state/session"
import { showToast } from "../state/toasts"

type Action = "delete" | "activate" | "deactivate" | "duplicate"

const ServiceRow = ({
  service,
  busy,
  onAction
}: {
  service: Service
  busy: boolean
  onAction: (service: Service, action: Action) => void
}) => {
  const { t } = useLingui()
  const active = service.status === "ACTIVE"
  const title = service.title
  return (
    <li className="card my-service">
      <div className="my-service-head">
        <h2 className="service-title">
          <Link href={`/services/${service.id}`}>{title}</Link>
        </h2>
        <span className={active ? "badge badge-active" : "badge badge-muted"}>{active ? t`Actif` : t`Inactif`}</span>
      </div>
      <p className="service-facts">
        <PricePerHour price={service.price} currency={service.currency} />
        <span>{service.category.name}</span>
        <span>
          <Duration minutes={service.duration} />
        </span>
        <span>{service.location}</span>
      </p>
      <div className="card-actions" role="group" aria-label={t`Actions pour ${title}`}>
        <Link href={`/services/${service.id}/edit`} className="button-secondary">
          {t`Modifier`}
          <span className="sr-only"> : {title}</span>
        </Link>
        <button
          type="button"
          className="button-secondary"
          aria-disabled={busy || undefined}
          onClick={() => !busy && onAction(service, active ? "deactivate" : "activate")}
        >
          {active ? t`Désactiver` : t`Activer`}
          <span className="sr-only"> : {title}</span>
        </button>
        <button
          type="button"
          className="button-secondary"
          aria-disabled={busy || undefined}
          onClick={() => !busy && onAction(service, "duplicate")}
        >
          {t`Dupliquer`}
          <span className="sr-only"> : {title}</span>
        </button>
        <button
          type="button"
          className="button-ghost button-danger-text"
          aria-disabled={busy || undefined}
          onClick={() => !busy && onAction(service, "delete")}
        >
          {t`Supprimer`}
          <span className="sr-only"> : {title}</span>
        </button>
      </div>
    </li>
  )
}

export default function MyServices() {
  const { t, i18n } = useLingui()
  const user = useAtomValue(userAtom)
  const [state, reload] = useAsync(() => catalogueApi.ofUser(user?.id ?? "").then(({ data }) => data.services), [user?.id, i18n.locale])
  const [busyId, setBusyId] = useState<string>()
  const [confirming, setConfirming] = useState<Service>()
  const [failure, setFailure] = useState<string>()

  const run = async (service: Service, action: Action) => {
    setBusyId(service.id)
    setFailure(undefined)
    try {
      const answer = await catalogueApi.act(service.id, action)
      const fallback = {
        delete: t`Service supprimé.`,
        activate: t`Service activé.`,
        deactivate: t`Service désactivé.`,
        duplicate: t`Service dupliqué.`
      }[action]
      showToast("success", answer.message ?? fallback)
      setConfirming(undefined)
      reload({ quiet: true })
    } catch (error) {
      const reason = error instanceof ApiError ? error.message || error.code : failureText(error)
      setFailure(action === "delete" ? t`La suppression a échoué : ${reason}` : t`L'action a échoué : ${reason}`)
      setConfirming(undefined)
    } finally {
      setBusyId(undefined)
    }
  }

  const onAction = (service: Service, action: Action) => {
    if (action === "delete") setConfirming(service)
    else void run(service, action)
  }

  const confirmTitle = confirming?.title ?? ""
  return (
    <Page title={t`Mes services`}>
      <div className="actions page-actions">
        <Link href="/services/create" className="button">
          {t`Créer un service`}
        </Link>
        <Link href="/provider/payments/setup" className="button-secondary">
          {t`Mes paiements`}
        </Link>
        <Link href="/provider/availability" className="button-secondary">
          {t`Mes disponibilités`}
        </Link>
      </div>
      {failure ? <Alert kind="error">{failure}</Alert> : null}
      <Loaded
        state={state}
        loadingLabel={t`Chargement de vos services…`}
        errorTitle={t`Impossible de charger vos services`}
        errorSubtitle={t`Vérifiez votre connexion puis réessayez.`}
        onRetry={() => reload()}
      >
        {(data) =>
          data.length === 0 ? (
            <div className="empty-state">
              <p className="empty-title">{t`Vous n'avez pas encore de service`}</p>
              <p>{t`Créez votre premier service pour qu'il apparaisse dans le catalogue.`}</p>
              <Link href="/services/create" className="button">
                {t`Créer un service`}
              </Link>
            </div>
          ) : (
            <ul className="my-services">
              {data.map((service) => (
                <ServiceRow key={service.id} service={service} busy={busyId === service.id} onAction={onAction} />
              ))}
            </ul>
          )
        }
      </Loaded>
      {confirming ? (
        <ConfirmDialog
          title={t`Supprimer ce service ?`}
          confirmLabel={t`Supprimer`}
          busy={busyId === confirming.id}
          onConfirm={() => void run(confirming, "delete")}
          onCancel={() => setConfirming(undefined)}
        >
          <p>{t`« ${confirmTitle} » n'apparaîtra plus dans le catalogue. Les réservations passées restent dans votre historique.`}</p>
        </ConfirmDialog>
      ) : null}
    </Page>
  )
}
