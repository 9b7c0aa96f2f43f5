import { plural } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { useState } from "react"
import { Link } from "wouter"
import { adminApi } from "../api/admin"
import { useAsync } from "../components/async"
import { AdminPager, useListQuery } from "../components/admin"
import { Loaded, useCategories } from "../components/catalogue"
import { Page } from "../components/page"
import { DataTable } from "../components/table"
import { formatDate, formatMinor } from "../format"

export default function AdminServices() {
  const { t, i18n } = useLingui()
  const categories = useCategories()
  const list = useListQuery({ categoryId: "", isAvailable: "" }, 20)
  const [busy, setBusy] = useState<string | null>(null)
  const [state, reload] = useAsync(() => adminApi.services(list.query).then((answer) => answer.data), [list.query])
  const toggle = (id: string, isAvailable: boolean) => {
    setBusy(id)
    adminApi.setServiceAvailability(id, !isAvailable).then(
      () => {
        setBusy(null)
        reload({ quiet: true })
      },
      // Spec section 8: a failed toggle is logged only.
      (error: unknown) => {
        setBusy(null)
        console.warn("availability toggle failed", error)
      }
    )
  }
  return (
    <Page title={t`Services`}>
      <form className="filters" role="search" onSubmit={list.submitSearch}>
        <div className="field">
          <label htmlFor="services-search">{t`Rechercher un service`}</label>
          <input id="services-search" type="search" value={list.search} onChange={(event) => list.setSearch(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="services-category">{t`Catégorie`}</label>
          <select
            id="services-category"
            value={list.query.categoryId}
            onChange={(event) => list.setFilter("categoryId", event.target.value)}
          >
            <option value="">{t`Toutes les catégories`}</option>
            {(categories ?? []).map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="services-availability">{t`Disponibilité`}</label>
          <select
            id="services-availability"
            value={list.query.isAvailable}
            onChange={(event) => list.setFilter("isAvailable", event.target.value)}
          >
            <option value="">{t`Tous`}</option>
            <option value="true">{t`Disponibles`}</option>
            <option value="false">{t`Indisponibles`}</option>
          </select>
        </div>
        <button type="submit" className="button-secondary">{t`Rechercher`}</button>
      </form>
      <Loaded
        state={state}
        errorTitle={t`Impossible de charger les services`}
        errorSubtitle={t`Veuillez réessayer.`}
        onRetry={() => reload()}
      >
        {(data) =>
          data.services.length === 0 ? (
            <p className="empty-state">{t`Aucun service ne correspond.`}</p>
          ) : (
            <>
              <p>{plural(data.pagination.total, { one: "# service", other: "# services" })}</p>
              <DataTable caption={t`Services`}>
                <thead>
                  <tr>
                    <th scope="col">{t`Service`}</th>
                    <th scope="col">{t`Prestataire`}</th>
                    <th scope="col">{t`Prix`}</th>
                    <th scope="col">{t`Statut`}</th>
                    <th scope="col" className="hide-mobile">{t`Lieu`}</th>
                    <th scope="col" className="desktop-only">{t`Créé le`}</th>
                    <th scope="col">
                      <span className="sr-only">{t`Actions`}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.services.map((s) => (
                    <tr key={s.id}>
                      <td>
                        {s.title}
                        <br />
                        <small>{s.category.name}</small>
                      </td>
                      <td>
                        {s.provider.firstName} {s.provider.lastName}
                        <br />
                        <small>{s.provider.email}</small>
                      </td>
                      <td>{t`${formatMinor(i18n.locale, s.priceMinor, s.currency)} / h`}</td>
                      <td>
                        <span className={`badge ${s.isAvailable ? "status-success" : "status-neutral"}`}>
                          {s.isAvailable ? t`Disponible` : t`Indisponible`}
                        </span>
                      </td>
                      <td className="hide-mobile">{s.location}</td>
                      <td className="desktop-only">{formatDate(i18n.locale, s.createdAt)}</td>
                      <td>
                        <div className="admin-actions">
                          <button
                            type="button"
                            className="button-secondary"
                            disabled={busy === s.id}
                            onClick={() => toggle(s.id, s.isAvailable)}
                          >
                            {s.isAvailable ? t`Désactiver` : t`Activer`}
                            <span className="sr-only"> : {s.title}</span>
                          </button>
                          <Link href={`/services/${s.id}`}>
                            {t`Voir`}
                            <span className="sr-only"> : {s.title}</span>
                          </Link>
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
              <AdminPager pagination={data.pagination} onPage={list.setPage} onLimit={list.setLimit} />
            </>
          )
        }
      </Loaded>
    </Page>
  )
}
