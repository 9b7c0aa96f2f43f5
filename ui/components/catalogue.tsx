// Pieces shared by the catalogue screens: prices, ratings, durations, provider avatars, service
// cards, paging and the list's error state.

import { plural } from "@lingui/core/macro"
import { Plural, useLingui } from "@lingui/react/macro"
import { useEffect, useId, useState } from "react"
import { useAtomValue } from "jotai"
import { Link } from "wouter"
import { catalogueApi } from "../api/endpoints"
import { browserLanguages } from "../i18n"
import { type Category, currencyForViewer, type Provider, type Service, type Sort, type User } from "../api/contract"
import { currencySymbolIn } from "../../src/platform/money"
import { currencyChoiceAtom } from "../state/currency"
import { formatApproxPrice, formatDistance, formatNumber, formatPrice, formatRating } from "../format"
import { loginRedirect } from "../routing/access"
import { RADIUS_CHOICES } from "../catalogue/places"
import {
  PRICE_RANGES,
  type PriceRange,
  CARD_DESCRIPTION_MAX,
  COPIED_NOTICE_MS,
  cutText,
  distanceKm,
  durationParts,
  hasCoordinates,
  initials,
  type Position
} from "../catalogue/rules"
import { useAsync } from "./async"
import { FavoriteHeart } from "./favorites"
import { CardCover } from "./photos"
import { VerifiedIdentityMark } from "./trust"

/**
 * The service's own hourly price and, when the viewer reads another currency, the server's conversion
 * at today's rate, marked approximate ("45,50 € / heure ≈ 74 $CA").
 */
export const PricePerHour = ({ price, currency, approx }: { price: number; currency: string; approx?: Service["approxPrice"] }) => {
  const { t, i18n } = useLingui()
  const amount = formatPrice(i18n.locale, price, currency)
  const converted = approx && approx.currency !== currency ? formatApproxPrice(i18n.locale, approx.price, approx.currency) : undefined
  return (
    <span className="price">
      {t`${amount} / heure`}
      {converted ? (
        <span className="price-approx" title={t`Converti au taux du jour, à titre indicatif`}>
          {" "}
          {t`≈ ${converted}`}
        </span>
      ) : null}
    </span>
  )
}

/**
 * The currency prices and price ranges read in: the person's choice, else their browser's region's
 * (fr-CA: CAD, fr-FR: EUR), else their language's; every catalogue call sends it to the server.
 */
export const useViewerCurrency = () => currencyForViewer({ choice: useAtomValue(currencyChoiceAtom), ...useViewerPlace() })

/** What decides the viewer's currency without a choice: their browser's languages and the UI's. */
export const useViewerPlace = () => {
  const { i18n } = useLingui()
  return { browserLanguages: browserLanguages(), language: i18n.locale.startsWith("en") ? "en" : "fr" }
}

/**
 * Five stars filled to the rating, its score and its count: one image to assistive technology,
 * named "4,5 sur 5, 12 avis"; "Nouveau" (no review yet) rather than five empty stars.
 */
export const StarRating = ({ rating, reviewCount, compact = false }: { rating: number; reviewCount: number; compact?: boolean }) => {
  const { t, i18n } = useLingui()
  if (reviewCount === 0) return <span className="star-rating star-rating-new">{t`Nouveau`}</span>
  const score = formatRating(i18n.locale, rating)
  const count = plural(reviewCount, { one: "# avis", other: "# avis" })
  const filled = `${(Math.max(0, Math.min(5, rating)) / 5) * 100}%`
  return (
    <span className="star-rating" role="img" aria-label={t`${score} sur 5, ${count}`}>
      <span className="star-rating-stars" aria-hidden="true">
        ★★★★★
        <span className="star-rating-fill" style={{ width: filled }}>
          ★★★★★
        </span>
      </span>
      <span className="star-rating-score" aria-hidden="true">
        {score}
      </span>
      <span className="star-rating-count" aria-hidden="true">
        {compact ? `(${reviewCount})` : `(${count})`}
      </span>
    </span>
  )
}

/** Under 1 h in minutes, under 24 h in hours and minutes, then days and hours. */
export const Duration = ({ minutes }: { minutes: number }) => {
  const { t } = useLingui()
  const parts = durationParts(minutes)
  switch (parts.unit) {
    case "minutes": {
      const count = parts.minutes
      return <>{t`${count} min`}</>
    }
    case "hours": {
      const { hours, minutes: rest } = parts
      return <>{rest === 0 ? t`${hours} h` : t`${hours} h ${rest} min`}</>
    }
    case "days": {
      const { days, hours } = parts
      return (
        <>
          <Plural value={days} one="# jour" other="# jours" />
          {hours > 0 ? <> {t`${hours} h`}</> : null}
        </>
      )
    }
  }
}

/** A provider's picture, or their initials when there is none or it fails to load. */
export const Avatar = ({
  user,
  size = 40
}: {
  user: Pick<Provider, "firstName" | "lastName"> & { readonly avatarUrl: string | null }
  size?: number
}) => {
  const [broken, setBroken] = useState(false)
  if (user.avatarUrl && !broken) {
    return <img className="avatar" src={user.avatarUrl} alt="" width={size} height={size} onError={() => setBroken(true)} />
  }
  return (
    <span className="avatar avatar-initials" aria-hidden="true" style={{ width: size, height: size }}>
      {initials(user.firstName, user.lastName)}
    </span>
  )
}

/** Copies a link to the clipboard; "copied" (or "failed") shows for COPIED_NOTICE_MS, 1.5 s. */
export const useCopyLink = () => {
  const [notice, setNotice] = useState<"copied" | "failed">()
  useEffect(() => {
    if (!notice) return
    const timer = setTimeout(() => setNotice(undefined), COPIED_NOTICE_MS)
    return () => clearTimeout(timer)
  }, [notice])
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url)
      setNotice("copied")
    } catch {
      setNotice("failed")
    }
  }
  return { notice, copy }
}

/** The live notice of useCopyLink. */
export const CopyNotice = ({ notice }: { notice: "copied" | "failed" | undefined }) => {
  const { t } = useLingui()
  return (
    <span role="status" className="share-notice">
      {notice === "copied" ? t`Lien copié` : notice === "failed" ? t`Copie impossible` : ""}
    </span>
  )
}

/** The public profile's address. */
export const profileUrl = (id: string) => `${location.origin}/profile/${encodeURIComponent(id)}`

/** Shares the provider's public profile: the Web Share API, else the link copied with a 1.5 s notice. */
export const ShareProfileButton = ({ provider }: { provider: Provider }) => {
  const { t } = useLingui()
  const { notice, copy } = useCopyLink()
  const name = `${provider.firstName} ${provider.lastName}`
  const share = async () => {
    const url = profileUrl(provider.id)
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ title: name, url })
        return
      } catch (error) {
        if (error instanceof DOMException && error.name === "AbortError") return
      }
    }
    await copy(url)
  }
  return (
    <span className="share">
      <button type="button" className="button-ghost button-small" onClick={() => void share()}>
        {t`Partager le profil`}
        <span className="sr-only"> {t`de ${name}`}</span>
      </button>
      <CopyNotice notice={notice} />
    </span>
  )
}

/** Book now: visitors log in first (with a way back), users open the service. */
export const bookHref = (service: Service, user: User | null) =>
  user ? `/services/${service.id}` : `${loginRedirect(`/services/${service.id}`)}&message=book`

/** An image-first card: media, category, title, provider, stars, distance, price; the provider's heart on the media. */
export const ServiceCard = ({ service, user, position }: { service: Service; user: User | null; position: Position | null }) => {
  const { t, i18n } = useLingui()
  const titleId = useId()
  const provider = `${service.user.firstName} ${service.user.lastName}`
  const km = service.distanceKm ?? (position && hasCoordinates(service) ? distanceKm(position, service) : undefined)
  const own = user?.id === service.userId
  return (
    <li className="card service-card">
      <article aria-labelledby={titleId}>
        <div className="service-card-media">
          <CardCover service={service} />
          <div className="service-card-heart">
            <FavoriteHeart providerId={service.userId} name={provider} />
          </div>
        </div>
        <div className="service-card-body">
          <p className="service-category">{service.category.name}</p>
          <h2 id={titleId} className="service-title">
            {service.title}
          </h2>
          <p className="service-description">{cutText(service.description, CARD_DESCRIPTION_MAX)}</p>
          <div className="provider-line">
            <Avatar user={service.user} size={28} />
            <Link href={`/profile/${service.userId}`} className="provider-name">
              <span className="sr-only">{t`Voir le profil de`} </span>
              {provider}
            </Link>
            <VerifiedIdentityMark verified={service.user.identityVerified} />
            <ShareProfileButton provider={service.user} />
          </div>
          <p className="service-card-meta">
            <StarRating rating={service.rating} reviewCount={service.reviewCount} compact />
            <span className="service-location">
              <span className="sr-only">{t`Lieu :`} </span>
              {service.location}
              {km !== undefined ? <span className="distance"> · {t`à ${formatDistance(i18n.locale, km)}`}</span> : null}
            </span>
          </p>
          <p className="service-card-price">
            <PricePerHour price={service.price} currency={service.currency} approx={service.approxPrice} />
          </p>
          <div className="card-actions">
            <Link href={`/services/${service.id}`} className="button-secondary button-small">
              {t`Voir les détails`}
              <span className="sr-only"> : {service.title}</span>
            </Link>
            {own ? null : (
              <Link href={bookHref(service, user)} className="button button-small">
                {t`Réserver`}
                <span className="sr-only"> : {service.title}</span>
              </Link>
            )}
          </div>
        </div>
      </article>
    </li>
  )
}

/** Previous / next and "page x / total". */
export const Pager = ({
  page,
  pages,
  onPage,
  always = false
}: {
  page: number
  pages: number
  onPage: (page: number) => void
  always?: boolean
}) => {
  const { t } = useLingui()
  if (pages <= 1 && !always) return null
  pages = Math.max(1, pages)
  return (
    <nav className="pager" aria-label={t`Pagination`}>
      <button type="button" className="button-secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t`Précédent`}
      </button>
      <p>{t`Page ${page} / ${pages}`}</p>
      <button type="button" className="button-secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t`Suivant`}
      </button>
    </nav>
  )
}

// Loading, failure and data states: one component for every screen (./loaded), re-exported for the
// catalogue's screens.
export { failureText, LoadError, Loaded } from "./loaded"

/** The categories in the UI language (cached 10 min); an empty list while loading or on failure. */
export const useCategories = (): ReadonlyArray<Category> | undefined => {
  const { i18n } = useLingui()
  const [state] = useAsync(() => catalogueApi.categories().then(({ data }) => data.categories), [i18n.locale])
  return state.status === "ok" ? state.data : state.status === "error" ? [] : undefined
}

export const useSortLabels = (): Record<Sort, string> => {
  const { t } = useLingui()
  return {
    newest: t`Plus récents`,
    price_asc: t`Prix croissant`,
    price_desc: t`Prix décroissant`,
    rating: t`Mieux notés`,
    distance: t`Distance`,
    relevance: t`Pertinence`
  }
}

/** The price ranges in the UI's number format; hourly prices in the viewer's currency (services in others are converted). */
const usePriceLabels = (): Record<PriceRange, string> => {
  const { t, i18n } = useLingui()
  const number = new Intl.NumberFormat(i18n.locale)
  const [m0, m50, m100, m200] = [0, 50, 100, 200].map((n) => number.format(n))
  return {
    "0-50": t`${m0} à ${m50}`,
    "50-100": t`${m50} à ${m100}`,
    "100-200": t`${m100} à ${m200}`,
    "200+": t`${m200} et plus`
  }
}

/** The hourly price range filter of the list screens. */
export const PriceRangeField = ({ value, onChange }: { value: PriceRange | undefined; onChange: (range: string) => void }) => {
  const { t } = useLingui()
  const id = useId()
  const labels = usePriceLabels()
  const { i18n } = useLingui()
  const symbol = currencySymbolIn(i18n.locale, useViewerCurrency())
  return (
    <div className="field">
      <label htmlFor={id}>{t`Prix horaire en ${symbol}`}</label>
      <select id={id} name="price" value={value ?? ""} onChange={(event) => onChange(event.target.value)}>
        <option value="">{t`Tous les prix`}</option>
        {PRICE_RANGES.map((range) => (
          <option key={range} value={range}>
            {labels[range]}
          </option>
        ))}
      </select>
    </div>
  )
}

/** How far around the chosen place (5 to 100 km). */
export const RadiusField = ({ value, onChange }: { value: number; onChange: (radius: string) => void }) => {
  const { t, i18n } = useLingui()
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{t`Rayon`}</label>
      <select id={id} name="radius" value={String(value)} onChange={(event) => onChange(event.target.value)}>
        {RADIUS_CHOICES.map((km) => (
          <option key={km} value={String(km)}>
            {formatDistance(i18n.locale, km)}
          </option>
        ))}
      </select>
    </div>
  )
}
