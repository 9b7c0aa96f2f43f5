import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Catalogue } from "../../src/modules/catalogue"
import { type Actor, UserRepository } from "../../src/modules/identity"
import { PaymentAccountRepository } from "../../src/modules/payments/ports"
import { failureOf, inMemoryDomain, verifiedAccount } from "../support/domain"

/** The catalogue's use cases on the in-memory stack (no database): the rules, not the SQL. */
let runtime: ManagedRuntime.ManagedRuntime<any, unknown>
const run = <A, E>(effect: Effect.Effect<A, E, any>) => runtime.runPromise(effect) as Promise<A>
beforeAll(() => {
  runtime = ManagedRuntime.make(inMemoryDomain() as Layer.Layer<any, unknown, never>)
})
afterAll(() => runtime?.dispose())

const actor = (role: Actor["role"], paymentReady: boolean) =>
  run(
    Effect.gen(function* () {
      const { user } = yield* verifiedAccount()
      yield* Effect.flatMap(UserRepository, (users) => users.setRole(user.id, role))
      if (paymentReady) {
        yield* Effect.flatMap(PaymentAccountRepository, (accounts) =>
          accounts.upsert({
            userId: user.id,
            gateway: "sandbox",
            accountId: `acct_${user.id}`,
            country: "CA",
            chargesEnabled: true,
            payoutsEnabled: true,
            detailsSubmitted: true
          })
        )
      }
      return { id: user.id, role, preferredLanguage: "fr", isEmailVerified: true } satisfies Actor
    })
  )

const form = {
  title: "Ménage à domicile",
  description: "Entretien complet.",
  price: 30,
  duration: 90,
  location: "Québec, QC",
  categoryId: 5
}
const catalogue = () => run(Catalogue)

describe("Catalogue (in memory)", () => {
  it("create: PROVIDER role (403), then a payout account able to take charges (400), then the form (422)", async () => {
    const c = await catalogue()
    const client = await actor("CLIENT", true)
    expect(await run(failureOf(c.create(client, form)))).toMatchObject({ status: 403, code: "FORBIDDEN" })
    const unready = await actor("PROVIDER", false)
    expect(await run(failureOf(c.create(unready, {})))).toMatchObject({ status: 400, code: "PAYMENT_ACCOUNT_REQUIRED" })
    const provider = await actor("PROVIDER", true)
    expect(await run(failureOf(c.create(provider, { ...form, price: 0 })))).toMatchObject({ status: 422, code: "VALIDATION_ERROR" })
    expect(await run(failureOf(c.create(provider, { ...form, categoryId: 999 })))).toMatchObject({ status: 422 })
    const created = await run(c.create(provider, form))
    expect(created).toMatchObject({ title: "Ménage à domicile", priceMinor: 3000, currency: "EUR", status: "ACTIVE", category: { id: 5 } })
    const found = await run(c.search({ search: "MENAGE domic" }))
    expect(found.services.map((s) => s.id)).toEqual([created.id])
    expect(found.pagination).toEqual({ total: 1, page: 1, limit: 20, pages: 1 })
  })

  it("owner-only changes: 404 for unknown or malformed ids, 403 for others; archive; duplicate is INACTIVE", async () => {
    const c = await catalogue()
    const owner = await actor("PROVIDER", true)
    const other = await actor("PROVIDER", true)
    const service = await run(c.create(owner, { ...form, title: "Jardinage bio" }))
    expect(await run(failureOf(c.update(other, service.id, { title: "X" })))).toMatchObject({ status: 403, code: "NOT_SERVICE_OWNER" })
    expect(await run(failureOf(c.update(owner, "nope", { title: "X" })))).toMatchObject({ status: 404, code: "SERVICE_NOT_FOUND" })
    expect(await run(failureOf(c.update(owner, service.id, { duration: 20 })))).toMatchObject({ status: 422 })
    expect((await run(c.update(owner, service.id, { duration: 30, newCategoryName: "Permaculture" }))).category.nameFr).toBe("Permaculture")
    const copy = await run(c.duplicate(owner, service.id, "(copie)"))
    expect(copy).toMatchObject({ title: "Jardinage bio (copie)", status: "INACTIVE", durationMinutes: 30 })
    expect((await run(c.ofUser(owner.id, owner.id))).map((s) => s.title).sort()).toEqual(["Jardinage bio", "Jardinage bio (copie)"])
    expect((await run(c.ofUser(owner.id, undefined))).map((s) => s.title)).toEqual(["Jardinage bio"])
    await run(c.remove(owner, service.id))
    expect(await run(failureOf(c.get(service.id, owner.id)))).toMatchObject({ status: 404 })
    expect(await run(failureOf(c.remove(owner, service.id)))).toMatchObject({ status: 404 })
  })

  it("the plain first page is served from a short cache that every write clears", async () => {
    const c = await catalogue()
    const provider = await actor("PROVIDER", true)
    const before = (await run(c.search({}))).pagination.total
    await run(c.create(provider, { ...form, title: "Nouveau service" }))
    const after = await run(c.search({}))
    expect(after.pagination.total).toBe(before + 1)
    expect(after.services[0]!.title).toBe("Nouveau service")
  })
})
