import { Effect, Either, Option, Redacted } from "effect"
import { STRIPE_API_VERSION } from "../../src/modules/payments/stripe-version"
import Stripe from "stripe"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { StripeGatewayLive } from "../../src/modules/payments/adapters/stripe"
import { ConnectedAccountGateway, PaymentAccountRepository } from "../../src/modules/payments/ports"
import { PaymentAccounts } from "../../src/modules/payments/service"
import { freePort } from "../support/server"
import { startFakeStripe, type FakeStripe } from "./fake-stripe"
import { accountUpdated, deliver, freshUser, nowSeconds, sign, paymentsServerSettings } from "./support"
import { stripeAdapterOn, stripeModeSettings } from "./stripe-mode"
import { httpWorld } from "../support/world"
import { loginToken } from "../support/accounts"

const STRIPE_WEBHOOK_SECRET = "whsec_stripe_mode_secret"
const STRIPE_CONNECT_WEBHOOK_SECRET = "whsec_stripe_mode_connect_secret"

let fake: FakeStripe
beforeAll(async () => {
  fake = await startFakeStripe()
})
afterAll(() => fake?.stop())

/** Stripe mode with each endpoint's own webhook secret. */
const secrets = {
  stripeWebhookSecret: Option.some(Redacted.make(STRIPE_WEBHOOK_SECRET)),
  stripeConnectWebhookSecret: Option.some(Redacted.make(STRIPE_CONNECT_WEBHOOK_SECRET))
}
const gatewayOn = (apiBase: string) => stripeAdapterOn(ConnectedAccountGateway, StripeGatewayLive, apiBase, secrets)

describe("Stripe adapter: request shapes against a local fake of Stripe's API", () => {
  let gateway: ReturnType<typeof gatewayOn>
  beforeAll(() => {
    gateway = gatewayOn(fake.url)
  })
  afterAll(() => gateway?.dispose())

  it("creates an account with the Express dashboard through controller properties (no deprecated type), card_payments and transfers, metadata userId, idempotency key from user and country", async () => {
    const start = fake.requests.length
    const accountId = await gateway.run((g) => g.createAccount({ userId: "user-123", email: "zoe@example.com", country: "FR" }))
    expect(accountId).toMatch(/^acct_fake_\d+$/)
    const [request, ...rest] = fake.since(start)
    expect(rest).toEqual([])
    expect(request).toMatchObject({
      method: "POST",
      path: "/v1/accounts",
      idempotencyKey: "connect-account:user-123:FR",
      authorization: "Bearer sk_test_fake_key"
    })
    expect(request!.form).toEqual({
      "controller[stripe_dashboard][type]": "express",
      "controller[fees][payer]": "application",
      "controller[losses][payments]": "application",
      "controller[requirement_collection]": "stripe",
      country: "FR",
      email: "zoe@example.com",
      "capabilities[card_payments][requested]": "true",
      "capabilities[transfers][requested]": "true",
      "metadata[userId]": "user-123"
    })
    // Asking again (a retry after our own failure) replays the same creation.
    const again = await gateway.run((g) => g.createAccount({ userId: "user-123", email: "zoe@example.com", country: "FR" }))
    expect(again).toBe(accountId)
    expect(fake.since(start)[1]!.idempotencyKey).toBe("connect-account:user-123:FR")
    // A replacement of an account Stripe lost has its own key (the first would replay the lost account).
    const replacement = await gateway.run((g) =>
      g.createAccount({ userId: "user-123", email: "zoe@example.com", country: "FR", replaces: accountId })
    )
    expect(replacement).not.toBe(accountId)
    expect(fake.since(start)[2]!.idempotencyKey).toBe(`connect-account:user-123:FR:replaces:${accountId}`)
  })

  it("creates an onboarding account link with its return and refresh URLs, a fresh idempotency key per attempt", async () => {
    const accountId = await gateway.run((g) => g.createAccount({ userId: "user-link", email: "a@example.com", country: "CA" }))
    const start = fake.requests.length
    const input = {
      accountId,
      returnUrl: "https://market.example/provider/payments/setup?onboarding=complete",
      refreshUrl: "https://market.example/provider/payments/setup?onboarding=refresh"
    }
    const url = await gateway.run((g) => g.createOnboardingLink(input))
    expect(url).toMatch(new RegExp(`^https://connect\\.stripe\\.test/setup/e/${accountId}/`))
    const second = await gateway.run((g) => g.createOnboardingLink(input))
    expect(second).not.toBe(url)
    const [first, next] = fake.since(start)
    expect(first).toMatchObject({ method: "POST", path: "/v1/account_links" })
    expect(first!.form).toEqual({
      account: accountId,
      type: "account_onboarding",
      return_url: input.returnUrl,
      refresh_url: input.refreshUrl
    })
    expect(first!.idempotencyKey).toMatch(new RegExp(`^connect-onboarding-link:${accountId}:[0-9a-f-]{36}$`))
    expect(next!.idempotencyKey).toMatch(/^connect-onboarding-link:/)
    expect(next!.idempotencyKey).not.toBe(first!.idempotencyKey)
  })

  it("creates a login link for the Express dashboard", async () => {
    const accountId = await gateway.run((g) => g.createAccount({ userId: "user-login", email: "b@example.com", country: "US" }))
    const start = fake.requests.length
    const url = await gateway.run((g) => g.createDashboardLink(accountId))
    expect(url).toMatch(new RegExp(`^https://connect\\.stripe\\.test/express/${accountId}/`))
    const [request] = fake.since(start)
    expect(request).toMatchObject({ method: "POST", path: `/v1/accounts/${accountId}/login_links`, form: {} })
    expect(request!.idempotencyKey).toMatch(new RegExp(`^connect-login-link:${accountId}:`))
  })

  it("names the API version pinned in code on every request: the SDK's own (a package bump is a deliberate change)", async () => {
    const start = fake.requests.length
    await gateway.run((g) => g.retrieveAccount("acct_version_check").pipe(Effect.either))
    expect(fake.since(start).map((r) => r.stripeVersion)).toEqual([STRIPE_API_VERSION])
    // When the SDK moves to another version, this fails until STRIPE_API_VERSION and the webhook endpoints move with it.
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION)
  })

  it("retrieves an account and maps its flags, country, requirements (past due first, each once) and disabled reason", async () => {
    const accountId = await gateway.run((g) => g.createAccount({ userId: "user-get", email: "c@example.com", country: "BE" }))
    const start = fake.requests.length
    expect(await gateway.run((g) => g.retrieveAccount(accountId))).toEqual({
      accountId,
      country: "BE",
      chargesEnabled: false,
      payoutsEnabled: false,
      detailsSubmitted: false,
      requirementsDue: ["external_account", "tos_acceptance.date", "business_profile.url", "individual.verification.document"],
      disabledReason: "requirements.past_due"
    })
    Object.assign(fake.accounts.get(accountId)!, {
      charges_enabled: true,
      details_submitted: true,
      requirements: { currently_due: [], past_due: [], disabled_reason: null }
    })
    expect(await gateway.run((g) => g.retrieveAccount(accountId))).toMatchObject({
      chargesEnabled: true,
      payoutsEnabled: false,
      detailsSubmitted: true,
      requirementsDue: [],
      disabledReason: null
    })
    const [request] = fake.since(start)
    expect(request).toMatchObject({ method: "GET", path: `/v1/accounts/${accountId}`, idempotencyKey: undefined })
  })

  it("turns Stripe errors and an unreachable API into PaymentGatewayError", async () => {
    fake.failNext({ status: 400, type: "invalid_request_error", message: "Country XX is not supported" })
    const refused = await gateway.run((g) => Effect.either(g.createAccount({ userId: "u", email: "d@example.com", country: "FR" })))
    expect(Either.isLeft(refused) && refused.left._tag).toBe("PaymentGatewayError")
    expect(Either.isLeft(refused) && refused.left.detail).toContain("Country XX is not supported")

    const missing = await gateway.run((g) => Effect.either(g.retrieveAccount("acct_unknown")))
    expect(Either.isLeft(missing) && missing.left.operation).toBe("accounts.retrieve")

    const closed = gatewayOn(`http://127.0.0.1:${await freePort()}`)
    try {
      const offline = await closed.run((g) => Effect.either(g.retrieveAccount("acct_1")))
      expect(Either.isLeft(offline) && offline.left._tag).toBe("PaymentGatewayError")
    } finally {
      await closed.dispose()
    }
  })

  it("verifies each endpoint's deliveries with its own secret (STRIPE_WEBHOOK_SECRET, STRIPE_CONNECT_WEBHOOK_SECRET)", async () => {
    const payload = accountUpdated({ accountId: "acct_1", created: nowSeconds(), charges: true })
    const event = await gateway.run((g) => g.parseWebhook("connect", payload, sign(payload, STRIPE_CONNECT_WEBHOOK_SECRET)))
    expect(event).toMatchObject({ id: JSON.parse(payload).id, type: "account.updated", object: { id: "acct_1", charges_enabled: true } })
    expect(event.created.getTime()).toBe(JSON.parse(payload).created * 1000)
    const platform = await gateway.run((g) => g.parseWebhook("platform", payload, sign(payload, STRIPE_WEBHOOK_SECRET)))
    expect(platform.id).toBe(event.id)
    for (const [endpoint, secret] of [
      ["connect", STRIPE_WEBHOOK_SECRET],
      ["platform", STRIPE_CONNECT_WEBHOOK_SECRET],
      ["connect", "whsec_other"]
    ] as const) {
      const refused = await gateway.run((g) => Effect.either(g.parseWebhook(endpoint, payload, sign(payload, secret))))
      expect(Either.isLeft(refused) && refused.left._tag, `${endpoint} with ${secret}`).toBe("InvalidWebhook")
    }
  })
})

describe("stripe mode through HTTP (the app pointed at the fake)", () => {
  // The fake is up (the file's beforeAll) when the world's starts the server.
  const { server, api } = httpWorld({ config: () => paymentsServerSettings(stripeModeSettings(fake.url, secrets)) })

  it("onboarding creates a Stripe account with the provider's id and email and answers Stripe's link", async () => {
    const provider = await freshUser(server, api)
    const start = fake.requests.length
    const reply = await api.post("/api/users/me/stripe-connect/onboarding", { country: "fr" }, { token: provider.token })
    expect(reply.status, reply.text).toBe(200)
    const [create, link] = fake.since(start)
    expect(create).toMatchObject({ path: "/v1/accounts", idempotencyKey: `connect-account:${provider.user.id}:FR` })
    expect(create!.form).toMatchObject({
      "controller[stripe_dashboard][type]": "express",
      country: "FR",
      email: provider.email,
      "metadata[userId]": provider.user.id
    })
    expect(link!.form).toEqual({
      account: expect.stringMatching(/^acct_fake_/),
      type: "account_onboarding",
      return_url: `${server.url}/provider/payments/setup?onboarding=complete`,
      refresh_url: `${server.url}/provider/payments/setup?onboarding=refresh`
    })
    expect(reply.body.data.data.accountLink).toMatch(/^https:\/\/connect\.stripe\.test\/setup\/e\/acct_fake_/)

    // Status refreshes from Stripe; once Stripe enables charges, so does the marketplace.
    const accountId = link!.form.account!
    const pending = await api.get("/api/users/me/stripe-connect/status", { token: provider.token })
    expect(pending.body.data.data).toEqual({
      hasAccount: true,
      accountId,
      country: "FR",
      chargesEnabled: false,
      payoutsEnabled: false,
      detailsSubmitted: false,
      requirementsDue: ["external_account", "tos_acceptance.date", "business_profile.url", "individual.verification.document"],
      disabledReason: "requirements.past_due"
    })
    Object.assign(fake.accounts.get(accountId)!, { charges_enabled: true, payouts_enabled: true, details_submitted: true })
    const canTakeCharges = () => server.run(Effect.flatMap(PaymentAccounts, (p) => p.canTakeCharges(provider.user.id)))
    expect(await canTakeCharges()).toBe(false)
    const ready = await api.get("/api/users/me/stripe-connect/status", { token: provider.token })
    expect(ready.body.data.data).toMatchObject({ chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true })
    expect(await canTakeCharges()).toBe(true)

    const dashboard = await api.get("/api/users/me/stripe-connect/dashboard", { token: provider.token })
    expect(dashboard.status).toBe(200)
    expect(dashboard.body.data.data.dashboardUrl).toMatch(new RegExp(`^https://connect\\.stripe\\.test/express/${accountId}/`))
  })

  it("account.updated signed with STRIPE_CONNECT_WEBHOOK_SECRET on the connect endpoint updates the flags; the platform's or the sandbox's secret is refused", async () => {
    const provider = await freshUser(server, api)
    await api.post("/api/users/me/stripe-connect/onboarding", { country: "CA" }, { token: provider.token })
    const accountId = (await api.get("/api/users/me/stripe-connect/status", { token: provider.token })).body.data.data.accountId
    const payload = accountUpdated({ accountId, created: nowSeconds() + 5, charges: true })
    expect((await deliver(api, payload, sign(payload))).status).toBe(400)
    expect((await deliver(api, payload, sign(payload, STRIPE_WEBHOOK_SECRET))).status).toBe(400)
    expect((await deliver(api, payload, sign(payload, STRIPE_WEBHOOK_SECRET), "platform")).status).toBe(400)
    expect((await deliver(api, payload, sign(payload, STRIPE_CONNECT_WEBHOOK_SECRET))).status).toBe(200)
    expect(await server.run(Effect.flatMap(PaymentAccounts, (p) => p.canTakeCharges(provider.user.id)))).toBe(true)
  })

  it("a Stripe failure answers 502 PAYMENT_GATEWAY_ERROR in the request's language", async () => {
    const provider = await freshUser(server, api)
    fake.failNext({ status: 400, type: "invalid_request_error", message: "Platform not activated" })
    const res = await fetch(`${server.url}/api/users/me/stripe-connect/onboarding`, {
      method: "POST",
      headers: { authorization: `Bearer ${provider.token}`, "content-type": "application/json", "accept-language": "en" },
      body: JSON.stringify({ country: "CA" })
    })
    expect(res.status).toBe(502)
    expect(await res.json()).toEqual({
      success: false,
      code: "PAYMENT_GATEWAY_ERROR",
      message: "The payment service could not process the request. Please try again later."
    })
    expect(res.headers.get("x-request-id")).toBeTruthy()
  })

  it("sandbox accounts never count in stripe mode, the seed gives none, and the sandbox pages are not served", async () => {
    const marie = await loginToken(api, "marie.dubois@marketplace.local", "Provider1234!")
    expect((await api.get("/api/users/me/stripe-connect/status", { token: marie })).body.data.data.hasAccount).toBe(false)

    const provider = await freshUser(server, api)
    await server.run(
      Effect.flatMap(PaymentAccountRepository, (r) =>
        r.upsert({
          userId: provider.user.id,
          gateway: "sandbox",
          accountId: `acct_sandbox_left_${Date.now()}`,
          country: "CA",
          chargesEnabled: true,
          payoutsEnabled: true,
          detailsSubmitted: true,
          requirementsDue: [],
          disabledReason: null
        })
      )
    )
    expect(await server.run(Effect.flatMap(PaymentAccounts, (p) => p.canTakeCharges(provider.user.id)))).toBe(false)
    expect((await api.get("/api/users/me/stripe-connect/status", { token: provider.token })).body.data.data.hasAccount).toBe(false)
    // Onboarding replaces it with a Stripe account.
    const reply = await api.post("/api/users/me/stripe-connect/onboarding", { country: "CA" }, { token: provider.token })
    expect(reply.status).toBe(200)
    const status = (await api.get("/api/users/me/stripe-connect/status", { token: provider.token })).body.data.data
    expect(status).toMatchObject({ hasAccount: true, accountId: expect.stringMatching(/^acct_fake_/) })

    const page = await fetch(`${server.url}/sandbox/connect/dashboard/acct_sandbox_x`)
    expect(await page.text()).not.toContain('class="badge">Sandbox')
    expect(
      await (await fetch(`${server.url}/sandbox/connect/onboarding/acct_x/complete`, { method: "POST", redirect: "manual" })).status
    ).not.toBe(303)
  })
})
