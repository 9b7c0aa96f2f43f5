import { useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { Link } from "wouter"
import { Page } from "../components/page"
import { userAtom } from "../state/session"
import { siteName } from "../brand"

/** Small line icons for the value props (decorative: each prop has its own heading). */
const icons = {
  trust: "M12 3l7 3v5c0 4.5-3 8.3-7 10-4-1.7-7-5.5-7-10V6l7-3zm-3 9l2 2 4-4",
  quality: "M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1L3.2 9.5l6.1-.9L12 3z",
  impact: "M3 11l9-7 9 7v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1v-9z"
} as const

const Icon = ({ path }: { path: string }) => (
  <svg className="value-icon" viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
    <path d={path} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
)

export default function About() {
  const { t } = useLingui()
  const user = useAtomValue(userAtom)
  const values = [
    {
      icon: icons.trust,
      title: t`Confiance`,
      text: t`Des profils vérifiés, des avis authentiques et un paiement qui n'est débité qu'une fois le service confirmé et validé.`
    },
    {
      icon: icons.quality,
      title: t`Qualité`,
      text: t`Des prestataires évalués par leurs clients après chaque prestation, pour que le meilleur travail soit visible.`
    },
    {
      icon: icons.impact,
      title: t`Impact`,
      text: t`Chaque réservation fait vivre un indépendant de votre quartier plutôt qu'un intermédiaire lointain.`
    }
  ]
  const steps = [
    { title: t`Trouvez`, text: t`Cherchez par service, lieu et budget ; comparez les avis, les prix et les profils.` },
    { title: t`Réservez`, text: t`Choisissez un créneau libre ; le montant est seulement réservé sur votre carte.` },
    { title: t`Profitez`, text: t`Le prestataire vient, vous validez la prestation, puis vous laissez un avis.` }
  ]
  return (
    <Page title={t`À propos`}>
      <section className="page-hero" aria-labelledby="about-hero">
        <h2 id="about-hero" className="page-hero-title">
          {t`Des prestataires de confiance, près de chez vous`}
        </h2>
        <p className="lead">
          {t`${siteName()} met en relation des clients et des prestataires de services de proximité, en français comme en anglais.`}
        </p>
        <div className="actions">
          <Link href="/services" className="button">
            {t`Voir les services`}
          </Link>
          {user ? null : (
            <Link href="/register" className="button-secondary">
              {t`Créer un compte`}
            </Link>
          )}
        </div>
      </section>
      <section aria-labelledby="values" className="about-section">
        <h2 id="values">{t`Nos valeurs`}</h2>
        <ul className="value-grid">
          {values.map((value) => (
            <li key={value.title} className="card value-card">
              <Icon path={value.icon} />
              <h3>{value.title}</h3>
              <p>{value.text}</p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="steps" className="about-section">
        <h2 id="steps">{t`Comment ça marche`}</h2>
        <ol className="steps">
          {steps.map((step, index) => (
            <li key={step.title} className="step">
              <span className="step-number" aria-hidden="true">
                {index + 1}
              </span>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="mission" className="about-section about-split">
        <div>
          <h2 id="mission">{t`Notre mission`}</h2>
          <p>
            {t`Rendre simple et sûr le fait de trouver, réserver et payer un prestataire : ménage, jardinage, réparation, transport ou formation. Les prestataires publient leurs services au tarif horaire, les clients réservent et paient en ligne, et une commission de 5 % par transaction fait vivre la plateforme.`}
          </p>
        </div>
        <div>
          <h2 id="team">{t`L'équipe`}</h2>
          <p>
            {t`Une petite équipe basée à Montréal, qui réunit des développeurs, des designers et des spécialistes du support. Nous écoutons clients et prestataires pour améliorer le service chaque semaine.`}
          </p>
        </div>
      </section>
      <section className="cta-band" aria-labelledby="about-cta">
        <h2 id="about-cta">{t`Une question ? Écrivez-nous.`}</h2>
        <p>{t`Notre équipe vous répond sous 24 à 48 heures ouvrables.`}</p>
        <Link href="/contact" className="button">
          {t`Nous contacter`}
        </Link>
      </section>
    </Page>
  )
}
