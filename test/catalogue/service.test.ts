import { expect } from "@effect/vitest"
import { layer } from "../support/effect-layer"
import { Effect } from "effect"
import { Catalogue } from "../../src/modules/catalogue"
import { type Actor, UserRepository } from "../../src/modules/identity"
import { PaymentAccountRepository } from "../../src/modules/payments/ports"
import { failureOf, inMemoryDomain, verifiedAccount } from "../support/domain"

/** The catalogue's use cases on the in-memory stack (no database): the rules, not the SQL. */
const actor = (role: Actor["role"], paymentReady: boolean) =>
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
          detailsSubmitted: true,
          requirementsDue: [],
          disabledReason: null
        })
      )
    }
    return { id: user.id, role, preferredLanguage: "fr", isEmailVerified: true } satisfies Actor
  })

const form = {
  title: "Ménage à domicile",
  description: "Entretien complet.",
  price: 30,
  duration: 90,
  location: "Québec, QC",
  categoryId: 5
}

layer(inMemoryDomain(), { excludeTestServices: true })("Catalogue (in memory)", (it) => {
  it.effect("create: PROVIDER role (403), then a payout account able to take charges (400), then the form (422)", () =>
    Effect.gen(function* () {
      const c = yield* Catalogue
      const client = yield* actor("CLIENT", true)
      expect(yield* failureOf(c.create(client, form))).toMatchObject({ status: 403, code: "FORBIDDEN" })
      const unready = yield* actor("PROVIDER", false)
      expect(yield* failureOf(c.create(unready, {}))).toMatchObject({ status: 400, code: "PAYMENT_ACCOUNT_REQUIRED" })
      const provider = yield* actor("PROVIDER", true)
      expect(yield* failureOf(c.create(provider, { ...form, price: 0 }))).toMatchObject({ status: 422, code: "VALIDATION_ERROR" })
      expect(yield* failureOf(c.create(provider, { ...form, categoryId: 999 }))).toMatchObject({ status: 422 })
      const created = yield* c.create(provider, form)
      expect(created).toMatchObject({
        title: "Ménage à domicile",
        priceMinor: 3000,
        currency: "EUR",
        status: "ACTIVE",
        category: { id: 5 }
      })
      const found = yield* c.search({ search: "MENAGE domic" })
      expect(found.services.map((s) => s.id)).toEqual([created.id])
      expect(found.pagination).toEqual({ total: 1, page: 1, limit: 20, pages: 1 })
    })
  )

  it.effect("owner-only changes: 404 for unknown or malformed ids, 403 for others; archive; duplicate is INACTIVE", () =>
    Effect.gen(function* () {
      const c = yield* Catalogue
      const owner = yield* actor("PROVIDER", true)
      const other = yield* actor("PROVIDER", true)
      const service = yield* c.create(owner, { ...form, title: "Jardinage bio" })
      expect(yield* failureOf(c.update(other, service.id, { title: "X" }))).toMatchObject({ status: 403, code: "NOT_SERVICE_OWNER" })
      expect(yield* failureOf(c.update(owner, "nope", { title: "X" }))).toMatchObject({ status: 404, code: "SERVICE_NOT_FOUND" })
      expect(yield* failureOf(c.update(owner, service.id, { duration: 20 }))).toMatchObject({ status: 422 })
      expect((yield* c.update(owner, service.id, { duration: 30, newCategoryName: "Permaculture" })).category.nameFr).toBe("Permaculture")
      const copy = yield* c.duplicate(owner, service.id, "(copie)")
      expect(copy).toMatchObject({ title: "Jardinage bio (copie)", status: "INACTIVE", durationMinutes: 30 })
      expect((yield* c.ofUser(owner.id, owner.id)).map((s) => s.title).sort()).toEqual(["Jardinage bio", "Jardinage bio (copie)"])
      expect((yield* c.ofUser(owner.id, undefined)).map((s) => s.title)).toEqual(["Jardinage bio"])
      yield* c.remove(owner, service.id)
      expect(yield* failureOf(c.get(service.id, owner.id))).toMatchObject({ status: 404 })
      expect(yield* failureOf(c.remove(owner, service.id))).toMatchObject({ status: 404 })
    })
  )

  it.effect("the plain first page is served from a short cache that every write clears", () =>
    Effect.gen(function* () {
      const c = yield* Catalogue
      const provider = yield* actor("PROVIDER", true)
      const before = (yield* c.search({})).pagination.total
      yield* c.create(provider, { ...form, title: "Nouveau service" })
      const after = yield* c.search({})
      expect(after.pagination.total).toBe(before + 1)
      expect(after.services[0]!.title).toBe("Nouveau service")
    })
  )
})
