import { useLingui } from "@lingui/react/macro"
import { Page } from "../components/page"

/** The catalogue arrives with its own issue; until then the list is honestly empty. */
export default function Services() {
  const { t } = useLingui()
  return (
    <Page title={t`Services`} intro={t`Trouvez et réservez des prestataires de services près de chez vous.`}>
      <div className="empty-state">
        <p className="empty-title">{t`Aucun service pour le moment`}</p>
        <p>{t`Les services publiés par les prestataires apparaîtront ici.`}</p>
      </div>
    </Page>
  )
}
