import { useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { useEffect, useState } from "react"
import { answerConsent, consentAtom } from "../state/consent"

/** Shown 1 s after load while no consent is stored; closing it counts as a refusal. */
export const CookieBanner = () => {
  const { t } = useLingui()
  const consent = useAtomValue(consentAtom)
  const [due, setDue] = useState(false)
  useEffect(() => {
    if (consent) return
    const timer = setTimeout(() => setDue(true), 1000)
    return () => clearTimeout(timer)
  }, [consent])
  if (consent || !due) return null
  return (
    <section className="cookie-banner" aria-label={t`Cookies`}>
      <button type="button" className="cookie-close" onClick={() => answerConsent(false)}>
        <span aria-hidden="true">×</span>
        <span className="sr-only">{t`Fermer et refuser les cookies`}</span>
      </button>
      <p>
        {t`Nous utilisons des cookies essentiels au fonctionnement du site (session, langue). Acceptez-vous aussi les cookies non essentiels ?`}
      </p>
      <div className="actions">
        <button type="button" className="button" onClick={() => answerConsent(true)}>
          {t`Accepter`}
        </button>
        <button type="button" className="button-secondary" onClick={() => answerConsent(false)}>
          {t`Refuser`}
        </button>
        <a href="/cookies" target="_blank" rel="noopener">
          {t`En savoir plus`}
          <span className="sr-only"> {t`(nouvel onglet)`}</span>
        </a>
      </div>
    </section>
  )
}
