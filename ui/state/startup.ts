import { authApi } from "../api/endpoints"
import { clearSession, getToken, sessionStatusAtom, setUser, store } from "./session"

/** At startup a stored token is checked against /auth/me (10 s limit); on failure it is dropped. */
export const restoreSession = async () => {
  if (!getToken()) return
  store.set(sessionStatusAtom, "checking")
  try {
    const { data } = await authApi.me({ timeoutMs: 10_000, quiet: true })
    setUser(data.user)
  } catch {
    clearSession()
  } finally {
    store.set(sessionStatusAtom, "ready")
  }
}
