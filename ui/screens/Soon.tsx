import type { MessageDescriptor } from "@lingui/core"
import { msg } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { Link } from "wouter"
import { Page } from "../components/page"

const titles = {
  bookings: msg`Mes réservations`,
  messaging: msg`Messagerie`,
  calendar: msg`Calendrier`,
  adminDashboard: msg`Tableau de bord d'administration`,
  adminUsers: msg`Utilisateurs`,
  adminServices: msg`Services`,
  adminBookings: msg`Réservations`,
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
