import { plural } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { useEffect, useState } from "react"
import { conversationTitle, formatRelative } from "../../messaging/rules"
import type { LinkStatus } from "../../messaging/socket"
import type { Conversation } from "../../api/contract"
import { Alert } from "../forms"

/** The conversation's name as the list and the dialog show it. */
export const useConversationTitle = () => {
  const { t } = useLingui()
  return (conversation: Pick<Conversation, "title" | "participants">, viewerId: string) => {
    const title = conversationTitle(conversation, viewerId)
    if (title.kind !== "count") return title.text
    const count = title.count
    return plural(count, { one: "# participant", other: "# participants" })
  }
}

/** "il y a 3 minutes" in the UI language, kept current every 30 s. */
export const RelativeTime = ({ iso }: { iso: string }) => {
  const { i18n } = useLingui()
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000)
    return () => clearInterval(timer)
  }, [])
  return (
    <time dateTime={iso} title={new Date(iso).toLocaleString(i18n.locale)}>
      {formatRelative(iso, now, i18n.locale)}
    </time>
  )
}

/** The state of the real-time link: a warning while it is down, green for 5 s once it is back. */
export const ConnectionBanner = ({ status }: { status: LinkStatus }) => {
  const { t } = useLingui()
  if (status === "lost") {
    return (
      <Alert kind="warning" title={t`Connexion perdue`}>
        <p>{t`Reconnexion en cours… Les nouveaux messages sont relus toutes les 30 secondes en attendant.`}</p>
      </Alert>
    )
  }
  if (status === "closed") {
    return (
      <Alert kind="error" title={t`Connexion perdue`}>
        <p>{t`Le serveur a fermé la connexion en temps réel. Rechargez la page pour la rétablir.`}</p>
      </Alert>
    )
  }
  if (status === "recovered") {
    return (
      <Alert kind="success">
        <p>{t`Connexion rétablie.`}</p>
      </Alert>
    )
  }
  return null
}
