// Pure language detection, kept free of browser globals so it can be unit-tested.

// The server's list (src/platform/languages.ts imports nothing).
import { Languages as LANGUAGES, type Language } from "../../src/platform/languages"

export { LANGUAGES, type Language }
export const DEFAULT_LANGUAGE: Language = "fr"
export const LANGUAGE_KEY = "lang"

/** "en-CA", "EN", " fr " → a supported language, or undefined. */
export const toLanguage = (value: string | null | undefined): Language | undefined => {
  const tag = value?.trim().toLowerCase().split(/[-_]/)[0]
  return LANGUAGES.find((language) => language === tag)
}

/** Where a language choice can come from, in the order the spec gives. */
export interface LanguageSources {
  readonly query?: string | null
  readonly cookie?: string | null
  readonly localStorage?: string | null
  readonly sessionStorage?: string | null
  readonly navigator?: string | null
  readonly html?: string | null
}

const ORDER: ReadonlyArray<keyof LanguageSources> = ["query", "cookie", "localStorage", "sessionStorage", "navigator", "html"]

/** The first supported language among the sources; an unsupported value falls through to the next. */
export const pickLanguage = (sources: LanguageSources): Language => {
  for (const key of ORDER) {
    const language = toLanguage(sources[key])
    if (language) return language
  }
  return DEFAULT_LANGUAGE
}

/** The value of one cookie in a `document.cookie` string. */
export const readCookie = (cookies: string, name: string): string | null => {
  for (const part of cookies.split(";")) {
    const [key, ...rest] = part.trim().split("=")
    if (key === name) {
      try {
        return decodeURIComponent(rest.join("="))
      } catch {
        return null
      }
    }
  }
  return null
}
