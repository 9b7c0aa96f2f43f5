import { useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useEffect, useState } from "react"
import { Link, useParams } from "wouter"
import { ApiError } from "../api/client"
import { authApi } from "../api/endpoints"
import { Alert } from "../components/forms"
import { Loading, Page } from "../components/page"
import { setUser, userAtom } from "../state/session"

type State = { readonly kind: "loading" } | { readonly kind: "success" | "error"; readonly message: string }

// The link of an email change, mailed to the new address (issue 15). Tokens are single-use: the call
// is remembered per token so a re-mount reads the same answer instead of spending the token twice.
const calls = new Map<string, Promise<{ ok: boolean; message: string; user?: Parameters<typeof setUser>[0] }>>()
const confirm = (token: string) => {
  let call = calls.get(token)
  if (!call) {
    call = authApi.confirmEmail(token, true).then(
      (answer) => ({ ok: true, message: answer.message ?? "", user: answer.data.user }),
      (error: unknown) => ({ ok: false, message: error instanceof ApiError && error.status !== 0 ? error.message : "" })
    )
    calls.set(token, call)
  }
  return call
}

export default function ConfirmEmail() {
  const { t } = useLingui()
  const { token = "" } = useParams<{ token: string }>()
  const signedIn = useAtomValue(userAtom)
  const [state, setState] = useState<State>({ kind: "loading" })

  useEffect(() => {
    let live = true
    void confirm(token).then((result) => {
      if (!live) return
      // Signed in as that account: the new address shows at once.
      if (result.ok && result.user && signedIn?.id === result.user.id) setUser(result.user)
      setState({ kind: result.ok ? "success" : "error", message: result.message })
    })
    return () => {
      live = false
    }
  }, [token, signedIn?.id])

  const next = signedIn ? "/settings" : "/login"
  return (
    <Page title={t`Confirmation de la nouvelle adresse`} narrow>
      {state.kind === "loading" ? <Loading label={t`Confirmation de votre nouvelle adresse email…`} /> : null}
      {state.kind === "success" ? (
        <Alert kind="success">
          <p>{state.message || t`Votre adresse email a été modifiée.`}</p>
        </Alert>
      ) : null}
      {state.kind === "error" ? (
        <Alert kind="error">{state.message || t`La confirmation a échoué. Le lien est peut-être invalide ou expiré.`}</Alert>
      ) : null}
      {state.kind === "loading" ? null : (
        <div className="actions">
          <Link href={next} className="button">
            {signedIn ? t`Retour aux paramètres` : t`Aller à la connexion`}
          </Link>
        </div>
      )}
    </Page>
  )
}
