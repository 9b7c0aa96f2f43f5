import { useLingui } from "@lingui/react/macro"
import { useState, type FormEvent } from "react"
import { Link } from "wouter"
import { navigate } from "wouter/use-browser-location"
import { ApiError } from "../api/client"
import { browserTimeZone } from "../state/session"
import { authApi } from "../api/endpoints"
import { Alert, PasswordField, SubmitButton, TextField, useFocusFirstInvalid } from "../components/forms"
import { Page } from "../components/page"
import { problemTexts } from "../components/problems"
import { checkRegistration, type RegisterValues } from "../validation"

type Errors = Partial<Record<keyof RegisterValues, string>>

const EMPTY: RegisterValues = { firstName: "", lastName: "", email: "", phoneNumber: "", password: "", confirmPassword: "" }

export default function Register() {
  const { t, i18n } = useLingui()
  const [values, setValues] = useState(EMPTY)
  const [errors, setErrors] = useState<Errors>({})
  const formRef = useFocusFirstInvalid(errors)
  const [failure, setFailure] = useState<string>()
  const [busy, setBusy] = useState(false)
  const field = (name: keyof RegisterValues) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (value: string) => setValues((current) => ({ ...current, [name]: value }))
  })

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problems = problemTexts(i18n, checkRegistration(values))
    setErrors(problems)
    setFailure(undefined)
    if (Object.keys(problems).length > 0) return
    setBusy(true)
    try {
      const account = { ...values, email: values.email.trim(), phoneNumber: values.phoneNumber.trim() }
      // The browser's zone becomes the account's (editable on /settings). A zone this server does not
      // know (a newer tz database in the browser) is left out rather than blocking the registration.
      await authApi
        .register({ ...account, timeZone: browserTimeZone }, [422])
        .catch((error: unknown) =>
          error instanceof ApiError &&
          error.status === 422 &&
          error.details.length > 0 &&
          error.details.every((d) => d.field === "timeZone")
            ? authApi.register(account, [422])
            : Promise.reject(error)
        )
      navigate("/login?verify=1")
    } catch (error) {
      setBusy(false)
      if (!(error instanceof ApiError)) throw error
      // The server's own words win, per field for 422 (a taken address answers as a new one does: its owner gets a mail).
      if (error.status === 422 && error.details.length > 0) setErrors(error.fieldErrors())
      else {
        const reason = error.message
        setFailure(reason ? t`Erreur lors de l'inscription : ${reason}` : t`Erreur lors de l'inscription.`)
      }
    }
  }

  return (
    <Page title={t`Inscription`} narrow>
      <Alert kind="info">
        {t`Après l'inscription, un email de vérification vous sera envoyé : vous devrez cliquer sur son lien avant de pouvoir vous connecter.`}
      </Alert>
      {failure ? <Alert kind="error">{failure}</Alert> : null}
      <form className="form" noValidate ref={formRef} onSubmit={(event) => void submit(event)}>
        <p className="field-hint">{t`Tous les champs sont obligatoires.`}</p>
        <div className="field-row">
          <TextField label={t`Prénom`} autoComplete="given-name" {...field("firstName")} />
          <TextField label={t`Nom de famille`} autoComplete="family-name" {...field("lastName")} />
        </div>
        <TextField label={t`Email`} type="email" autoComplete="email" {...field("email")} />
        <TextField
          label={t`Téléphone`}
          type="tel"
          inputMode="numeric"
          autoComplete="tel"
          hint={t`Chiffres uniquement, au moins 10.`}
          {...field("phoneNumber")}
        />
        <PasswordField
          label={t`Mot de passe`}
          autoComplete="new-password"
          hint={t`Au moins 8 caractères, avec une majuscule, une minuscule, un chiffre et un caractère spécial (@$!%*?&).`}
          {...field("password")}
        />
        <PasswordField label={t`Confirmer le mot de passe`} autoComplete="new-password" {...field("confirmPassword")} />
        <SubmitButton busy={busy}>{t`Créer mon compte`}</SubmitButton>
      </form>
      <p className="form-links">
        <Link href="/login">{t`Déjà un compte ? Connectez-vous`}</Link>
      </p>
    </Page>
  )
}
