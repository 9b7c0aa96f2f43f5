import { plural } from "@lingui/core/macro"
import { Plural, useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useEffect, useId, useState } from "react"
import { Link, useSearch } from "wouter"
import { bookingsApi, catalogueApi, profileApi, reviewsApi, slotsApi } from "../api/endpoints"
import type { Booking, PublicProfile, Review, ServiceDetail as Detail, ServiceReview, User } from "../api/contract"
import { isOpen, REFRESH_MS, REVIEWS_PAGE_SIZE, shortName } from "../booking/rules"
import { NEXT_SLOTS_DAYS, NEXT_SLOTS_SHOWN, nextSlotWindows, slotDuration, slotsByDay, SLOTS_REFRESH_MS, upcoming } from "../booking/slots"
import { knownPosition } from "../catalogue/geolocation"
import { distanceKm, hasCoordinates, SHARE_DESCRIPTION_MAX, cutText } from "../catalogue/rules"
import { BookingForm, dropDraft, readDraft, type BookingPreset } from "../components/booking/BookingForm"
import { SlotTime, useDurationText } from "../components/booking/SlotPicker"
import { DateRange, Stars, StatusBadge } from "../components/booking/parts"
import { PaymentDialog } from "../components/booking/PaymentDialog"
import { CancellationPolicyNote } from "../components/booking/Cancellation"
import {
  Avatar,
  Duration,
  failureText,
  Pager,
  PricePerHour,
  ShareProfileButton,
  StarRating,
  useViewerCurrency
} from "../components/catalogue"
import { ProfilePhoto } from "../components/profile"
import { useAsync } from "../components/async"
import { VerifiedIdentityMark } from "../components/trust"
import { formatDate, formatDayIn, formatDistance, formatMonthYear, formatRating, sameTimeIn, zoneName } from "../format"
import { Alert } from "../components/forms"
import { useLive } from "../components/live"
import { useShareMetadata } from "../components/meta"
import { isNotFound, Loaded } from "../components/loaded"
import { Page } from "../components/page"
import { useViewerZone, userAtom } from "../state/session"
import { ServiceGallery } from "../components/photos"

type Step = { readonly kind: "form"; readonly initial?: BookingPreset | undefined } | { readonly kind: "pay"; readonly booking: Booking }

/** The caller's booking under way for this service: it replaces the book button (spec section 2). */
const InProgressBanner = ({ booking, onPay }: { booking: Booking; onPay: () => void }) => {
  const { t } = useLingui()
  const headingId = useId()
  return (
    <section className="booking-banner" aria-labelledby={headingId}>
      <h2 id={headingId} className="booking-banner-title">
        {t`Réservation en cours`}
      </h2>
      <p>
        {t`Statut :`} <StatusBadge status={booking.displayStatus} />
      </p>
      <p>
        <DateRange start={booking.startTime} end={booking.endTime} other={{ zone: booking.providerTimeZone, who: "provider" }} />
      </p>
      <div className="actions">
        {booking.actions.includes("pay") ? (
          <button type="button" className="button" onClick={onPay}>
            {t`Finaliser le paiement`}
          </button>
        ) : null}
        <Link href={`/bookings?booking=${encodeURIComponent(booking.id)}`} className="button-secondary">
          {t`Voir mes réservations`}
        </Link>
      </div>
    </section>
  )
}

const BookAction = ({
  service,
  user,
  active,
  onBook,
  onPay
}: {
  service: Detail
  user: User | null
  active: Booking | null
  onBook: () => void
  onPay: (booking: Booking) => void
}) => {
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
  if (active && isOpen(active.status)) return <InProgressBanner booking={active} onPay={() => onPay(active)} />
  return (
    <div className="book-box">
      <button type="button" className="button" onClick={onBook} aria-describedby={user ? undefined : hintId}>
        {t`Réserver ce service`}
      </button>
      {user ? null : (
        <p className="field-hint" id={hintId}>
          {t`Connectez-vous pour réserver.`}
        </p>
      )}
    </div>
  )
}

/**
 * The next free start times for the service's duration (issue 12): each one opens the booking form
 * on it when the viewer may book; nothing free in the next 60 days says so, with a way to write.
 */
const NextFreeSlots = ({
  service,
  bookable,
  round,
  onPick
}: {
  service: Detail
  bookable: boolean
  /** Changed by the page to load them anew (after a booking). */
  round: number
  onPick: (preset: BookingPreset) => void
}) => {
  const { t, i18n } = useLingui()
  const headingId = useId()
  const durationText = useDurationText()
  const zone = useViewerZone()
  const duration = slotDuration(service.duration)
  const [state, reload] = useLive(
    (fresh) => slotsApi.next({ serviceId: service.id }, duration, nextSlotWindows(new Date()), NEXT_SLOTS_SHOWN, fresh),
    [service.id, duration, round],
    SLOTS_REFRESH_MS
  )
  const durationLabel = durationText(duration)
  const days = NEXT_SLOTS_DAYS
  return (
    <section aria-labelledby={headingId} className="next-slots">
      <h2 id={headingId}>{t`Prochains créneaux libres`}</h2>
      <Loaded
        state={state}
        loadingLabel={t`Chargement des créneaux libres…`}
        errorTitle={t`Erreur lors du chargement des créneaux libres`}
        errorSubtitle={t`Réessayez dans un instant.`}
        onRetry={() => reload()}
      >
        {(data) => {
          const slots = upcoming(data.slots, new Date()).slice(0, NEXT_SLOTS_SHOWN)
          if (slots.length === 0) {
            return (
              <div className="empty-state">
                <p>
                  {plural(days, {
                    one: "Aucun créneau libre dans le # prochain jour : contactez le prestataire.",
                    other: "Aucun créneau libre dans les # prochains jours : contactez le prestataire."
                  })}
                </p>
                {service.userId ? (
                  <Link href={`/messaging?userId=${encodeURIComponent(service.userId)}`}>{t`Écrire au prestataire`}</Link>
                ) : null}
              </div>
            )
          }
          return (
            <>
              <p className="field-hint">{t`Pour une durée de ${durationLabel}, à votre heure.`}</p>
              {[...slotsByDay(slots, zone)].map(([day, daySlots]) => {
                const dayText = formatDayIn(i18n.locale, daySlots[0]!.startTime, zone)
                return (
                  <div key={day} className="next-slot-day">
                    <h3 id={`${headingId}-${day}`}>{dayText}</h3>
                    <ul className="slot-list" aria-labelledby={`${headingId}-${day}`}>
                      {daySlots.map((slot) => (
                        <li key={slot.startTime}>
                          {bookable ? (
                            <button type="button" className="slot-button" onClick={() => onPick({ startTime: slot.startTime, duration })}>
                              <span className="sr-only">{t`Réserver le ${dayText} à`} </span>
                              <SlotTime slot={slot} zone={zone} providerZone={data.timeZone} />
                            </button>
                          ) : (
                            <span className="slot-text">
                              <SlotTime slot={slot} zone={zone} providerZone={data.timeZone} />
                            </span>
                          )}
                        </li>
                      ))}
                    </ul>
                  </div>
                )
              })}
            </>
          )
        }}
      </Loaded>
    </section>
  )
}

/** Reviews from the reviews call; until it answers (or if it fails) those of the service answer. */
const Reviews = ({ service }: { service: Detail }) => {
  const { t, i18n } = useLingui()
  const headingId = useId()
  const [page, setPage] = useState(1)
  const [state] = useLive(
    (fresh) => reviewsApi.ofService(service.id, page, REVIEWS_PAGE_SIZE, fresh ? true : [404]).then(({ data }) => data),
    [service.id, page],
    REFRESH_MS
  )
  const reviews: ReadonlyArray<Review | ServiceReview> = state.status === "ok" ? state.data.reviews : service.reviews
  const total = state.status === "ok" ? state.data.pagination.total : service.reviewCount
  const average = state.status === "ok" ? state.data.averageRating : service.rating
  const score = formatRating(i18n.locale, average)
  return (
    <section aria-labelledby={headingId} className="reviews-section">
      <h2 id={headingId}>{t`Avis des clients`}</h2>
      {total > 0 ? (
        <p className="reviews-average">
          <Stars rating={average} /> {t`Note moyenne : ${score} sur 5`} (<Plural value={total} one="# avis" other="# avis" />)
        </p>
      ) : null}
      {reviews.length === 0 ? (
        <p className="empty-state">{t`Aucun avis pour le moment.`}</p>
      ) : (
        <ul className="reviews">
          {reviews.map((review, index) => {
            // A deleted account's reviews stay, signed "former member" (its name was erased).
            const author = shortName(review.client.firstName, review.client.lastName) || t`Ancien membre`
            return (
              <li key={"id" in review ? review.id : `${review.createdAt}-${index}`} className="review">
                <div className="review-head">
                  <Avatar user={{ ...review.client, avatarUrl: null }} size={36} />
                  <p className="review-who">
                    <strong>{author}</strong>
                    <time dateTime={review.createdAt}>{formatDate(i18n.locale, review.createdAt, "long")}</time>
                  </p>
                  <Stars rating={review.rating} />
                </div>
                <p className="review-comment">{review.comment}</p>
              </li>
            )
          })}
        </ul>
      )}
      {state.status === "ok" ? <Pager page={page} pages={state.data.pagination.pages} onPage={setPage} /> : null}
    </section>
  )
}

/** The provider's public profile, when it is visible to the viewer (a private one is not: the service's own data stand in). */
const useProviderProfile = (providerId: string, viewerId: string | undefined): PublicProfile | null => {
  const [state] = useAsync(() => profileApi.public(providerId).then(({ data }) => data.user), [providerId, viewerId])
  return state.status === "ok" ? state.data : null
}

/** Who provides the service: photo, name, verified mark, rating, member since, and the ways to reach them. */
const ProviderCard = ({ service, profile, user }: { service: Detail; profile: PublicProfile | null; user: User | null }) => {
  const { t, i18n } = useLingui()
  const headingId = useId()
  const name = `${service.user.firstName} ${service.user.lastName}`
  const since = profile ? formatMonthYear(i18n.locale, profile.createdAt) : null
  return (
    <section className="card provider-card" aria-labelledby={headingId}>
      <h2 id={headingId}>{t`Votre prestataire`}</h2>
      <div className="provider-card-head">
        {profile ? <ProfilePhoto url={profile.profilePhotoUrl} name={name} size={64} /> : <Avatar user={service.user} size={64} />}
        <div className="provider-card-who">
          <p className="provider-card-name">
            <strong>{name}</strong> <VerifiedIdentityMark verified={service.user.identityVerified} />
          </p>
          {profile ? <StarRating rating={profile.averageRating} reviewCount={profile.totalReviews} /> : null}
          {since ? <p className="provider-card-since">{t`Membre depuis ${since}`}</p> : null}
        </div>
      </div>
      {profile?.bio ? <p className="provider-card-bio">{profile.bio}</p> : null}
      <div className="provider-card-actions">
        <Link href={`/profile/${service.userId}`} className="button-secondary button-small">
          {t`Voir le profil`}
          <span className="sr-only"> {t`de ${name}`}</span>
        </Link>
        {/* Spec: only for a logged-in user who is not the provider (visitors book, which asks them to log in). */}
        {user && user.id !== service.userId ? (
          <Link href={`/messaging?userId=${encodeURIComponent(service.userId)}`} className="button-secondary button-small">
            {t`Contacter le prestataire`}
          </Link>
        ) : null}
        <ShareProfileButton provider={service.user} />
      </div>
    </section>
  )
}

/** Category, duration, place, languages, price and zone: what one decides on, at a glance. */
const KeyFacts = ({ service, profile, km }: { service: Detail; profile: PublicProfile | null; km: number | undefined }) => {
  const { t, i18n } = useLingui()
  const headingId = useId()
  const viewerZone = useViewerZone()
  // The service is offered in its provider's zone; times are shown in the viewer's, said when they differ.
  const providerZone = zoneName(i18n.locale, service.providerTimeZone)
  const viewerZoneName = zoneName(i18n.locale, viewerZone)
  const viewerZoneDiffers = !sameTimeIn(viewerZone, service.providerTimeZone, Date.now())
  const languages = profile?.languages ?? []
  return (
    <section aria-labelledby={headingId} className="key-facts-section">
      <h2 id={headingId} className="sr-only">
        {t`Informations clés`}
      </h2>
      <dl className="key-facts">
        <div className="key-fact">
          <dt>{t`Catégorie`}</dt>
          <dd>{service.category.name}</dd>
        </div>
        <div className="key-fact">
          <dt>{t`Durée`}</dt>
          <dd>
            <Duration minutes={service.duration} />
          </dd>
        </div>
        <div className="key-fact">
          <dt>{t`Lieu`}</dt>
          <dd>
            {service.location}
            {km !== undefined ? <> · {t`à ${formatDistance(i18n.locale, km)}`}</> : null}
          </dd>
        </div>
        {languages.length > 0 ? (
          <div className="key-fact">
            <dt>{t`Langues`}</dt>
            <dd>{languages.join(", ")}</dd>
          </div>
        ) : null}
        <div className="key-fact">
          <dt>{t`Prix`}</dt>
          <dd>
            <PricePerHour price={service.price} currency={service.currency} approx={service.approxPrice} />
          </dd>
        </div>
        <div className="key-fact">
          <dt>{t`Fuseau horaire`}</dt>
          <dd data-testid="provider-zone">
            {providerZone}
            {viewerZoneDiffers ? <span className="field-hint"> · {t`horaires affichés à l’${viewerZoneName}`}</span> : null}
          </dd>
        </div>
      </dl>
    </section>
  )
}

const ServicePage = ({ service }: { service: Detail }) => {
  const { t } = useLingui()
  const user = useAtomValue(userAtom)
  const cancelled = new URLSearchParams(useSearch()).get("payment") === "cancelled"
  const [step, setStep] = useState<Step>()
  const [slotsRound, setSlotsRound] = useState(0)
  const own = user?.id === service.userId
  const [active, reloadActive] = useLive(
    (fresh) => (user && !own ? bookingsApi.forService(service.id, fresh).then(({ data }) => data.booking) : Promise.resolve(null)),
    [service.id, user?.id, own],
    REFRESH_MS,
    user !== null && !own
  )
  const activeBooking = active.status === "ok" ? active.data : null
  const profile = useProviderProfile(service.userId, user?.id)

  // Back from the login screen with the form a visitor filled: open it again.
  useEffect(() => {
    if (!user || own || step) return
    const draft = readDraft(service.id)
    if (draft) {
      dropDraft(service.id)
      setStep({ kind: "form", initial: draft })
    }
  }, [user?.id, own, service.id])
  const position = knownPosition()
  const km = service.distanceKm ?? (position && hasCoordinates(service) ? distanceKm(position, service) : undefined)
  // The phone's booking bar offers the plain booking only: the owner and a booking under way keep the box.
  const plainBooking = !own && !(activeBooking && isOpen(activeBooking.status))
  useShareMetadata({
    title: service.title,
    description: cutText(service.description, SHARE_DESCRIPTION_MAX),
    url: `${location.origin}/services/${service.id}`,
    type: "product"
  })
  return (
    <Page title={service.title}>
      {cancelled ? (
        <Alert kind="warning" title={t`Paiement annulé`}>
          <p>{t`Aucun montant n'a été débité. Votre réservation reste en attente de paiement tant que le créneau vous est réservé : vous pouvez finaliser le paiement ici ou depuis vos réservations.`}</p>
        </Alert>
      ) : null}
      <p className="service-headline">
        <span className="badge badge-category">{service.category.name}</span>
        <StarRating rating={service.rating} reviewCount={service.reviewCount} />
        <span className="service-headline-place">{service.location}</span>
      </p>
      <div className="service-gallery-area">
        <ServiceGallery service={service} />
      </div>
      <div className="service-layout">
        <div className="service-main">
          {service.status === "INACTIVE" ? (
            <p className="badge badge-muted">{t`Inactif : ce service n'apparaît pas dans le catalogue.`}</p>
          ) : null}
          <KeyFacts service={service} profile={profile} km={km} />
          <section aria-labelledby="service-description">
            <h2 id="service-description">{t`Description`}</h2>
            <p className="description">{service.description}</p>
          </section>
          <ProviderCard service={service} profile={profile} user={user} />
          <NextFreeSlots
            service={service}
            bookable={plainBooking}
            round={slotsRound}
            onPick={(initial) => setStep({ kind: "form", initial })}
          />
          <Reviews service={service} />
        </div>
        <aside className="card booking-box" aria-label={t`Réservation`}>
          <p className="booking-box-price">
            <PricePerHour price={service.price} currency={service.currency} approx={service.approxPrice} />
          </p>
          <p className="booking-box-rating">
            <span className="sr-only">{t`Note moyenne`} </span>
            <StarRating rating={service.rating} reviewCount={service.reviewCount} />
          </p>
          <BookAction
            service={service}
            user={user}
            active={activeBooking}
            onBook={() => setStep({ kind: "form" })}
            onPay={(booking) => setStep({ kind: "pay", booking })}
          />
          <CancellationPolicyNote />
        </aside>
      </div>
      {plainBooking ? (
        <div className="book-bar">
          <PricePerHour price={service.price} currency={service.currency} approx={service.approxPrice} />
          <button type="button" className="button" onClick={() => setStep({ kind: "form" })}>
            {t`Réserver`}
          </button>
        </div>
      ) : null}
      <p>
        <Link href="/services">{t`← Retour aux services`}</Link>
      </p>
      {step?.kind === "form" ? (
        <BookingForm
          service={service}
          user={user}
          initial={step.initial}
          onClose={() => setStep(undefined)}
          onBooked={(booking) => {
            setStep({ kind: "pay", booking })
            reloadActive({ quiet: true })
            setSlotsRound((n) => n + 1)
          }}
        />
      ) : null}
      {step?.kind === "pay" ? (
        <PaymentDialog
          booking={step.booking}
          user={user}
          onClose={() => {
            setStep(undefined)
            reloadActive({ quiet: true })
          }}
        />
      ) : null}
    </Page>
  )
}

export default function ServiceDetail({ params }: { params: { id: string } }) {
  const { t, i18n } = useLingui()
  const id = params.id
  // Refreshed every 10 s while visible (spec section 9); a failed refresh keeps the page as it is.
  const currency = useViewerCurrency()
  const [state, reload] = useLive(
    (fresh) => catalogueApi.service(id, { ...knownPosition(), currency }, fresh ? true : [404]).then(({ data }) => data),
    [id, i18n.locale, currency],
    REFRESH_MS
  )
  const failure = (error: unknown) => {
    const notFound = isNotFound(error)
    return (
      <Page title={notFound ? t`Service introuvable` : t`Erreur lors du chargement du service`}>
        <div className={notFound ? "empty-state" : "alert alert-error"} role={notFound ? undefined : "alert"}>
          <p>{notFound ? t`Ce service n'existe pas ou n'est plus disponible.` : failureText(error)}</p>
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
  return (
    <Loaded state={state} wrapLoading={(spinner) => <Page title={t`Détail du service`}>{spinner}</Page>} failure={failure}>
      {(data) => <ServicePage service={data.service} />}
    </Loaded>
  )
}
