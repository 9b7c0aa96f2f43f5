import { useLingui } from "@lingui/react/macro"
import { Link } from "wouter"
import { Page } from "../components/page"

export default function PaymentsRequired() {
  const { t } = useLingui()
  return (
    <Page title={t`Compte de paiement requis`} narrow>
      <div className="alert alert-warning" role="status">
        <p>
          {t`Avant de créer un service et de recevoir des paiements, vous devez configurer un compte de paiement connecté pour les paiements par carte.`}
        </p>
      </div>
      <p>
        {t`La configuration prend quelques minutes : choisissez votre pays, puis renseignez vos informations chez notre prestataire de paiement sécurisé. Vous reviendrez ensuite ici automatiquement.`}
      </p>
      <div className="actions">
        <Link href="/provider/payments/setup" className="button">
          {t`Configurer mes paiements`}
        </Link>
        <Link href="/services/my" className="button-secondary">
          {t`Voir mes services`}
        </Link>
      </div>
    </Page>
  )
}
