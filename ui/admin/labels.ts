import type { MessageDescriptor } from "@lingui/core"
import { msg } from "@lingui/core/macro"
import type { AuditAction, AuditSubjectType } from "../api/contract"

/** The six statuses an administrator sets (spec section 4), and the finer ones lists may show. */
export const ADMIN_STATUSES = ["PENDING", "CONFIRMED", "DISPUTED", "RESOLVED", "COMPLETED", "CANCELLED", "REJECTED", "VALIDATED"] as const

export const adminStatusLabels: Record<string, MessageDescriptor> = {
  PENDING: msg`En attente`,
  PAID: msg`Payée, à confirmer`,
  CONFIRMED: msg`Confirmée`,
  IN_PROGRESS: msg`En cours`,
  SERVICE_RENDERED: msg`Service rendu`,
  DISPUTED: msg`Litige en cours`,
  RESOLVED: msg`Litige tranché`,
  COMPLETED: msg`Terminée`,
  VALIDATED: msg`Validée`,
  REJECTED: msg`Refusée`,
  CANCELLED: msg`Annulée`
}

/** Why a finished booking, or a late cancellation's fee, is not paid (the booking's paymentIssue). */
export const paymentIssueLabels: Record<string, MessageDescriptor> = {
  NOT_SECURED: msg`Impayée : terminée sans paiement garanti`,
  AUTHORIZATION_FAILED: msg`Impayée : carte refusée à l'encaissement`,
  HOLD_RELEASED: msg`Impayée : autorisation expirée avant l'encaissement`,
  REFUND_FAILED: msg`Remboursement échoué : le client n'a pas été remboursé`
}

export const adminStatusTone = (status: string) =>
  status === "COMPLETED" || status === "VALIDATED"
    ? "success"
    : status === "REJECTED" || status === "CANCELLED"
      ? "danger"
      : status === "PENDING"
        ? "neutral"
        : "info"

/** The audit log's actions (src/modules/administration/rules.ts AuditActions). */
export const auditActionLabels: Record<AuditAction, MessageDescriptor> = {
  APPLICATION_APPROVED: msg`Candidature approuvée`,
  APPLICATION_REJECTED: msg`Candidature refusée`,
  DOCUMENT_VERIFIED: msg`Document vérifié`,
  DOCUMENT_REPLACEMENT_REQUESTED: msg`Nouveau document demandé`,
  USER_ACTIVATED: msg`Compte activé`,
  USER_DEACTIVATED: msg`Compte désactivé`,
  USER_ROLE_CHANGED: msg`Rôle modifié`,
  BOOKING_STATUS_CHANGED: msg`Statut de réservation modifié`,
  BOOKING_REFUNDED: msg`Remboursement`,
  DISPUTE_RESOLVED: msg`Litige résolu`,
  SERVICE_ENABLED: msg`Service activé`,
  SERVICE_DISABLED: msg`Service désactivé`,
  PAYMENT_ACCOUNT_CREATED: msg`Compte de paiement créé`,
  PAYMENT_ACCOUNT_DELETED: msg`Compte de paiement supprimé`,
  REPORT_MODERATED: msg`Signalement traité`,
  EXCHANGE_RATES_SET: msg`Taux de change modifiés`,
  BOOKINGS_EXPORTED: msg`Réservations exportées (CSV)`,
  PAYMENTS_EXPORTED: msg`Paiements exportés (CSV)`,
  PAYOUT_ONBOARDING_LINK_CREATED: msg`Lien d'inscription aux versements créé`,
  PAYOUT_DASHBOARD_OPENED: msg`Tableau de bord des versements ouvert`
}

/** What an audit entry is about. */
export const auditSubjectLabels: Record<AuditSubjectType, MessageDescriptor> = {
  APPLICATION: msg`Candidature`,
  DOCUMENT: msg`Document`,
  USER: msg`Utilisateur`,
  BOOKING: msg`Réservation`,
  SERVICE: msg`Service`,
  REPORT: msg`Signalement`,
  EXCHANGE_RATES: msg`Taux de change`,
  EXPORT: msg`Export`
}
