import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import { seedDemoData } from "../../src/app/seed"
import { Identity } from "../../src/modules/identity"
import { PaymentAccounts } from "../../src/modules/payments/service"
import { freshUser, paymentsServerSettings } from "./support"
import { loginToken } from "../support/accounts"
import { httpWorld } from "../support/world"

const { server, api } = httpWorld({ config: () => paymentsServerSettings() })

const STATUS = "/api/users/me/stripe-connect/status"
const ONBOARDING = "/api/users/me/stripe-connect/onboarding"
const DASHBOARD = "/api/users/me/stripe-connect/dashboard"

const canTakeCharges = (userId: string) => server.run(Effect.flatMap(PaymentAccounts, (p) => p.canTakeCharges(userId)))

/** A plain fetch that does not follow redirects (HTML pages, form posts). */
const fetchPage = (url: string, init: RequestInit = {}) => fetch(url, { redirect: "manual", ...init })
const postForm = (url: string, form: Record<string, string>) =>
  fetchPage(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString()
  })

/** The hidden fields of the onboarding page's forms, as a browser would send them. */
const formFields = (html: string) => {
  const field = (name: string) => {
    const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html)
    if (!match) throw new Error(`no ${name} field in the onboarding page`)
    return match[1]!.replace(/&amp;/g, "&").replace(/&quot;/g, '"')
  }
  return { return: field("return"), refresh: field("refresh"), lang: field("lang") }
}

const startOnboarding = async (token: string, country = "CA") => {
  const reply = await api.post(ONBOARDING, { country }, { token })
  expect(reply.status, reply.text).toBe(200)
  return reply.body.data.data.accountLink as string
}

describe("sandbox onboarding through HTTP", () => {
  it("a provider without an account sees hasAccount false, then onboarding creates the account and a link", async () => {
    const provider = await freshUser(server, api)
    const before = await api.get(STATUS, { token: provider.token })
    expect(before.status).toBe(200)
    expect(before.body).toEqual({
      success: true,
      data: {
        data: {
          hasAccount: false,
          accountId: null,
          country: null,
          chargesEnabled: false,
          payoutsEnabled: false,
          detailsSubmitted: false,
          requirementsDue: [],
          disabledReason: null
        }
      }
    })

    const link = await startOnboarding(provider.token, " ca ")
    const url = new URL(link)
    expect(url.origin).toBe(server.url)
    expect(url.pathname).toMatch(/^\/sandbox\/connect\/onboarding\/acct_sandbox_[0-9a-f]{24}$/)
    expect(url.searchParams.get("return")).toBe(`${server.url}/provider/payments/setup?onboarding=complete`)
    expect(url.searchParams.get("refresh")).toBe(`${server.url}/provider/payments/setup?onboarding=refresh`)

    const after = await api.get(STATUS, { token: provider.token })
    expect(after.body.data.data).toEqual({
      hasAccount: true,
      accountId: url.pathname.split("/").pop(),
      country: "CA",
      chargesEnabled: false,
      payoutsEnabled: false,
      detailsSubmitted: false,
      requirementsDue: ["external_account", "individual.verification.document", "tos_acceptance.date"],
      disabledReason: "requirements.past_due"
    })
    expect(await canTakeCharges(provider.user.id)).toBe(false)

    // A second onboarding reuses the account (a fresh link for the same account).
    const again = new URL(await startOnboarding(provider.token, "FR"))
    expect(again.pathname).toBe(url.pathname)
    expect((await api.get(STATUS, { token: provider.token })).body.data.data.country).toBe("CA")
  })

  it("follow the link, complete: redirected to the return URL, status shows charges enabled, canTakeCharges becomes true", async () => {
    const provider = await freshUser(server, api)
    // An English account: the link carries its language (see the language test below).
    expect((await api.patch("/api/users/me", { preferredLanguage: "en" }, { token: provider.token })).status).toBe(200)
    const link = await startOnboarding(provider.token)
    const page = await fetchPage(link, { headers: { "accept-language": "fr" } })
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toMatch(/^text\/html/)
    const html = await page.text()
    expect(html).toContain('<html lang="en">')
    expect(html).toContain("Complete onboarding")
    expect(html).toContain("Abandon")

    const accountId = new URL(link).pathname.split("/").pop()!
    const done = await postForm(`${new URL(link).origin}${new URL(link).pathname}/complete`, formFields(html))
    expect(done.status).toBe(303)
    expect(done.headers.get("location")).toBe(`${server.url}/provider/payments/setup?onboarding=complete`)

    // The sandbox delivered account.updated to the webhook before redirecting: the stored flags are set.
    expect(await canTakeCharges(provider.user.id)).toBe(true)
    const status = await api.get(STATUS, { token: provider.token })
    expect(status.body.data.data).toEqual({
      hasAccount: true,
      accountId,
      country: "CA",
      chargesEnabled: true,
      payoutsEnabled: true,
      detailsSubmitted: true,
      requirementsDue: [],
      disabledReason: null
    })
    const events = await server.run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_events WHERE type = 'account.updated'`
      )
    )
    expect(events[0]!.n).toBeGreaterThanOrEqual(1)

    // The dashboard link now opens the sandbox dashboard, which shows the flags.
    const dashboard = await api.get(DASHBOARD, { token: provider.token })
    expect(dashboard.status).toBe(200)
    const dashboardUrl = dashboard.body.data.data.dashboardUrl as string
    expect(dashboardUrl).toBe(`${server.url}/sandbox/connect/dashboard/${accountId}`)
    const dashboardPage = await fetchPage(`${dashboardUrl}?lang=fr`)
    const dashboardHtml = await dashboardPage.text()
    expect(dashboardPage.status).toBe(200)
    expect(dashboardHtml).toContain('<html lang="fr">')
    expect(dashboardHtml).toContain(accountId)
    expect(dashboardHtml).toMatch(/data-flag="chargesEnabled">Oui</)
  })

  it("an account the gateway no longer has: the dashboard says there is no account (404, not 502), onboarding starts a new one", async () => {
    const provider = await freshUser(server, api)
    const link = await startOnboarding(provider.token)
    const html = await (await fetchPage(link)).text()
    await postForm(`${new URL(link).origin}${new URL(link).pathname}/complete`, formFields(html))
    const lost = new URL(link).pathname.split("/").pop()!
    // Deleted on the gateway's side (Stripe's dashboard, say): the sandbox forgets it.
    await server.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DELETE FROM sandbox_accounts WHERE id = ${lost}`))

    const dashboard = await api.get(DASHBOARD, { token: provider.token })
    expect(dashboard.status, dashboard.text).toBe(404)
    expect(dashboard.body.code).toBe("PAYMENT_ACCOUNT_NOT_FOUND")

    const relink = await startOnboarding(provider.token)
    const replacement = new URL(relink).pathname.split("/").pop()!
    expect(replacement).not.toBe(lost)
    const status = await api.get(STATUS, { token: provider.token })
    expect(status.body.data.data).toMatchObject({ hasAccount: true, accountId: replacement, detailsSubmitted: false })
  })

  it("abandon redirects to the refresh URL and leaves the account incomplete", async () => {
    const provider = await freshUser(server, api)
    const link = await startOnboarding(provider.token)
    const html = await (await fetchPage(link)).text()
    expect(html).toContain('<html lang="fr">')
    expect(html).toContain("Terminer l&#39;inscription")
    const left = await postForm(`${link.split("?")[0]}/abandon`, formFields(html))
    expect(left.status).toBe(303)
    expect(left.headers.get("location")).toBe(`${server.url}/provider/payments/setup?onboarding=refresh`)
    const status = await api.get(STATUS, { token: provider.token })
    expect(status.body.data.data).toMatchObject({ hasAccount: true, chargesEnabled: false, payoutsEnabled: false, detailsSubmitted: false })
    expect(await canTakeCharges(provider.user.id)).toBe(false)
    // The dashboard of an incomplete account is refused clearly (Stripe refuses login links before onboarding).
    const dashboard = await api.get(DASHBOARD, { token: provider.token, language: "en" })
    expect(dashboard.status).toBe(409)
    expect(dashboard.body).toEqual({
      success: false,
      code: "PAYMENT_ACCOUNT_INCOMPLETE",
      message: "Finish setting up your payment account first."
    })
  })

  it("the onboarding link carries the provider's account language; the page follows the lang query, else Accept-Language, else French", async () => {
    const provider = await freshUser(server, api)
    const lang = async (url: string | URL, acceptLanguage?: string) =>
      /<html lang="(\w+)">/.exec(
        await (await fetchPage(url.toString(), acceptLanguage ? { headers: { "accept-language": acceptLanguage } } : {})).text()
      )?.[1]
    // The account's language (French by default, then English) beats the browser's.
    const link = await startOnboarding(provider.token)
    expect(new URL(link).searchParams.get("lang")).toBe("fr")
    expect(await lang(link, "en-CA,en;q=0.9")).toBe("fr")
    expect((await api.patch("/api/users/me", { preferredLanguage: "en" }, { token: provider.token })).status).toBe(200)
    const english = await startOnboarding(provider.token)
    expect(new URL(english).searchParams.get("lang")).toBe("en")
    expect(await lang(english, "fr")).toBe("en")
    // Without it (a link made before, typed by hand): the query, else Accept-Language, else French.
    const bare = new URL(link)
    bare.searchParams.delete("lang")
    expect(await lang(bare)).toBe("fr")
    expect(await lang(bare, "en-CA,en;q=0.9")).toBe("en")
    expect(await lang(`${bare}&lang=fr`, "en")).toBe("fr")
    expect(await lang(`${bare}&lang=en`)).toBe("en")
    expect(await lang(`${bare}&lang=de`, "en")).toBe("en")
  })

  it("refuses links whose return addresses leave the marketplace, and unknown accounts", async () => {
    const provider = await freshUser(server, api)
    const link = new URL(await startOnboarding(provider.token))
    const evil = new URL(link)
    evil.searchParams.set("return", "https://evil.example/steal")
    expect((await fetchPage(evil.toString())).status).toBe(400)
    const posted = await postForm(`${link.origin}${link.pathname}/complete`, {
      return: "https://evil.example/",
      refresh: link.searchParams.get("refresh")!,
      lang: "fr"
    })
    expect(posted.status).toBe(400)
    expect(posted.headers.get("location")).toBeNull()
    // Nothing was completed by the refused post.
    expect(await canTakeCharges(provider.user.id)).toBe(false)

    const unknown = new URL(link)
    unknown.pathname = "/sandbox/connect/onboarding/acct_sandbox_nope"
    expect((await fetchPage(unknown.toString())).status).toBe(404)
    expect((await fetchPage(`${server.url}/sandbox/connect/dashboard/acct_sandbox_nope`)).status).toBe(404)
  })
})

describe("access and validation", () => {
  it("answers 401 without a token and 403 to clients and admins, on all three endpoints", async () => {
    const client = await freshUser(server, api, "CLIENT")
    const admin = await freshUser(server, api, "ADMIN")
    for (const [method, path] of [
      ["GET", STATUS],
      ["POST", ONBOARDING],
      ["GET", DASHBOARD]
    ] as const) {
      const json = method === "POST" ? { country: "CA" } : undefined
      expect((await api.call(method, path, { json })).status, path).toBe(401)
      for (const who of [client, admin]) {
        const reply = await api.call(method, path, { json, token: who.token })
        expect(reply.status, `${path} as ${who.user.role}`).toBe(403)
        expect(reply.body.code).toBe("FORBIDDEN")
      }
    }
    const english = await api.get(STATUS, { token: client.token, language: "en" })
    expect(english.body.message).toBe("Access denied: insufficient rights.")
    // Nothing was created for them.
    expect(await server.run(Effect.flatMap(PaymentAccounts, (p) => p.accountOf(client.user.id)))).toEqual(Option.none())
  })

  it("country is required (422, the spec's message) in French and English", async () => {
    const provider = await freshUser(server, api)
    for (const body of [{}, { country: "" }, { country: "   " }]) {
      const fr = await api.post(ONBOARDING, body, { token: provider.token })
      expect(fr.status, JSON.stringify(body)).toBe(422)
      expect(fr.body).toEqual({
        success: false,
        code: "VALIDATION_ERROR",
        message: "Veuillez sélectionner votre pays.",
        details: [{ field: "country", message: "Veuillez sélectionner votre pays." }]
      })
      const en = await api.post(ONBOARDING, body, { token: provider.token, language: "en" })
      expect(en.body.message).toBe("Please select your country.")
      expect(en.body.details).toEqual([{ field: "country", message: "Please select your country." }])
    }
  })

  it("country must be two letters from the allowed list (422, the spec's message) in French and English", async () => {
    const provider = await freshUser(server, api)
    for (const country of ["F", "FRA", "12", "F1", "ZZ", "JP", "é", "C A", "canada"]) {
      const fr = await api.post(ONBOARDING, { country }, { token: provider.token })
      expect(fr.status, country).toBe(422)
      expect(fr.body.message, country).toBe("Veuillez sélectionner un pays valide.")
      expect(fr.body.details).toEqual([{ field: "country", message: "Veuillez sélectionner un pays valide." }])
      const en = await api.post(ONBOARDING, { country }, { token: provider.token, language: "en" })
      expect(en.body.message, country).toBe("Please select a valid country.")
    }
    // A non-string is a malformed request, as everywhere in the API.
    expect((await api.post(ONBOARDING, { country: 33 }, { token: provider.token })).status).toBe(400)
    // Nothing was created by refused attempts.
    expect((await api.get(STATUS, { token: provider.token })).body.data.data.hasAccount).toBe(false)
    // Lower case is accepted (uppercased).
    await startOnboarding(provider.token, "be")
    expect((await api.get(STATUS, { token: provider.token })).body.data.data.country).toBe("BE")
  })

  it("the dashboard without an account is a clear 404", async () => {
    const provider = await freshUser(server, api)
    const fr = await api.get(DASHBOARD, { token: provider.token })
    expect(fr.status).toBe(404)
    expect(fr.body).toEqual({
      success: false,
      code: "PAYMENT_ACCOUNT_NOT_FOUND",
      message: "Aucun compte de paiement n'a encore été créé. Activez d'abord les paiements."
    })
    expect((await api.get(DASHBOARD, { token: provider.token, language: "en" })).body.message).toBe(
      "No payment account has been created yet. Activate payments first."
    )
  })
})

describe("seeded providers", () => {
  // Each banks where they work: Marie in Paris, Jean and Emily in Canada.
  const providers = new Map([
    ["marie.dubois@marketplace.local", "FR"],
    ["jean.tremblay@marketplace.local", "CA"],
    ["emily.clark@marketplace.local", "CA"]
  ])
  const idOf = (email: string) =>
    server.run(
      Effect.map(
        Effect.flatMap(Identity, (i) => i.findByEmail(email)),
        (u) => Option.getOrThrow(u).id
      )
    )

  it("are payment-ready with sandbox accounts, and seeding again changes nothing", async () => {
    const before = new Map<string, string>()
    for (const [email, country] of providers) {
      const id = await idOf(email)
      expect(await canTakeCharges(id), email).toBe(true)
      const token = await loginToken(api, email, "Provider1234!")
      const status = (await api.get(STATUS, { token })).body.data.data
      expect(status, email).toMatchObject({
        hasAccount: true,
        country,
        chargesEnabled: true,
        payoutsEnabled: true,
        detailsSubmitted: true
      })
      expect(status.accountId).toMatch(/^acct_sandbox_/)
      before.set(email, status.accountId)
    }
    expect(await canTakeCharges(await idOf("lucas.bernard@marketplace.local"))).toBe(false)

    const count = () =>
      server.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM sandbox_accounts`))
    const sandboxRows = (await count())[0]!.n
    await server.run(seedDemoData)
    await server.run(seedDemoData)
    expect((await count())[0]!.n).toBe(sandboxRows)
    for (const email of providers.keys()) {
      const id = await idOf(email)
      const stored = Option.getOrThrow(await server.run(Effect.flatMap(PaymentAccounts, (p) => p.accountOf(id))))
      expect(stored.accountId).toBe(before.get(email))
      expect(stored.chargesEnabled).toBe(true)
    }
  })

  it("a seeded provider whose account was made incomplete is made ready again by the seed", async () => {
    const id = await idOf("jean.tremblay@marketplace.local")
    await server.run(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.zipRight(
          sql`UPDATE payment_accounts SET charges_enabled = false WHERE user_id = ${id}`,
          sql`UPDATE sandbox_accounts SET charges_enabled = false WHERE user_id = ${id}`
        )
      )
    )
    expect(await canTakeCharges(id)).toBe(false)
    await server.run(seedDemoData)
    expect(await canTakeCharges(id)).toBe(true)
  })
})
