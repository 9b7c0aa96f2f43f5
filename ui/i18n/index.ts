import { i18n, type Messages } from "@lingui/core"
import { LANGUAGE_KEY, pickLanguage, readCookie, toLanguage, type Language } from "./detect"

export { i18n }
export type { Language }

// Storage may throw (private mode, blocked cookies): a failed read is simply "no value".
const safe = <A>(read: () => A): A | null => {
  try {
    return read()
  } catch {
    return null
  }
}

/** Reads every source the spec lists, in the browser. */
export const detectLanguage = (): Language =>
  pickLanguage({
    query: new URLSearchParams(location.search).get(LANGUAGE_KEY),
    cookie: safe(() => readCookie(document.cookie, LANGUAGE_KEY)),
    localStorage: safe(() => localStorage.getItem(LANGUAGE_KEY)),
    sessionStorage: safe(() => sessionStorage.getItem(LANGUAGE_KEY)),
    navigator: navigator.language,
    html: document.documentElement.lang
  })

// One chunk per language (esbuild splitting). The source language is loaded too: production
// builds keep only message ids in the code.
const catalogs: Record<Language, () => Promise<{ messages: Messages }>> = {
  fr: () => import("../locales/fr/messages"),
  en: () => import("../locales/en/messages")
}

/** Loads the catalog and makes it active; every <Trans> and useLingui() re-renders. */
export const activateLanguage = async (language: Language) => {
  const { messages } = await catalogs[language]()
  i18n.loadAndActivate({ locale: language, messages })
  document.documentElement.lang = language
}

/** Remembers an explicit choice for the next visits (localStorage and a cookie the server can read). */
export const rememberLanguage = (language: Language) => {
  safe(() => localStorage.setItem(LANGUAGE_KEY, language))
  document.cookie = `${LANGUAGE_KEY}=${language}; Path=/; Max-Age=31536000; SameSite=Lax`
}

/** The UI language; <html lang> is set as soon as it is detected, before the catalog arrives. */
/** The languages the browser names, in its order ("fr-CA", "fr", …); none when it will not say. */
export const browserLanguages = (): ReadonlyArray<string> => {
  try {
    return navigator.languages?.length ? navigator.languages : [navigator.language]
  } catch {
    return []
  }
}

export const currentLanguage = (): Language => toLanguage(document.documentElement.lang) ?? "fr"
