import { plural } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { useState } from "react"
import { type AdminUser, adminApi } from "../api/admin"
import { ApiError } from "../api/client"
import type { ConnectStatus, Role } from "../api/contract"
import { useAsync } from "../components/async"
import { AdminPager, useListQuery } from "../components/admin"
import { Loaded } from "../components/catalogue"
import { ConfirmDialog } from "../components/ConfirmDialog"
import { Page } from "../components/page"
import { showToast } from "../state/toasts"
import { formatDate, zoneName } from "../format"

const ROLES: ReadonlyArray<Role> = ["CLIENT", "PROVIDER", "ADMIN"]
const reason = (error: unknown, fallback: string) => (error instanceof ApiError && error.message ? error.message : fallback)

/** The payment-account actions of one provider (spec: create first, then link, status, dashboard, delete). */
const PaymentAccountActions = ({ user, onChanged }: { user: AdminUser; onChanged: () => void }) => {
  const { t } = useLingui()
  const [status, setStatus] = useState<ConnectStatus | null>(null)
  const [link, setLink] = useState<string | null>(null)
  const [confirmDelete, setConfirmDelete] = useState(false)
  const name = `${user.firstName} ${user.lastName}`
  const fail = (fallback: string) => (error: unknown) => showToast("error", reason(error, fallback))
  return (
    <div className="admin-actions">
      {user.paymentAccount === null ? (
        <button
          type="button"
          className="button-secondary"
          onClick={() =>
            adminApi.createAccount(user.id).then((answer) => {
              setLink(answer.data.accountLink)
              showToast("success", t`Compte de paiement créé.`)
              onChanged()
            }, fail(t`Impossible de créer le compte de paiement.`))
          }
        >
          {t`Créer le compte de paiement`}
          <span className="sr-only"> : {name}</span>
        </button>
      ) : (
        <>
          <button
            type="button"
            className="button-secondary"
            onClick={() =>
              adminApi
                .accountLink(user.id)
                .then((answer) => setLink(answer.data.accountLink), fail(t`Impossible d'obtenir le lien de configuration.`))
            }
          >
            {t`Lien de configuration`}
            <span className="sr-only"> : {name}</span>
          </button>
          <button
            type="button"
            className="button-secondary"
            onClick={() =>
              adminApi.accountStatus(user.id).then((answer) => setStatus(answer.data), fail(t`Impossible de lire l'état du compte.`))
            }
          >
            {t`État du compte`}
            <span className="sr-only"> : {name}</span>
          </button>
          <button
            type="button"
            className="button-secondary"
            onClick={() =>
              adminApi
                .accountDashboard(user.id)
                .then(
                  (answer) => window.open(answer.data.dashboardUrl, "_blank", "noopener"),
                  fail(t`Impossible d'ouvrir le tableau de bord du compte.`)
                )
            }
          >
            {t`Tableau de bord Stripe`}
            <span className="sr-only"> : {name}</span>
          </button>
          <button type="button" className="button-secondary button-danger-text" onClick={() => setConfirmDelete(true)}>
            {t`Supprimer le compte`}
            <span className="sr-only"> : {name}</span>
          </button>
        </>
      )}
      {link ? (
        <p>
          <a href={link} target="_blank" rel="noopener noreferrer">{t`Ouvrir le lien de configuration`}</a>{" "}
          <button
            type="button"
            className="button-secondary"
            onClick={() =>
              navigator.clipboard?.writeText(link).then(
                () => showToast("success", t`Lien copié.`),
                () => showToast("error", t`Impossible de copier le lien.`)
              )
            }
          >
            {t`Copier le lien`}
          </button>
        </p>
      ) : null}
      {status ? (
        <dl role="status" className="account-status">
          <dt>{t`Compte`}</dt>
          <dd>
            {status.accountId ?? "—"} ({status.country ?? "—"})
          </dd>
          <dt>{t`Paiements`}</dt>
          <dd>{status.chargesEnabled ? t`Activés` : t`Inactifs`}</dd>
          <dt>{t`Virements`}</dt>
          <dd>{status.payoutsEnabled ? t`Activés` : t`Inactifs`}</dd>
          <dt>{t`Informations`}</dt>
          <dd>{status.detailsSubmitted ? t`Transmises` : t`Incomplètes`}</dd>
        </dl>
      ) : null}
      {confirmDelete ? (
        <ConfirmDialog
          title={t`Supprimer le compte de paiement ?`}
          confirmLabel={t`Supprimer`}
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() =>
            adminApi.deleteAccount(user.id).then(
              () => {
                setConfirmDelete(false)
                setStatus(null)
                setLink(null)
                showToast("success", t`Compte de paiement supprimé.`)
                onChanged()
              },
              (error) => {
                setConfirmDelete(false)
                fail(t`Impossible de supprimer le compte de paiement.`)(error)
              }
            )
          }
        >
          <p>{t`Le compte de paiement de ${name} sera fermé. Il devra refaire sa configuration pour être payé.`}</p>
        </ConfirmDialog>
      ) : null}
    </div>
  )
}

export default function AdminUsers() {
  const { t, i18n } = useLingui()
  const list = useListQuery({ role: "", isActive: "" }, 20)
  const [promote, setPromote] = useState<AdminUser | null>(null)
  const [state, reload] = useAsync(() => adminApi.users(list.query).then((answer) => answer.data), [list.query])
  const roleLabels: Record<Role, string> = { CLIENT: t`Client`, PROVIDER: t`Prestataire`, ADMIN: t`Administrateur` }
  const update = (user: AdminUser, body: { isActive?: boolean; role?: Role }, failure: string) =>
    adminApi.setUser(user.id, body).then(
      () => {
        showToast("success", t`Utilisateur mis à jour.`)
        reload({ quiet: true })
      },
      (error) => showToast("error", reason(error, failure))
    )
  return (
    <Page title={t`Utilisateurs`}>
      <form className="filters" role="search" onSubmit={list.submitSearch}>
        <div className="field">
          <label htmlFor="users-search">{t`Rechercher un utilisateur`}</label>
          <input id="users-search" type="search" value={list.search} onChange={(event) => list.setSearch(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="users-role">{t`Rôle`}</label>
          <select id="users-role" value={list.query.role} onChange={(event) => list.setFilter("role", event.target.value)}>
            <option value="">{t`Tous les rôles`}</option>
            {ROLES.map((value) => (
              <option key={value} value={value}>
                {roleLabels[value]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="users-status">{t`Statut`}</label>
          <select id="users-status" value={list.query.isActive} onChange={(event) => list.setFilter("isActive", event.target.value)}>
            <option value="">{t`Tous`}</option>
            <option value="true">{t`Actifs`}</option>
            <option value="false">{t`Inactifs`}</option>
          </select>
        </div>
        <button type="submit" className="button-secondary">{t`Rechercher`}</button>
      </form>
      <Loaded
        state={state}
        errorTitle={t`Impossible de charger les utilisateurs`}
        errorSubtitle={t`Veuillez réessayer.`}
        onRetry={() => reload()}
      >
        {(data) =>
          data.users.length === 0 ? (
            <p className="empty-state">{t`Aucun utilisateur ne correspond.`}</p>
          ) : (
            <>
              <p>{plural(data.pagination.total, { one: "# utilisateur", other: "# utilisateurs" })}</p>
              <ul className="admin-user-list">
                {data.users.map((user) => {
                  const name = `${user.firstName} ${user.lastName}`
                  return (
                    <li key={user.id} className="card">
                      <h2>{name}</h2>
                      <p>
                        {user.email} · {user.phoneNumber} · {roleLabels[user.role]} ·{" "}
                        <span className={`badge ${user.isActive ? "status-success" : "status-danger"}`}>
                          {user.isActive ? t`Actif` : t`Inactif`}
                        </span>{" "}
                        · {t`Inscrit le ${formatDate(i18n.locale, user.createdAt)}`}
                        {user.timeZone ? <> · {zoneName(i18n.locale, user.timeZone)}</> : null}
                      </p>
                      {user.role === "PROVIDER" ? (
                        <p>
                          {user.paymentAccount === null
                            ? t`Aucun compte de paiement`
                            : user.paymentAccount.isComplete
                              ? t`Compte de paiement complet`
                              : t`Compte de paiement incomplet`}
                        </p>
                      ) : null}
                      <div className="admin-actions">
                        <button
                          type="button"
                          className="button-secondary"
                          onClick={() => update(user, { isActive: !user.isActive }, t`Impossible de modifier le statut.`)}
                        >
                          {user.isActive ? t`Désactiver` : t`Activer`}
                          <span className="sr-only"> : {name}</span>
                        </button>
                        <div className="field field-inline">
                          <label htmlFor={`role-${user.id}`}>{t`Rôle de ${name}`}</label>
                          <select
                            id={`role-${user.id}`}
                            value={user.role}
                            onChange={(event) => {
                              const next = event.target.value as Role
                              if (next === "ADMIN") setPromote(user)
                              else void update(user, { role: next }, t`Impossible de changer le rôle.`)
                            }}
                          >
                            {ROLES.map((value) => (
                              <option key={value} value={value}>
                                {roleLabels[value]}
                              </option>
                            ))}
                          </select>
                        </div>
                        {user.role !== "ADMIN" ? (
                          <button type="button" className="button-secondary" onClick={() => setPromote(user)}>
                            {t`Promouvoir administrateur`}
                            <span className="sr-only"> : {name}</span>
                          </button>
                        ) : null}
                      </div>
                      {user.role === "PROVIDER" ? <PaymentAccountActions user={user} onChanged={() => reload({ quiet: true })} /> : null}
                    </li>
                  )
                })}
              </ul>
              <AdminPager pagination={data.pagination} onPage={list.setPage} onLimit={list.setLimit} />
            </>
          )
        }
      </Loaded>
      {promote ? (
        <ConfirmDialog
          title={t`Promouvoir administrateur ?`}
          confirmLabel={t`Promouvoir`}
          onCancel={() => setPromote(null)}
          onConfirm={() => {
            const user = promote
            setPromote(null)
            void update(user, { role: "ADMIN" }, t`Impossible de promouvoir cet utilisateur.`)
          }}
        >
          <p>{t`${promote.firstName} ${promote.lastName} aura accès à toute l'administration.`}</p>
        </ConfirmDialog>
      ) : null}
    </Page>
  )
}
