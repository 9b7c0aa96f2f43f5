import { useLingui } from "@lingui/react/macro"
import { Link } from "wouter"
import { Page } from "../components/page"

export default function NotFound() {
  const { t } = useLingui()
  return (
    <Page title={t`Page introuvable`}>
      <div className="empty-state">
        <p>{t`L'adresse demandée ne correspond à aucune page.`}</p>
        <Link href="/services" className="button">
          {t`Retour aux services`}
        </Link>
      </div>
    </Page>
  )
}
