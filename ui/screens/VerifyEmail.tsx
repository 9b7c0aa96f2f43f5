import { useLingui } from "@lingui/react/macro"
import { useEffect, useState } from "react"
import { Link, useParams } from "wouter"
import { navigate } from "wouter/use-browser-location"
import { ApiError } from "../api/client"
import { authApi } from "../api/endpoints"
import { Alert } from "../components/forms"
import { Loading, Page } from "../components/page"

const REDIRECT_MS = 3000
const LOGIN_AFTER = "/login?verified=1"

type State = { readonly kind: "loading" } | { readonly kind: "success" | "error"; readonly message: string }

// Tokens are single-use: remember the call per token so a re-mount (StrictMode, back/forward)
// reads the same answer instead of spending the token twice.
const calls = new Map<string, Promise<{ ok: boolean; message: string }>>()
const verify = (token: string) => {
  let call = calls.get(token)
  if (!call) {
    call = authApi.verifyEmail(token, true).then(
      (answer) => ({ ok: true, message: answer.message ?? "" }),
      (error: unknown) => ({ ok: false, message: error instanceof ApiError && error.status !== 0 ? error.message : "" })
    )
    calls.set(token, call)
  }
  return call
}

export default function VerifyEmail() {
  const { t } = useLingui()
  const { token = "" } = useParams<{ token: string }>()
  const [state, setState] = useState<State>({ kind: "loading" })

  useEffect(() => {
    let live = true
    void verify(token).then((result) => {
      if (live) setState({ kind: result.ok ? "success" : "error", message: result.message })
    })
    return () => {
      live = false
    }
  }, [token])

  useEffect(() => {
    if (state.kind !== "success") return
    const timer = setTimeout(() => navigate(LOGIN_AFTER), REDIRECT_MS)
    return () => clearTimeout(timer)
  }, [state.kind])

  return (
    <Page title={t`Vérification de l'email`} narrow>
      {state.kind === "loading" ? <Loading label={t`Vérification de votre adresse email…`} /> : null}
      {state.kind === "success" ? (
        <>
          <Alert kind="success">
            <p>{state.message || t`Votre adresse email a été vérifiée.`}</p>
            <p>{t`Vous allez être redirigé vers la connexion.`}</p>
          </Alert>
          <div className="actions">
            <Link href={LOGIN_AFTER} className="button">
              {t`Aller à la connexion`}
            </Link>
          </div>
        </>
      ) : null}
      {state.kind === "error" ? (
        <>
          <Alert kind="error">{state.message || t`La vérification de l'email a échoué. Le lien est peut-être invalide ou expiré.`}</Alert>
          <div className="actions">
            <Link href="/login" className="button">
              {t`Aller à la connexion`}
            </Link>
            <Link href="/register" className="button-secondary">
              {t`Créer un compte`}
            </Link>
          </div>
        </>
      ) : null}
    </Page>
  )
}
