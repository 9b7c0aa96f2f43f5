import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import { PaymentAccountRepository } from "../../src/modules/payments/ports"
import { PaymentAccounts } from "../../src/modules/payments/service"
import { webhookPaths } from "../../src/modules/payments/webhook-endpoints"
import {
  accountUpdated,
  CONNECT_WEBHOOK_SECRET,
  deliver,
  freshUser,
  nowSeconds,
  sign,
  paymentsServerSettings,
  stripeEvent,
  WEBHOOK_SECRET
} from "./support"
import { httpWorld } from "../support/world"

const { server, api } = httpWorld({ config: () => paymentsServerSettings() })

/** A provider with an incomplete sandbox account (onboarding started, not finished). */
const providerWithAccount = async () => {
  const provider = await freshUser(server, api)
  const reply = await api.post("/api/users/me/stripe-connect/onboarding", { country: "FR" }, { token: provider.token })
  expect(reply.status).toBe(200)
  const accountId = new URL(reply.body.data.data.accountLink).pathname.split("/").pop()!
  return { ...provider, accountId }
}

const stored = (userId: string) =>
  server.run(
    Effect.map(
      Effect.flatMap(PaymentAccounts, (p) => p.accountOf(userId)),
      Option.getOrThrow
    )
  )
const processedCount = (eventId: string) =>
  server
    .run(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_events WHERE id = ${eventId}`)
    )
    .then((rows) => rows[0]!.n)

describe("webhook signature (the stripe library's own helpers)", () => {
  it("a validly signed account.updated is accepted and updates the stored flags", async () => {
    const { user, accountId } = await providerWithAccount()
    const payload = accountUpdated({ accountId, created: nowSeconds(), charges: true, country: "FR" })
    const reply = await deliver(api, payload, sign(payload))
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ success: true, data: { received: true, duplicate: false } })
    expect(await stored(user.id)).toMatchObject({ accountId, chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true })
  })

  it("refuses with 400 (never 500), and changes nothing: changed body, wrong secret, old timestamp, missing or garbled header", async () => {
    const { user, accountId } = await providerWithAccount()
    const payload = accountUpdated({ accountId, created: nowSeconds(), charges: true })
    const changed = payload.replace('"charges_enabled":true', '"charges_enabled":false')
    expect(changed).not.toBe(payload)
    const cases: ReadonlyArray<readonly [string, string, string | undefined]> = [
      ["changed body", changed, sign(payload)],
      ["wrong secret", payload, sign(payload, "whsec_not_the_right_one")],
      ["old timestamp (10 minutes)", payload, sign(payload, undefined, nowSeconds() - 600)],
      ["timestamp 10 minutes in the future", payload, sign(payload, undefined, nowSeconds() + 600)],
      ["timestamp a day in the future", payload, sign(payload, undefined, nowSeconds() + 86_400)],
      ["missing header", payload, undefined],
      ["empty header", payload, ""],
      ["garbled header", payload, "t=abc,v1=zzz"],
      ["another scheme only", payload, sign(payload).replace("v1=", "v0=")]
    ]
    for (const [name, body, signature] of cases) {
      const reply = await deliver(api, body, signature)
      expect(reply.status, name).toBe(400)
      expect(reply.body, name).toEqual({
        success: false,
        code: "INVALID_WEBHOOK_SIGNATURE",
        message: "Signature du webhook absente ou invalide."
      })
    }
    const en = await api.call("POST", "/api/payments/webhook", { raw: payload, language: "en" })
    expect(en.body.message).toBe("Missing or invalid webhook signature.")
    expect(await stored(user.id)).toMatchObject({ chargesEnabled: false })
    expect(await processedCount(JSON.parse(payload).id)).toBe(0)
    // The genuine delivery still goes through afterwards.
    expect((await deliver(api, payload, sign(payload))).status).toBe(200)
    expect(await stored(user.id)).toMatchObject({ chargesEnabled: true })
  })

  it("a timestamp within the tolerance, either way, is accepted", async () => {
    const { accountId } = await providerWithAccount()
    const payload = accountUpdated({ accountId, created: nowSeconds(), charges: false })
    expect((await deliver(api, payload, sign(payload, undefined, nowSeconds() - 60))).status).toBe(200)
    const ahead = accountUpdated({ accountId, created: nowSeconds(), charges: false })
    // A sender's clock a little ahead of ours (within 5 minutes) is tolerated.
    expect((await deliver(api, ahead, sign(ahead, undefined, nowSeconds() + 120))).status).toBe(200)
  })

  it("a signed body that is not an event is refused with 400", async () => {
    for (const body of ["not json", "{}", '{"id":"evt_1"}', "[]", '{"id":"","type":"x","created":1}']) {
      const reply = await deliver(api, body, sign(body))
      expect(reply.status, body).toBe(400)
    }
  })
})

describe("two endpoints: the platform's events and the connected accounts' events, each with its own secret", () => {
  it("account.updated is accepted on the connect endpoint with STRIPE_CONNECT_WEBHOOK_SECRET only", async () => {
    const { user, accountId } = await providerWithAccount()
    const payload = accountUpdated({ accountId, created: nowSeconds(), charges: true })
    // Signed with the platform endpoint's secret: not this endpoint's signature.
    const wrongSecret = await deliver(api, payload, sign(payload, WEBHOOK_SECRET), "connect")
    expect(wrongSecret.status).toBe(400)
    expect(wrongSecret.body.code).toBe("INVALID_WEBHOOK_SIGNATURE")
    expect(await stored(user.id)).toMatchObject({ chargesEnabled: false })
    const reply = await deliver(api, payload, sign(payload, CONNECT_WEBHOOK_SECRET), "connect")
    expect(reply.status, reply.text).toBe(200)
    expect(await stored(user.id)).toMatchObject({ chargesEnabled: true })
  })

  it("account.updated's requirements and disabled reason are stored; the provider's status reads the gateway's latest", async () => {
    const { user, token, accountId } = await providerWithAccount()
    const restricted = JSON.stringify({
      ...JSON.parse(accountUpdated({ accountId, created: nowSeconds(), charges: false, details: true })),
      account: accountId
    })
    const withRequirements = JSON.parse(restricted)
    withRequirements.data.object.requirements = {
      past_due: ["individual.verification.document"],
      currently_due: ["individual.verification.document", "external_account"],
      disabled_reason: "requirements.past_due"
    }
    const payload = JSON.stringify(withRequirements)
    expect((await deliver(api, payload, sign(payload, CONNECT_WEBHOOK_SECRET), "connect")).status).toBe(200)
    expect(await stored(user.id)).toMatchObject({
      requirementsDue: ["individual.verification.document", "external_account"],
      disabledReason: "requirements.past_due"
    })
    // The status refreshes from the gateway (the sandbox: onboarding not finished), whose answer is the latest.
    const status = await api.get("/api/users/me/stripe-connect/status", { token })
    expect(status.body.data.data).toMatchObject({
      requirementsDue: ["external_account", "individual.verification.document", "tos_acceptance.date"],
      disabledReason: "requirements.past_due",
      detailsSubmitted: false
    })
    expect(await stored(user.id)).toMatchObject({ disabledReason: "requirements.past_due" })
  })

  it("account.application.deauthorized (connect endpoint): the disconnected account takes no charges and pays nothing out any more", async () => {
    const { user, token, accountId } = await providerWithAccount()
    const enabled = accountUpdated({ accountId, created: nowSeconds(), charges: true, payouts: true })
    expect((await deliver(api, enabled, sign(enabled, CONNECT_WEBHOOK_SECRET), "connect")).status).toBe(200)
    expect(await stored(user.id)).toMatchObject({ chargesEnabled: true, payoutsEnabled: true })
    const deauthorized = JSON.stringify({
      id: `evt_deauth_${accountId}`,
      object: "event",
      type: "account.application.deauthorized",
      account: accountId,
      created: nowSeconds() + 1,
      livemode: false,
      data: { object: { id: "ca_platform_app", object: "application", name: "Marketplace" } }
    })
    // Stripe sends it to the connected accounts' endpoint only.
    expect((await deliver(api, deauthorized, sign(deauthorized, WEBHOOK_SECRET), "platform")).status).toBe(400)
    const reply = await deliver(api, deauthorized, sign(deauthorized, CONNECT_WEBHOOK_SECRET), "connect")
    expect(reply.status, reply.text).toBe(200)
    expect(await stored(user.id)).toMatchObject({ accountId, chargesEnabled: false, payoutsEnabled: false })
    expect(await server.run(Effect.flatMap(PaymentAccounts, (p) => p.canTakeCharges(user.id)))).toBe(false)
    // The provider's own status says so.
    const status = await api.get("/api/users/me/stripe-connect/status", { token })
    expect(status.body.data.data).toMatchObject({ hasAccount: true, chargesEnabled: false })
  })

  it("each endpoint refuses the other's events (400 WEBHOOK_WRONG_ENDPOINT, in the request's language), and records nothing", async () => {
    const { user, accountId } = await providerWithAccount()
    const account = accountUpdated({ accountId, created: nowSeconds(), charges: true })
    const onPlatform = await deliver(api, account, sign(account, WEBHOOK_SECRET), "platform")
    expect(onPlatform.status).toBe(400)
    expect(onPlatform.body).toEqual({
      success: false,
      code: "WEBHOOK_WRONG_ENDPOINT",
      message: "Cet événement n'est pas attendu sur ce point de réception de webhooks (comptes connectés ou plateforme)."
    })
    expect(await stored(user.id)).toMatchObject({ chargesEnabled: false })
    expect(await processedCount(JSON.parse(account).id)).toBe(0)

    const charge = stripeEvent("payment_intent.canceled", {
      id: "pi_x",
      object: "payment_intent",
      status: "canceled",
      metadata: { bookingId: crypto.randomUUID() }
    })
    const onConnect = await api.call("POST", webhookPaths.connect, {
      raw: charge,
      language: "en",
      headers: { "stripe-signature": sign(charge, CONNECT_WEBHOOK_SECRET) }
    })
    expect(onConnect.status).toBe(400)
    expect(onConnect.body).toEqual({
      success: false,
      code: "WEBHOOK_WRONG_ENDPOINT",
      message: "This event is not expected on this webhook endpoint (connected accounts or platform)."
    })
    expect(await processedCount(JSON.parse(charge).id)).toBe(0)

    // An event type the app does not act on is acknowledged on either endpoint (say, another connected-account event selected too).
    const capability = stripeEvent("capability.updated", { id: "card_payments", object: "capability", account: accountId })
    expect((await deliver(api, capability, sign(capability, CONNECT_WEBHOOK_SECRET), "connect")).status).toBe(200)
  })
})

describe("webhook processing", () => {
  it("a repeated delivery answers 200 and does nothing (the event id is recorded once)", async () => {
    const { user, accountId } = await providerWithAccount()
    // An event from the future, so that only deduplication (not ordering) can stop its second delivery.
    const payload = accountUpdated({ accountId, created: nowSeconds() + 3600, charges: true })
    const eventId = JSON.parse(payload).id as string
    expect((await deliver(api, payload, sign(payload))).body.data).toEqual({ received: true, duplicate: false })
    expect(await stored(user.id)).toMatchObject({ chargesEnabled: true })

    // Something else sets the account back (as a gateway read would).
    const account = await stored(user.id)
    await server.run(
      Effect.flatMap(PaymentAccountRepository, (r) =>
        r.upsert({ ...account, chargesEnabled: false, payoutsEnabled: false, detailsSubmitted: false })
      )
    )

    const again = await deliver(api, payload, sign(payload))
    expect(again.status).toBe(200)
    expect(again.body.data).toEqual({ received: true, duplicate: true })
    expect(await stored(user.id)).toMatchObject({ chargesEnabled: false })
    expect(await processedCount(eventId)).toBe(1)
  })

  it("concurrent deliveries of one event: all answered 200, processed once", async () => {
    const { accountId } = await providerWithAccount()
    const payload = accountUpdated({ accountId, created: nowSeconds(), charges: true })
    const replies = await Promise.all(Array.from({ length: 6 }, () => deliver(api, payload, sign(payload))))
    for (const reply of replies) expect(reply.status).toBe(200)
    expect(replies.filter((r) => r.body.data.duplicate === false)).toHaveLength(1)
    expect(await processedCount(JSON.parse(payload).id)).toBe(1)
  })

  it("out of order: an account.updated older than the stored state is recorded but not applied", async () => {
    const { user, accountId } = await providerWithAccount()
    const t = nowSeconds() + 10
    const newer = accountUpdated({ accountId, created: t + 2, charges: true })
    const older = accountUpdated({ accountId, created: t, charges: false, details: true })
    expect((await deliver(api, newer, sign(newer))).status).toBe(200)
    const late = await deliver(api, older, sign(older))
    expect(late.status).toBe(200)
    expect(late.body.data.duplicate).toBe(false)
    expect(await processedCount(JSON.parse(older).id)).toBe(1)
    expect(await stored(user.id)).toMatchObject({ chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true })

    // A later event still applies, even when it takes flags back (e.g. the account was restricted).
    const restricted = accountUpdated({ accountId, created: t + 4, charges: false, details: true })
    expect((await deliver(api, restricted, sign(restricted))).status).toBe(200)
    expect(await stored(user.id)).toMatchObject({ chargesEnabled: false, payoutsEnabled: false, detailsSubmitted: true })
    expect(await server.run(Effect.flatMap(PaymentAccounts, (p) => p.canTakeCharges(user.id)))).toBe(false)

    // Within the same second, the later arrival wins (nothing finer is known).
    const sameSecond = accountUpdated({ accountId, created: t + 4, charges: true })
    expect((await deliver(api, sameSecond, sign(sameSecond))).status).toBe(200)
    expect(await stored(user.id)).toMatchObject({ chargesEnabled: true })
  })

  it("unknown event types and accounts that are not ours are acknowledged and recorded", async () => {
    const other = JSON.stringify({
      id: `evt_other_${Date.now()}`,
      object: "event",
      type: "customer.created",
      created: nowSeconds(),
      data: { object: { id: "cus_1" } }
    })
    const reply = await deliver(api, other, sign(other))
    expect(reply.status).toBe(200)
    expect(reply.body.data).toEqual({ received: true, duplicate: false })
    expect(await processedCount(JSON.parse(other).id)).toBe(1)

    const stranger = accountUpdated({ accountId: "acct_not_ours", created: nowSeconds(), charges: true })
    expect((await deliver(api, stranger, sign(stranger))).status).toBe(200)

    const proto = JSON.stringify({
      id: `evt_proto_${Date.now()}`,
      object: "event",
      type: "constructor",
      created: nowSeconds(),
      data: { object: {} }
    })
    expect((await deliver(api, proto, sign(proto))).status).toBe(200)

    const noObject = JSON.stringify({
      id: `evt_noobj_${Date.now()}`,
      object: "event",
      type: "account.updated",
      created: nowSeconds(),
      data: {}
    })
    expect((await deliver(api, noObject, sign(noObject))).status).toBe(200)
  })

  it("the endpoint is listed in the OpenAPI document without authentication", async () => {
    const doc = (await api.get("/api/docs")).body
    expect(doc.paths["/api/payments/webhook"].post).toBeDefined()
    expect(doc.paths["/api/payments/webhook"].post.security ?? []).toEqual([])
    expect(doc.paths["/api/payments/webhook/connect"].post.security ?? []).toEqual([])
    for (const path of ["/api/users/me/stripe-connect/status", "/api/users/me/stripe-connect/dashboard"]) {
      expect(doc.paths[path].get.security, path).toEqual([{ bearer: [] }])
    }
    expect(doc.paths["/api/users/me/stripe-connect/onboarding"].post.security).toEqual([{ bearer: [] }])
  })
})
