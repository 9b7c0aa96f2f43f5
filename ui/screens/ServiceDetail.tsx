import { useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useId } from "react"
import { Link } from "wouter"
import { ApiError } from "../api/client"
import { catalogueApi } from "../api/endpoints"
import type { ServiceDetail as Detail, User } from "../api/types"
import { knownPosition } from "../catalogue/geolocation"
import { distanceKm, hasCoordinates, SHARE_DESCRIPTION_MAX, cutText } from "../catalogue/rules"
import { useAsync } from "../components/async"
import { Avatar, bookHref, Duration, failureText, formatDistance, PricePerHour, Rating, ShareProfileButton } from "../components/catalogue"
import { useShareMetadata } from "../components/meta"
import { Loading, Page } from "../components/page"
import { userAtom } from "../state/session"

const BookAction = ({ service, user }: { service: Detail; user: User | null }) => {
  const { t } = useLingui()
  const hintId = useId()
  if (user?.id === service.userId) {
    return (
      <div className="book-box">
        <p>{t`C'est votre service : vos clients le réservent depuis cette page.`}</p>
        <Link href={`/services/${service.id}/edit`} className="button-secondary">
          {t`Modifier ce service`}
        </Link>
      </div>
    )
  }
  if (!user) {
    return (
      <div className="book-box">
        <Link href={bookHref(service, user)} className="button">
          {t`Réserver ce service`}
        </Link>
        <p className="field-hint">{t`Connectez-vous pour réserver.`}</p>
      </div>
    )
  }
  // The booking form and payment come with the booking feature: say so rather than pretend.
  return (
    <div className="book-box">
      <button type="button" className="button" disabled aria-describedby={hintId}>
        {t`Réserver ce service`}
      </button>
      <p className="field-hint" id={hintId}>
        {t`La réservation en ligne ouvre bientôt. En attendant, contactez le prestataire.`}
      </p>
    </div>
  )
}

const Reviews = ({ service }: { service: Detail }) => {
  const { t, i18n } = useLingui()
  const headingId = useId()
  const date = new Intl.DateTimeFormat(i18n.locale, { dateStyle: "long" })
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t`Avis des clients`}</h2>
      {service.reviews.length === 0 ? (
        <p className="empty-state">{t`Aucun avis pour le moment.`}</p>
      ) : (
        <ul className="reviews">
          {service.reviews.map((review, index) => {
            const author = `${review.client.firstName} ${review.client.lastName.slice(0, 1)}.`
            const rating = review.rating
            return (
              <li key={`${review.createdAt}-${index}`} className="review">
                <p className="review-head">
                  <strong>{author}</strong> · <span>{t`${rating} sur 5`}</span> · <time dateTime={review.createdAt}>{date.format(new Date(review.createdAt))}</time>
                </p>
                <p>{review.comment}</p>
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}

const Loaded = ({ service }: { service: Detail }) => {
  const { t, i18n } = useLingui()
  const user = useAtomValue(userAtom)
  const provider = `${service.user.firstName} ${service.user.lastName}`
  const position = knownPosition()
  const km = service.distanceKm ?? (position && hasCoordinates(service) ? distanceKm(position, service) : undefined)
  useShareMetadata({
    title: service.title,
    description: cutText(service.description, SHARE_DESCRIPTION_MAX),
    url: `${location.origin}/services/${service.id}`,
    type: "product"
  })
  return (
    <Page title={service.title}>
      <div className="detail-grid">
        <div>
          <p className="service-category">{service.category.name}</p>
          {service.status === "INACTIVE" ? <p className="badge badge-muted">{t`Inactif : ce service n'apparaît pas dans le catalogue.`}</p> : null}
          <h2>{t`Description`}</h2>
          <p className="description">{service.description}</p>
        </div>
        <aside className="panel detail-side" aria-label={t`Résumé du service`}>
          <dl className="facts">
            <dt>{t`Prix`}</dt>
            <dd>
              <PricePerHour price={service.price} currency={service.currency} />
            </dd>
            <dt>{t`Note moyenne`}</dt>
            <dd>
              <Rating rating={service.rating} reviewCount={service.reviewCount} />
            </dd>
            <dt>{t`Durée`}</dt>
            <dd>
              <Duration minutes={service.duration} />
            </dd>
            <dt>{t`Lieu`}</dt>
            <dd>
              {service.location}
              {km !== undefined ? <> · {t`à ${formatDistance(i18n.locale, km)}`}</> : null}
            </dd>
            <dt>{t`Prestataire`}</dt>
            <dd className="provider-line">
              <Avatar user={service.user} />
              <span>{provider}</span>
            </dd>
          </dl>
          <p className="provider-links">
            <Link href={`/profile/${service.userId}`}>
              {t`Voir le profil`}
              <span className="sr-only"> {t`de ${provider}`}</span>
            </Link>
            <ShareProfileButton provider={service.user} />
          </p>
          <BookAction service={service} user={user} />
          {user && user.id !== service.userId ? (
            <Link href={`/messaging?userId=${encodeURIComponent(service.userId)}`} className="button-secondary">
              {t`Contacter le prestataire`}
            </Link>
          ) : null}
        </aside>
      </div>
      <Reviews service={service} />
      <p>
        <Link href="/services">{t`← Retour aux services`}</Link>
      </p>
    </Page>
  )
}

export default function ServiceDetail({ params }: { params: { id: string } }) {
  const { t, i18n } = useLingui()
  const id = params.id
  const [state, reload] = useAsync(() => catalogueApi.service(id, knownPosition() ?? undefined).then(({ data }) => data), [id, i18n.locale])
  if (state.status === "ok") return <Loaded service={state.data.service} />
  if (state.status === "loading") {
    return (
      <Page title={t`Détail du service`}>
        <Loading />
      </Page>
    )
  }
  const notFound = state.error instanceof ApiError && state.error.status === 404
  return (
    <Page title={notFound ? t`Service introuvable` : t`Erreur lors du chargement du service`}>
      <div className={notFound ? "empty-state" : "alert alert-error"} role={notFound ? undefined : "alert"}>
        <p>{notFound ? t`Ce service n'existe pas ou n'est plus disponible.` : failureText(state.error)}</p>
        <div className="actions">
          {notFound ? null : (
            <button type="button" className="button-secondary" onClick={() => reload()}>
              {t`Réessayer`}
            </button>
          )}
          <Link href="/services" className="button">
            {t`Retour aux services`}
          </Link>
        </div>
      </div>
    </Page>
  )
}
