import { useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { Alert } from "../components/forms"
import { Page } from "../components/page"
import { formatDateTime } from "../format"
import { consentAtom, resetConsent } from "../state/consent"

export default function Cookies() {
  const { t, i18n } = useLingui()
  const consent = useAtomValue(consentAtom)
  const date = consent ? formatDateTime(i18n.locale, consent.consentDate, "long") : ""
  const rows = [
    {
      name: "refreshToken",
      purpose: t`Garde votre session ouverte de façon sécurisée (inaccessible aux scripts).`,
      duration: t`30 jours`,
      kind: t`Essentiel`
    },
    { name: "lang", purpose: t`Retient la langue que vous avez choisie.`, duration: t`1 an`, kind: t`Essentiel` }
  ]
  return (
    <Page
      title={t`Cookies`}
      intro={t`Un cookie est un petit fichier déposé par un site dans votre navigateur pour se souvenir d'informations entre deux visites.`}
    >
      <section>
        <h2 id="cookies-used">{t`Les cookies que nous utilisons`}</h2>
        {/* Focusable so keyboard users can scroll the table sideways on narrow screens. */}
        <div className="table-wrap" tabIndex={0} role="region" aria-label={t`Tableau des cookies`}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t`Nom`}</th>
                <th scope="col">{t`Finalité`}</th>
                <th scope="col">{t`Durée`}</th>
                <th scope="col">{t`Type`}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.name}>
                  <th scope="row">
                    <code>{row.name}</code>
                  </th>
                  <td>{row.purpose}</td>
                  <td>{row.duration}</td>
                  <td>{row.kind}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p>
          {t`Votre jeton de connexion, votre langue et votre choix de consentement sont aussi gardés dans le stockage local de votre navigateur. Nous n'utilisons aujourd'hui aucun cookie publicitaire ni de mesure d'audience ; si cela change, ils ne seront déposés qu'avec votre accord. Refuser supprime les cookies non essentiels.`}
        </p>
      </section>
      <section>
        <h2 id="consent-state">{t`Votre choix`}</h2>
        {consent === null ? (
          <Alert kind="info">{t`Vous n'avez pas encore fait de choix.`}</Alert>
        ) : consent.hasConsent ? (
          <Alert kind="success">{t`Vous avez accepté les cookies le ${date}.`}</Alert>
        ) : (
          <Alert kind="info">{t`Vous avez refusé les cookies non essentiels le ${date}.`}</Alert>
        )}
        <button type="button" className="button-secondary" onClick={resetConsent} disabled={consent === null}>
          {t`Réinitialiser mon choix`}
        </button>
      </section>
    </Page>
  )
}
