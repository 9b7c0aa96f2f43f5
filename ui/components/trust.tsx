// Signs of trust on profiles and service cards: the "verified identity" mark (an admin verified the
// provider's identity document) and the response time (median minutes to a first answer).

import { plural } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"

/** The mark, explained on hover (title) and to screen readers (the hidden text). */
export const VerifiedIdentityMark = ({ verified }: { verified: boolean }) => {
  const { t } = useLingui()
  if (!verified) return null
  const explanation = t`Un administrateur a vérifié la pièce d'identité de ce prestataire.`
  return (
    <span className="badge verified verified-identity" title={explanation}>
      <span aria-hidden="true">✓ </span>
      {t`Identité vérifiée`}
      <span className="sr-only"> : {explanation}</span>
    </span>
  )
}

/** "about 25 min", "about 3 h", "about 2 days": the median answer time, rounded to its unit. */
export const useResponseTimeText = () => {
  const { t } = useLingui()
  return (minutes: number) => {
    if (minutes < 60) {
      const value = Math.max(1, Math.round(minutes))
      return t`environ ${value} min`
    }
    if (minutes < 48 * 60) {
      const value = Math.round(minutes / 60)
      return t`environ ${value} h`
    }
    const value = Math.round(minutes / 1440)
    return plural(value, { one: "environ # jour", other: "environ # jours" })
  }
}

/** The response time as a term of a profile's facts list; nothing while unknown. */
export const ResponseTimeFact = ({ minutes }: { minutes: number | null }) => {
  const { t } = useLingui()
  const text = useResponseTimeText()
  if (minutes === null) return null
  return (
    <div className="stat">
      <dt>{t`Temps de réponse`}</dt>
      <dd title={t`Délai médian de la première réponse aux conversations ouvertes par d'autres membres.`} data-testid="response-time">
        {text(minutes)}
      </dd>
    </div>
  )
}
