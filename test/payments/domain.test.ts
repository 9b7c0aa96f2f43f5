import { ConfigProvider, Effect, Either, Layer, Option, Redacted } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  ALLOWED_COUNTRIES,
  chargeRouting,
  onboardingReturnUrls,
  type PaymentAccount,
  statusOf,
  supersedes,
  validateCountry
} from "../../src/modules/payments/domain"
import { needsOnBehalfOf, settlementRegionOf } from "../../src/modules/payments/rules"
import { AppConfig, AppConfigLive, resolvePaymentsMode } from "../../src/platform/config"
import { translate } from "../../src/platform/messages"

describe("validateCountry (spec section 5)", () => {
  it("accepts every allowed code, trimmed and in any case", () => {
    for (const code of ALLOWED_COUNTRIES) {
      expect(validateCountry(code)).toEqual(Either.right(code))
      expect(validateCountry(` ${code.toLowerCase()} `)).toEqual(Either.right(code))
    }
  })

  it("a missing or blank country is 'required'; anything else outside the list is 'invalid'", () => {
    const keyOf = (input: string | undefined) => Either.match(validateCountry(input), { onLeft: (e) => e.key, onRight: () => "ok" })
    for (const input of [undefined, "", " ", "\t\n"]) expect(keyOf(input), JSON.stringify(input)).toBe("payments.countryRequired")
    for (const input of ["F", "FRA", "12", "ZZ", "JP", "É", "C A", "ca.", "🇨🇦"]) expect(keyOf(input), input).toBe("payments.countryInvalid")
    fc.assert(
      fc.property(fc.string(), (input) => {
        const result = validateCountry(input)
        const code = input.trim().toUpperCase()
        if (Either.isRight(result)) return (ALLOWED_COUNTRIES as ReadonlyArray<string>).includes(result.right) && result.right === code
        return code === "" ? result.left.key === "payments.countryRequired" : result.left.key === "payments.countryInvalid"
      })
    )
  })

  it("the errors carry the spec's French messages and English translations, on the field too", () => {
    const required = Either.getLeft(validateCountry("")).pipe(Option.getOrThrow)
    const invalid = Either.getLeft(validateCountry("XX")).pipe(Option.getOrThrow)
    expect(translate("fr", required.key)).toBe("Veuillez sélectionner votre pays.")
    expect(translate("fr", invalid.key)).toBe("Veuillez sélectionner un pays valide.")
    expect(translate("en", required.key)).toBe("Please select your country.")
    expect(translate("en", invalid.key)).toBe("Please select a valid country.")
    expect(required.details.map((d) => [d.field, d.key])).toEqual([["country", "payments.countryRequired"]])
    expect(invalid.details.map((d) => [d.field, d.key])).toEqual([["country", "payments.countryInvalid"]])
  })
})

describe("charge routing across Stripe's settlement regions (issue 24, item 2)", () => {
  const account = (country: string): PaymentAccount => ({
    userId: "u1",
    gateway: "stripe",
    accountId: `acct_${country}`,
    country,
    chargesEnabled: true,
    payoutsEnabled: true,
    detailsSubmitted: true,
    requirementsDue: [],
    disabledReason: null
  })
  it("settles on the connected account (on_behalf_of) exactly when it is outside the platform's region; Europe is one region", () => {
    expect(chargeRouting(account("CA"), "CA")).toEqual({ destinationAccountId: "acct_CA" })
    expect(chargeRouting(account("FR"), "CA")).toEqual({ destinationAccountId: "acct_FR", onBehalfOf: "acct_FR" })
    expect(chargeRouting(account("US"), "CA")).toEqual({ destinationAccountId: "acct_US", onBehalfOf: "acct_US" })
    for (const country of ["FR", "DE", "GB", "CH", "IE", "LU"]) expect(needsOnBehalfOf("FR", country), country).toBe(false)
    expect(needsOnBehalfOf("FR", "CA")).toBe(true)
    // An account whose country is not known yet is routed as the platform's own region.
    expect(needsOnBehalfOf("CA", "")).toBe(false)
  })

  it("is symmetric and depends only on the two regions, for every country a provider may choose", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ALLOWED_COUNTRIES), fc.constantFrom(...ALLOWED_COUNTRIES), (platform, provider) => {
        expect(needsOnBehalfOf(platform, provider)).toBe(needsOnBehalfOf(provider, platform))
        expect(needsOnBehalfOf(platform, provider)).toBe(settlementRegionOf(platform) !== settlementRegionOf(provider))
        expect(needsOnBehalfOf(platform.toLowerCase(), ` ${provider} `)).toBe(needsOnBehalfOf(platform, provider))
      })
    )
  })
})

describe("supersedes (ordering of gateway states)", () => {
  const at = (iso: string) => new Date(iso)
  it("anything supersedes no state; an earlier second does not; the same second does", () => {
    expect(supersedes(at("2026-01-01T10:00:00Z"), null)).toBe(true)
    expect(supersedes(at("2026-01-01T10:00:01Z"), at("2026-01-01T10:00:00.000Z"))).toBe(true)
    expect(supersedes(at("2026-01-01T09:59:59Z"), at("2026-01-01T10:00:00.000Z"))).toBe(false)
    // An event stamped 10:00:00 may have been created after a read at 10:00:00.400.
    expect(supersedes(at("2026-01-01T10:00:00Z"), at("2026-01-01T10:00:00.400Z"))).toBe(true)
  })
  it("is monotonic: a later observation supersedes whenever an earlier one does", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4e12 }),
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer({ min: 0, max: 4e12 }),
        (observed, delta, stored) =>
          !supersedes(new Date(observed), new Date(stored)) || supersedes(new Date(observed + delta), new Date(stored))
      )
    )
  })
})

describe("views and addresses", () => {
  it("status of no account", () => {
    expect(statusOf(undefined)).toEqual({
      hasAccount: false,
      accountId: null,
      country: null,
      chargesEnabled: false,
      payoutsEnabled: false,
      detailsSubmitted: false,
      requirementsDue: [],
      disabledReason: null
    })
  })
  it("return and refresh URLs go back to the setup page, without a double slash", () => {
    expect(onboardingReturnUrls("https://market.example/")).toEqual({
      returnUrl: "https://market.example/provider/payments/setup?onboarding=complete",
      refreshUrl: "https://market.example/provider/payments/setup?onboarding=refresh"
    })
  })
})

describe("PAYMENTS_MODE", () => {
  const key = Option.some(Redacted.make("sk_test_x"))
  it("defaults to sandbox without a key and to stripe with one; an explicit mode wins", () => {
    expect(resolvePaymentsMode(Option.none(), Option.none())).toEqual(Either.right("sandbox"))
    expect(resolvePaymentsMode(Option.none(), key)).toEqual(Either.right("stripe"))
    expect(resolvePaymentsMode(Option.some("sandbox"), key)).toEqual(Either.right("sandbox"))
    expect(resolvePaymentsMode(Option.some("stripe"), key)).toEqual(Either.right("stripe"))
  })

  const configFrom = (env: Record<string, string>) =>
    Effect.runPromise(
      Effect.either(
        AppConfig.pipe(
          Effect.provide(AppConfigLive.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))))
        )
      )
    )

  it("PAYMENTS_MODE=stripe without STRIPE_SECRET_KEY fails at start with a clear message (no fall back to the sandbox)", async () => {
    const result = await configFrom({ PAYMENTS_MODE: "stripe" })
    expect(Either.isLeft(result)).toBe(true)
    expect(String(Either.getLeft(result).pipe(Option.getOrThrow))).toContain("PAYMENTS_MODE=stripe needs STRIPE_SECRET_KEY")
    const empty = await configFrom({ PAYMENTS_MODE: "stripe", STRIPE_SECRET_KEY: "  " })
    expect(Either.isLeft(empty)).toBe(true)
  })

  it("an unknown mode is refused; an empty one counts as unset", async () => {
    const bad = await configFrom({ PAYMENTS_MODE: "live" })
    expect(String(Either.getLeft(bad).pipe(Option.getOrThrow))).toContain('PAYMENTS_MODE must be "stripe" or "sandbox"')
    const empty = await configFrom({ PAYMENTS_MODE: "" })
    expect(Either.getOrThrow(empty).paymentsMode).toBe("sandbox")
    const withKey = await configFrom({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_API_BASE: "http://127.0.0.1:9" })
    expect(Either.getOrThrow(withKey)).toMatchObject({ paymentsMode: "stripe", stripeApiBase: Option.some("http://127.0.0.1:9") })
    expect(Either.getOrThrow(await configFrom({ PAYMENTS_MODE: "Sandbox", STRIPE_SECRET_KEY: "sk_test_1" })).paymentsMode).toBe("sandbox")
  })
})
