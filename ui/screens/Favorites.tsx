import { useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { Link } from "wouter"
import { useAsync } from "../components/async"
import { Avatar, Loaded } from "../components/catalogue"
import { FavoriteHeart } from "../components/favorites"
import { Page } from "../components/page"
import { allFavorites, favoriteIdsAtom } from "../state/favorites"

/** The providers the user keeps among their favorites (issue 14), with the way to their services. */
export default function Favorites() {
  const { t } = useLingui()
  const [state, reload] = useAsync(allFavorites, [])
  // A heart un-ticked here leaves the list at once (the hearts share one state).
  const kept = useAtomValue(favoriteIdsAtom)
  return (
    <Page title={t`Mes favoris`} intro={t`Les prestataires que vous gardez sous la main.`}>
      <Loaded
        state={state}
        loadingLabel={t`Chargement de vos favoris…`}
        errorTitle={t`Impossible de charger vos favoris`}
        errorSubtitle={t`Vérifiez votre connexion puis réessayez.`}
        onRetry={() => reload()}
      >
        {(favorites) => {
          const shown = favorites.filter((f) => kept === null || kept.has(f.favoritedId))
          if (shown.length === 0)
            return (
              <div className="empty-state">
                <p className="empty-title">{t`Aucun favori pour le moment`}</p>
                <p>{t`Touchez le cœur d'un service ou d'un profil pour retrouver ici son prestataire.`}</p>
                <Link href="/services" className="button-secondary">
                  {t`Parcourir les services`}
                </Link>
              </div>
            )
          return (
            <ul className="cards favorite-cards">
              {shown.map((f) => {
                if (!f.user) {
                  return (
                    <li key={f.favoritedId} className="card favorite-card">
                      <p>{t`Ce profil n'est plus visible.`}</p>
                      <FavoriteHeart providerId={f.favoritedId} name={t`ce profil`} />
                    </li>
                  )
                }
                const name = `${f.user.firstName} ${f.user.lastName}`
                return (
                  <li key={f.favoritedId} className="card favorite-card">
                    <article aria-label={name}>
                      <div className="service-card-top">
                        <div className="provider-line">
                          <Avatar user={{ ...f.user, avatarUrl: f.user.profilePhotoUrl }} size={48} />
                          <h2 className="service-title">{name}</h2>
                        </div>
                        <FavoriteHeart providerId={f.user.id} name={name} />
                      </div>
                      {f.user.city ? <p className="service-location">{f.user.city}</p> : null}
                      {f.user.specialities.length > 0 ? <p className="service-description">{f.user.specialities.join(" · ")}</p> : null}
                      <div className="provider-links">
                        <Link href={`/profile/${f.user.id}`}>
                          {t`Voir le profil`}
                          <span className="sr-only"> {t`de ${name}`}</span>
                        </Link>
                        <Link href={`/services?provider=${encodeURIComponent(f.user.id)}`}>
                          {t`Ses services`}
                          <span className="sr-only"> ({name})</span>
                        </Link>
                      </div>
                    </article>
                  </li>
                )
              })}
            </ul>
          )
        }}
      </Loaded>
    </Page>
  )
}
