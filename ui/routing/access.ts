// Route guards of the spec's access summary as one pure function, so they are unit-tested and the
// router only has to obey the answer.

import type { Role } from "../api/contract"

export type Access = { readonly kind: "allow" } | { readonly kind: "redirect"; readonly to: string }

const allow: Access = { kind: "allow" }
const redirect = (to: string): Access => ({ kind: "redirect", to })

export const DEFAULT_AFTER_LOGIN = "/services"

const LOGIN_REQUIRED = ["/search", "/favorites", "/bookings", "/messaging", "/messages", "/profile", "/settings", "/become-provider"]
const PROVIDER_ONLY = [
  /^\/services\/create$/,
  /^\/services\/my$/,
  /^\/services\/[^/]+\/edit$/,
  /^\/provider\/payments\/setup$/,
  /^\/provider\/payments\/required$/,
  /^\/provider\/calendar$/,
  /^\/provider\/availability$/,
  /^\/provider\/earnings$/
]
/** Screens under a booking that need a login (the client's receipt; the server decides who may read it). */
const LOGIN_REQUIRED_PATTERNS = [/^\/bookings\/[^/]+\/receipt$/]
const isAdminPath = (path: string) => path === "/admin" || path.startsWith("/admin/")

/** "/bookings/" and "/bookings" are the same screen for the guard. */
const normalize = (path: string) => {
  const pathname = path.split(/[?#]/)[0] ?? "/"
  return pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname
}

export const loginRedirect = (path: string) => `/login?redirectTo=${encodeURIComponent(path)}`

/**
 * What the router does for `path` (pathname, optionally with its query) and the current user (null
 * for a visitor): let it render, or redirect. Visitors go to /login with a way back; a logged-in
 * user lacking the role goes to /services.
 */
export const decideAccess = (path: string, user: { readonly role: Role } | null): Access => {
  const pathname = normalize(path)
  if (pathname === "/") return redirect("/services")

  const needsProvider = PROVIDER_ONLY.some((pattern) => pattern.test(pathname))
  const needsAdmin = isAdminPath(pathname)
  const needsLogin =
    needsProvider || needsAdmin || LOGIN_REQUIRED.includes(pathname) || LOGIN_REQUIRED_PATTERNS.some((pattern) => pattern.test(pathname))
  if (!needsLogin) return allow // public, including /profile/{id} and /services/{id}
  if (!user) return redirect(loginRedirect(path))

  if (pathname === "/become-provider" && user.role === "PROVIDER") return redirect("/services/my")
  if (needsProvider && user.role !== "PROVIDER") return redirect("/services")
  if (needsAdmin && user.role !== "ADMIN") return redirect("/services")
  return allow
}

/**
 * A redirectTo value made safe: only a same-site path is kept (no scheme, no "//host", no
 * backslash tricks), and never back to the auth screens; anything else gives /services.
 */
export const sanitizeRedirect = (value: string | null | undefined): string => {
  if (!value || !value.startsWith("/") || value.startsWith("//") || /[\\\u0000-\u001f]/.test(value)) {
    return DEFAULT_AFTER_LOGIN
  }
  try {
    const base = "http://same.invalid"
    const url = new URL(value, base)
    if (url.origin !== base) return DEFAULT_AFTER_LOGIN
    if (["/login", "/register"].includes(normalize(url.pathname))) return DEFAULT_AFTER_LOGIN
    return url.pathname + url.search + url.hash
  } catch {
    return DEFAULT_AFTER_LOGIN
  }
}
