import { useLingui } from "@lingui/react/macro"
import { Link } from "wouter"
import { Page } from "../components/page"

export default function About() {
  const { t } = useLingui()
  const values = [
    {
      title: t`Confiance`,
      text: t`Des profils vérifiés, des avis authentiques et un paiement qui n'est débité qu'une fois le service confirmé et validé.`
    },
    {
      title: t`Qualité`,
      text: t`Des prestataires évalués par leurs clients après chaque prestation, pour que le meilleur travail soit visible.`
    },
    { title: t`Impact`, text: t`Chaque réservation fait vivre un indépendant de votre quartier plutôt qu'un intermédiaire lointain.` }
  ]
  return (
    <Page
      title={t`À propos`}
      intro={t`Marketplace met en relation des clients et des prestataires de services de proximité, en français comme en anglais.`}
    >
      <section>
        <h2 id="mission">{t`Notre mission`}</h2>
        <p>
          {t`Rendre simple et sûr le fait de trouver, réserver et payer un prestataire : ménage, jardinage, réparation, transport ou formation. Les prestataires publient leurs services au tarif horaire, les clients réservent et paient en ligne, et une commission de 5 % par transaction fait vivre la plateforme.`}
        </p>
      </section>
      <section>
        <h2 id="values">{t`Nos valeurs`}</h2>
        <ul className="cards">
          {values.map((value) => (
            <li key={value.title} className="card">
              <h3>{value.title}</h3>
              <p>{value.text}</p>
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h2 id="team">{t`L'équipe`}</h2>
        <p>
          {t`Une petite équipe basée à Montréal, qui réunit des développeurs, des designers et des spécialistes du support. Nous écoutons clients et prestataires pour améliorer le service chaque semaine.`}
        </p>
        <p>
          <Link href="/contact">{t`Une question ? Écrivez-nous.`}</Link>
        </p>
      </section>
    </Page>
  )
}
