import type { MessageDescriptor } from "@lingui/core"
import { msg } from "@lingui/core/macro"
import type { Reaction } from "./reactions"

/** Toast text of each global reaction (spec section 8). */
export const reactionTexts: Record<Reaction, MessageDescriptor> = {
  verifyEmail: msg`Veuillez vérifier votre adresse email avant de continuer.`,
  sessionExpired: msg`Votre session a expiré. Veuillez vous reconnecter.`,
  forbidden: msg`Accès refusé : vous n'avez pas les droits suffisants.`,
  twoFactorRequired: msg`Activez la connexion en deux étapes pour utiliser l'administration.`,
  paymentSetup: msg`Vous devez configurer votre compte de paiement pour continuer.`,
  invalidFields: msg`Certains champs sont invalides. Vérifiez le formulaire.`,
  notFound: msg`La ressource demandée est introuvable.`,
  conflict: msg`Conflit : la ressource a changé entre-temps. Réessayez.`,
  tooManyRequests: msg`Trop de tentatives. Patientez un moment avant de réessayer.`,
  serverError: msg`Erreur du serveur. Réessayez plus tard.`,
  network: msg`Impossible de joindre le serveur. Vérifiez votre connexion.`
}
