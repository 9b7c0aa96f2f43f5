import { atom, getDefaultStore, useAtomValue } from "jotai"
import type { User } from "../api/contract"
import { platformTimeZone } from "../format"

const TOKEN_KEY = "token"

const readToken = (): string | null => {
  try {
    return localStorage.getItem(TOKEN_KEY)
  } catch {
    return null
  }
}

/** The access token (kept in localStorage, per the spec) and the current user. */
export const tokenAtom = atom<string | null>(readToken())
export const userAtom = atom<User | null>(null)
/** "checking" while the stored token is being verified at startup: guards wait instead of redirecting. */
export const sessionStatusAtom = atom<"checking" | "ready">("ready")

/** The browser's IANA zone (sent at registration and login; the viewer's zone while signed out). */
export const browserTimeZone = platformTimeZone()

/** The zone every screen shows times in: the account's when signed in and known, else the browser's. */
export const viewerZoneAtom = atom((get) => get(userAtom)?.timeZone ?? browserTimeZone)
export const useViewerZone = () => useAtomValue(viewerZoneAtom)

// The fetch wrapper lives outside React, so session changes go through the default store.
export const store = getDefaultStore()

export const getToken = () => store.get(tokenAtom)

export const setSession = (token: string, user: User) => {
  try {
    localStorage.setItem(TOKEN_KEY, token)
  } catch {
    // The session still works for this tab.
  }
  store.set(tokenAtom, token)
  store.set(userAtom, user)
}

export const setUser = (user: User) => store.set(userAtom, user)

export const clearSession = () => {
  try {
    localStorage.removeItem(TOKEN_KEY)
  } catch {
    // Nothing stored.
  }
  store.set(tokenAtom, null)
  store.set(userAtom, null)
}
