import { useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useState, type FormEvent } from "react"
import { navigate } from "wouter/use-browser-location"
import { ApiError } from "../api/client"
import { accountApi, authApi } from "../api/endpoints"
import type { AccountSession } from "../api/contract"
import { useAsync } from "../components/async"
import { ConfirmDialog } from "../components/ConfirmDialog"
import { Alert, PasswordField, SubmitButton, TextField, useFocusFirstInvalid } from "../components/forms"
import { Loaded } from "../components/loaded"
import { problemTexts } from "../components/problems"
import { clearSession, userAtom } from "../state/session"
import { showToast } from "../state/toasts"
import { formatDateTimeIn } from "../format"
import { useViewerZone } from "../state/session"
import { checkNewPassword } from "../validation"

// The account's security and privacy sections of /settings (issue 15): password, email, sessions,
// data export, deletion. Every rule is the server's; the forms only spare a round trip when a field is empty.

type PasswordErrors = Partial<Record<"currentPassword" | "newPassword" | "confirmPassword", string>>

/** Change password: the current one is required; every other session ends (the server keeps this one). */
export const PasswordSection = ({ onChanged }: { onChanged: () => void }) => {
  const { t, i18n } = useLingui()
  const [currentPassword, setCurrent] = useState("")
  const [newPassword, setNew] = useState("")
  const [confirmPassword, setConfirm] = useState("")
  const [errors, setErrors] = useState<PasswordErrors>({})
  const [busy, setBusy] = useState(false)
  const formRef = useFocusFirstInvalid(errors)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problems = problemTexts(i18n, checkNewPassword(newPassword, confirmPassword))
    const next: PasswordErrors = { newPassword: problems.password, confirmPassword: problems.confirmPassword }
    if (currentPassword === "") next.currentPassword = t`Ce champ est requis.`
    const shown = Object.fromEntries(Object.entries(next).filter(([, value]) => value)) as PasswordErrors
    setErrors(shown)
    if (Object.keys(shown).length > 0) return
    setBusy(true)
    try {
      const answer = await authApi.updatePassword({ currentPassword, newPassword, confirmPassword }, [422])
      setCurrent("")
      setNew("")
      setConfirm("")
      showToast("success", answer.message ?? t`Votre mot de passe a été modifié.`)
      onChanged()
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      const fields = error.fieldErrors()
      setErrors({
        currentPassword: fields.currentPassword,
        newPassword: fields.password ?? fields.newPassword,
        confirmPassword: fields.confirmPassword
      })
    } finally {
      setBusy(false)
    }
  }

  return (
    <section aria-labelledby="password-heading">
      <h3 id="password-heading">{t`Changer de mot de passe`}</h3>
      <p className="field-hint">{t`Vos autres sessions seront déconnectées ; celle-ci reste ouverte.`}</p>
      <form className="form" noValidate ref={formRef} onSubmit={(event) => void submit(event)}>
        <PasswordField
          label={t`Mot de passe actuel`}
          name="currentPassword"
          autoComplete="current-password"
          value={currentPassword}
          onChange={setCurrent}
          error={errors.currentPassword}
        />
        <PasswordField
          label={t`Nouveau mot de passe`}
          name="newPassword"
          autoComplete="new-password"
          hint={t`Au moins 8 caractères, avec une majuscule, une minuscule, un chiffre et un caractère spécial (@$!%*?&).`}
          value={newPassword}
          onChange={setNew}
          error={errors.newPassword}
        />
        <PasswordField
          label={t`Confirmer le nouveau mot de passe`}
          name="confirmPassword"
          autoComplete="new-password"
          value={confirmPassword}
          onChange={setConfirm}
          error={errors.confirmPassword}
        />
        <SubmitButton busy={busy}>{t`Changer le mot de passe`}</SubmitButton>
      </form>
    </section>
  )
}

/** Change email: a link goes to the new address; nothing changes until it is opened. */
export const EmailSection = () => {
  const { t } = useLingui()
  const user = useAtomValue(userAtom)
  const [newEmail, setNewEmail] = useState("")
  const [currentPassword, setCurrent] = useState("")
  const [errors, setErrors] = useState<Partial<Record<"newEmail" | "currentPassword", string>>>({})
  const [sent, setSent] = useState<string>()
  const [busy, setBusy] = useState(false)
  const formRef = useFocusFirstInvalid(errors)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setSent(undefined)
    const required = t`Ce champ est requis.`
    const next = { newEmail: newEmail.trim() === "" ? required : undefined, currentPassword: currentPassword === "" ? required : undefined }
    setErrors(next)
    if (next.newEmail || next.currentPassword) return
    setBusy(true)
    try {
      const answer = await authApi.changeEmail({ newEmail, currentPassword }, [409, 422])
      setSent(answer.message ?? t`Un lien de confirmation a été envoyé à la nouvelle adresse.`)
      setCurrent("")
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      if (error.status === 409) setErrors({ newEmail: error.message })
      else setErrors(error.fieldErrors())
    } finally {
      setBusy(false)
    }
  }

  return (
    <section aria-labelledby="email-change-heading">
      <h3 id="email-change-heading">{t`Changer d'adresse email`}</h3>
      <p className="field-hint">{t`Adresse actuelle : ${user?.email ?? ""}. La nouvelle adresse ne remplace l'actuelle qu'une fois confirmée par le lien que nous y envoyons ; l'ancienne adresse en est informée.`}</p>
      {sent ? (
        <Alert kind="success">
          <p>{sent}</p>
        </Alert>
      ) : null}
      <form className="form" noValidate ref={formRef} onSubmit={(event) => void submit(event)}>
        <TextField
          label={t`Nouvelle adresse email`}
          name="newEmail"
          type="email"
          autoComplete="email"
          value={newEmail}
          onChange={setNewEmail}
          error={errors.newEmail}
        />
        <PasswordField
          label={t`Votre mot de passe`}
          name="emailChangePassword"
          autoComplete="current-password"
          value={currentPassword}
          onChange={setCurrent}
          error={errors.currentPassword}
        />
        <SubmitButton busy={busy}>{t`Envoyer le lien de confirmation`}</SubmitButton>
      </form>
    </section>
  )
}

/** The open sessions: device, coarse network address, last use; "log out this one" and "log out everywhere else". */
export const SessionsSection = ({ version }: { version: number }) => {
  const { t, i18n } = useLingui()
  const zone = useViewerZone()
  const [state, reload] = useAsync(() => authApi.sessions().then((answer) => answer.data.sessions), [version])
  const [busy, setBusy] = useState(false)
  const device = (session: AccountSession) =>
    session.browser && session.os ? t`${session.browser} sur ${session.os}` : (session.browser ?? session.os ?? t`Appareil non reconnu`)

  const end = async (session: AccountSession) => {
    setBusy(true)
    try {
      await authApi.endSession(session.id)
      showToast("success", t`La session a été déconnectée.`)
      reload({ quiet: true })
    } catch {
      // The toast of the API's reaction says why.
    } finally {
      setBusy(false)
    }
  }
  const endOthers = async () => {
    setBusy(true)
    try {
      await authApi.endOtherSessions()
      showToast("success", t`Toutes vos autres sessions ont été déconnectées.`)
      reload({ quiet: true })
    } catch {
      // The toast of the API's reaction says why.
    } finally {
      setBusy(false)
    }
  }

  return (
    <section aria-labelledby="sessions-heading">
      <h3 id="sessions-heading">{t`Sessions actives`}</h3>
      <p className="field-hint">
        {t`L'adresse réseau est donnée sous une forme approximative ; nous ne déduisons aucun lieu de cette adresse.`}
      </p>
      <Loaded
        state={state}
        loadingLabel={t`Chargement de vos sessions…`}
        errorTitle={t`Impossible de charger vos sessions.`}
        errorSubtitle={t`Veuillez réessayer.`}
        onRetry={() => reload()}
      >
        {(sessions) => (
          <>
            <ul className="sessions">
              {sessions.map((session) => (
                <li key={session.id} className="session">
                  <p>
                    <strong>{device(session)}</strong>
                    {session.current ? <span className="badge badge-active">{t`Cette session`}</span> : null}
                  </p>
                  <p className="field-hint">
                    {t`Réseau : ${session.address ?? t`inconnu`}`} ·{" "}
                    {t`Dernière activité : ${formatDateTimeIn(i18n.locale, session.lastUsedAt, zone)}`} ·{" "}
                    {t`Ouverte le ${formatDateTimeIn(i18n.locale, session.openedAt, zone)}`}
                  </p>
                  {session.current ? null : (
                    <button type="button" className="button-secondary button-small" disabled={busy} onClick={() => void end(session)}>
                      {t`Déconnecter cette session`}
                      <span className="sr-only"> {device(session)}</span>
                    </button>
                  )}
                </li>
              ))}
            </ul>
            {sessions.some((session) => !session.current) ? (
              <button type="button" className="button-secondary" disabled={busy} onClick={() => void endOthers()}>
                {t`Déconnecter toutes les autres sessions`}
              </button>
            ) : null}
          </>
        )}
      </Loaded>
    </section>
  )
}

/** Export my data: prepared in the background and mailed as a link that expires. */
export const ExportSection = () => {
  const { t } = useLingui()
  const [done, setDone] = useState<string>()
  const [busy, setBusy] = useState(false)
  const ask = async () => {
    setBusy(true)
    try {
      const answer = await accountApi.requestExport()
      setDone(answer.message ?? t`Votre export est en préparation. Vous recevrez par email un lien pour le télécharger.`)
    } catch {
      // The toast of the API's reaction says why.
    } finally {
      setBusy(false)
    }
  }
  return (
    <section aria-labelledby="export-heading">
      <h3 id="export-heading">{t`Exporter mes données`}</h3>
      <p>
        {t`Un fichier JSON de votre profil, vos services, réservations, messages, avis, candidatures et fichiers envoyés. Nous vous envoyons par email un lien de téléchargement valable 7 jours, pour un seul téléchargement.`}
      </p>
      {done ? (
        <Alert kind="success">
          <p>{done}</p>
        </Alert>
      ) : null}
      <button type="button" className="button-secondary" disabled={busy} onClick={() => void ask()}>
        {t`Demander l'export de mes données`}
      </button>
    </section>
  )
}

/** Delete my account: confirmed with the password; refused with the server's reason while a booking is under way or money held. */
export const DeleteAccountSection = () => {
  const { t } = useLingui()
  const [confirming, setConfirming] = useState(false)
  const [password, setPassword] = useState("")
  const [error, setError] = useState<string>()
  const [refusal, setRefusal] = useState<string>()
  const [busy, setBusy] = useState(false)

  const remove = async () => {
    setError(undefined)
    if (password === "") {
      setError(t`Ce champ est requis.`)
      return
    }
    setBusy(true)
    try {
      const answer = await accountApi.deleteAccount({ password }, [409, 422])
      await authApi.logout().catch(() => undefined)
      // Home first: once the session is cleared, /settings would send a visitor to the login page.
      navigate("/")
      clearSession()
      showToast("success", answer.message ?? t`Votre compte a été supprimé.`)
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure
      if (failure.status === 409) {
        setRefusal(failure.message)
        setConfirming(false)
      } else setError(failure.fieldErrors().password ?? failure.message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <section aria-labelledby="delete-heading">
      <h3 id="delete-heading">{t`Supprimer mon compte`}</h3>
      <p>
        {t`Vos nom, email, téléphone, profil, photo et adresses sont effacés, vos sessions fermées. Vos avis restent, signés « ancien membre » ; les réservations et paiements sont conservés sans vos données personnelles, pour la durée légale. Impossible tant qu'une réservation est en cours ou qu'un paiement est retenu.`}
      </p>
      {refusal ? (
        <Alert kind="error">
          <p>{refusal}</p>
        </Alert>
      ) : null}
      <button
        type="button"
        className="button button-danger"
        onClick={() => {
          setRefusal(undefined)
          setPassword("")
          setError(undefined)
          setConfirming(true)
        }}
      >
        {t`Supprimer mon compte`}
      </button>
      {confirming ? (
        <ConfirmDialog
          title={t`Supprimer votre compte ?`}
          confirmLabel={t`Oui, supprimer mon compte`}
          onConfirm={() => void remove()}
          onCancel={() => setConfirming(false)}
          busy={busy}
        >
          <p>{t`Cette action est irréversible. Saisissez votre mot de passe pour confirmer.`}</p>
          <PasswordField
            label={t`Mot de passe du compte`}
            name="deletePassword"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
            error={error}
          />
        </ConfirmDialog>
      ) : null}
    </section>
  )
}
