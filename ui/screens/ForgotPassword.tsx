import { useLingui } from "@lingui/react/macro"
import { useState, type FormEvent } from "react"
import { Link } from "wouter"
import { authApi } from "../api/endpoints"
import { Alert, SubmitButton, TextField, useFocusFirstInvalid } from "../components/forms"
import { Page } from "../components/page"
import { problemTexts } from "../components/problems"
import { checkEmail } from "../validation"

export default function ForgotPassword() {
  const { t, i18n } = useLingui()
  const [email, setEmail] = useState("")
  const [error, setError] = useState<string>()
  const formRef = useFocusFirstInvalid(error)
  const [sent, setSent] = useState<string>()
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = checkEmail(email)
    setError(problem ? problemTexts(i18n, { email: problem }).email : undefined)
    if (problem) return
    setBusy(true)
    // The answer is the same whether or not the account exists, even on failure: it reveals nothing.
    const fallback = t`Si un compte existe pour cet email, un lien de réinitialisation a été envoyé.`
    const answer = await authApi.forgotPassword({ email: email.trim() }, true).catch(() => undefined)
    setSent(answer?.message ?? fallback)
    setBusy(false)
  }

  return (
    <Page
      title={t`Mot de passe oublié`}
      narrow
      intro={t`Indiquez votre email : nous vous enverrons un lien pour choisir un nouveau mot de passe.`}
    >
      {sent ? <Alert kind="success">{sent}</Alert> : null}
      <form className="form" noValidate ref={formRef} onSubmit={(event) => void submit(event)}>
        <TextField label={t`Email`} name="email" type="email" autoComplete="email" value={email} onChange={setEmail} error={error} />
        <SubmitButton busy={busy}>{t`Envoyer le lien`}</SubmitButton>
      </form>
      <p className="form-links">
        <Link href="/login">{t`Retour à la connexion`}</Link>
      </p>
    </Page>
  )
}
