// The one fetch wrapper: base URL, language, bearer token, timeout, one token refresh on 401, and
// the global response handler (toasts and redirects of spec section 8).

import { navigate } from "wouter/use-browser-location"
import { currentLanguage } from "../i18n"
import { clearSession, getToken, setSession } from "../state/session"
import { showToast } from "../state/toasts"
import { reactionTexts } from "./reaction-texts"
import { planReaction } from "./reactions"
import { type Failure, type FieldDetail, type Ok, type Session } from "./contract"
import { ErrorCodes } from "./error-codes"

const BASE = "/api"
const TIMEOUT_MS = 30_000

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ReadonlyArray<FieldDetail> = []
  ) {
    super(message)
  }
  /** Server messages per field, for forms. */
  fieldErrors(): Record<string, string> {
    return Object.fromEntries(this.details.map((d) => [d.field, d.message]))
  }
}

export interface RequestOptions {
  readonly method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE"
  readonly body?: unknown
  /** Send the bearer token when there is one (default true). */
  readonly auth?: boolean
  readonly timeoutMs?: number
  /**
   * Failures the screen shows itself: true for all, or a list of statuses. A quiet failure gets
   * no toast and no redirect (after a failed refresh the session is still cleared).
   */
  readonly quiet?: boolean | ReadonlyArray<number>
}

const send = async (path: string, options: RequestOptions, token: string | null): Promise<Response> => {
  const headers: Record<string, string> = { Accept: "application/json", "Accept-Language": currentLanguage() }
  const form = typeof FormData !== "undefined" && options.body instanceof FormData
  if (options.body !== undefined && !form) headers["Content-Type"] = "application/json"
  if (token) headers.Authorization = `Bearer ${token}`
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? TIMEOUT_MS)
  try {
    return await fetch(BASE + path, {
      method: options.method ?? "GET",
      headers,
      credentials: "include",
      body: options.body === undefined ? null : form ? (options.body as FormData) : JSON.stringify(options.body),
      signal: controller.signal
    })
  } catch (cause) {
    const timedOut = controller.signal.aborted
    throw new ApiError(0, timedOut ? ErrorCodes.timeout : ErrorCodes.network, String(cause))
  } finally {
    clearTimeout(timer)
  }
}

const readBody = async (response: Response): Promise<unknown> => {
  try {
    return await response.json()
  } catch {
    return undefined
  }
}

const toError = (status: number, body: unknown): ApiError => {
  const failure = (body ?? {}) as Partial<Failure>
  return new ApiError(status, failure.code ?? "HTTP_" + status, failure.message ?? "", failure.details ?? [])
}

// Parallel 401s share one refresh call: the refresh token rotates, so a second call would fail.
let refreshing: Promise<string | null> | null = null

/** Trades the httpOnly refresh cookie for a new access token; null when the session is over. */
export const refreshSession = (): Promise<string | null> => {
  refreshing ??= (async () => {
    try {
      const response = await send("/auth/refresh-token", { method: "POST", body: {}, auth: false }, null)
      if (!response.ok) return null
      const { data } = (await response.json()) as Ok<Session>
      setSession(data.token, data.user)
      return data.token
    } catch {
      return null
    }
  })().finally(() => {
    refreshing = null
  })
  return refreshing
}

const isQuiet = (options: RequestOptions, status: number) =>
  options.quiet === true || (Array.isArray(options.quiet) && options.quiet.includes(status))

/** The global handler: one toast and, for some failures, a redirect. */
const react = (error: ApiError) => {
  const plan = planReaction(error)
  if (!plan) return
  const useServerText = plan.reaction === "tooManyRequests" && error.message !== ""
  showToast(plan.kind, useServerText ? error.message : reactionTexts[plan.reaction])
  if (!plan.goTo || location.pathname === plan.goTo) return
  const here = location.pathname + location.search
  navigate(plan.goTo === "/login" ? `/login?redirectTo=${encodeURIComponent(here)}` : plan.goTo)
}

/** Calls the API and answers the success envelope; throws ApiError after the global handling. */
export const api = async <T>(path: string, options: RequestOptions = {}): Promise<Ok<T>> => {
  const token = options.auth === false ? null : getToken()
  let response: Response
  try {
    response = await send(path, options, token)
    if (response.status === 401 && token) {
      const body = (await readBody(response)) as Partial<Failure> | undefined
      if (body?.code === ErrorCodes.emailNotVerified) throw toError(401, body)
      // An expired access token: try one refresh, then retry the request once with the new token.
      const fresh = await refreshSession()
      if (!fresh) {
        clearSession()
        throw toError(401, body)
      }
      response = await send(path, options, fresh)
    }
  } catch (cause) {
    const error = cause instanceof ApiError ? cause : new ApiError(0, ErrorCodes.network, String(cause))
    if (!isQuiet(options, error.status)) react(error)
    throw error
  }
  const body = await readBody(response)
  if (response.ok) return (body ?? { success: true, data: {} }) as Ok<T>
  const error = toError(response.status, body)
  if (error.status === 401 && token) clearSession()
  if (!isQuiet(options, error.status)) react(error)
  throw error
}

/** A binary answer (an admin document) fetched with the bearer token, as a Blob; failures are quiet. */
export const apiBlob = async (path: string, options: Pick<RequestOptions, "method" | "body" | "auth"> = {}): Promise<Blob> => {
  const token = options.auth === false ? null : getToken()
  let response = await send(path, options, token)
  if (response.status === 401 && token) {
    const fresh = await refreshSession()
    if (fresh) response = await send(path, options, fresh)
  }
  if (!response.ok) throw toError(response.status, await readBody(response))
  return response.blob()
}
