import { activateLanguage, rememberLanguage } from "../i18n"
import type { Language } from "../i18n/detect"
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
