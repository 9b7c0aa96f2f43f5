import { plural } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { useState } from "react"
import { type AdminUser, adminApi } from "../api/admin"
import { ApiError } from "../api/client"
import type { ConnectStatus, Role } from "../api/contract"
import { useAsync } from "../components/async"
import { AdminPager, useListQuery } from "../components/admin"
import { Loaded } from "../components/catalogue"
import { ActionMenu } from "../components/ActionMenu"
import { ConfirmDialog } from "../components/ConfirmDialog"
import { Modal } from "../components/Modal"
import { Page } from "../components/page"
import { DataTable } from "../components/table"
import { showToast } from "../state/toasts"
import { formatDate, zoneName } from "../format"

const ROLES: ReadonlyArray<Role> = ["CLIENT", "PROVIDER", "ADMIN"]
const reason = (error: unknown, fallback: string) => (error instanceof ApiError && error.message ? error.message : fallback)

/**
 * One user as a table row: name and contact, role, status, payment account, and every action behind
 * one menu (activate, role, promotion, payment account). What a payment-account action answers (its
 * configuration link, its state) opens in a dialog.
 */
const UserRow = ({
  user,
  roleLabels,
  onUpdate,
  onPromote,
  onChanged
}: {
  user: AdminUser
  roleLabels: Record<Role, string>
  onUpdate: (user: AdminUser, body: { isActive?: boolean; role?: Role }, failure: string) => void
  onPromote: (user: AdminUser) => void
  onChanged: () => void
}) => {
  const { t, i18n } = useLingui()
  const [status, setStatus] = useState<ConnectStatus | null>(null)
  const [link, setLink] = useState<string | null>(null)
  const [confirmDelete, setConfirmDelete] = useState(false)
  const name = `${user.firstName} ${user.lastName}`
  const fail = (fallback: string) => (error: unknown) => showToast("error", reason(error, fallback))
  const account =
    user.paymentAccount === null
      ? t`Aucun compte de paiement`
      : user.paymentAccount.isComplete
        ? t`Compte de paiement complet`
        : t`Compte de paiement incomplet`
  return (
    <tr>
      <td>
        <strong>{name}</strong>
        <br />
        <small>{user.email}</small>
        <br />
        <small>{user.phoneNumber}</small>
      </td>
      <td>
        {roleLabels[user.role]}
        {user.role === "PROVIDER" ? (
          <>
            <br />
            <small>{account}</small>
          </>
        ) : null}
      </td>
      <td>
        <span className={`badge ${user.isActive ? "status-success" : "status-danger"}`}>{user.isActive ? t`Actif` : t`Inactif`}</span>
      </td>
      <td>
        {formatDate(i18n.locale, user.createdAt)}
        {user.timeZone ? (
          <>
            <br />
            <small>{zoneName(i18n.locale, user.timeZone)}</small>
          </>
        ) : null}
      </td>
      <td>
        <ActionMenu
          label={
            <>
              {t`Actions`}
              <span className="sr-only"> : {name}</span>
            </>
          }
        >
          <button type="button" onClick={() => onUpdate(user, { isActive: !user.isActive }, t`Impossible de modifier le statut.`)}>
            {user.isActive ? t`Désactiver` : t`Activer`}
            <span className="sr-only"> : {name}</span>
          </button>
          {ROLES.filter((role) => role !== user.role && role !== "ADMIN").map((role) => (
            <button key={role} type="button" onClick={() => onUpdate(user, { role }, t`Impossible de changer le rôle.`)}>
              {t`Rôle : ${roleLabels[role]}`}
              <span className="sr-only"> ({name})</span>
            </button>
          ))}
          {user.role !== "ADMIN" ? (
            <button type="button" onClick={() => onPromote(user)}>
              {t`Promouvoir administrateur`}
              <span className="sr-only"> : {name}</span>
            </button>
          ) : null}
          {user.role === "PROVIDER" && user.paymentAccount === null ? (
            <button
              type="button"
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
          ) : null}
          {user.role === "PROVIDER" && user.paymentAccount !== null ? (
            <>
              <button
                type="button"
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
                onClick={() =>
                  adminApi.accountStatus(user.id).then((answer) => setStatus(answer.data), fail(t`Impossible de lire l'état du compte.`))
                }
              >
                {t`État du compte`}
                <span className="sr-only"> : {name}</span>
              </button>
              <button
                type="button"
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
              <button type="button" className="action-danger" onClick={() => setConfirmDelete(true)}>
                {t`Supprimer le compte`}
                <span className="sr-only"> : {name}</span>
              </button>
            </>
          ) : null}
        </ActionMenu>
        {link ? (
          <Modal title={t`Lien de configuration`} onClose={() => setLink(null)}>
            <p>
              <a href={link} target="_blank" rel="noopener noreferrer">{t`Ouvrir le lien de configuration`}</a>
            </p>
            <div className="actions">
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
            </div>
          </Modal>
        ) : null}
        {status ? (
          <Modal title={t`État du compte`} onClose={() => setStatus(null)}>
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
          </Modal>
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
      </td>
    </tr>
  )
}

export default function AdminUsers() {
  const { t } = useLingui()
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
              <DataTable caption={t`Utilisateurs`}>
                <thead>
                  <tr>
                    <th scope="col">{t`Utilisateur`}</th>
                    <th scope="col">{t`Rôle`}</th>
                    <th scope="col">{t`Statut`}</th>
                    <th scope="col">{t`Inscription`}</th>
                    <th scope="col">
                      <span className="sr-only">{t`Actions`}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.users.map((user) => (
                    <UserRow
                      key={user.id}
                      user={user}
                      roleLabels={roleLabels}
                      onUpdate={(u, body, failure) => void update(u, body, failure)}
                      onPromote={setPromote}
                      onChanged={() => reload({ quiet: true })}
                    />
                  ))}
                </tbody>
              </DataTable>
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
