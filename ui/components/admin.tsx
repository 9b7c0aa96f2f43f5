import { useLingui } from "@lingui/react/macro"
import { type FormEvent, useState } from "react"
import type { AdminPaymentStatus } from "../api/admin"
import { pageRange } from "../admin/format"

/**
 * The query of an admin list: its filters, the search typed then submitted, the page and its size.
 * Any new filter, search or page size goes back to page 1.
 */
export const useListQuery = <F extends Record<string, string>>(filters: F, limit: number) => {
  const [search, setSearch] = useState("")
  const [query, setQuery] = useState({ ...filters, search: "", page: 1, limit })
  return {
    query,
    search,
    setSearch,
    submitSearch: (event: FormEvent) => {
      event.preventDefault()
      setQuery((q) => ({ ...q, search: search.trim(), page: 1 }))
    },
    setFilter: (name: keyof F, value: string) => setQuery((q) => ({ ...q, [name]: value, page: 1 })),
    setPage: (page: number) => setQuery((q) => ({ ...q, page })),
    setLimit: (size: number) => setQuery((q) => ({ ...q, limit: size, page: 1 }))
  }
}

/** Previous/next, "page X of Y", "from-to of total" and the per-page choice (10, 20, 50). */
export const AdminPager = ({
  pagination: { page, pages, limit, total },
  onPage,
  onLimit
}: {
  pagination: { readonly page: number; readonly pages: number; readonly limit: number; readonly total: number }
  onPage: (page: number) => void
  onLimit?: (limit: number) => void
}) => {
  const { t } = useLingui()
  const last = Math.max(1, pages)
  const { from, to } = pageRange(page, limit, total)
  return (
    <nav className="pager admin-pager" aria-label={t`Pagination`}>
      <button type="button" className="button-secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t`Précédent`}
      </button>
      <p>{t`Page ${page} sur ${last}`}</p>
      <p>{t`${from}-${to} sur ${total}`}</p>
      <button type="button" className="button-secondary" disabled={page >= last} onClick={() => onPage(page + 1)}>
        {t`Suivant`}
      </button>
      {onLimit ? (
        <div className="field field-inline">
          <label htmlFor="admin-per-page">{t`Par page`}</label>
          <select id="admin-per-page" value={limit} onChange={(event) => onLimit(Number(event.target.value))}>
            {[10, 20, 50].map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
      ) : null}
    </nav>
  )
}

/** COMPLETED green, PENDING amber, anything else red (spec section 4). */
export const PaymentBadge = ({ status }: { status: AdminPaymentStatus }) => {
  const { t } = useLingui()
  const labels: Record<AdminPaymentStatus, string> = {
    COMPLETED: t`Encaissé`,
    PENDING: t`En attente`,
    REFUNDED: t`Remboursé`,
    CANCELLED: t`Libéré`,
    FAILED: t`Échoué`
  }
  const tone = status === "COMPLETED" ? "success" : status === "PENDING" ? "warning" : "danger"
  return <span className={`badge status-${tone}`}>{labels[status]}</span>
}

/**
 * The currency the back-office's money figures are shown in (never converted): every currency that has
 * payments, the most active first (the server's default).
 */
export const CurrencySelect = ({
  id,
  label,
  value,
  choices,
  onChange
}: {
  id: string
  label: string
  value: string
  choices: ReadonlyArray<string>
  onChange: (currency: string) => void
}) =>
  choices.length === 0 ? null : (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </div>
  )

export const StatCard = ({ label, value, detail }: { label: string; value: string | number; detail?: string }) => (
  <div className="stat-card">
    <p className="stat-label">{label}</p>
    <p className="stat-value">{value}</p>
    {detail ? <p className="stat-detail">{detail}</p> : null}
  </div>
)
