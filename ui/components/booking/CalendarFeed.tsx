import { useLingui } from "@lingui/react/macro"
import { useId, useState } from "react"
import { calendarFeedApi } from "../../api/endpoints"
import { useAsync } from "../async"
import { ConfirmDialog } from "../ConfirmDialog"
import { failureText, Loaded } from "../loaded"

type Notice = "" | "copied" | "copyFailed" | "regenerated" | "regenerateFailed"

/**
 * "Subscribe from your calendar app": the provider's private feed URL (made on the first visit), a
 * copy button, the file itself, and a new URL on demand (confirmed: the old one stops working).
 */
export const CalendarFeedBlock = () => {
  const { t } = useLingui()
  const headingId = useId()
  const inputId = useId()
  const [state, reload] = useAsync(() => calendarFeedApi.mine(), [])
  const [current, setCurrent] = useState<{ readonly url: string } | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState<Notice>("")
  const [failure, setFailure] = useState("")

  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url)
      setNotice("copied")
    } catch {
      setNotice("copyFailed")
    }
  }
  const regenerate = async () => {
    setBusy(true)
    try {
      setCurrent(await calendarFeedApi.regenerate())
      setNotice("regenerated")
    } catch (error) {
      setFailure(failureText(error))
      setNotice("regenerateFailed")
    } finally {
      setBusy(false)
      setConfirming(false)
    }
  }

  return (
    <section className="card calendar-feed" aria-labelledby={headingId}>
      <h2 id={headingId}>{t`S'abonner depuis votre application d'agenda`}</h2>
      <p>
        {t`Ajoutez cette adresse privée à votre agenda (Google Agenda, Apple Calendrier, Outlook : « s'abonner à un calendrier par URL ») : vos réservations confirmées y apparaissent et s'y mettent à jour. Gardez-la pour vous : qui la connaît voit vos réservations.`}
      </p>
      <Loaded
        state={state}
        current={current}
        loadingLabel={t`Chargement de l'adresse du calendrier…`}
        errorTitle={t`Adresse du calendrier indisponible`}
        errorSubtitle={t`Elle n'a pas pu être chargée.`}
        onRetry={() => reload()}
      >
        {(feed) => (
          <>
            <label htmlFor={inputId}>{t`Adresse de votre calendrier`}</label>
            <div className="calendar-feed-url">
              <input id={inputId} type="text" readOnly value={feed.url} onFocus={(event) => event.currentTarget.select()} />
              <button type="button" className="button-secondary" onClick={() => void copy(feed.url)}>
                {t`Copier l'adresse`}
              </button>
            </div>
            <div className="actions">
              <a className="button-secondary" href={feed.url.replace(/^https?:/, "webcal:")}>
                {t`Ouvrir dans mon application d'agenda`}
              </a>
              <a className="button-secondary" href={feed.url} download="bookings.ics">
                {t`Télécharger le fichier .ics`}
              </a>
              <button type="button" className="button-secondary" onClick={() => setConfirming(true)}>
                {t`Générer une nouvelle adresse`}
              </button>
            </div>
            <p role="status" className="field-hint">
              {notice === "copied"
                ? t`Adresse copiée.`
                : notice === "copyFailed"
                  ? t`Copie impossible : sélectionnez l'adresse et copiez-la.`
                  : notice === "regenerated"
                    ? t`Nouvelle adresse créée. L'ancienne ne fonctionne plus : mettez à jour votre agenda.`
                    : ""}
            </p>
            {notice === "regenerateFailed" ? (
              <p role="alert" className="field-error">
                {t`La nouvelle adresse n'a pas pu être créée : ${failure}`}
              </p>
            ) : null}
          </>
        )}
      </Loaded>
      {confirming ? (
        <ConfirmDialog
          title={t`Générer une nouvelle adresse ?`}
          confirmLabel={t`Générer une nouvelle adresse`}
          busy={busy}
          onConfirm={() => void regenerate()}
          onCancel={() => setConfirming(false)}
        >
          <p>{t`L'adresse actuelle cessera aussitôt de fonctionner : les agendas abonnés ne recevront plus vos réservations tant que vous ne leur aurez pas donné la nouvelle.`}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  )
}
