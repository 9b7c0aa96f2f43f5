import { Plural, useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useId, type FormEvent } from "react"
import { Link, useSearch } from "wouter"
import { catalogueApi } from "../api/endpoints"
import type { ServiceQuery } from "../api/contract"
import { placeCriteria, placeFromParams, toRadius } from "../catalogue/places"
import { LIST_PAGE_SIZE, LIST_SORTS, pickSort, priceBounds, SEARCH_RADIUS_KM, toPage, toPriceRange } from "../catalogue/rules"
import { useAsync } from "../components/async"
import { FiltersSheet } from "../components/FiltersSheet"
import { filterUpdater, useDebouncedText } from "../components/filters"
import { Loaded, Pager, PriceRangeField, ServiceCard, useCategories, useSortLabels, useViewerCurrency } from "../components/catalogue"
import { Page } from "../components/page"
import { PlaceFilters } from "../components/PlaceField"
import { ServiceHighlights } from "../components/ServiceHighlights"
import { useListPosition } from "../components/position"
import { userAtom } from "../state/session"

/** The services list: free text, category, sort, 20 per page; the filters live in the URL. */
export default function Services() {
  const { t, i18n } = useLingui()
  const user = useAtomValue(userAtom)
  const params = new URLSearchParams(useSearch())
  const position = useListPosition()
  const categories = useCategories()
  const sortLabels = useSortLabels()
  const textId = useId()
  const categoryId = useId()
  const sortId = useId()

  const search = params.get("search") ?? ""
  const category = params.get("categoryId") ?? ""
  const provider = params.get("provider") ?? ""
  const priceRange = toPriceRange(params.get("price"))
  const place = placeFromParams(params)
  const radius = toRadius(params.get("radius"))
  // Around a chosen place the nearest come first; without one, distance is from the browser's position.
  const sort = pickSort(params.get("sortBy"), LIST_SORTS, place ? "distance" : "newest", place !== null || position !== null)
  const page = toPage(params.get("page"))

  const update = filterUpdater("/services")
  const [text, setText] = useDebouncedText(search, (value) => update({ search: value }))

  const currency = useViewerCurrency()
  const query: ServiceQuery = {
    search: search.trim() || undefined,
    categoryId: category ? Number(category) : undefined,
    provider: provider || undefined,
    sortBy: sort,
    page,
    limit: LIST_PAGE_SIZE,
    currency,
    ...priceBounds(priceRange),
    ...(place
      ? placeCriteria(place, radius)
      : sort === "distance" && position
        ? { lat: position.lat, lng: position.lng, radius: SEARCH_RADIUS_KM }
        : {})
  }
  const [state, reload] = useAsync(() => catalogueApi.search(query).then(({ data }) => data), [JSON.stringify(query), i18n.locale])
  const filtered = search !== "" || category !== "" || provider !== "" || priceRange !== undefined || place !== null

  const submit = (event: FormEvent) => {
    event.preventDefault()
    update({ search: text.trim() })
  }

  const providerName =
    provider && state.status === "ok" && state.data.services[0]
      ? `${state.data.services[0].user.firstName} ${state.data.services[0].user.lastName}`
      : undefined

  return (
    <Page title={t`Services`} intro={t`Trouvez et réservez des prestataires de services près de chez vous.`}>
      <form className="filters" role="search" onSubmit={submit}>
        <div className="field">
          <label htmlFor={textId}>{t`Rechercher un service`}</label>
          <input id={textId} type="search" name="search" value={text} maxLength={200} onChange={(event) => setText(event.target.value)} />
        </div>
        <FiltersSheet
          active={[category, priceRange, place].filter(Boolean).length}
          found={state.status === "ok" ? state.data.pagination.total : undefined}
        >
          <div className="field">
            <label htmlFor={categoryId}>{t`Catégorie`}</label>
            <select id={categoryId} name="categoryId" value={category} onChange={(event) => update({ categoryId: event.target.value })}>
              <option value="">{t`Toutes les catégories`}</option>
              {(categories ?? []).map((c) => (
                <option key={c.id} value={String(c.id)}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <PriceRangeField value={priceRange} onChange={(price) => update({ price })} />
          <PlaceFilters place={place} radius={radius} sort={sort} update={update} />
          <div className="field">
            <label htmlFor={sortId}>{t`Trier par`}</label>
            <select id={sortId} name="sortBy" value={sort} onChange={(event) => update({ sortBy: event.target.value })}>
              {LIST_SORTS.filter((s) => s !== "distance" || position || place).map((s) => (
                <option key={s} value={s}>
                  {sortLabels[s]}
                </option>
              ))}
            </select>
          </div>
        </FiltersSheet>
        <button type="submit" className="button">
          {t`Rechercher`}
        </button>
      </form>
      {provider ? (
        <p className="filter-note">
          {providerName ? t`Services de ${providerName}` : t`Services de ce prestataire`}{" "}
          <Link href="/services">{t`Voir tous les services`}</Link>
        </p>
      ) : null}
      {place ? (
        <p className="filter-note">{t`Services à moins de ${radius} km de ${place.label}.`}</p>
      ) : sort === "distance" ? (
        <p className="filter-note">{t`Services à moins de ${SEARCH_RADIUS_KM} km de votre position, du plus proche au plus loin.`}</p>
      ) : null}
      {user ? (
        <p className="filter-note">
          <Link href="/search">{t`Recherche avancée : mots-clés, budget et lieu`}</Link>
        </p>
      ) : null}

      <Loaded
        state={state}
        loadingLabel={t`Chargement des services…`}
        errorTitle={t`Impossible de charger les services`}
        errorSubtitle={t`Vérifiez votre connexion puis réessayez.`}
        onRetry={() => reload()}
      >
        {(data) =>
          data.services.length === 0 ? (
            <div className="empty-state">
              <p className="empty-title">{filtered ? t`Aucun service ne correspond à votre recherche` : t`Aucun service pour le moment`}</p>
              <p>
                {filtered
                  ? t`Essayez d'autres mots ou une autre catégorie.`
                  : t`Les services publiés par les prestataires apparaîtront ici.`}
              </p>
              {filtered ? (
                <Link href="/services" className="button-secondary">
                  {t`Effacer les filtres`}
                </Link>
              ) : null}
            </div>
          ) : (
            <>
              <p className="result-count" role="status">
                <Plural value={data.pagination.total} one="# service trouvé" other="# services trouvés" />
              </p>
              <ul className="cards service-cards">
                {data.services.map((service) => (
                  <ServiceCard key={service.id} service={service} user={user} position={position} />
                ))}
              </ul>
              <Pager
                page={data.pagination.page}
                pages={data.pagination.pages}
                onPage={(next) => {
                  update({ page: String(next) })
                  window.scrollTo(0, 0)
                }}
              />
            </>
          )
        }
      </Loaded>
      {filtered || page > 1 ? null : <ServiceHighlights />}
    </Page>
  )
}
