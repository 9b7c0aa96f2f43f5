import { Effect, Either, ManagedRuntime, Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Identity } from "../../src/modules/identity"
import { SandboxConnect } from "../../src/modules/payments/adapters/sandbox"
import { PaymentAccountRepository } from "../../src/modules/payments/ports"
import { ConnectedAccounts, PaymentAccounts } from "../../src/modules/payments/service"
import type { AppConfigShape } from "../../src/platform/config"
import { inMemoryDomain, validRegistration } from "../support/domain"
import { freePort } from "../support/server"

/** The domain on in-memory adapters; the app's own port is a closed one (the sandbox's webhook delivery fails quietly). */
const domain = async (overrides: Partial<AppConfigShape> = {}) => {
  const runtime = ManagedRuntime.make(inMemoryDomain({ port: await freePort(), ...overrides }))
  const run = <A, E>(effect: Effect.Effect<A, E, ManagedRuntime.ManagedRuntime.Context<typeof runtime>>) => runtime.runPromise(effect)
  const provider = (role: "PROVIDER" | "CLIENT" = "PROVIDER") =>
    run(Effect.flatMap(Identity, (identity) => identity.createAccount({ ...validRegistration(), role })))
  return { runtime, run, provider }
}

describe("ConnectedAccounts on in-memory adapters (sandbox)", () => {
  let env: Awaited<ReturnType<typeof domain>>
  beforeAll(async () => {
    env = await domain()
  })
  afterAll(() => env?.runtime.dispose())

  it("status refreshes from the gateway: completion is seen even when the webhook never arrives", async () => {
    const user = await env.provider()
    const link = await env.run(Effect.flatMap(ConnectedAccounts, (c) => c.startOnboarding(user, "fr")))
    const accountId = new URL(link.accountLink).pathname.split("/").pop()!
    await env.run(Effect.flatMap(SandboxConnect, (s) => s.complete(accountId)))
    const canTakeCharges = () => env.run(Effect.flatMap(PaymentAccounts, (p) => p.canTakeCharges(user.id)))
    // The delivery to the (closed) app port failed: the stored copy is not updated yet.
    expect(await canTakeCharges()).toBe(false)
    const status = await env.run(Effect.flatMap(ConnectedAccounts, (c) => c.status(user)))
    expect(status).toEqual({
      hasAccount: true,
      accountId,
      country: "FR",
      chargesEnabled: true,
      payoutsEnabled: true,
      detailsSubmitted: true,
      requirementsDue: [],
      disabledReason: null
    })
    expect(await canTakeCharges()).toBe(true)
  })

  it("the dashboard refreshes an account the stored copy thinks incomplete before refusing it", async () => {
    const user = await env.provider()
    const link = await env.run(Effect.flatMap(ConnectedAccounts, (c) => c.startOnboarding(user, "CA")))
    const accountId = new URL(link.accountLink).pathname.split("/").pop()!
    const refused = await env.run(Effect.either(Effect.flatMap(ConnectedAccounts, (c) => c.dashboard(user))))
    expect(Either.isLeft(refused) && refused.left._tag !== "PaymentGatewayError" && refused.left.code).toBe("PAYMENT_ACCOUNT_INCOMPLETE")
    await env.run(Effect.flatMap(SandboxConnect, (s) => s.complete(accountId)))
    const opened = await env.run(Effect.flatMap(ConnectedAccounts, (c) => c.dashboard(user)))
    expect(opened.dashboardUrl).toMatch(new RegExp(`/sandbox/connect/dashboard/${accountId}$`))
  })

  it("non-providers are refused before anything is created", async () => {
    const client = await env.provider("CLIENT")
    const attempts: ReadonlyArray<Effect.Effect<unknown, unknown, ConnectedAccounts>> = [
      Effect.flatMap(ConnectedAccounts, (c) => c.status(client)),
      Effect.flatMap(ConnectedAccounts, (c) => c.startOnboarding(client, "CA")),
      Effect.flatMap(ConnectedAccounts, (c) => c.dashboard(client))
    ]
    for (const attempt of attempts) {
      const result = await env.run(Effect.either(attempt))
      expect(Either.isLeft(result) && (result.left as { code: string }).code).toBe("FORBIDDEN")
    }
    expect(await env.run(Effect.flatMap(PaymentAccounts, (p) => p.accountOf(client.id)))).toEqual(Option.none())
  })

  it("provisionReady (the seed's) is idempotent", async () => {
    const user = await env.provider()
    const provision = () => env.run(Effect.flatMap(SandboxConnect, (s) => s.provisionReady(user, "CA")))
    expect(await provision()).toBe("created")
    const first = await env.run(Effect.flatMap(PaymentAccounts, (p) => p.accountOf(user.id)))
    expect(await provision()).toBe("ready")
    expect(await env.run(Effect.flatMap(PaymentAccounts, (p) => p.accountOf(user.id)))).toEqual(first)
    expect(Option.getOrThrow(first)).toMatchObject({
      gateway: "sandbox",
      chargesEnabled: true,
      payoutsEnabled: true,
      detailsSubmitted: true
    })
  })
})

describe("stripe mode with Stripe unreachable", () => {
  let env: Awaited<ReturnType<typeof domain>>
  beforeAll(async () => {
    env = await domain({
      paymentsMode: "stripe",
      stripeSecretKey: Option.some(Redacted.make("sk_test_x")),
      stripeApiBase: Option.some(`http://127.0.0.1:${await freePort()}`)
    })
  })
  afterAll(() => env?.runtime.dispose())

  it("status answers the stored copy; onboarding fails with PaymentGatewayError; sandbox rows do not count", async () => {
    const user = await env.provider()
    const stored = {
      userId: user.id,
      gateway: "stripe" as const,
      accountId: "acct_stored",
      country: "CA",
      chargesEnabled: true,
      payoutsEnabled: false,
      detailsSubmitted: true,
      requirementsDue: ["external_account"],
      disabledReason: "requirements.past_due"
    }
    await env.run(Effect.flatMap(PaymentAccountRepository, (r) => r.upsert(stored)))
    const status = await env.run(Effect.flatMap(ConnectedAccounts, (c) => c.status(user)))
    expect(status).toEqual({
      hasAccount: true,
      accountId: "acct_stored",
      country: "CA",
      chargesEnabled: true,
      payoutsEnabled: false,
      detailsSubmitted: true,
      requirementsDue: ["external_account"],
      disabledReason: "requirements.past_due"
    })

    const other = await env.provider()
    const failed = await env.run(Effect.either(Effect.flatMap(ConnectedAccounts, (c) => c.startOnboarding(other, "CA"))))
    expect(Either.isLeft(failed) && failed.left._tag).toBe("PaymentGatewayError")
    // Nothing recorded when the gateway did not create the account.
    expect(await env.run(Effect.flatMap(PaymentAccountRepository, (r) => r.findByUser(other.id)))).toEqual(Option.none())

    await env.run(
      Effect.flatMap(PaymentAccountRepository, (r) =>
        r.upsert({ ...stored, userId: other.id, gateway: "sandbox", accountId: "acct_sandbox_demo" })
      )
    )
    expect(await env.run(Effect.flatMap(PaymentAccounts, (p) => p.canTakeCharges(other.id)))).toBe(false)
    expect(await env.run(Effect.flatMap(PaymentAccounts, (p) => p.canTakeCharges(user.id)))).toBe(true)
    expect(await env.run(Effect.flatMap(SandboxConnect, (s) => s.provisionReady(other, "CA")))).toBe("skipped")
  })
})
