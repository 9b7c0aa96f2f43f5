import type { MessageDescriptor } from "@lingui/core"
import { msg } from "@lingui/core/macro"

// What the payment provider asks of a provider's connected account, in words (Stripe's requirement
// codes and disabled reasons, as the status answers them). A code is named by its most specific
// known prefix; one the screen does not know is still counted, never hidden.

const REQUIREMENT_PREFIXES: ReadonlyArray<readonly [string, MessageDescriptor]> = [
  ["external_account", msg`Le compte bancaire qui recevra vos virements`],
  ["individual.verification.document", msg`Une pièce d'identité`],
  ["individual.verification.additional_document", msg`Un justificatif de domicile`],
  ["individual.id_number", msg`Votre numéro d'identification (numéro d'assurance sociale, de sécurité sociale…)`],
  ["individual.ssn_last_4", msg`Les 4 derniers chiffres de votre numéro de sécurité sociale`],
  ["individual.dob", msg`Votre date de naissance`],
  ["individual.address", msg`Votre adresse`],
  ["individual.phone", msg`Votre numéro de téléphone`],
  ["individual.email", msg`Votre adresse email`],
  ["individual", msg`Des informations sur vous`],
  ["business_profile", msg`La description de votre activité`],
  ["company", msg`Des informations sur votre entreprise`],
  ["tos_acceptance", msg`L'acceptation des conditions du prestataire de paiement`],
  ["representative", msg`Des informations sur le représentant de l'entreprise`]
]

/** A requirement code in words ("individual.verification.document": "Une pièce d'identité"). */
export const requirementLabel = (code: string): MessageDescriptor =>
  REQUIREMENT_PREFIXES.find(([prefix]) => code === prefix || code.startsWith(`${prefix}.`))?.[1] ?? msg`Une autre information demandée`

/** Why the payment provider restricted an account, in words; by the reason's family when not known exactly. */
export const disabledReasonLabel = (reason: string): MessageDescriptor => {
  if (reason === "requirements.past_due") return msg`Des informations demandées n'ont pas été fournies à temps.`
  if (reason === "requirements.pending_verification") return msg`Le prestataire de paiement vérifie les informations fournies.`
  if (reason === "under_review") return msg`Le compte est en cours d'examen par le prestataire de paiement.`
  if (reason.startsWith("rejected.")) return msg`Le prestataire de paiement a refusé ce compte. Contactez le support.`
  if (reason === "listed") return msg`Le compte fait l'objet d'une vérification réglementaire par le prestataire de paiement.`
  return msg`Le prestataire de paiement a restreint ce compte.`
}
