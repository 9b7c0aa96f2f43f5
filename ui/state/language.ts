import { activateLanguage, currentLanguage, rememberLanguage } from "../i18n"
import { type Language, toLanguage } from "../i18n/detect"
import type { Ok, UserData } from "../api/contract"
import { getToken, setUser, store, userAtom } from "./session"

/**
 * Switches the UI language, remembers the choice and, when logged in, saves it as the user's
 * preferredLanguage. The spec sends that update with a plain fetch: a failure must not toast or
 * log the user out, the UI has switched anyway.
 */
export const switchLanguage = async (language: Language) => {
  // Remembered at once: a page opened before the catalog has loaded still gets the choice.
  rememberLanguage(language)
  await activateLanguage(language)
  const token = getToken()
  if (!token || !store.get(userAtom)) return
  try {
    const response = await fetch("/api/users/me", {
      method: "PATCH",
      credentials: "include",
      headers: {
        Accept: "application/json",
        "Accept-Language": language,
        "Content-Type": "application/json",
        Authorization: `Bearer ${token}`
      },
      body: JSON.stringify({ preferredLanguage: language })
    })
    if (response.ok) setUser(((await response.json()) as Ok<UserData>).data.user)
  } catch {
    // Offline: the choice is still stored locally.
  }
}

/**
 * The account's language wins on every device: when a user signs in or their session is restored
 * (a new user id in the session, not every refresh of the same one), their preferredLanguage replaces
 * the browser's and the stored choice, and is remembered here for the next visits. A `?lang=` link
 * opened on this load (`explicit`) wins for the session restored by that load only: a shared link
 * must not rewrite the account (the language buttons do that). Started once the first catalog is
 * active, so that the detected language cannot land after the account's.
 */
export const followAccountLanguage = (explicit?: Language) => {
  let seen: string | null = null
  let chosen = explicit
  const follow = () => {
    const user = store.get(userAtom)
    if (user?.id === seen) return
    seen = user?.id ?? null
    if (!user) return
    if (chosen) {
      chosen = undefined
      return
    }
    const language = toLanguage(user.preferredLanguage)
    if (!language || language === currentLanguage()) return
    rememberLanguage(language)
    void activateLanguage(language).catch(() => undefined)
  }
  follow()
  return store.sub(userAtom, follow)
}
