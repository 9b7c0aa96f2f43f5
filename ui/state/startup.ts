import { ApiError } from "../api/client"
import { authApi } from "../api/endpoints"
import { isTransientFailure } from "../api/reactions"
import { clearSession, getToken, sessionStatusAtom, setUser, store } from "./session"

/**
 * At startup a stored token is checked against /auth/me (10 s limit); it is dropped when refused,
 * kept (for the next start) when the server could not say, as while its database restarts.
 */
export const restoreSession = async () => {
  if (!getToken()) return
  store.set(sessionStatusAtom, "checking")
  try {
    const { data } = await authApi.me({ timeoutMs: 10_000, quiet: true })
    setUser(data.user)
  } catch (error) {
    if (!(error instanceof ApiError && isTransientFailure(error.status))) clearSession()
  } finally {
    store.set(sessionStatusAtom, "ready")
  }
}
