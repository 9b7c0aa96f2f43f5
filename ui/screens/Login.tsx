import { useLingui } from "@lingui/react/macro"
import { useState, type FormEvent } from "react"
import { Link, useSearch } from "wouter"
import { navigate } from "wouter/use-browser-location"
import { ApiError } from "../api/client"
import { authApi } from "../api/endpoints"
import { ErrorCodes } from "../api/error-codes"
import { Alert, PasswordField, SubmitButton, TextField, useFocusFirstInvalid } from "../components/forms"
import { Page } from "../components/page"
import { problemTexts } from "../components/problems"
import { sanitizeRedirect } from "../routing/access"
import { browserTimeZone, setSession } from "../state/session"
import { checkEmail, type Problems } from "../validation"

type Fields = "email" | "password"

/** Why a visitor was sent here (?message=…): a known key, never free text from the URL. */
const useArrivalNotice = (params: URLSearchParams): string | undefined => {
  const { t } = useLingui()
  if (params.get("verify") === "1") {
    return t`Inscription réussie ! Un email de vérification vous a été envoyé : cliquez sur le lien qu'il contient, puis connectez-vous.`
  }
  if (params.get("verified") === "1") return t`Votre adresse email est vérifiée. Vous pouvez vous connecter.`
  switch (params.get("message")) {
    case "contact":
      return t`Connectez-vous pour contacter ce prestataire.`
    case "book":
      return t`Connectez-vous pour réserver ce service.`
    case "favorite":
      return t`Connectez-vous pour ajouter ce prestataire à vos favoris.`
  }
  return params.has("redirectTo") ? t`Connectez-vous pour accéder à cette page.` : undefined
}

export default function Login() {
  const { t, i18n } = useLingui()
  const params = new URLSearchParams(useSearch())
  const notice = useArrivalNotice(params)
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({})
  const formRef = useFocusFirstInvalid(errors)
  const [failure, setFailure] = useState<string>()
  const [unverified, setUnverified] = useState<string>()
  const [resent, setResent] = useState<string>()
  const [busy, setBusy] = useState(false)
  const [resending, setResending] = useState(false)
  const [challenge, setChallenge] = useState<string>()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problems: Problems<Fields> = {}
    const emailProblem = checkEmail(email)
    if (emailProblem) problems.email = emailProblem
    if (password === "") problems.password = "required"
    setErrors(problemTexts(i18n, problems))
    setFailure(undefined)
    setUnverified(undefined)
    setResent(undefined)
    if (Object.keys(problems).length > 0) return
    setBusy(true)
    try {
      // This screen shows 400, 401 and 422 itself (an unverified email is handled inline here).
      const { data } = await authApi.login({ email: email.trim(), password, timeZone: browserTimeZone }, [400, 401, 422])
      if ("twoFactorRequired" in data) {
        // Two-step login: the code comes next (the password is not kept).
        setPassword("")
        setChallenge(data.challenge)
        setBusy(false)
        return
      }
      setSession(data.token, data.user)
      navigate(sanitizeRedirect(params.get("redirectTo")), { replace: true })
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      if (error.status === 401 && error.code === ErrorCodes.emailNotVerified) {
        setUnverified(error.message || t`Votre adresse email n'est pas encore vérifiée.`)
      } else if (error.status === 401) setFailure(error.message || t`Email ou mot de passe incorrect`)
      else if (error.status === 400) setFailure(t`Données de connexion invalides`)
      else if (error.status === 422) setErrors(error.fieldErrors())
      else setFailure(t`Une erreur est survenue. Réessayez plus tard.`)
      setBusy(false)
    }
  }

  const resend = async () => {
    setResending(true)
    try {
      const answer = await authApi.resendVerification({ email: email.trim() }, [422])
      setResent(answer.message ?? t`Si l'adresse existe, un email de vérification a été renvoyé.`)
    } catch (error) {
      setResent(error instanceof ApiError && error.message ? error.message : t`Une erreur est survenue. Réessayez plus tard.`)
    } finally {
      setResending(false)
    }
  }

  if (challenge) {
    return (
      <SecondStep
        challenge={challenge}
        onRestart={() => setChallenge(undefined)}
        onDone={() => navigate(sanitizeRedirect(params.get("redirectTo")), { replace: true })}
      />
    )
  }

  return (
    <Page title={t`Connexion`} narrow>
      {notice ? <Alert kind="info">{notice}</Alert> : null}
      {failure ? <Alert kind="error">{failure}</Alert> : null}
      {unverified ? (
        <div className="alert alert-warning" role="alert">
          <p>{unverified}</p>
          <button type="button" className="button-secondary" onClick={() => void resend()} disabled={resending}>
            {t`Renvoyer l'email de vérification`}
          </button>
          {resent ? <p role="status">{resent}</p> : null}
        </div>
      ) : null}
      <form className="form" noValidate ref={formRef} onSubmit={(event) => void submit(event)}>
        <TextField label={t`Email`} name="email" type="email" autoComplete="email" value={email} onChange={setEmail} error={errors.email} />
        <PasswordField
          label={t`Mot de passe`}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          error={errors.password}
        />
        <SubmitButton busy={busy}>{t`Se connecter`}</SubmitButton>
      </form>
      <p className="form-links">
        <Link href="/forgot-password">{t`Mot de passe oublié ?`}</Link>
        <Link href="/register">{t`Pas encore de compte ? Inscrivez-vous`}</Link>
      </p>
    </Page>
  )
}

/** The code of the authenticator app, or a recovery code, after a right password (two-step login). */
const SecondStep = ({ challenge, onRestart, onDone }: { challenge: string; onRestart: () => void; onDone: () => void }) => {
  const { t } = useLingui()
  const [recovery, setRecovery] = useState(false)
  const [code, setCode] = useState("")
  const [error, setError] = useState<string>()
  const [failure, setFailure] = useState<string>()
  const [busy, setBusy] = useState(false)
  const formRef = useFocusFirstInvalid({ code: error })

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (code.trim() === "") return setError(t`Saisissez le code de votre application d'authentification ou un code de secours.`)
    setError(undefined)
    setFailure(undefined)
    setBusy(true)
    try {
      const body = recovery ? { challenge, recoveryCode: code.trim() } : { challenge, code: code.trim() }
      const { data } = await authApi.loginTwoFactor(body, [401, 422, 429])
      setSession(data.token, data.user)
      onDone()
    } catch (cause) {
      if (!(cause instanceof ApiError)) throw cause
      if (cause.code === ErrorCodes.twoFactorChallengeExpired) onRestart()
      else if (cause.status === 422) setError(cause.fieldErrors().code ?? cause.message)
      else setFailure(cause.message || t`Code incorrect.`)
      setBusy(false)
    }
  }

  return (
    <Page title={t`Connexion en deux étapes`} narrow>
      {failure ? <Alert kind="error">{failure}</Alert> : null}
      <form className="form" noValidate ref={formRef} onSubmit={(event) => void submit(event)}>
        <TextField
          label={recovery ? t`Code de secours` : t`Code à 6 chiffres de votre application`}
          name="code"
          autoComplete="one-time-code"
          inputMode={recovery ? "text" : "numeric"}
          value={code}
          onChange={setCode}
          error={error}
        />
        <SubmitButton busy={busy}>{t`Vérifier`}</SubmitButton>
      </form>
      <p className="form-links">
        <button
          type="button"
          className="button-secondary"
          onClick={() => {
            setRecovery(!recovery)
            setCode("")
            setError(undefined)
          }}
        >
          {recovery ? t`Utiliser le code de l'application` : t`Utiliser un code de secours`}
        </button>
        <button type="button" className="button-secondary" onClick={onRestart}>
          {t`Recommencer la connexion`}
        </button>
      </p>
    </Page>
  )
}
