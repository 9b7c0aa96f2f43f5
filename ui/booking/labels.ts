// Words of the booking screens that several of them share: status and payment labels (spec
// section 4), and the texts of the client-side problems.

import type { MessageDescriptor } from "@lingui/core"
import { msg } from "@lingui/core/macro"
import type { DisplayStatus, PaymentEvent, PaymentStatus } from "../api/contract"
import type { BillingField, BillingProblem, BookingProblem, StatusFilter } from "./rules"

/** Spec labels: pending, payment completed (PAID), confirmed, in progress, service rendered, completed, validated, cancelled (REJECTED too). */
export const statusLabels: Record<DisplayStatus, MessageDescriptor> = {
  PENDING: msg`En attente`,
  PAID: msg`Paiement effectué`,
  CONFIRMED: msg`Confirmée`,
  IN_PROGRESS: msg`En cours`,
  SERVICE_RENDERED: msg`Service rendu`,
  DISPUTED: msg`Litige en cours`,
  RESOLVED: msg`Litige tranché`,
  COMPLETED: msg`Terminée`,
  VALIDATED: msg`Validée`,
  REJECTED: msg`Annulée`,
  CANCELLED: msg`Annulée`
}

/** The badge colour of each status (classes in styles.css). */
export const statusTone: Record<DisplayStatus, "neutral" | "info" | "success" | "danger"> = {
  PENDING: "neutral",
  PAID: "info",
  CONFIRMED: "info",
  IN_PROGRESS: "info",
  SERVICE_RENDERED: "info",
  DISPUTED: "danger",
  RESOLVED: "success",
  COMPLETED: "success",
  VALIDATED: "success",
  REJECTED: "danger",
  CANCELLED: "danger"
}

export const paymentLabels: Record<PaymentStatus, MessageDescriptor> = {
  UNPAID: msg`Paiement à effectuer`,
  CARD_SAVED: msg`Carte enregistrée : le montant sera réservé quelques jours avant la prestation`,
  AUTHORIZED: msg`Montant réservé sur la carte (débité après validation du service)`,
  REQUIRES_ACTION: msg`Paiement à renouveler`,
  CAPTURED: msg`Payé`,
  PARTIALLY_REFUNDED: msg`Partiellement remboursé`,
  REFUNDED: msg`Remboursé`,
  CANCELED: msg`Paiement annulé, aucun montant débité`,
  FAILED: msg`Paiement échoué`
}

export const statusFilterLabels: Record<StatusFilter, MessageDescriptor> = {
  "": msg`Tous les statuts`,
  PENDING: statusLabels.PENDING,
  PAID: statusLabels.PAID,
  CONFIRMED: statusLabels.CONFIRMED,
  IN_PROGRESS: statusLabels.IN_PROGRESS,
  SERVICE_RENDERED: statusLabels.SERVICE_RENDERED,
  DISPUTED: statusLabels.DISPUTED,
  RESOLVED: statusLabels.RESOLVED,
  COMPLETED: statusLabels.COMPLETED,
  VALIDATED: statusLabels.VALIDATED,
  "CANCELLED,REJECTED": statusLabels.CANCELLED
}

export const bookingProblemTexts: Record<BookingProblem, MessageDescriptor> = {
  chooseTime: msg`Choisissez un jour puis un horaire libre.`,
  required: msg`Ce champ est requis.`,
  startInPast: msg`Le début doit être dans le futur.`,
  invalidAddress: msg`Veuillez saisir une adresse valide.`,
  tooLong: msg`Ce texte est trop long.`
}

export const billingRequiredTexts: Record<BillingField, MessageDescriptor> = {
  name: msg`Le nom est requis`,
  email: msg`L'email est requis`,
  line1: msg`L'adresse est requise`,
  city: msg`La ville est requise`,
  postalCode: msg`Le code postal est requis`,
  country: msg`Le pays est requis`
}

export const billingProblemText = (field: BillingField, problem: BillingProblem): MessageDescriptor =>
  problem === "email" ? msg`Adresse email invalide.` : billingRequiredTexts[field]

/** What one payment operation did, as a booking's payment timeline names it (the same words for every reader). */
export const paymentEventLabels: Record<PaymentEvent, MessageDescriptor> = {
  held: msg`Montant bloqué sur la carte`,
  renewed: msg`Blocage renouvelé`,
  cardSaved: msg`Carte enregistrée`,
  captured: msg`Montant débité`,
  released: msg`Blocage levé`,
  refunded: msg`Remboursement`,
  refundFailed: msg`Remboursement échoué`,
  failed: msg`Paiement refusé`
}

/** How a payment was made (the gateway's payment method type). */
const paymentMethodLabels: Record<string, MessageDescriptor> = {
  card: msg`Carte bancaire`,
  sepa_debit: msg`Prélèvement SEPA`,
  acss_debit: msg`Prélèvement bancaire`,
  link: msg`Paiement Link`
}
/** The label of a payment method type; one the list does not know yet is named generically, never by its code. */
export const paymentMethodLabel = (method: string): MessageDescriptor => paymentMethodLabels[method] ?? msg`Autre moyen de paiement`

/** Card networks as people write them ("visa" → "Visa"); an unknown one is capitalised. */
const CARD_BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
  cartes_bancaires: "Cartes Bancaires",
  eftpos_au: "eftpos",
  interac: "Interac"
}
/** A card as the gateway records it ("visa •••• 4242"), or undefined for a method type. */
export const cardText = (method: string): string | undefined => {
  const card = /^([a-z_]+) •••• (\d{4})$/.exec(method)
  if (!card) return undefined
  const brand = CARD_BRANDS[card[1]!] ?? card[1]!.charAt(0).toUpperCase() + card[1]!.slice(1).replace(/_/g, " ")
  return `${brand} •••• ${card[2]}`
}
