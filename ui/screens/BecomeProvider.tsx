import { useLingui } from "@lingui/react/macro"
import { useId, useState, type FormEvent } from "react"
import { Link } from "wouter"
import { ApiError } from "../api/client"
import { applicationsApi, profileApi } from "../api/endpoints"
import { ageOn, latestProviderBirthDate, MINIMUM_PROVIDER_AGE } from "../../src/modules/identity/profile/rules"
import type { Application, DocumentSlot } from "../api/contract"
import { useAsync } from "../components/async"
import { failureText } from "../components/catalogue"
import { Alert, SubmitButton, TextArea, TextField, useFocusFirstInvalid } from "../components/forms"
import { MAX_FILE_BYTES, ResubmissionLabel, StatusBadge } from "../components/onboarding"
import { formatDate } from "../format"
import { Loaded } from "../components/loaded"
import { Page } from "../components/page"
import { showToast } from "../state/toasts"
import { siteName } from "../brand"

const SLOTS: ReadonlyArray<DocumentSlot> = ["identityDocument", "addressDocument", "bankDocument", "profilePicture"]
const DOCUMENT_ACCEPT = ".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png"
const PICTURE_ACCEPT = ".jpg,.jpeg,.png,image/jpeg,image/png"

const FileField = ({
  label,
  name,
  accept,
  hint,
  error,
  onChange
}: {
  label: string
  name: string
  accept: string
  hint: string
  error?: string | undefined
  onChange: (file: File | null) => void
}) => {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="file"
        accept={accept}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        onChange={(event) => onChange(event.target.files?.[0] ?? null)}
      />
      <p className="field-hint" id={`${id}-hint`}>
        {hint}
      </p>
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  )
}

type Errors = Partial<Record<string, string>>

/** What is wrong with the form's birth date: none given and none on record, or under the providers' age. */
const dateOfBirthProblem = (value: string, onRecord: string | null, now: Date): "required" | "underage" | undefined => {
  if (value === "") return onRecord ? undefined : "required"
  const age = ageOn(value, now)
  return age >= 0 && age < MINIMUM_PROVIDER_AGE ? "underage" : undefined
}

const ApplicationForm = ({
  existing,
  birthOnRecord,
  onDone,
  onCancel
}: {
  existing: Application | null
  /** The birth date already known (the profile's, or the application's): the form's is then optional. */
  birthOnRecord: string | null
  onDone: (application: Application) => void
  onCancel?: () => void
}) => {
  const { t } = useLingui()
  const editing = existing !== null
  const [skills, setSkills] = useState(existing?.skills ?? "")
  const [experience, setExperience] = useState(existing?.experience ?? "")
  const [motivation, setMotivation] = useState(existing?.motivation ?? "")
  const [dateOfBirth, setDateOfBirth] = useState(existing?.dateOfBirth ?? "")
  const [files, setFiles] = useState<Partial<Record<DocumentSlot, File | null>>>({})
  const [errors, setErrors] = useState<Errors>({})
  const [failure, setFailure] = useState<string>()
  const [busy, setBusy] = useState(false)
  const form = useFocusFirstInvalid(errors)

  const labels: Record<DocumentSlot, string> = {
    identityDocument: t`Pièce d'identité`,
    addressDocument: t`Justificatif de domicile`,
    bankDocument: t`Document bancaire (RIB)`,
    profilePicture: t`Photo de profil`
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found: Errors = {}
    if (!skills.trim()) found.skills = t`Veuillez décrire vos compétences.`
    if (!experience.trim()) found.experience = t`Veuillez décrire votre expérience.`
    if (!motivation.trim()) found.motivation = t`Veuillez expliquer votre motivation.`
    const birthProblem = dateOfBirthProblem(dateOfBirth, birthOnRecord, new Date())
    if (birthProblem === "required") found.dateOfBirth = t`Indiquez votre date de naissance.`
    else if (birthProblem === "underage")
      found.dateOfBirth = t`Vous devez avoir au moins ${MINIMUM_PROVIDER_AGE} ans pour devenir prestataire.`
    for (const slot of SLOTS) {
      const file = files[slot]
      if (!file && !editing) found[slot] = t`Veuillez joindre un fichier.`
      else if (file && file.size > MAX_FILE_BYTES) found[slot] = t`Le fichier est trop volumineux (max 5MB)`
    }
    setErrors(found)
    setFailure(undefined)
    if (Object.keys(found).length > 0) return
    const body = new FormData()
    body.append("skills", skills.trim())
    body.append("experience", experience.trim())
    body.append("motivation", motivation.trim())
    if (dateOfBirth) body.append("dateOfBirth", dateOfBirth)
    for (const slot of SLOTS) {
      const file = files[slot]
      if (file) body.append(slot, file, file.name)
    }
    setBusy(true)
    try {
      const { data } = editing ? await applicationsApi.resubmit(body) : await applicationsApi.submit(body)
      showToast("success", t`Votre candidature a été envoyée.`)
      onDone(data.application)
    } catch (error) {
      if (error instanceof ApiError) {
        setErrors(error.fieldErrors())
        setFailure(error.message || failureText(error))
      } else setFailure(String(error))
    } finally {
      setBusy(false)
    }
  }

  const fileHint = t`PDF, JPG ou PNG, 5 Mo maximum.`
  return (
    <form className="form" onSubmit={(event) => void submit(event)} noValidate ref={form}>
      {failure ? <Alert kind="error">{failure}</Alert> : null}
      {editing ? <p className="field-hint">{t`Les fichiers sont facultatifs : un fichier joint remplace le document précédent.`}</p> : null}
      <TextArea label={t`Compétences`} name="skills" value={skills} onChange={setSkills} error={errors.skills} maxLength={2000} />
      <TextArea
        label={t`Expérience`}
        name="experience"
        value={experience}
        onChange={setExperience}
        error={errors.experience}
        maxLength={5000}
      />
      <TextArea
        label={t`Motivation`}
        name="motivation"
        value={motivation}
        onChange={setMotivation}
        error={errors.motivation}
        maxLength={5000}
      />
      <TextField
        label={t`Date de naissance`}
        name="dateOfBirth"
        type="date"
        value={dateOfBirth}
        onChange={setDateOfBirth}
        required={!birthOnRecord}
        max={latestProviderBirthDate(new Date())}
        autoComplete="bday"
        error={errors.dateOfBirth}
        hint={
          birthOnRecord
            ? t`Facultatif : celle de votre profil est reprise. Vous devez avoir ${MINIMUM_PROVIDER_AGE} ans.`
            : t`Vous devez avoir ${MINIMUM_PROVIDER_AGE} ans.`
        }
      />
      {SLOTS.map((slot) => (
        <FileField
          key={slot}
          name={slot}
          label={labels[slot]}
          accept={slot === "profilePicture" ? PICTURE_ACCEPT : DOCUMENT_ACCEPT}
          hint={slot === "profilePicture" ? t`JPG ou PNG, 5 Mo maximum.` : fileHint}
          error={errors[slot]}
          onChange={(file) => setFiles((current) => ({ ...current, [slot]: file }))}
        />
      ))}
      <div className="actions">
        <SubmitButton busy={busy}>{editing ? t`Renvoyer ma candidature` : t`Envoyer ma candidature`}</SubmitButton>
        {onCancel ? (
          <button type="button" className="button-secondary" onClick={onCancel}>
            {t`Annuler la modification`}
          </button>
        ) : null}
      </div>
    </form>
  )
}

/** A document an admin asked for again: what is wrong, and the file that replaces it (no cooldown, still under review). */
const ReplacementForm = ({
  slot,
  reason,
  onDone
}: {
  slot: DocumentSlot
  reason: string | null
  onDone: (application: Application) => void
}) => {
  const { t } = useLingui()
  const [file, setFile] = useState<File | null>(null)
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const labels: Record<DocumentSlot, string> = {
    identityDocument: t`Pièce d'identité`,
    addressDocument: t`Justificatif de domicile`,
    bankDocument: t`Document bancaire (RIB)`,
    profilePicture: t`Photo de profil`
  }
  const send = async (event: FormEvent) => {
    event.preventDefault()
    if (!file) return setError(t`Veuillez joindre un fichier.`)
    if (file.size > MAX_FILE_BYTES) return setError(t`Le fichier est trop volumineux (max 5MB)`)
    const body = new FormData()
    body.append(slot, file, file.name)
    setBusy(true)
    setError(undefined)
    try {
      const { data } = await applicationsApi.replaceDocument(slot, body)
      showToast("success", t`Document envoyé : votre candidature reste en cours d'examen.`)
      onDone(data.application)
    } catch (failure) {
      if (failure instanceof ApiError) setError(failure.fieldErrors()[slot] ?? (failure.message || failureText(failure)))
      else setError(String(failure))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="form panel" onSubmit={(event) => void send(event)} noValidate aria-label={t`Renvoyer : ${labels[slot]}`}>
      <Alert kind="warning" title={t`Document à renvoyer : ${labels[slot]}`}>
        <p>
          {t`Ce qui ne va pas`} : {reason ?? "—"}
        </p>
      </Alert>
      <FileField
        name={slot}
        label={labels[slot]}
        accept={slot === "profilePicture" ? PICTURE_ACCEPT : DOCUMENT_ACCEPT}
        hint={slot === "profilePicture" ? t`JPG ou PNG, 5 Mo maximum.` : t`PDF, JPG ou PNG, 5 Mo maximum.`}
        error={error}
        onChange={setFile}
      />
      <div className="actions">
        <SubmitButton busy={busy}>{t`Envoyer le nouveau document`}</SubmitButton>
      </div>
    </form>
  )
}

const StatusView = ({
  application,
  onEdit,
  onReplaced
}: {
  application: Application
  onEdit: () => void
  onReplaced: (application: Application) => void
}) => {
  const { t, i18n } = useLingui()
  const requested = application.status === "PENDING" ? application.documents.filter((d) => d.replacementRequested) : []
  const submitted = formatDate(i18n.locale, application.submittedAt)
  return (
    <section className="panel application-status">
      <h2>{t`Votre candidature`}</h2>
      <p>
        {t`Statut`} : <StatusBadge status={application.status} />
      </p>
      <p>{t`Envoyée le ${submitted}`}</p>
      {application.status === "PENDING" ? (
        <Alert kind="info">{t`Votre candidature est en cours d'examen. Vous recevrez un email dès qu'elle sera traitée.`}</Alert>
      ) : null}
      {requested.map((document) => (
        <ReplacementForm key={document.id} slot={document.slot} reason={document.replacementReason} onDone={onReplaced} />
      ))}
      {application.status === "APPROVED" ? (
        <Alert kind="success">{t`Votre candidature est approuvée : reconnectez-vous pour accéder à vos outils de prestataire.`}</Alert>
      ) : null}
      {application.status === "REJECTED" ? (
        <>
          <Alert kind="warning" title={t`Candidature refusée`}>
            <p>
              {t`Motif du refus`} : {application.rejectionReason ?? "—"}
            </p>
          </Alert>
          <ResubmissionLabel info={application} />
          {application.resubmissionState === "CAN_RESUBMIT" ? (
            <button type="button" className="button" onClick={onEdit}>
              {t`Modifier et renvoyer ma candidature`}
            </button>
          ) : null}
        </>
      ) : null}
    </section>
  )
}

export default function BecomeProvider() {
  const { t } = useLingui()
  // The application, and the birth date on the profile (the form asks for it only when there is none).
  const [state, reload] = useAsync(
    () =>
      Promise.all([applicationsApi.mine(), profileApi.me()]).then(([mine, me]) => ({
        application: mine.data.application,
        birthOnRecord: me.data.user.dateOfBirth
      })),
    []
  )
  const [editing, setEditing] = useState(false)
  const [latest, setLatest] = useState<Application | null>(null)
  return (
    <Page
      title={t`Devenir prestataire`}
      intro={t`Proposez vos services sur ${siteName()} : envoyez votre candidature, un administrateur l'examine.`}
    >
      <Loaded
        state={state}
        current={latest && { application: latest, birthOnRecord: latest.dateOfBirth }}
        failure={(error) => (
          <Alert kind="error">
            {failureText(error)}{" "}
            <button type="button" className="button-secondary" onClick={() => reload()}>
              {t`Réessayer`}
            </button>
          </Alert>
        )}
      >
        {({ application, birthOnRecord }) =>
          application === null ? (
            <ApplicationForm existing={null} birthOnRecord={birthOnRecord} onDone={setLatest} />
          ) : editing ? (
            <ApplicationForm
              existing={application}
              birthOnRecord={application.dateOfBirth ?? birthOnRecord}
              onDone={(next) => {
                setLatest(next)
                setEditing(false)
              }}
              onCancel={() => setEditing(false)}
            />
          ) : (
            <StatusView application={application} onEdit={() => setEditing(true)} onReplaced={setLatest} />
          )
        }
      </Loaded>
      <p>
        <Link href="/profile" className="button-secondary">{t`Retour au profil`}</Link>
      </p>
    </Page>
  )
}
