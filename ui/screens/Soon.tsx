import type { MessageDescriptor } from "@lingui/core"
import { msg } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { Link } from "wouter"
import { Page } from "../components/page"

const titles = {
  createService: msg`Créer un service`,
  myServices: msg`Mes services`,
  editService: msg`Modifier le service`,
  serviceDetail: msg`Détail du service`,
  search: msg`Recherche`,
  bookings: msg`Mes réservations`,
  messaging: msg`Messagerie`,
  profile: msg`Mon profil`,
  publicProfile: msg`Profil du prestataire`,
  settings: msg`Paramètres`,
  becomeProvider: msg`Devenir prestataire`,
  paymentsSetup: msg`Configuration des paiements`,
  paymentsRequired: msg`Compte de paiement requis`,
  calendar: msg`Calendrier`,
  adminDashboard: msg`Tableau de bord d'administration`,
  adminUsers: msg`Utilisateurs`,
  adminServices: msg`Services`,
  adminBookings: msg`Réservations`,
  adminApplications: msg`Candidatures prestataires`,
  adminFinance: msg`Finances`
} satisfies Record<string, MessageDescriptor>

export type Section = keyof typeof titles

/** A guarded route whose screen is not built yet: its title and an honest notice. */
export default function Soon({ section }: { section: Section }) {
  const { t, i18n } = useLingui()
  return (
    <Page title={i18n._(titles[section])}>
      <div className="empty-state">
        <p>{t`Cette section ouvre bientôt.`}</p>
        <Link href="/services" className="button-secondary">
          {t`Voir les services`}
        </Link>
      </div>
    </Page>
  )
}
