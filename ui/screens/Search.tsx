import type { MessageDescriptor } from "@lingui/core"
import { msg } from "@lingui/core/macro"
import { Plural, useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useId } from "react"
import { useSearch } from "wouter"
import { catalogueApi } from "../api/endpoints"
import type { Category, ServicePage, ServiceQuery } from "../api/contract"
import { placeCriteria, placeFromParams, toRadius } from "../catalogue/places"
import {
  priceBounds,
  pickSort,
  SEARCH_CATEGORIES,
  SEARCH_PAGE_SIZE,
  SEARCH_SORTS,
  searchCategorySlug,
  shouldSearch,
  toPage,
  toPriceRange,
  toSearchCategory,
  type SearchCategory
} from "../catalogue/rules"
import { useAsync } from "../components/async"
import { FiltersSheet } from "../components/FiltersSheet"
import { filterUpdater, useDebouncedText } from "../components/filters"
import { Loaded, Pager, PriceRangeField, ServiceCard, useCategories, useSortLabels, useViewerCurrency } from "../components/catalogue"
import { Page } from "../components/page"
import { PlaceFilters } from "../components/PlaceField"
import { userAtom } from "../state/session"

/** Names of the search categories when the catalogue's own names are not loaded. */
const categoryLabels: Record<SearchCategory, MessageDescriptor> = {
  menage: msg`Ménage`,
  jardinage: msg`Jardinage`,
  reparation: msg`Réparation`,
  transport: msg`Transport`,
  formation: msg`Formation`
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
  const ids = { text: useId(), category: useId(), sort: useId() }

  const q = params.get("q") ?? ""
  const category = toSearchCategory(params.get("category"))
  const priceRange = toPriceRange(params.get("price"))
  const place = placeFromParams(params)
  const radius = toRadius(params.get("radius"))
  // Around a place, the nearest first.
  const sort = pickSort(params.get("sortBy"), SEARCH_SORTS, place ? "distance" : "relevance", place !== null)
  const page = toPage(params.get("page"))

  const update = filterUpdater("/search")
  const [text, setText] = useDebouncedText(q, (value) => update({ q: value }))

  const runs = shouldSearch({ text: q, category, priceRange, place: place !== null })
  // A category waits for the catalogue's ids (a slug is sent if they failed to load).
  const waiting = runs && category !== undefined && categories === undefined
  const categoryId = category && categories ? categoryIdOf(categories, category) : undefined
  const currency = useViewerCurrency()
  const query: ServiceQuery | null =
    runs && !waiting
      ? {
          search: q.trim() || undefined,
          ...(category ? (categoryId !== undefined ? { categoryId } : { category: searchCategorySlug(category) }) : {}),
          ...priceBounds(priceRange),
          ...placeCriteria(place, radius),
          sortBy: sort,
          page,
          limit: SEARCH_PAGE_SIZE,
          currency
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
        <FiltersSheet
          active={[category, priceRange, place].filter(Boolean).length}
          found={state.status === "ok" && state.data ? state.data.pagination.total : undefined}
        >
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
          <PriceRangeField value={priceRange} onChange={(price) => update({ price })} />
          <PlaceFilters place={place} radius={radius} sort={sort} update={update} />
          <div className="field">
            <label htmlFor={ids.sort}>{t`Trier par`}</label>
            <select id={ids.sort} name="sortBy" value={sort} onChange={(event) => update({ sortBy: event.target.value })}>
              {SEARCH_SORTS.map((s) => (
                <option key={s} value={s} disabled={s === "distance" && !place}>
                  {sortLabels[s]}
                </option>
              ))}
            </select>
          </div>
        </FiltersSheet>
      </form>
      {place ? <p className="filter-note">{t`Services à moins de ${radius} km de ${place.label}.`}</p> : null}

      {!runs ? (
        <div className="empty-state">
          <p className="empty-title">{t`Que cherchez-vous ?`}</p>
          <p>{t`Saisissez un mot-clé ou choisissez une catégorie, un prix ou un lieu pour lancer la recherche.`}</p>
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
                    <ServiceCard key={service.id} service={service} user={user} position={null} />
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
