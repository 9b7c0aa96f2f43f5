import type { I18n, MessageDescriptor } from "@lingui/core"
import { msg } from "@lingui/core/macro"
import type { Problem, Problems } from "../validation"

const texts: Record<Problem, MessageDescriptor> = {
  required: msg`Ce champ est requis.`,
  email: msg`Adresse email invalide.`,
  phone: msg`Le numéro de téléphone doit contenir au moins 10 chiffres, uniquement des chiffres.`,
  password: msg`Le mot de passe doit contenir au moins 8 caractères, dont une majuscule, une minuscule, un chiffre et un caractère spécial (@$!%*?&).`,
  passwordTooShort: msg`Le mot de passe doit contenir au moins 8 caractères.`,
  mismatch: msg`Les mots de passe ne correspondent pas.`
}

/** Client-side problems as translated texts, keyed by field like the server's 422 details. */
export const problemTexts = <K extends string>(i18n: I18n, problems: Problems<K>): Partial<Record<K, string>> =>
  Object.fromEntries(Object.entries(problems).map(([field, problem]) => [field, i18n._(texts[problem as Problem])])) as Partial<
    Record<K, string>
  >
