import type { Browser, BrowserContext, Page } from "playwright-core"
import { expect } from "vitest"
import { applicationForm, submit } from "../onboarding/support"
import { login, newClient, type Session } from "./accounts"
import { contextWithConsent } from "./browser"
import { httpClient } from "./http"
import type { TestServer } from "./server"

/**
 * The route walker: every route of both specs (public, client, provider, admin), with the data each
 * needs seeded on top of the demo data, visited in Chromium in a given language and width. One
 * context per role, reused across its screens; the strings and the visual tests walk with it.
 */

export type Language = "fr" | "en"
export type Role = "visitor" | "client" | "provider" | "admin"

export interface Dialog {
  readonly name: string
  /** Opens the dialog (or inline form) on the screen, in `language`, and waits for it. */
  readonly open: (page: Page, language: Language) => Promise<void>
  /** Only at these widths (the mobile menu exists under 768 px). */
  readonly widths?: (width: number) => boolean
}

export interface Screen {
  readonly path: string
  readonly as: Role
  /** What shows the screen is ready, beyond its h1 and no loading state. */
  readonly ready?: string
  readonly dialogs?: ReadonlyArray<Dialog>
}

/** Demo accounts the walk logs in as (src/app/seed.ts). */
export const walkAccounts: Record<Exclude<Role, "visitor">, { email: string; password: string }> = {
  client: { email: "lucas.bernard@marketplace.local", password: "Client1234!" },
  provider: { email: "marie.dubois@marketplace.local", password: "Provider1234!" },
  admin: { email: "admin@marketplace.local", password: "Admin1234!" }
}

export interface WalkData {
  readonly serviceId: string
  readonly providerId: string
  readonly receiptBookingId: string
  readonly adminBookingId: string
  readonly applicationId: string
  readonly reportId: string
  readonly sessions: Record<Exclude<Role, "visitor">, Session>
  /** Texts users typed (names, titles, descriptions, messages...): the same in both languages by nature. */
  readonly userContent: ReadonlySet<string>
}

// Fields of the API's answers that hold what people typed, not labels or codes.
const USER_FIELDS = new Set([
  // A receipt's number and its card ("R-F620-BCMC-BB6K", "Visa •••• 4242"): data, the same in both languages.
  "number",
  "paymentMethod",
  "title",
  "description",
  "location",
  "address",
  "firstName",
  "lastName",
  "fullName",
  "name",
  "email",
  "bio",
  "content",
  "lastMessage",
  "skills",
  "experience",
  "motivation",
  "details",
  "fileName",
  "comment",
  "specialities",
  "languages",
  "certifications",
  "city",
  "placeName",
  "label",
  "note",
  "rejectionReason",
  "reason"
])

const collectUserContent = (value: unknown, into: Set<string>, field = "") => {
  if (typeof value === "string") {
    // A code (CANCELLED, SPAM) is never user content: the strings test must still see it.
    if (USER_FIELDS.has(field) && !/^[A-Z_]+$/.test(value)) into.add(value.trim())
  } else if (Array.isArray(value)) for (const item of value) collectUserContent(item, into, field)
  else if (value && typeof value === "object")
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) collectUserContent(inner, into, key)
}

/** Seeds what the demo data lacks (an application under review, a conversation, a report, a favorite) and reads the ids. */
export const seedWalk = async (server: TestServer): Promise<WalkData> => {
  const api = httpClient(server)
  const [client, provider, admin] = await Promise.all(
    (["client", "provider", "admin"] as const).map((role) => login(api, walkAccounts[role].email, walkAccounts[role].password))
  )
  const sessions = { client: client!, provider: provider!, admin: admin! }
  const auth = (session: Session) => ({ token: session.token })

  // An application under review, with its four documents.
  const applicant = await newClient(server, api, { firstName: "Nadia", lastName: "Haddad" })
  const submitted = await submit(server, applicant.token, await applicationForm())
  expect(submitted.status, submitted.text).toBe(201)
  const applications = await api.get("/api/admin/applications?status=PENDING", auth(admin!))
  const applicationId = applications.body.data.applications[0].id as string

  // A conversation between the demo client and provider, and the provider's report of its message.
  const conversation = await api.post("/api/conversations", { participantId: provider!.id }, auth(client!))
  expect(conversation.status, conversation.text).toBeLessThan(300)
  const conversationId = conversation.body.data.conversation.id as string
  const message = await api.post(
    `/api/conversations/${conversationId}/messages`,
    { content: "Bonjour, êtes-vous disponible samedi matin ?" },
    auth(client!)
  )
  expect(message.status, message.text).toBe(201)
  const report = await api.post("/api/reports", { reason: "SPAM", messageId: message.body.data.message.id }, auth(provider!))
  expect(report.status, report.text).toBe(201)
  const reportId = report.body.data.report.id as string
  expect((await api.post("/api/users/favorites", { favoritedId: provider!.id }, auth(client!))).status).toBeLessThan(300)

  const services = await api.get(`/api/services?limit=50`)
  const service = (services.body.data.services as Array<{ id: string; userId: string }>).find((s) => s.userId === provider!.id)!
  const mine = await api.get("/api/bookings/me?as=client", auth(client!))
  const receiptBookingId = (mine.body.data.bookings as Array<{ id: string; paymentStatus: string }>).find(
    (b) => b.paymentStatus === "CAPTURED"
  )!.id
  const adminBookings = await api.get("/api/admin/bookings?limit=1", auth(admin!))

  // What people typed, as the API gives it to the screens.
  const userContent = new Set<string>()
  for (const [path, session] of [
    ["/api/services?limit=100", client],
    ["/api/admin/users?limit=100", admin],
    ["/api/admin/bookings?limit=100", admin],
    ["/api/admin/services?limit=100", admin],
    [`/api/admin/applications/${applicationId}`, admin],
    [`/api/admin/reports/${reportId}`, admin],
    [`/api/users/public/${provider!.id}`, client],
    ["/api/bookings/me?as=client", client],
    ["/api/bookings/me?as=provider", provider],
    ["/api/conversations", client],
    [`/api/conversations/${conversationId}/messages`, client],
    [`/api/bookings/${receiptBookingId}/receipt`, client]
  ] as const) {
    const answer = await api.get(path, auth(session!))
    collectUserContent(answer.body?.data, userContent)
  }
  return {
    serviceId: service.id,
    providerId: provider!.id,
    receiptBookingId,
    adminBookingId: adminBookings.body.data.bookings[0].id as string,
    applicationId,
    reportId,
    sessions,
    userContent
  }
}

const byName = (names: Record<Language, RegExp | string>) => async (page: Page, language: Language) => {
  await page.getByRole("button", { name: names[language] }).first().click()
}

const dialogShown = (page: Page) => page.locator("dialog[open], [role=dialog], [role=alertdialog]").first().waitFor()

/** Every route of both specs, with the dialogs a screen opens. */
export const walkScreens = (data: WalkData): ReadonlyArray<Screen> => [
  // Public.
  { path: "/services", as: "visitor" },
  { path: `/services/${data.serviceId}`, as: "visitor" },
  { path: "/services/00000000-0000-4000-8000-000000000000", as: "visitor" },
  { path: "/search?q=menage", as: "visitor" },
  { path: `/profile/${data.providerId}`, as: "visitor" },
  { path: "/login", as: "visitor" },
  { path: "/login?verify=1", as: "visitor" },
  { path: "/register", as: "visitor" },
  { path: "/forgot-password", as: "visitor" },
  { path: "/reset-password/abc", as: "visitor" },
  { path: "/verify-email/not-a-token", as: "visitor", ready: ".alert-error, .alert-danger, [role=alert]" },
  { path: "/confirm-email/not-a-token", as: "visitor", ready: ".alert-error, .alert-danger, [role=alert]" },
  { path: "/email-verification-required", as: "visitor" },
  { path: "/about", as: "visitor" },
  { path: "/contact", as: "visitor" },
  { path: "/cookies", as: "visitor" },
  { path: "/no-such-page", as: "visitor" },
  // Client.
  {
    path: "/services",
    as: "client",
    dialogs: [
      {
        name: "mobile menu",
        widths: (width) => width < 768,
        open: async (page) => {
          await page.getByRole("button", { name: "Menu", exact: true }).click()
          await dialogShown(page)
        }
      }
    ]
  },
  {
    path: "/bookings",
    as: "client",
    dialogs: [
      {
        name: "cancel booking",
        open: async (page, language) => {
          await byName({ fr: /^Annuler la réservation/, en: /^Cancel the booking/ })(page, language)
          await dialogShown(page)
        }
      }
    ]
  },
  { path: `/bookings/${data.receiptBookingId}/receipt`, as: "client" },
  { path: "/messaging", as: "client", ready: ".empty-state, .conversation-card" },
  {
    path: `/messaging?userId=${data.providerId}`,
    as: "client",
    ready: "dialog[open] textarea, [role=dialog] textarea",
    dialogs: []
  },
  { path: "/favorites", as: "client" },
  { path: "/profile", as: "client" },
  {
    path: `/profile/${data.providerId}`,
    as: "client",
    dialogs: [
      {
        name: "report profile",
        open: async (page, language) => {
          await byName({ fr: "Signaler ce profil", en: "Report this profile" })(page, language)
          await page.locator("form select, form textarea").first().waitFor()
        }
      }
    ]
  },
  { path: "/settings", as: "client" },
  { path: "/become-provider", as: "client" },
  // Provider.
  {
    path: "/services/my",
    as: "provider",
    dialogs: [
      {
        name: "delete service",
        open: async (page, language) => {
          await byName({ fr: /^Supprimer/, en: /^Delete/ })(page, language)
          await dialogShown(page)
        }
      }
    ]
  },
  { path: "/services/create", as: "provider" },
  { path: `/services/${data.serviceId}/edit`, as: "provider" },
  { path: "/bookings", as: "provider" },
  { path: "/provider/calendar", as: "provider" },
  { path: "/provider/availability", as: "provider" },
  { path: "/provider/earnings", as: "provider" },
  { path: "/provider/payments/setup", as: "provider" },
  { path: "/provider/payments/required", as: "provider" },
  // Admin.
  { path: "/admin", as: "admin" },
  { path: "/admin/users", as: "admin" },
  { path: "/admin/applications", as: "admin" },
  { path: `/admin/applications/${data.applicationId}`, as: "admin" },
  { path: "/admin/bookings", as: "admin" },
  { path: `/admin/bookings/${data.adminBookingId}`, as: "admin" },
  { path: "/admin/services", as: "admin" },
  { path: "/admin/financial", as: "admin" },
  { path: "/admin/analytics", as: "admin" },
  { path: "/admin/reports", as: "admin" },
  { path: `/admin/reports/${data.reportId}`, as: "admin" },
  { path: "/admin/audit", as: "admin" },
  { path: "/admin/rates", as: "admin" }
]

/** A context for `role` in `language`: consent answered, the language chosen, the session's token stored. */
const contextFor = async (browser: Browser, data: WalkData, role: Role, language: Language, width: number): Promise<BrowserContext> => {
  const context = await contextWithConsent(browser, {
    viewport: { width, height: 900 },
    locale: language === "fr" ? "fr-FR" : "en-CA"
  })
  const token = role === "visitor" ? null : data.sessions[role].token
  await context.addInitScript(
    ({ token, language }) => {
      localStorage.setItem("lang", language)
      if (token) localStorage.setItem("token", token)
    },
    { token, language }
  )
  return context
}

/** Marks the h1 of a screen the walk leaves, so that its next screen is not taken as ready on it. */
const LEFT = "data-walk-left"

/** A screen's route: its path with ids and tokens as one placeholder, without its query. */
const routeOf = (path: string) =>
  path
    .split("?")[0]!
    .split("/")
    .map((part) => (/\d/.test(part) || part.includes("-token") ? ":id" : part))
    .join("/")

/**
 * Goes to `path` the way a link in the app does (no reload: the shell and language stay), as people
 * move between screens; the first screen of each context is loaded from its URL, and so is a screen of
 * the same route as the one before (the same component would keep its h1).
 */
const followLink = (page: Page, path: string) =>
  page.evaluate(
    ({ path, left }) => {
      for (const heading of document.querySelectorAll("h1")) heading.setAttribute(left, "")
      history.pushState(null, "", path)
      dispatchEvent(new PopStateEvent("popstate"))
    },
    { path, left: LEFT }
  )

/**
 * The screen is ready: its h1 shown, no loading state, and its own mark shown when it names one.
 * Checked in the page on every frame: a locator's wait polls from Node at growing intervals (20 ms up
 * to 500 ms), and a screen a chunk or a request behind its link was found up to half a second late.
 */
export const screenReady = (page: Page, screen: Screen) =>
  page.waitForFunction(
    ({ left, ready }) => {
      const shown = (selector: string) => {
        const element = document.querySelector(selector)
        if (!element) return false
        const box = element.getBoundingClientRect()
        return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== "hidden"
      }
      return shown(`h1:not([${left}])`) && document.querySelector(".loading") === null && (ready === undefined || shown(ready))
    },
    { left: LEFT, ready: screen.ready },
    { polling: "raf" }
  )

/**
 * Visits every screen as its role in `language` at `width`, calling `visit` on each screen and on each
 * of its dialogs once open (`label` names the state: the path, or "path [dialog]").
 */
export const walk = async (
  server: TestServer,
  browser: Browser,
  data: WalkData,
  options: { readonly language: Language; readonly width: number; readonly only?: (screen: Screen) => boolean },
  visit: (page: Page, label: string, screen: Screen) => Promise<void>
) => {
  const api = httpClient(server)
  const { language, width } = options
  const screens = walkScreens(data).filter(options.only ?? (() => true))
  for (const role of ["visitor", "client", "provider", "admin"] as const) {
    const mine = screens.filter((screen) => screen.as === role)
    if (mine.length === 0) continue
    // The account's language wins once logged in (issue 16): set it too.
    if (role !== "visitor")
      await api.patch("/api/users/me", { preferredLanguage: language }, { token: data.sessions[role].token, language })
    const context = await contextFor(browser, data, role, language, width)
    const page = await context.newPage()
    let previous: string | undefined
    for (const screen of mine) {
      const separator = screen.path.includes("?") ? "&" : "?"
      if (previous !== undefined && routeOf(previous) !== routeOf(screen.path)) await followLink(page, screen.path)
      else await page.goto(`${server.url}${screen.path}${separator}lang=${language}`)
      previous = screen.path
      await screenReady(page, screen)
      const label = `${role} ${screen.path}`
      await visit(page, label, screen)
      for (const dialog of screen.dialogs ?? []) {
        if (dialog.widths && !dialog.widths(width)) continue
        await dialog.open(page, language)
        await visit(page, `${label} [${dialog.name}]`, screen)
        await page.keyboard.press("Escape")
        await page.goto(`${server.url}${screen.path}${separator}lang=${language}`)
        await screenReady(page, screen)
      }
    }
    await context.close()
    // Back to the demo accounts' own language (French), for the tests that log them in afterwards.
    if (role !== "visitor") await api.patch("/api/users/me", { preferredLanguage: "fr" }, { token: data.sessions[role].token, language })
  }
}
