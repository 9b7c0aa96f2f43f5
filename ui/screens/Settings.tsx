import { msg } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useEffect, useId, useMemo, useRef, useState } from "react"
import { ApiError } from "../api/client"
import { notificationsApi, usersApi } from "../api/endpoints"
import type { EmailFrequency, NotificationPreferences } from "../api/contract"
import { useAsync } from "../components/async"
import { ConfirmDialog } from "../components/ConfirmDialog"
import { Alert } from "../components/forms"
import { Loaded } from "../components/loaded"
import { Pager } from "../components/catalogue"
import { TwoFactorSection } from "../components/two-factor"
import { safetyApi } from "../messaging/api"
import { Page } from "../components/page"
import { setUser, useViewerZone, userAtom } from "../state/session"
import { showToast } from "../state/toasts"
import { formatTimeIn, zoneName } from "../format"
import { Link } from "wouter"
import { DeleteAccountSection, EmailSection, ExportSection, PasswordSection, SessionsSection } from "./AccountSettings"

type Status = "idle" | "saving" | "saved" | "failed"
type FieldErrors = Partial<Record<keyof NotificationPreferences, string>>

/** Every IANA zone the browser knows (Intl.supportedValuesOf), the current one included even when it is an alias. */
const zonesWith = (current: string): ReadonlyArray<string> => {
  let zones: ReadonlyArray<string> = []
  try {
    zones = Intl.supportedValuesOf("timeZone")
  } catch {
    zones = []
  }
  return zones.includes(current) ? zones : [current, ...zones].sort()
}

/** Lower case, accents and underscores gone: "Montréal" and "montreal", "New_York" and "new york" match. */
const folded = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").replace(/[_/]/g, " ").toLowerCase()

/**
 * The account's time zone (issue 12): a searchable select of the zones the browser knows. Every time of
 * the site and of the mails is given in it; quiet hours follow it too.
 */
const TimeZoneSection = ({ onChanged }: { onChanged: (zone: string) => void }) => {
  const { t, i18n } = useLingui()
  const user = useAtomValue(userAtom)
  const zone = useViewerZone()
  const ids = { search: useId(), select: useId(), error: useId() }
  const [query, setQuery] = useState("")
  const [error, setError] = useState<string>()
  const [saving, setSaving] = useState(false)
  const all = useMemo(() => zonesWith(zone), [zone])
  const shown = useMemo(() => {
    const words = folded(query).split(/\s+/).filter(Boolean)
    const matches = all.filter((z) => {
      const text = folded(`${z} ${zoneName(i18n.locale, z)}`)
      return words.every((word) => text.includes(word))
    })
    // The current zone stays selectable (and selected) whatever the search.
    return matches.includes(zone) ? matches : [zone, ...matches]
  }, [all, query, zone, i18n.locale])
  const now = Date.now()

  const choose = async (next: string) => {
    if (next === zone || !user) return
    setSaving(true)
    setError(undefined)
    try {
      const { data } = await usersApi.updateMe({ timeZone: next }, [422])
      setUser(data.user)
      onChanged(next)
      showToast("success", msg`Fuseau horaire enregistré.`)
    } catch (failure) {
      if (failure instanceof ApiError) setError(failure.fieldErrors().timeZone ?? failure.message)
      else setError(t`L'enregistrement a échoué. Réessayez.`)
    } finally {
      setSaving(false)
    }
  }

  const label = (z: string) => `${z.replace(/_/g, " ")} — ${formatTimeIn(i18n.locale, now, z)}`
  const current = zoneName(i18n.locale, zone)
  return (
    <section aria-labelledby="zone-heading">
      <h3 id="zone-heading">{t`Fuseau horaire`}</h3>
      <p className="field-hint">{t`Les horaires du site et de vos emails sont donnés dans ce fuseau (actuellement : ${current}).`}</p>
      <div className="field">
        <label htmlFor={ids.search}>{t`Rechercher un fuseau (ville, région)`}</label>
        <input id={ids.search} type="search" name="timeZoneSearch" value={query} onChange={(event) => setQuery(event.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={ids.select}>{t`Fuseau horaire`}</label>
        <select
          id={ids.select}
          name="timeZone"
          value={zone}
          disabled={saving || !user}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? ids.error : undefined}
          onChange={(event) => void choose(event.target.value)}
        >
          {shown.map((z) => (
            <option key={z} value={z}>
              {label(z)}
            </option>
          ))}
        </select>
        {error ? (
          <p className="field-error" id={ids.error}>
            {error}
          </p>
        ) : null}
      </div>
    </section>
  )
}

const FREQUENCIES: ReadonlyArray<EmailFrequency> = ["instant", "daily", "weekly", "never"]

/**
 * /settings in three parts (issue 15): profile and preferences (time zone, notification preferences of
 * spec section 2, each change saved at once), security (password, email, sessions) and privacy (blocked
 * users, data export, account deletion).
 */
export default function Settings() {
  const { t } = useLingui()
  const [state, reload] = useAsync(() => notificationsApi.preferences().then((answer) => answer.data.preferences), [])
  // Bumped by a password change (the other sessions end): the sessions list reloads.
  const [sessionsVersion, setSessionsVersion] = useState(0)
  return (
    <Page
      title={t`Paramètres`}
      narrow
      intro={t`Choisissez quand et comment nous vous écrivons, protégez votre compte et gardez la main sur vos données.`}
    >
      <nav className="settings-toc" aria-label={t`Sections des paramètres`}>
        <a href="#settings-profile">{t`Profil et préférences`}</a>
        <a href="#settings-security">{t`Sécurité`}</a>
        <a href="#settings-privacy">{t`Confidentialité`}</a>
      </nav>
      <section className="settings-group" aria-labelledby="settings-profile">
        <h2 id="settings-profile">{t`Profil et préférences`}</h2>
        <p>
          <Link href="/profile">{t`Modifier mon profil public (nom, photo, présentation)`}</Link>
        </p>
        <Loaded
          state={state}
          loadingLabel={t`Chargement de vos préférences…`}
          failure={() => (
            <Alert kind="error" title={t`Impossible de charger vos préférences.`}>
              <button type="button" className="button-secondary" onClick={() => reload()}>
                {t`Réessayer`}
              </button>
            </Alert>
          )}
        >
          {(preferences) => <PreferencesForm initial={preferences} />}
        </Loaded>
      </section>
      <section className="settings-group" aria-labelledby="settings-security">
        <h2 id="settings-security">{t`Sécurité`}</h2>
        <PasswordSection onChanged={() => setSessionsVersion((version) => version + 1)} />
        <EmailSection />
        <SessionsSection version={sessionsVersion} />
        <TwoFactorSection />
      </section>
      <section className="settings-group" aria-labelledby="settings-privacy">
        <h2 id="settings-privacy">{t`Confidentialité`}</h2>
        <BlockedUsers />
        <ExportSection />
        <DeleteAccountSection />
      </section>
    </Page>
  )
}

/** The users the caller blocked (issue 15), each with "unblock". */
const BlockedUsers = () => {
  const { t } = useLingui()
  const [page, setPage] = useState(1)
  const [state, reload] = useAsync(() => safetyApi.blocks(page, 20).then((answer) => answer.data), [page])
  const [error, setError] = useState<string | null>(null)
  const unblock = (userId: string, name: string) => {
    setError(null)
    safetyApi.unblock(userId).then(
      () => {
        showToast("success", t`${name} est débloqué.`)
        reload({ quiet: true })
      },
      (cause: unknown) => setError(cause instanceof ApiError && cause.message ? cause.message : t`Le déblocage a échoué.`)
    )
  }
  return (
    <section className="settings-section" aria-labelledby="blocked-users">
      <h3 id="blocked-users">{t`Utilisateurs bloqués`}</h3>
      <p>{t`Vous et les personnes que vous bloquez ne pouvez plus vous écrire. Vos réservations ne changent pas.`}</p>
      {error ? (
        <Alert kind="error">
          <p>{error}</p>
        </Alert>
      ) : null}
      <Loaded
        state={state}
        loadingLabel={t`Chargement des utilisateurs bloqués…`}
        errorTitle={t`Impossible de charger les utilisateurs bloqués.`}
        errorSubtitle={t`Veuillez réessayer.`}
        onRetry={() => reload()}
      >
        {(data) =>
          data.blocks.length === 0 ? (
            <p className="empty-state">{t`Vous ne bloquez personne.`}</p>
          ) : (
            <>
              <ul className="blocked-users">
                {data.blocks.map((block) => {
                  const name = `${block.user.firstName} ${block.user.lastName}`
                  return (
                    <li key={block.user.id} className="blocked-user">
                      <span>{name}</span>{" "}
                      <button type="button" className="button-secondary button-small" onClick={() => unblock(block.user.id, name)}>
                        {t`Débloquer`}
                        <span className="sr-only"> {name}</span>
                      </button>
                    </li>
                  )
                })}
              </ul>
              <Pager page={data.pagination.page} pages={data.pagination.pages} onPage={setPage} />
            </>
          )
        }
      </Loaded>
    </section>
  )
}

const PreferencesForm = ({ initial }: { initial: NotificationPreferences }) => {
  const { t, i18n } = useLingui()
  const [prefs, setPrefs] = useState(initial)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [status, setStatus] = useState<Status>("idle")
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  // Changes are sent one after the other, so the last one the user made is the one kept.
  const queue = useRef<Promise<unknown>>(Promise.resolve())
  const pending = useRef(0)
  const ids = { frequency: useId(), start: useId(), end: useId() }

  const save = (change: Partial<NotificationPreferences>) => {
    setPrefs((current) => ({ ...current, ...change }))
    setStatus("saving")
    pending.current++
    const run = () =>
      notificationsApi.updatePreferences(change, [422]).then(
        (answer) => {
          setErrors((current) => {
            const next = { ...current }
            for (const field of Object.keys(change) as Array<keyof NotificationPreferences>) delete next[field]
            return next
          })
          if (--pending.current === 0) {
            setPrefs(answer.data.preferences)
            setStatus("saved")
          }
        },
        (error: unknown) => {
          pending.current--
          if (error instanceof ApiError) setErrors((current) => ({ ...current, ...error.fieldErrors() }))
          setStatus("failed")
        }
      )
    queue.current = queue.current.then(run, run)
    return queue.current
  }

  const unsubscribeAll = async () => {
    setBusy(true)
    try {
      await notificationsApi.updatePreferences({ emailNotifications: false, emailFrequency: "never" })
      setPrefs((current) => ({ ...current, emailNotifications: false, emailFrequency: "never" }))
      setErrors({})
      setStatus("idle")
      setConfirming(false)
      showToast("success", msg`Vous êtes désabonné de tous les emails de notification.`)
    } catch {
      showToast("error", msg`Le désabonnement a échoué. Réessayez.`)
    } finally {
      setBusy(false)
    }
  }

  const frequencyLabels: Record<EmailFrequency, string> = {
    instant: t`Immédiatement`,
    daily: t`Un résumé par jour (8 h)`,
    weekly: t`Un résumé par semaine (lundi 8 h)`,
    never: t`Jamais`
  }
  const statusText = {
    idle: "",
    saving: t`Enregistrement…`,
    saved: t`Préférences enregistrées.`,
    failed: t`L'enregistrement a échoué. Vérifiez les champs signalés.`
  }[status]
  const off = !prefs.emailNotifications
  // Quiet hours and digests follow the account's zone: the one zone an account has.
  const zone = zoneName(i18n.locale, prefs.timeZone)

  return (
    <>
      <TimeZoneSection onChanged={(timeZone) => setPrefs((current) => ({ ...current, timeZone }))} />
      <section aria-labelledby="email-heading">
        <h3 id="email-heading">{t`Notifications par email`}</h3>
        <div className="field field-check">
          <label className="check">
            <input
              type="checkbox"
              name="emailNotifications"
              checked={prefs.emailNotifications}
              onChange={(event) => void save({ emailNotifications: event.target.checked })}
            />
            {t`Recevoir les notifications par email`}
          </label>
          <p className="field-hint">{t`Les emails de sécurité du compte (vérification, mot de passe) sont toujours envoyés.`}</p>
        </div>

        <fieldset className="field" disabled={off} aria-describedby={errors.emailFrequency ? `${ids.frequency}-error` : undefined}>
          <legend>{t`Fréquence`}</legend>
          {FREQUENCIES.map((frequency) => (
            <label key={frequency} className="check">
              <input
                type="radio"
                name="emailFrequency"
                value={frequency}
                checked={prefs.emailFrequency === frequency}
                aria-invalid={errors.emailFrequency ? true : undefined}
                onChange={() => void save({ emailFrequency: frequency })}
              />
              {frequencyLabels[frequency]}
            </label>
          ))}
          {errors.emailFrequency ? (
            <p className="field-error" id={`${ids.frequency}-error`}>
              {errors.emailFrequency}
            </p>
          ) : null}
        </fieldset>

        <div className="field">
          <p id="notification-kinds">{t`Ces réglages s'appliquent à ces emails :`}</p>
          <ul className="notification-kinds" aria-labelledby="notification-kinds">
            <li>{t`Réservations : demandes, paiements, confirmations, annulations`}</li>
            <li>
              {t`Rappels de réservation : 24 h et 2 h avant le début d'une réservation confirmée, aux deux parties`}
              <p className="field-hint">
                {t`Un rappel retenu par les heures calmes ou par un résumé jusqu'au début de la réservation n'est pas envoyé.`}
              </p>
            </li>
            <li>{t`Candidatures de prestataire`}</li>
            <li>{t`Messages`}</li>
          </ul>
        </div>
      </section>

      <section aria-labelledby="quiet-heading">
        <h3 id="quiet-heading">{t`Heures calmes`}</h3>
        <fieldset className="field" disabled={off}>
          <legend className="sr-only">{t`Heures calmes`}</legend>
          <label className="check">
            <input
              type="checkbox"
              name="quietHoursEnabled"
              checked={prefs.quietHoursEnabled}
              onChange={(event) => void save({ quietHoursEnabled: event.target.checked })}
            />
            {t`Ne pas m'écrire pendant les heures calmes`}
          </label>
          <p className="field-hint">{t`Les emails arrivés pendant ces heures partent à leur fin (${zone}, le fuseau de votre compte).`}</p>
          {prefs.quietHoursEnabled ? (
            <div className="field-row">
              <TimeField
                id={ids.start}
                label={t`Début`}
                name="quietHoursStart"
                value={prefs.quietHoursStart}
                error={errors.quietHoursStart}
                onChange={(value) => void save({ quietHoursStart: value })}
              />
              <TimeField
                id={ids.end}
                label={t`Fin`}
                name="quietHoursEnd"
                value={prefs.quietHoursEnd}
                error={errors.quietHoursEnd}
                onChange={(value) => void save({ quietHoursEnd: value })}
              />
            </div>
          ) : null}
        </fieldset>
      </section>

      <p className="save-status" role="status" aria-live="polite">
        {statusText}
      </p>

      <section aria-labelledby="unsubscribe-heading">
        <h3 id="unsubscribe-heading">{t`Désabonnement complet`}</h3>
        <p>{t`Ne plus recevoir aucun email de notification (réservations, candidatures, messages).`}</p>
        <button
          type="button"
          className="button button-danger"
          onClick={() => setConfirming(true)}
          disabled={off && prefs.emailFrequency === "never"}
        >
          {t`Me désabonner de tout`}
        </button>
      </section>

      {confirming ? (
        <ConfirmDialog
          title={i18n._(msg`Se désabonner de tous les emails ?`)}
          confirmLabel={t`Oui, me désabonner`}
          onConfirm={() => void unsubscribeAll()}
          onCancel={() => setConfirming(false)}
          busy={busy}
        >
          <p>{t`Vous ne recevrez plus aucun email de notification. Vous pourrez les réactiver ici à tout moment.`}</p>
        </ConfirmDialog>
      ) : null}
    </>
  )
}

/** A 24-hour time input whose change is saved once it holds a whole HH:MM. */
const TimeField = ({
  id,
  label,
  name,
  value,
  error,
  onChange
}: {
  id: string
  label: string
  name: string
  value: string
  error?: string | undefined
  onChange: (value: string) => void
}) => {
  const [text, setText] = useState(value)
  useEffect(() => setText(value), [value])
  return (
    <div className="field field-inline">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="time"
        step={60}
        value={text}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => {
          setText(event.target.value)
          if (/^\d{2}:\d{2}$/.test(event.target.value) && event.target.value !== value) onChange(event.target.value)
        }}
      />
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  )
}
