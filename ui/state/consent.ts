import { atom } from "jotai"
import { LANGUAGE_KEY } from "../i18n/detect"
import { store } from "./session"

/** Cookie consent: null until the visitor answers (spec section 3, "Consent"). */
export interface Consent {
  readonly hasConsent: boolean
  readonly consentDate: string
}

const KEY = "cookieConsent"

// Cookies the site cannot work without, kept even when the visitor refuses: the httpOnly session
// cookie is out of reach of scripts anyway, and the language cookie records an explicit choice.
const ESSENTIAL = new Set(["refreshToken", LANGUAGE_KEY])

const readConsent = (): Consent | null => {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? "null") as Partial<Consent> | null
    return value && typeof value.hasConsent === "boolean" && typeof value.consentDate === "string"
      ? { hasConsent: value.hasConsent, consentDate: value.consentDate }
      : null
  } catch {
    return null
  }
}

export const consentAtom = atom<Consent | null>(readConsent())

/** Deletes every cookie scripts can see except the essential ones, on this path and the root. */
const deleteNonEssentialCookies = () => {
  for (const part of document.cookie.split(";")) {
    const name = part.split("=")[0]?.trim()
    if (!name || ESSENTIAL.has(name)) continue
    for (const path of ["/", location.pathname]) {
      document.cookie = `${name}=; Max-Age=0; Path=${path}`
      document.cookie = `${name}=; Max-Age=0; Path=${path}; Domain=${location.hostname}`
    }
  }
}

export const answerConsent = (hasConsent: boolean) => {
  const consent: Consent = { hasConsent, consentDate: new Date().toISOString() }
  try {
    localStorage.setItem(KEY, JSON.stringify(consent))
  } catch {
    // Still honoured for this visit.
  }
  if (!hasConsent) deleteNonEssentialCookies()
  store.set(consentAtom, consent)
}

export const resetConsent = () => {
  try {
    localStorage.removeItem(KEY)
  } catch {
    // Nothing stored.
  }
  store.set(consentAtom, null)
}
