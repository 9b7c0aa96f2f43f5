import { useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useState, type FormEvent } from "react"
import { Link } from "wouter"
import { ApiError } from "../api/client"
import { authApi } from "../api/endpoints"
import { Alert, SubmitButton, TextField, useFocusFirstInvalid } from "../components/forms"
import { Page } from "../components/page"
import { problemTexts } from "../components/problems"
import { userAtom } from "../state/session"
import { checkEmail } from "../validation"

export default function VerificationRequired() {
  const { t, i18n } = useLingui()
  const user = useAtomValue(userAtom)
  const [email, setEmail] = useState(user?.email ?? "")
  const [error, setError] = useState<string>()
  const formRef = useFocusFirstInvalid(error)
  const [result, setResult] = useState<{ kind: "success" | "error"; text: string }>()
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = checkEmail(email)
    setError(problem ? problemTexts(i18n, { email: problem }).email : undefined)
    if (problem) return
    setBusy(true)
    try {
      const answer = await authApi.resendVerification({ email: email.trim() }, [422])
      setResult({ kind: "success", text: answer.message ?? t`Si l'adresse existe, un email de vérification a été renvoyé.` })
    } catch (failure) {
      // Server message, else a generic one (spec section 8); 422 comes back per field.
      if (failure instanceof ApiError && failure.status === 422) setError(failure.fieldErrors().email ?? failure.message)
      else
        setResult({
          kind: "error",
          text: failure instanceof ApiError && failure.message ? failure.message : t`Une erreur est survenue. Réessayez plus tard.`
        })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Page
      title={t`Vérification de l'email requise`}
      narrow
      intro={t`Vous devez vérifier votre adresse email avant de continuer. Cliquez sur le lien reçu par email, ou demandez-en un nouveau.`}
    >
      {result ? <Alert kind={result.kind}>{result.text}</Alert> : null}
      <form className="form" noValidate ref={formRef} onSubmit={(event) => void submit(event)}>
        <TextField label={t`Email`} name="email" type="email" autoComplete="email" value={email} onChange={setEmail} error={error} />
        <p className="field-hint">{t`Un email de vérification sera renvoyé si cette adresse correspond à un compte.`}</p>
        <SubmitButton busy={busy}>{t`Renvoyer l'email de vérification`}</SubmitButton>
      </form>
      <p className="form-links">
        <Link href="/login">{t`Retour à la connexion`}</Link>
      </p>
    </Page>
  )
}
