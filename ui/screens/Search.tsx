import type { MessageDescriptor } from "@lingui/core"
import { msg } from "@lingui/core/macro"
import { Plural, useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useEffect, useId, useState } from "react"
import { useSearch } from "wouter"
import { catalogueApi } from "../api/endpoints"
import type { Category, ServicePage, ServiceQuery } from "../api/contract"
import { knownPosition, listPosition } from "../catalogue/geolocation"
import {
  PRICE_RANGES,
  priceBounds,
  pickSort,
  SEARCH_CATEGORIES,
  SEARCH_PAGE_SIZE,
  SEARCH_RADIUS_KM,
  SEARCH_SORTS,
  searchCategorySlug,
  shouldSearch,
  toPage,
  toPriceRange,
  toSearchCategory,
  type PriceRange,
  type SearchCategory
} from "../catalogue/rules"
import { useAsync } from "../components/async"
import { filterUpdater, useDebouncedText } from "../components/filters"
import { Loaded, Pager, ServiceCard, useCategories, useSortLabels } from "../components/catalogue"
import { Alert } from "../components/forms"
import { Page } from "../components/page"
import { userAtom } from "../state/session"

/** Names of the search categories when the catalogue's own names are not loaded. */
const categoryLabels: Record<SearchCategory, MessageDescriptor> = {
  menage: msg`Ménage`,
  jardinage: msg`Jardinage`,
  reparation: msg`Réparation`,
  transport: msg`Transport`,
  formation: msg`Formation`
}

/** The ranges in the UI's number format; prices are hourly, in each service's own currency. */
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

/** The catalogue id of a search category, once the categories are known. */
const categoryIdOf = (categories: ReadonlyArray<Category>, category: SearchCategory) =>
  categories.find((c) => c.slug === searchCategorySlug(category))?.id

export default function Search() {
  const { t, i18n } = useLingui()
  const user = useAtomValue(userAtom)
  const params = new URLSearchParams(useSearch())
  const categories = useCategories()
  const sortLabels = useSortLabels()
  const priceLabels = usePriceLabels()
  const ids = { text: useId(), category: useId(), price: useId(), sort: useId(), near: useId(), nearHint: useId() }

  const q = params.get("q") ?? ""
  const category = toSearchCategory(params.get("category"))
  const priceRange = toPriceRange(params.get("price"))
  const near = params.get("near") === "1"
  const [position, setPosition] = useState(knownPosition())
  const [locating, setLocating] = useState(false)
  const [locateFailed, setLocateFailed] = useState(false)
  const sort = pickSort(params.get("sortBy"), SEARCH_SORTS, "relevance", near && position !== null)
  const page = toPage(params.get("page"))

  const update = filterUpdater("/search")
  const [text, setText] = useDebouncedText(q, (value) => update({ q: value }))

  // "Near me": the browser's position, asked when the box is ticked (or the URL says so).
  useEffect(() => {
    if (!near || position) return
    let live = true
    setLocating(true)
    setLocateFailed(false)
    void listPosition(true).then((found) => {
      if (!live) return
      setLocating(false)
      if (found) setPosition(found)
      else {
        setLocateFailed(true)
        update({ near: undefined, ...(sort === "distance" ? { sortBy: undefined } : {}) })
      }
    })
    return () => {
      live = false
    }
  }, [near, position]) // asked when "near me" is ticked

  const located = near && position !== null
  const runs = shouldSearch({ text: q, category, priceRange, nearMe: located })
  // A category waits for the catalogue's ids (a slug is sent if they failed to load).
  const waiting = runs && category !== undefined && categories === undefined
  const categoryId = category && categories ? categoryIdOf(categories, category) : undefined
  const query: ServiceQuery | null =
    runs && !waiting
      ? {
          search: q.trim() || undefined,
          ...(category ? (categoryId !== undefined ? { categoryId } : { category: searchCategorySlug(category) }) : {}),
          ...priceBounds(priceRange),
          ...(located ? { lat: position.lat, lng: position.lng, radius: SEARCH_RADIUS_KM } : {}),
          sortBy: sort,
          page,
          limit: SEARCH_PAGE_SIZE
        }
      : null
  const [state, reload] = useAsync<ServicePage | null>(
    () => (query ? catalogueApi.search(query).then(({ data }) => data) : Promise.resolve(null)),
    [JSON.stringify(query), i18n.locale]
  )

  const labelOf = (c: SearchCategory) =>
    categories?.find((found) => found.slug === searchCategorySlug(c))?.name ?? i18n._(categoryLabels[c])

  return (
    <Page title={t`Recherche`} intro={t`Cherchez par mots-clés, catégorie, budget et distance.`}>
      <form
        className="filters filters-search"
        role="search"
        onSubmit={(event) => {
          event.preventDefault()
          update({ q: text.trim() })
        }}
      >
        <div className="field field-wide">
          <label htmlFor={ids.text}>{t`Mots-clés`}</label>
          <input id={ids.text} type="search" name="q" value={text} maxLength={200} onChange={(event) => setText(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.category}>{t`Catégorie`}</label>
          <select id={ids.category} name="category" value={category ?? ""} onChange={(event) => update({ category: event.target.value })}>
            <option value="">{t`Toutes les catégories`}</option>
            {SEARCH_CATEGORIES.map((c) => (
              <option key={c.id} value={c.id}>
                {labelOf(c.id)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.price}>{t`Prix horaire`}</label>
          <select id={ids.price} name="price" value={priceRange ?? ""} onChange={(event) => update({ price: event.target.value })}>
            <option value="">{t`Tous les prix`}</option>
            {PRICE_RANGES.map((range) => (
              <option key={range} value={range}>
                {priceLabels[range]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.sort}>{t`Trier par`}</label>
          <select id={ids.sort} name="sortBy" value={sort} onChange={(event) => update({ sortBy: event.target.value })}>
            {SEARCH_SORTS.map((s) => (
              <option key={s} value={s} disabled={s === "distance" && !located}>
                {sortLabels[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field field-check">
          <span className="check">
            <input
              id={ids.near}
              type="checkbox"
              name="near"
              checked={near}
              aria-describedby={ids.nearHint}
              onChange={(event) =>
                update(event.target.checked ? { near: "1" } : { near: undefined, ...(sort === "distance" ? { sortBy: undefined } : {}) })
              }
            />
            <label htmlFor={ids.near}>{t`Près de moi`}</label>
          </span>
          <p className="field-hint" id={ids.nearHint}>
            {locating ? t`Localisation en cours…` : t`Services à moins de ${SEARCH_RADIUS_KM} km de votre position.`}
          </p>
        </div>
      </form>
      {locateFailed ? (
        <Alert kind="warning">{t`Votre position n'est pas disponible : autorisez la localisation dans votre navigateur pour chercher près de chez vous.`}</Alert>
      ) : null}

      {!runs ? (
        <div className="empty-state">
          <p className="empty-title">{t`Que cherchez-vous ?`}</p>
          <p>{t`Saisissez un mot-clé ou choisissez une catégorie, un prix ou « Près de moi » pour lancer la recherche.`}</p>
        </div>
      ) : (
        // While the typed words settle (`waiting`), the search counts as loading.
        <Loaded
          state={waiting ? { status: "loading" } : state}
          loadingLabel={t`Recherche en cours…`}
          errorTitle={t`Erreur lors de la recherche`}
          errorSubtitle={t`La recherche n'a pas pu aboutir. Réessayez.`}
          onRetry={() => reload()}
        >
          {(found) =>
            found === null ? null : found.services.length === 0 ? (
              <div className="empty-state">
                <p className="empty-title">{t`Aucun service trouvé`}</p>
                <p>{t`Essayez d'autres mots-clés ou élargissez les filtres.`}</p>
              </div>
            ) : (
              <>
                <p className="result-count" role="status">
                  <Plural value={found.pagination.total} one="# service trouvé" other="# services trouvés" />
                </p>
                <ul className="cards service-cards">
                  {found.services.map((service) => (
                    <ServiceCard key={service.id} service={service} user={user} position={located ? position : null} />
                  ))}
                </ul>
                <Pager
                  always
                  page={found.pagination.page}
                  pages={found.pagination.pages}
                  onPage={(next) => {
                    update({ page: String(next) })
                    window.scrollTo(0, 0)
                  }}
                />
              </>
            )
          }
        </Loaded>
      )}
    </Page>
  )
}
