import { useLingui } from "@lingui/react/macro"
import { useEffect, useState, type FormEvent } from "react"
import { Link, useParams } from "wouter"
import { navigate } from "wouter/use-browser-location"
import { ApiError } from "../api/client"
import { authApi } from "../api/endpoints"
import { Alert, PasswordField, SubmitButton, useFocusFirstInvalid } from "../components/forms"
import { Page } from "../components/page"
import { problemTexts } from "../components/problems"
import { checkNewPassword } from "../validation"

const REDIRECT_MS = 2500

export default function ResetPassword() {
  const { t, i18n } = useLingui()
  const { token = "" } = useParams<{ token: string }>()
  const [password, setPassword] = useState("")
  const [confirmPassword, setConfirmPassword] = useState("")
  const [errors, setErrors] = useState<Partial<Record<"password" | "confirmPassword", string>>>({})
  const formRef = useFocusFirstInvalid(errors)
  const [failure, setFailure] = useState<string>()
  const [done, setDone] = useState<string>()
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (!done) return
    const timer = setTimeout(() => navigate("/login"), REDIRECT_MS)
    return () => clearTimeout(timer)
  }, [done])

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problems = problemTexts(i18n, checkNewPassword(password, confirmPassword))
    setErrors(problems)
    setFailure(undefined)
    if (Object.keys(problems).length > 0) return
    setBusy(true)
    try {
      const answer = await authApi.resetPassword(token, { password, confirmPassword }, [400, 404, 422])
      setDone(answer.message ?? t`Votre mot de passe a été réinitialisé. Vous pouvez vous connecter.`)
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      if (error.status === 422 && error.details.length > 0) setErrors(error.fieldErrors())
      else setFailure(error.message || t`Lien invalide ou expiré.`)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Page title={t`Nouveau mot de passe`} narrow>
      {done ? (
        <Alert kind="success">
          <p>{done}</p>
          <p>{t`Redirection vers la connexion…`}</p>
        </Alert>
      ) : (
        <>
          {failure ? (
            <Alert kind="error">
              <p>{failure}</p>
              <Link href="/forgot-password">{t`Demander un nouveau lien`}</Link>
            </Alert>
          ) : null}
          <form className="form" noValidate ref={formRef} onSubmit={(event) => void submit(event)}>
            <PasswordField
              label={t`Nouveau mot de passe`}
              name="password"
              autoComplete="new-password"
              hint={t`Au moins 8 caractères, avec une majuscule, une minuscule, un chiffre et un caractère spécial (@$!%*?&).`}
              value={password}
              onChange={setPassword}
              error={errors.password}
            />
            <PasswordField
              label={t`Confirmer le mot de passe`}
              name="confirmPassword"
              autoComplete="new-password"
              value={confirmPassword}
              onChange={setConfirmPassword}
              error={errors.confirmPassword}
            />
            <SubmitButton busy={busy}>{t`Changer le mot de passe`}</SubmitButton>
          </form>
        </>
      )}
      <p className="form-links">
        <Link href="/login">{t`Retour à la connexion`}</Link>
      </p>
    </Page>
  )
}
