import { useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useState } from "react"
import { Link, useParams } from "wouter"
import { accountApi } from "../api/endpoints"
import { saveBlob } from "../components/download"
import { Alert } from "../components/forms"
import { failureText } from "../components/loaded"
import { Page } from "../components/page"
import { userAtom } from "../state/session"

type State = { readonly kind: "ready" | "busy" | "done" } | { readonly kind: "failed"; readonly message: string }

/**
 * The mailed link of a data export (issue 23, item 10): a page with the download button. The file is
 * served once, on the button's POST, so a mail scanner opening the link spends nothing.
 */
export default function DataExport() {
  const { t } = useLingui()
  const { token = "" } = useParams<{ token: string }>()
  const signedIn = useAtomValue(userAtom)
  const [state, setState] = useState<State>({ kind: "ready" })

  const download = async () => {
    setState({ kind: "busy" })
    try {
      saveBlob(await accountApi.downloadExport(token), t`mes-donnees.json`)
      setState({ kind: "done" })
    } catch (error) {
      setState({ kind: "failed", message: failureText(error) })
    }
  }

  return (
    <Page title={t`Export de vos données`} narrow>
      {state.kind === "done" ? (
        <Alert kind="success">
          <p>{t`Téléchargement lancé : gardez le fichier en lieu sûr. Ce lien ne sert qu'une fois ; pour un nouvel export, demandez-le depuis vos paramètres.`}</p>
        </Alert>
      ) : state.kind === "failed" ? (
        <Alert kind="error">{state.message}</Alert>
      ) : (
        <>
          <p>{t`Vos données sont prêtes, dans un fichier JSON. Le lien ne sert qu'une fois : téléchargez le fichier sur un appareil où vous pouvez le garder.`}</p>
          <div className="actions">
            <button
              type="button"
              className="button"
              aria-disabled={state.kind === "busy" || undefined}
              onClick={() => state.kind === "ready" && void download()}
            >
              {state.kind === "busy" ? t`Téléchargement…` : t`Télécharger mes données`}
            </button>
          </div>
        </>
      )}
      {state.kind === "done" || state.kind === "failed" ? (
        <div className="actions">
          <Link href={signedIn ? "/settings" : "/login"} className="button-secondary">
            {signedIn ? t`Retour aux paramètres` : t`Aller à la connexion`}
          </Link>
        </div>
      ) : null}
    </Page>
  )
}
