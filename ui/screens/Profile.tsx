import { useLingui } from "@lingui/react/macro"
import { useRef, useState, type FormEvent } from "react"
import { Link } from "wouter"
import { ApiError } from "../api/client"
import { profileApi } from "../api/endpoints"
import type { OwnProfile, Visibility } from "../api/contract"
import { useAsync } from "../components/async"
import { failureText, LoadError } from "../components/catalogue"
import { Alert, SubmitButton, TextField, useFocusFirstInvalid } from "../components/forms"
import { Loaded } from "../components/loaded"
import { Page } from "../components/page"
import { ChipList, Chips, ProfilePhoto, ShareLink } from "../components/profile"
import { setUser } from "../state/session"
import { showToast } from "../state/toasts"

const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"]
const MAX_PHOTO = 5 * 1024 * 1024

interface Draft {
  firstName: string
  lastName: string
  phoneNumber: string
  bio: string
  description: string
  specialities: ReadonlyArray<string>
  languages: ReadonlyArray<string>
  certifications: ReadonlyArray<string>
  experienceYears: string
  city: string
  country: string
  profileVisibility: Visibility
}

const toDraft = (p: OwnProfile): Draft => ({
  firstName: p.firstName,
  lastName: p.lastName,
  phoneNumber: p.phoneNumber ?? "",
  bio: p.bio ?? "",
  description: p.description ?? "",
  specialities: p.specialities ?? [],
  languages: p.languages ?? [],
  certifications: p.certifications ?? [],
  experienceYears: p.experienceYears === null ? "" : String(p.experienceYears),
  city: p.city ?? "",
  country: p.country ?? "",
  profileVisibility: p.profileVisibility
})

/** Only the changed fields, as the PATCH expects them (blank optional texts clear the field). */
export const changedFields = (before: Draft, after: Draft): Record<string, unknown> => {
  const changes: Record<string, unknown> = {}
  for (const key of Object.keys(after) as Array<keyof Draft>) {
    const a = after[key]
    const b = before[key]
    if (Array.isArray(a)) {
      if (JSON.stringify(a) !== JSON.stringify(b)) changes[key] = a
    } else if (typeof a === "string" && a.trim() !== String(b).trim()) {
      const value = a.trim()
      if (key === "experienceYears") changes[key] = value === "" ? null : Number(value)
      else changes[key] = value === "" && !["firstName", "lastName", "phoneNumber"].includes(key) ? null : value
    }
  }
  return changes
}

const Editor = ({ profile, onSaved, onCancel }: { profile: OwnProfile; onSaved: (p: OwnProfile) => void; onCancel: () => void }) => {
  const { t } = useLingui()
  const initial = useRef(toDraft(profile)).current
  const [draft, setDraft] = useState<Draft>(initial)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<string>()
  const [busy, setBusy] = useState(false)
  const form = useFocusFirstInvalid(errors)
  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) =>
      setDraft((current) => ({ ...current, [key]: value }))

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(undefined)
    const found: Record<string, string> = {}
    if (!draft.firstName.trim()) found.firstName = t`Le prénom est obligatoire.`
    if (!draft.lastName.trim()) found.lastName = t`Le nom est obligatoire.`
    if (draft.phoneNumber.trim() && !/^\d{10,15}$/.test(draft.phoneNumber.trim()))
      found.phoneNumber = t`Le téléphone doit contenir de 10 à 15 chiffres.`
    if (draft.bio.length > 500) found.bio = t`500 caractères maximum.`
    if (draft.description.length > 2000) found.description = t`2000 caractères maximum.`
    const years = draft.experienceYears.trim()
    if (years !== "" && !(/^\d+$/.test(years) && Number(years) <= 50)) found.experienceYears = t`Entre 0 et 50 ans.`
    setErrors(found)
    if (Object.keys(found).length > 0) return
    const changes = changedFields(initial, draft)
    // Nothing changed: said, and the editor closes (the spec's profile edit).
    if (Object.keys(changes).length === 0) {
      showToast("info", t`Aucune modification à enregistrer.`)
      onCancel()
      return
    }
    setBusy(true)
    try {
      const { data } = await profileApi.update(changes)
      showToast("success", t`Profil mis à jour.`)
      setUser(data.user)
      onSaved(data.user)
    } catch (error) {
      if (error instanceof ApiError) {
        setErrors(error.fieldErrors())
        setFailure(error.message || error.code)
      } else setFailure(failureText(error))
    } finally {
      setBusy(false)
    }
  }
  const bioLength = draft.bio.length
  const descriptionLength = draft.description.length
  return (
    <form className="form profile-form" onSubmit={(event) => void submit(event)} noValidate ref={form}>
      {failure ? <Alert kind="error">{failure}</Alert> : null}
      <div className="field-row">
        <TextField
          label={t`Prénom`}
          name="firstName"
          value={draft.firstName}
          onChange={set("firstName")}
          error={errors.firstName}
          autoComplete="given-name"
          maxLength={100}
        />
        <TextField
          label={t`Nom`}
          name="lastName"
          value={draft.lastName}
          onChange={set("lastName")}
          error={errors.lastName}
          autoComplete="family-name"
          maxLength={100}
        />
      </div>
      <TextField
        label={t`Téléphone`}
        name="phoneNumber"
        type="tel"
        inputMode="tel"
        value={draft.phoneNumber}
        onChange={set("phoneNumber")}
        error={errors.phoneNumber}
        autoComplete="tel"
        required={false}
      />
      <div className="field">
        <label htmlFor="profile-bio">{t`Bio`}</label>
        <textarea
          id="profile-bio"
          rows={3}
          maxLength={500}
          value={draft.bio}
          aria-describedby="profile-bio-count"
          aria-invalid={errors.bio ? true : undefined}
          onChange={(e) => set("bio")(e.target.value)}
        />
        <p className="field-hint" id="profile-bio-count">
          {t`${bioLength} / 500 caractères`}
        </p>
        {errors.bio ? <p className="field-error">{errors.bio}</p> : null}
      </div>
      <div className="field">
        <label htmlFor="profile-description">{t`Description`}</label>
        <textarea
          id="profile-description"
          rows={6}
          maxLength={2000}
          value={draft.description}
          aria-describedby="profile-description-count"
          aria-invalid={errors.description ? true : undefined}
          onChange={(e) => set("description")(e.target.value)}
        />
        <p className="field-hint" id="profile-description-count">
          {t`${descriptionLength} / 2000 caractères`}
        </p>
        {errors.description ? <p className="field-error">{errors.description}</p> : null}
      </div>
      <ChipList label={t`Spécialités`} values={draft.specialities} onChange={set("specialities")} />
      <ChipList label={t`Langues parlées`} values={draft.languages} onChange={set("languages")} />
      <ChipList label={t`Certifications`} values={draft.certifications} onChange={set("certifications")} />
      <TextField
        label={t`Années d'expérience`}
        name="experienceYears"
        type="number"
        inputMode="numeric"
        min={0}
        max={50}
        step={1}
        value={draft.experienceYears}
        onChange={set("experienceYears")}
        error={errors.experienceYears}
        required={false}
      />
      <div className="field-row">
        <TextField
          label={t`Ville`}
          name="city"
          value={draft.city}
          onChange={set("city")}
          error={errors.city}
          required={false}
          maxLength={100}
          autoComplete="address-level2"
        />
        <TextField
          label={t`Pays`}
          name="country"
          value={draft.country}
          onChange={set("country")}
          error={errors.country}
          required={false}
          maxLength={100}
          autoComplete="country-name"
        />
      </div>
      <div className="field">
        <label htmlFor="profile-visibility">{t`Visibilité du profil`}</label>
        <select
          id="profile-visibility"
          value={draft.profileVisibility}
          onChange={(e) => set("profileVisibility")(e.target.value as Visibility)}
        >
          <option value="PUBLIC">{t`Public`}</option>
          <option value="FRIENDS_ONLY">{t`Mes contacts uniquement`}</option>
          <option value="PRIVATE">{t`Privé`}</option>
        </select>
      </div>
      <div className="actions">
        <SubmitButton busy={busy}>{t`Enregistrer`}</SubmitButton>
        <button type="button" className="button-secondary" onClick={onCancel}>
          {t`Annuler`}
        </button>
      </div>
    </form>
  )
}

const PhotoControls = ({ profile, onChange }: { profile: OwnProfile; onChange: () => void }) => {
  const { t } = useLingui()
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const upload = async (file: File | undefined) => {
    if (!file) return
    setError(undefined)
    if (!PHOTO_TYPES.includes(file.type)) return setError(t`Format de fichier non supporté (JPEG, PNG, WebP uniquement)`)
    if (file.size > MAX_PHOTO) return setError(t`Le fichier est trop volumineux (max 5MB)`)
    setBusy(true)
    try {
      await profileApi.uploadAvatar(file)
      showToast("success", t`Photo mise à jour.`)
      onChange()
    } catch (cause) {
      setError(cause instanceof ApiError ? cause.message || cause.code : String(cause))
    } finally {
      setBusy(false)
      if (input.current) input.current.value = ""
    }
  }
  const remove = async () => {
    setBusy(true)
    try {
      await profileApi.deleteAvatar()
      showToast("success", t`Photo supprimée.`)
      onChange()
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="photo-controls">
      <label htmlFor="avatar-input" className="button-secondary button-small">
        {t`Changer la photo`}
      </label>
      <input
        id="avatar-input"
        ref={input}
        className="sr-only"
        type="file"
        accept="image/jpeg,image/png,image/webp"
        disabled={busy}
        onChange={(e) => void upload(e.target.files?.[0])}
      />
      {profile.avatarUrl ? (
        <button type="button" className="button-ghost button-small" disabled={busy} onClick={() => void remove()}>
          {t`Supprimer la photo`}
        </button>
      ) : null}
      <p className="field-hint">{t`JPEG, PNG ou WebP, 5 Mo maximum.`}</p>
      {error ? <Alert kind="error">{error}</Alert> : null}
    </div>
  )
}

const View = ({ profile }: { profile: OwnProfile }) => {
  const { t } = useLingui()
  const visibility = { PUBLIC: t`Public`, FRIENDS_ONLY: t`Mes contacts uniquement`, PRIVATE: t`Privé` }[profile.profileVisibility]
  return (
    <dl className="facts profile-facts">
      <dt>{t`Email`}</dt>
      <dd>{profile.email}</dd>
      <dt>{t`Téléphone`}</dt>
      <dd>{profile.phoneNumber || "—"}</dd>
      <dt>{t`Bio`}</dt>
      <dd>{profile.bio || "—"}</dd>
      <dt>{t`Description`}</dt>
      <dd className="description">{profile.description || "—"}</dd>
      <dt>{t`Spécialités`}</dt>
      <dd>
        <Chips values={profile.specialities} />
      </dd>
      <dt>{t`Langues parlées`}</dt>
      <dd>
        <Chips values={profile.languages} />
      </dd>
      <dt>{t`Certifications`}</dt>
      <dd>
        <Chips values={profile.certifications} />
      </dd>
      <dt>{t`Années d'expérience`}</dt>
      <dd>{profile.experienceYears ?? "—"}</dd>
      <dt>{t`Ville`}</dt>
      <dd>{profile.city || "—"}</dd>
      <dt>{t`Pays`}</dt>
      <dd>{profile.country || "—"}</dd>
      <dt>{t`Visibilité du profil`}</dt>
      <dd>{visibility}</dd>
    </dl>
  )
}

export default function Profile() {
  const { t } = useLingui()
  const [state, reload] = useAsync(() => profileApi.me().then((answer) => answer.data.user), [])
  const [saved, setSaved] = useState<OwnProfile | null>(null)
  const [editing, setEditing] = useState(false)
  const page = (profile: OwnProfile) => {
    const name = `${profile.firstName} ${profile.lastName}`
    return (
      <Page title={t`Mon profil`}>
        <section className="panel profile-head">
          <ProfilePhoto url={profile.profilePhotoUrl} name={name} />
          <div>
            <h2>{name}</h2>
            <PhotoControls
              profile={profile}
              onChange={() => {
                setSaved(null)
                reload({ quiet: true })
              }}
            />
          </div>
        </section>
        <div className="page-actions">
          <ShareLink id={profile.id} />
          <Link href={`/profile/${profile.id}`} className="button-ghost">
            {t`Voir mon profil public`}
          </Link>
          {profile.role === "PROVIDER" && profile.payments && !profile.payments.chargesEnabled ? (
            <Link href="/provider/payments/setup" className="button">
              {t`Activer les paiements`}
            </Link>
          ) : null}
          {editing ? null : (
            <button type="button" className="button" onClick={() => setEditing(true)}>
              {t`Modifier mon profil`}
            </button>
          )}
        </div>
        {editing ? (
          <Editor
            profile={profile}
            onSaved={(next) => {
              setSaved(next)
              setEditing(false)
            }}
            onCancel={() => setEditing(false)}
          />
        ) : (
          <View profile={profile} />
        )}
      </Page>
    )
  }
  return (
    <Loaded
      state={state}
      current={saved}
      failure={(error) => (
        <Page title={t`Mon profil`}>
          <LoadError
            title={t`Impossible de charger votre profil`}
            subtitle={t`Veuillez réessayer.`}
            error={error}
            onRetry={() => reload()}
          />
        </Page>
      )}
    >
      {page}
    </Loaded>
  )
}
