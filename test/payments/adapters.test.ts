import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import * as crypto from "node:crypto"
import { describe, expect, it } from "vitest"
import { PaymentsMemoryAdapters } from "../../src/modules/payments/adapters/memory"
import { PaymentsPostgresAdapters } from "../../src/modules/payments/adapters/postgres"
import type { PaymentAccount } from "../../src/modules/payments/domain"
import { GatewayAttempts, PaymentAccountRepository, SandboxAccountStore, WebhookEventStore } from "../../src/modules/payments/ports"
import { freshTestDatabase, storeKinds } from "../support/database"
import { contractStores } from "../support/contract"

/** The same contract on every store: in memory, PGlite, and PostgreSQL when TEST_DATABASE_URL is set. */
const postgresStores = (kind: "pglite" | "postgres") => PaymentsPostgresAdapters.pipe(Layer.provideMerge(freshTestDatabase(kind)))

describe.each(storeKinds)("payments stores on %s", (kind) => {
  const { run, onPostgres } = contractStores(kind, PaymentsMemoryAdapters, postgresStores)
  const repo = () => run(PaymentAccountRepository)

  /** A user row (payment_accounts references users); any uuid in memory. */
  const newUserId = async () => {
    if (kind === "memory") return crypto.randomUUID()
    const rows = await onPostgres(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql<{
            id: string
          }>`INSERT INTO users (email, password_hash, first_name, last_name, phone_number, role, is_email_verified, preferred_language)
          VALUES (${`p${crypto.randomBytes(5).toString("hex")}@example.com`}, 'x', 'Léa', 'Côté', '5145550100', 'PROVIDER', true, 'fr') RETURNING id`
      )
    )
    return rows[0]!.id
  }
  const newAccount = async (overrides: Partial<PaymentAccount> = {}): Promise<PaymentAccount> => ({
    userId: await newUserId(),
    gateway: "sandbox",
    accountId: `acct_sandbox_${crypto.randomBytes(8).toString("hex")}`,
    country: "CA",
    chargesEnabled: false,
    payoutsEnabled: false,
    detailsSubmitted: false,
    requirementsDue: [],
    disabledReason: null,
    ...overrides
  })

  it("gateway attempts: 0 at first, then moved past an attempt once however many of its retries failed; never backwards", async () => {
    const attempts = await run(GatewayAttempts)
    const key = `booking:${crypto.randomUUID()}:capture:pi_1`
    expect(await run(attempts.current(key))).toBe(0)
    await run(attempts.advance(key, 0))
    await run(attempts.advance(key, 0))
    expect(await run(attempts.current(key))).toBe(1)
    await run(attempts.advance(key, 1))
    expect(await run(attempts.current(key))).toBe(2)
    // A late failure of an old attempt changes nothing.
    await run(attempts.advance(key, 0))
    expect(await run(attempts.current(key))).toBe(2)
    expect(await run(attempts.current(`${key}:other`))).toBe(0)
  })

  it("upsert, find by user and by account id; a second upsert replaces the account", async () => {
    const r = await repo()
    const account = await newAccount()
    await run(r.upsert(account))
    expect(await run(r.findByUser(account.userId))).toEqual(Option.some(account))
    expect(await run(r.findByAccountId(account.accountId))).toEqual(Option.some(account))
    const replaced = { ...account, gateway: "stripe" as const, accountId: `acct_${crypto.randomBytes(6).toString("hex")}`, country: "FR" }
    await run(r.upsert(replaced))
    expect(await run(r.findByUser(account.userId))).toEqual(Option.some(replaced))
    expect(await run(r.findByAccountId(account.accountId))).toEqual(Option.none())
  })

  it("recordGatewayState applies newer states, ignores states from an earlier second, answers None for unknown accounts", async () => {
    const r = await repo()
    const account = await newAccount()
    await run(r.upsert(account))
    const base = Math.floor(Date.now() / 1000) * 1000 + 60_000
    const ready = {
      country: "CA",
      chargesEnabled: true,
      payoutsEnabled: true,
      detailsSubmitted: true,
      requirementsDue: ["external_account"],
      disabledReason: null
    }
    const first = await run(r.recordGatewayState(account.accountId, ready, new Date(base + 2000)))
    expect(first).toEqual(Option.some({ account: { ...account, ...ready }, applied: true }))
    const stale = await run(r.recordGatewayState(account.accountId, { ...ready, chargesEnabled: false }, new Date(base)))
    expect(stale).toEqual(Option.some({ account: { ...account, ...ready }, applied: false }))
    const sameSecond = await run(r.recordGatewayState(account.accountId, { ...ready, payoutsEnabled: false }, new Date(base + 2000)))
    expect(Option.getOrThrow(sameSecond)).toMatchObject({ applied: true, account: { payoutsEnabled: false } })
    const later = await run(r.recordGatewayState(account.accountId, { ...ready, country: "FR" }, new Date(base + 5000)))
    expect(Option.getOrThrow(later).account).toEqual({ ...account, ...ready, country: "FR" })
    expect(await run(r.recordGatewayState("acct_nobody", ready, new Date()))).toEqual(Option.none())
  })

  it("an upsert stamps the state with the present: an event from before it is stale", async () => {
    const r = await repo()
    const account = await newAccount()
    await run(r.upsert(account))
    const applied = await run(
      r.recordGatewayState(
        account.accountId,
        { country: "CA", chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true, requirementsDue: [], disabledReason: null },
        new Date(Date.now() - 10_000)
      )
    )
    expect(Option.getOrThrow(applied).applied).toBe(false)
  })

  it("webhook events: true the first time only", async () => {
    const events = await run(WebhookEventStore)
    const id = `evt_${crypto.randomBytes(6).toString("hex")}`
    expect(await run(events.markProcessed(id, "account.updated"))).toBe(true)
    expect(await run(events.markProcessed(id, "account.updated"))).toBe(false)
    expect(await run(events.markProcessed(`${id}_2`, "account.updated"))).toBe(true)
  })

  it("sandbox accounts: creation is idempotent by key; flags change; unknown ids are None", async () => {
    const store = await run(SandboxAccountStore)
    const userId = crypto.randomUUID()
    const key = `connect-account:${userId}:CA`
    const a = await run(
      store.create({ accountId: "acct_sandbox_a" + userId.slice(0, 8), userId, email: "a@example.com", country: "CA" }, key)
    )
    expect(a).toEqual({
      accountId: a.accountId,
      userId,
      email: "a@example.com",
      country: "CA",
      chargesEnabled: false,
      payoutsEnabled: false,
      detailsSubmitted: false
    })
    const again = await run(
      store.create({ accountId: "acct_sandbox_b" + userId.slice(0, 8), userId, email: "a@example.com", country: "CA" }, key)
    )
    expect(again.accountId).toBe(a.accountId)
    const done = await run(store.setFlags(a.accountId, { chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true }))
    expect(Option.getOrThrow(done)).toMatchObject({ chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true })
    expect(Option.getOrThrow(await run(store.find(a.accountId))).chargesEnabled).toBe(true)
    expect(await run(store.find("acct_sandbox_none"))).toEqual(Option.none())
    expect(await run(store.setFlags("acct_sandbox_none", { chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true }))).toEqual(
      Option.none()
    )
  })
})
