/**
 * Messages the server writes (API answers and mails), in French (the default) and English.
 * The English table is typed against the French one, so a missing translation does not compile;
 * test/i18n.test.ts also checks that no message is blank and placeholders match.
 */
export const fr = {
  "validation.failed": "Certains champs sont invalides.",
  "validation.required": "Ce champ est requis.",
  "validation.email": "Adresse email invalide.",
  "validation.phone": "Le numéro de téléphone doit contenir au moins 10 chiffres, uniquement des chiffres.",
  "validation.password":
    "Le mot de passe doit contenir au moins 8 caractères, dont une majuscule, une minuscule, un chiffre et un caractère spécial (@$!%*?&).",
  "validation.passwordTooShort": "Le mot de passe doit contenir au moins 8 caractères.",
  "validation.passwordMismatch": "Les mots de passe ne correspondent pas.",
  "validation.tooLong": "Ce champ est trop long.",
  "validation.language": "Langue non prise en charge (fr ou en).",
  "validation.contactSubject": "Sujet inconnu.",
  "request.malformed": "Requête invalide.",
  "request.notFound": "Ressource introuvable.",
  "request.tooManyRequests": "Trop de tentatives. Réessayez dans {seconds} secondes.",
  "server.error": "Erreur interne du serveur. Réessayez plus tard.",
  "auth.invalidCredentials": "Email ou mot de passe incorrect",
  "auth.emailNotVerified":
    "Veuillez vérifier votre adresse email (email verification) avant de vous connecter. Consultez votre boîte de réception.",
  "auth.accountDeactivated": "Ce compte a été désactivé. Contactez le support.",
  "auth.unauthenticated": "Authentification requise.",
  "auth.sessionExpired": "Votre session a expiré. Veuillez vous reconnecter.",
  "auth.forbidden": "Accès refusé : droits insuffisants.",
  "auth.emailTaken": "Un compte existe déjà avec cette adresse email.",
  "auth.invalidToken": "Jeton invalide ou expiré.",
  "auth.missingToken": "Jeton manquant.",
  "auth.wrongCurrentPassword": "Le mot de passe actuel est incorrect.",
  "auth.registered": "Inscription réussie. Un email de vérification vous a été envoyé.",
  "auth.loggedIn": "Connexion réussie.",
  "auth.loggedOut": "Déconnexion réussie.",
  "auth.emailVerified": "Votre adresse email a été vérifiée. Vous pouvez vous connecter.",
  "auth.forgotPasswordSent": "Si un compte existe pour cet email, un lien de réinitialisation a été envoyé.",
  "auth.verificationResent": "Si l'adresse existe, un email de vérification a été renvoyé.",
  "auth.passwordReset": "Votre mot de passe a été réinitialisé. Vous pouvez vous connecter.",
  "auth.passwordUpdated": "Votre mot de passe a été modifié.",
  "profile.updated": "Profil mis à jour.",
  "contact.sent": "Votre message a été envoyé. Nous vous répondrons sous 24 à 48 heures ouvrables.",
  "mail.verify.subject": "Vérifiez votre adresse email",
  "mail.verify.greeting": "Bonjour {firstName},",
  "mail.verify.body": "Merci pour votre inscription. Cliquez sur le lien ci-dessous pour vérifier votre adresse email. Ce lien expire dans 24 heures.",
  "mail.verify.action": "Vérifier mon email",
  "mail.reset.subject": "Réinitialisation de votre mot de passe",
  "mail.reset.greeting": "Bonjour {firstName},",
  "mail.reset.body": "Vous avez demandé à réinitialiser votre mot de passe. Ce lien expire dans 1 heure. Si vous n'êtes pas à l'origine de cette demande, ignorez cet email.",
  "mail.reset.action": "Choisir un nouveau mot de passe",
  "mail.contact.subject": "Nouveau message de contact : {subject}",
  "mail.footer": "Marketplace — Montréal"
} as const

export type MessageKey = keyof typeof fr

export const en: Record<MessageKey, string> = {
  "validation.failed": "Some fields are invalid.",
  "validation.required": "This field is required.",
  "validation.email": "Invalid email address.",
  "validation.phone": "The phone number must contain at least 10 digits, digits only.",
  "validation.password":
    "The password must have at least 8 characters, including an uppercase letter, a lowercase letter, a digit and a special character (@$!%*?&).",
  "validation.passwordTooShort": "The password must have at least 8 characters.",
  "validation.passwordMismatch": "Passwords do not match.",
  "validation.tooLong": "This field is too long.",
  "validation.language": "Unsupported language (fr or en).",
  "validation.contactSubject": "Unknown subject.",
  "request.malformed": "Malformed request.",
  "request.notFound": "Resource not found.",
  "request.tooManyRequests": "Too many attempts. Try again in {seconds} seconds.",
  "server.error": "Internal server error. Please try again later.",
  "auth.invalidCredentials": "Incorrect email or password",
  "auth.emailNotVerified": "Please verify your email address (email verification) before logging in. Check your inbox.",
  "auth.accountDeactivated": "This account has been deactivated. Contact support.",
  "auth.unauthenticated": "Authentication required.",
  "auth.sessionExpired": "Your session has expired. Please log in again.",
  "auth.forbidden": "Access denied: insufficient rights.",
  "auth.emailTaken": "An account already exists with this email address.",
  "auth.invalidToken": "Invalid or expired token.",
  "auth.missingToken": "Missing token.",
  "auth.wrongCurrentPassword": "The current password is incorrect.",
  "auth.registered": "Registration successful. A verification email has been sent to you.",
  "auth.loggedIn": "Logged in.",
  "auth.loggedOut": "Logged out.",
  "auth.emailVerified": "Your email address has been verified. You can now log in.",
  "auth.forgotPasswordSent": "If an account exists for this email, a reset link has been sent.",
  "auth.verificationResent": "If the address exists, a verification email has been resent.",
  "auth.passwordReset": "Your password has been reset. You can now log in.",
  "auth.passwordUpdated": "Your password has been changed.",
  "profile.updated": "Profile updated.",
  "contact.sent": "Your message has been sent. We will answer within 24 to 48 business hours.",
  "mail.verify.subject": "Verify your email address",
  "mail.verify.greeting": "Hello {firstName},",
  "mail.verify.body": "Thank you for registering. Click the link below to verify your email address. This link expires in 24 hours.",
  "mail.verify.action": "Verify my email",
  "mail.reset.subject": "Reset your password",
  "mail.reset.greeting": "Hello {firstName},",
  "mail.reset.body": "You asked to reset your password. This link expires in 1 hour. If you did not ask for it, ignore this email.",
  "mail.reset.action": "Choose a new password",
  "mail.contact.subject": "New contact message: {subject}",
  "mail.footer": "Marketplace — Montreal"
}

export const Languages = ["fr", "en"] as const
export type Language = (typeof Languages)[number]
export const defaultLanguage: Language = "fr"

export const catalogs: Record<Language, Record<MessageKey, string>> = { fr, en }

export const translate = (language: Language, key: MessageKey, params?: Readonly<Record<string, string>>): string => {
  const template = catalogs[language][key]
  return params ? template.replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole) : template
}

/** The first supported language of an Accept-Language header, if any. */
export const languageFromHeader = (header: string | undefined): Language | undefined => {
  if (!header) return undefined
  const ranked = header
    .split(",")
    .map((part) => {
      const [tag = "", ...rest] = part.trim().split(";")
      const q = rest.find((p) => p.trim().startsWith("q="))
      return { tag: tag.trim().toLowerCase().slice(0, 2), q: q ? Number(q.trim().slice(2)) : 1 }
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q)
  return ranked.find((entry): entry is { tag: Language; q: number } => (Languages as ReadonlyArray<string>).includes(entry.tag))?.tag
}
