import { plural } from "@lingui/core/macro"
import { Plural, useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useState } from "react"
import { Link, useLocation, useParams } from "wouter"
import { ApiError } from "../api/client"
import { profileApi } from "../api/endpoints"
import type { PublicProfile as Profile } from "../api/contract"
import { loginRedirect } from "../routing/access"
import { useAsync } from "../components/async"
import { Loaded, LoadError, ServiceCard, StarRating, useViewerCurrency } from "../components/catalogue"
import { useShareMetadata } from "../components/meta"
import { Page } from "../components/page"
import { Chips, ProfilePhoto, ShareLink } from "../components/profile"
import { ResponseTimeFact, VerifiedIdentityMark } from "../components/trust"
import { BlockAction, ReportProfileAction } from "../components/messaging/safety"
import { formatMonthYear, formatNumber, formatPercent } from "../format"
import { favoriteIdsAtom, toggleFavorite } from "../state/favorites"
import { userAtom } from "../state/session"
import { siteName } from "../brand"

const FavoriteButton = ({ profile }: { profile: Profile }) => {
  const { t } = useLingui()
  const user = useAtomValue(userAtom)
  const [, navigate] = useLocation()
  // The same state as the hearts of the service cards (loaded once, changed by any of them).
  const favorites = useAtomValue(favoriteIdsAtom)
  const favorite = favorites ? favorites.has(profile.id) : profile.isFavorite
  const [busy, setBusy] = useState(false)
  if (profile.isOwner) return null
  const toggle = async () => {
    if (!user) {
      // The login page says why, and leads back here.
      navigate(`${loginRedirect(`/profile/${profile.id}`)}&message=favorite`)
      return
    }
    setBusy(true)
    try {
      await toggleFavorite(profile.id, !favorite)
    } catch {
      // The global handler already told the user.
    } finally {
      setBusy(false)
    }
  }
  return (
    <button type="button" className="button-secondary" aria-pressed={favorite} disabled={busy} onClick={() => void toggle()}>
      {favorite ? t`Retirer des favoris` : t`Ajouter aux favoris`}
    </button>
  )
}

/** The provider's cancellation rate (their cancellations of bookings they had confirmed), once there are enough bookings. */
const CancellationRate = ({ rate }: { rate: Profile["cancellationRate"] }) => {
  const { t, i18n } = useLingui()
  const percent = rate.rate === null ? "" : formatPercent(i18n.locale, rate.rate, 1)
  const bookings = rate.confirmedBookings
  const confirmed = plural(bookings, { one: "sur # réservation confirmée", other: "sur # réservations confirmées" })
  return (
    <div className="stat">
      <dt>{t`Taux d'annulation`}</dt>
      <dd data-testid="cancellation-rate">{rate.rate === null ? t`Pas encore assez de réservations` : `${percent} (${confirmed})`}</dd>
    </div>
  )
}

/** The profile's header: photo, name, tagline, place, languages, rating and membership; what is unknown is left out. */
const ProfileHeader = ({ profile, name }: { profile: Profile; name: string }) => {
  const { t, i18n } = useLingui()
  const provider = profile.role === "PROVIDER"
  const place = [profile.city, profile.country].filter(Boolean).join(", ") || profile.location
  const since = formatMonthYear(i18n.locale, profile.createdAt)
  return (
    <section className="profile-hero" aria-label={t`Présentation`}>
      <ProfilePhoto url={profile.profilePhotoUrl} name={name} size={112} />
      <div className="profile-hero-text">
        <p className="profile-hero-badges">
          {provider ? <span className="badge badge-active">{t`Prestataire`}</span> : null}
          {provider && profile.isEmailVerified ? <span className="badge verified">{t`✓ Vérifié`}</span> : null}
          {provider ? <VerifiedIdentityMark verified={profile.identityVerified} /> : null}
        </p>
        {profile.bio ? <p className="profile-tagline">{profile.bio}</p> : null}
        <ul className="profile-hero-facts">
          {provider ? (
            <li>
              <StarRating rating={profile.averageRating} reviewCount={profile.totalReviews} />
            </li>
          ) : null}
          {place ? (
            <li>
              <span className="sr-only">{t`Lieu :`} </span>
              {place}
            </li>
          ) : null}
          {profile.languages.length > 0 ? (
            <li>
              <span className="sr-only">{t`Langues parlées :`} </span>
              {profile.languages.join(", ")}
            </li>
          ) : null}
          <li>{t`Membre depuis ${since}`}</li>
        </ul>
        {profile.badges.length > 0 ? (
          <ul className="chips badges" aria-label={t`Badges`}>
            {profile.badges.map(({ badge }) => (
              <li key={badge.id} className="chip" title={badge.description}>
                {badge.name}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </section>
  )
}

const Content = ({ profile }: { profile: Profile }) => {
  const { t, i18n } = useLingui()
  const user = useAtomValue(userAtom)
  const name = `${profile.firstName} ${profile.lastName}`
  const provider = profile.role === "PROVIDER"
  const currency = useViewerCurrency()
  const [services] = useAsync(
    () => (provider ? profileApi.services(profile.id, currency).then((a) => a.data.services) : Promise.resolve([])),
    [profile.id, provider, currency]
  )
  useShareMetadata({
    title: name,
    description: profile.bio || t`Profil de ${name} sur ${siteName()}`,
    url: `${location.origin}/profile/${profile.id}`,
    type: "profile"
  })
  const reviews = profile.totalReviews
  const experience = profile.experienceYears
  const hasExperience = experience !== null || profile.certifications.length > 0
  return (
    <Page title={name}>
      <ProfileHeader profile={profile} name={name} />
      <div className="page-actions">
        {profile.isOwner ? null : (
          <Link
            href={
              user ? `/messaging?userId=${encodeURIComponent(profile.id)}` : `${loginRedirect(`/profile/${profile.id}`)}&message=contact`
            }
            className="button-secondary"
          >
            {t`Contacter`}
          </Link>
        )}
        {provider && !profile.isOwner ? (
          <Link href={`/services?provider=${encodeURIComponent(profile.id)}`} className="button">
            {t`Réserver`}
          </Link>
        ) : null}
        <ShareLink id={profile.id} />
        <FavoriteButton profile={profile} />
      </div>
      {user && !profile.isOwner && user.id !== profile.id ? (
        <div className="conversation-safety">
          <BlockAction userId={profile.id} name={profile.firstName} />
          <ReportProfileAction userId={profile.id} />
        </div>
      ) : null}
      {profile.description ? (
        <section aria-labelledby="about" className="profile-section">
          <h2 id="about">{t`À propos`}</h2>
          <p className="description">{profile.description}</p>
        </section>
      ) : null}
      {provider ? (
        <section aria-labelledby="performance" className="profile-section">
          <h2 id="performance">{t`Performance`}</h2>
          <dl className="stats">
            <div className="stat">
              <dt>{t`Services`}</dt>
              <dd>{formatNumber(i18n.locale, profile.servicesCount)}</dd>
            </div>
            <div className="stat">
              <dt>{t`Note moyenne`}</dt>
              <dd>{reviews > 0 ? <StarRating rating={profile.averageRating} reviewCount={reviews} /> : t`Aucun avis`}</dd>
            </div>
            <div className="stat">
              <dt>{t`Réservations terminées`}</dt>
              <dd>{formatNumber(i18n.locale, profile.completedBookings)}</dd>
            </div>
            <div className="stat">
              <dt>{t`Taux de réalisation`}</dt>
              <dd>{formatPercent(i18n.locale, profile.completionRate)}</dd>
            </div>
            <CancellationRate rate={profile.cancellationRate} />
            <ResponseTimeFact minutes={profile.responseTime} />
          </dl>
        </section>
      ) : null}
      {profile.specialities.length > 0 ? (
        <section aria-labelledby="specialities" className="profile-section">
          <h2 id="specialities">{t`Spécialités`}</h2>
          <Chips values={profile.specialities} />
        </section>
      ) : null}
      {hasExperience ? (
        <section aria-labelledby="experience" className="profile-section">
          <h2 id="experience">{t`Expérience et compétences`}</h2>
          <dl className="facts">
            {experience !== null ? (
              <>
                <dt>{t`Années d'expérience`}</dt>
                <dd>
                  <Plural value={experience} one="# an" other="# ans" />
                </dd>
              </>
            ) : null}
            {profile.certifications.length > 0 ? (
              <>
                <dt>{t`Certifications`}</dt>
                <dd>
                  <Chips values={profile.certifications} />
                </dd>
              </>
            ) : null}
          </dl>
        </section>
      ) : null}
      {provider ? (
        <Loaded state={services} errorTitle={t`Impossible de charger les services`} errorSubtitle={t`Veuillez réessayer.`}>
          {(data) =>
            data.length === 0 ? null : (
              <section aria-labelledby="services" className="profile-section">
                <h2 id="services">{t`Services proposés`}</h2>
                <ul className="cards service-cards">
                  {data.map((service) => (
                    <ServiceCard key={service.id} service={service} user={user} position={null} />
                  ))}
                </ul>
              </section>
            )
          }
        </Loaded>
      ) : null}
    </Page>
  )
}

export default function PublicProfile() {
  const { t } = useLingui()
  const { id = "" } = useParams<{ id: string }>()
  const user = useAtomValue(userAtom)
  const [state, reload] = useAsync(() => profileApi.public(id).then((answer) => answer.data.user), [id, user?.id])
  const failure = (error: unknown) => {
    const code = error instanceof ApiError ? error.code : ""
    if (code === "PROFILE_NOT_ACCESSIBLE")
      return (
        <Page title={t`Profil non accessible`}>
          <p>{t`Ce profil n'est pas public.`}</p>
          <Link href="/services" className="button-secondary">
            {t`Voir les services`}
          </Link>
        </Page>
      )
    if (code === "PROFILE_NOT_FOUND")
      return (
        <Page title={t`Profil introuvable`}>
          <p>{t`Ce profil n'existe pas ou n'est plus disponible.`}</p>
          <Link href="/services" className="button-secondary">
            {t`Voir les services`}
          </Link>
        </Page>
      )
    return (
      <Page title={t`Profil du prestataire`}>
        <LoadError title={t`Impossible de charger le profil`} subtitle={t`Veuillez réessayer.`} error={error} onRetry={() => reload()} />
      </Page>
    )
  }
  return (
    <Loaded state={state} failure={failure}>
      {(profile) => <Content profile={profile} />}
    </Loaded>
  )
}
