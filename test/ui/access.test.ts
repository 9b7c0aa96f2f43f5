import { describe, expect, it } from "vitest"
import type { Role } from "../../ui/api/contract"
import { decideAccess, sanitizeRedirect } from "../../ui/routing/access"

const as = (role: Role) => ({ role })
const client = as("CLIENT")
const provider = as("PROVIDER")
const admin = as("ADMIN")

describe("decideAccess (spec section 2, access summary)", () => {
  it("sends / to /services for everyone", () => {
    for (const user of [null, client, provider, admin]) expect(decideAccess("/", user)).toEqual({ kind: "redirect", to: "/services" })
  })

  it("lets everyone reach public screens", () => {
    const publicPaths = [
      "/services",
      "/services/42",
      "/about",
      "/contact",
      "/cookies",
      "/profile/abc",
      "/login",
      "/register",
      "/forgot-password",
      "/verify-email/tok",
      "/email-verification-required",
      "/reset-password/tok",
      "/no-such-page"
    ]
    for (const path of publicPaths)
      for (const user of [null, client, provider, admin]) expect(decideAccess(path, user).kind, path).toBe("allow")
  })

  it("sends visitors on login-required screens to /login with a way back", () => {
    for (const path of [
      "/search",
      "/bookings",
      "/bookings/abc/receipt",
      "/messaging",
      "/messages",
      "/profile",
      "/settings",
      "/become-provider"
    ]) {
      expect(decideAccess(path, null)).toEqual({ kind: "redirect", to: `/login?redirectTo=${encodeURIComponent(path)}` })
      expect(decideAccess(path, client).kind).toBe("allow")
    }
  })

  it("keeps the query in redirectTo", () => {
    expect(decideAccess("/messaging?userId=7", null)).toEqual({ kind: "redirect", to: "/login?redirectTo=%2Fmessaging%3FuserId%3D7" })
  })

  it("reserves provider screens to providers; others go to /services, visitors to /login", () => {
    const paths = [
      "/services/create",
      "/services/my",
      "/services/abc/edit",
      "/provider/payments/setup",
      "/provider/payments/required",
      "/provider/calendar",
      "/provider/earnings"
    ]
    for (const path of paths) {
      expect(decideAccess(path, provider).kind, path).toBe("allow")
      expect(decideAccess(path, client), path).toEqual({ kind: "redirect", to: "/services" })
      expect(decideAccess(path, admin), path).toEqual({ kind: "redirect", to: "/services" })
      expect(decideAccess(path, null).kind, path).toBe("redirect")
      expect(decideAccess(path, null)).toMatchObject({ to: expect.stringMatching(/^\/login\?redirectTo=/) })
    }
  })

  it("reserves /admin and its sub-routes to admins", () => {
    for (const path of ["/admin", "/admin/users", "/admin/financial", "/admin/analytics", "/admin/bookings/12"]) {
      expect(decideAccess(path, admin).kind, path).toBe("allow")
      expect(decideAccess(path, client)).toEqual({ kind: "redirect", to: "/services" })
      expect(decideAccess(path, provider)).toEqual({ kind: "redirect", to: "/services" })
      expect(decideAccess(path, null)).toMatchObject({ to: expect.stringMatching(/^\/login\?redirectTo=/) })
    }
    expect(decideAccess("/administrator", null).kind).toBe("allow")
  })

  it("sends a provider on /become-provider to /services/my", () => {
    expect(decideAccess("/become-provider", provider)).toEqual({ kind: "redirect", to: "/services/my" })
    expect(decideAccess("/become-provider", client).kind).toBe("allow")
  })

  it("ignores a trailing slash", () => {
    expect(decideAccess("/bookings/", null).kind).toBe("redirect")
    expect(decideAccess("/services/my/", client)).toEqual({ kind: "redirect", to: "/services" })
  })
})

describe("sanitizeRedirect", () => {
  it("keeps same-site paths with their query and hash", () => {
    expect(sanitizeRedirect("/profile/12")).toBe("/profile/12")
    expect(sanitizeRedirect("/messaging?userId=3#end")).toBe("/messaging?userId=3#end")
  })

  it("falls back to /services for anything else", () => {
    const unsafe = [
      null,
      undefined,
      "",
      "services",
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "\\\\evil.example",
      "javascript:alert(1)",
      "/login",
      "/register?x=1",
      "/\tevil",
      " /services/my"
    ]
    for (const value of unsafe) expect(sanitizeRedirect(value), String(value)).toBe("/services")
  })
})
