import { useLingui } from "@lingui/react/macro"
import { useId } from "react"
import { Link } from "wouter"
import type { Service } from "../api/contract"
import { catalogueApi } from "../api/endpoints"
import { HIGHLIGHT_COUNT } from "../catalogue/rules"
import { type AsyncState, useAsync } from "./async"
import { PricePerHour, StarRating, useViewerCurrency } from "./catalogue"

type Highlight = "popular" | "recent"

const useHighlights = (kind: Highlight) => {
  const { i18n } = useLingui()
  const currency = useViewerCurrency()
  return useAsync(
    () => catalogueApi.highlights(kind, HIGHLIGHT_COUNT, currency).then(({ data }) => data.services),
    [kind, i18n.locale, currency]
  )[0]
}

/**
 * The best rated and the newest services (spec: GET /services/popular and /recent, 6 each), after the
 * unfiltered list's first page: below it, so that arriving they move nothing a visitor is reading.
 */
export const ServiceHighlights = () => {
  const { t } = useLingui()
  const popular = useHighlights("popular")
  const recent = useHighlights("recent")
  return (
    <div className="service-highlights">
      <HighlightList title={t`Mieux notés`} state={popular} />
      <HighlightList title={t`Nouveautés`} state={recent} />
    </div>
  )
}

/** One short list; while it loads, or if it fails, nothing (the main list says its own state). */
const HighlightList = ({ title, state }: { readonly title: string; readonly state: AsyncState<ReadonlyArray<Service>> }) => {
  const headingId = useId()
  if (state.status !== "ok" || state.data.length === 0) return null
  return (
    <section className="highlights" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <ul className="highlight-list">
        {state.data.map((service) => (
          <li key={service.id}>
            <Link href={`/services/${service.id}`} className="highlight">
              <span className="highlight-title">{service.title}</span>
              <span className="highlight-meta">
                <PricePerHour price={service.price} currency={service.currency} approx={service.approxPrice} />
                <StarRating rating={service.rating} reviewCount={service.reviewCount} compact />
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}
