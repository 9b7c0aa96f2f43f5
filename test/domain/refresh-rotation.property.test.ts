import { Effect, Exit, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApplicationServices, InMemoryAdapters } from "../../src/app/layers"
import { Identity } from "../../src/modules/identity"
import { IdentityMemoryAdapters } from "../../src/modules/identity/adapters/memory"
import { RefreshTokenStore } from "../../src/modules/identity/ports"
import { asSession } from "../support/domain"
import { AppConfigOf } from "../../src/platform/config"
import { decideRefresh, type RefreshTokenRecord } from "../../src/modules/identity/domain"
import { inMemoryDomain, verifiedAccount } from "../support/domain"
import type { RuntimeOf, ServicesOf } from "../support/layers"
import { scratchDir } from "../support/scratch"

// ---- The pure decision -----------------------------------------------------------------------

const date = fc.integer({ min: 0, max: 4_000_000_000_000 }).map((ms) => new Date(ms))
const record: fc.Arbitrary<RefreshTokenRecord> = fc.record({
  userId: fc.uuid(),
  familyId: fc.uuid(),
  expiresAt: date,
  rotatedAt: fc.option(date, { nil: null }),
  revokedAt: fc.option(date, { nil: null })
})

describe("decideRefresh", () => {
  it("refuses an unknown token", () => {
    fc.assert(
      fc.property(date, (now) => {
        expect(decideRefresh(undefined, now)).toEqual({ _tag: "Refuse" })
      })
    )
  })

  it("refuses a revoked token, whatever else is true of it", () => {
    fc.assert(
      fc.property(record, date, date, (r, revokedAt, now) => {
        expect(decideRefresh({ ...r, revokedAt }, now)).toEqual({ _tag: "Refuse" })
      })
    )
  })

  it("detects the reuse of a rotated (not revoked) token, even once expired, and names its family", () => {
    fc.assert(
      fc.property(record, date, date, (r, rotatedAt, now) => {
        expect(decideRefresh({ ...r, rotatedAt, revokedAt: null }, now)).toEqual({ _tag: "ReuseDetected", familyId: r.familyId })
      })
    )
  })

  it("rotates a live token before its expiry and refuses it from its expiry on", () => {
    fc.assert(
      fc.property(record, date, (r, now) => {
        const live = { ...r, rotatedAt: null, revokedAt: null }
        const decision = decideRefresh(live, now)
        if (r.expiresAt.getTime() > now.getTime()) expect(decision).toEqual({ _tag: "Rotate", userId: r.userId, familyId: r.familyId })
        else expect(decision).toEqual({ _tag: "Refuse" })
      })
    )
    const expiresAt = new Date(1_000_000)
    const live = { userId: "u", familyId: "f", expiresAt, rotatedAt: null, revokedAt: null }
    expect(decideRefresh(live, new Date(999_999))._tag).toBe("Rotate")
    expect(decideRefresh(live, expiresAt)._tag).toBe("Refuse")
  })

  it("only ever rotates a token that is live", () => {
    fc.assert(
      fc.property(fc.option(record, { nil: undefined }), date, (r, now) => {
        const decision = decideRefresh(r, now)
        const live = r !== undefined && r.revokedAt === null && r.rotatedAt === null && r.expiresAt.getTime() > now.getTime()
        expect(decision._tag === "Rotate").toBe(live)
      })
    )
  })
})

// ---- Rotation on the in-memory domain, against a model ----------------------------------------

/** One step of a client (or an attacker) holding refresh tokens of two sessions of one account. */
type Step =
  | { readonly kind: "refresh"; readonly family: 0 | 1; readonly pick: "newest" | number }
  | { readonly kind: "concurrent"; readonly family: 0 | 1; readonly pick: "newest" | number; readonly copies: number }
  | { readonly kind: "logout"; readonly family: 0 | 1; readonly pick: "newest" | number }

const family = fc.constantFrom<0 | 1>(0, 1)
const pick = fc.oneof({ weight: 3, arbitrary: fc.constant("newest" as const) }, { weight: 2, arbitrary: fc.nat() })
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("refresh" as const), family, pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("concurrent" as const), family, pick, copies: fc.integer({ min: 2, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("logout" as const), family, pick }) }
)

/** What the client knows of a session: every refresh token it was given, in order. */
interface FamilyModel {
  readonly tokens: Array<string>
  /** Tokens that were already exchanged once. */
  readonly spent: Set<string>
  /** The whole family is dead (replay detected or logout). */
  revoked: boolean
}

const chosen = (model: FamilyModel, choice: "newest" | number) =>
  choice === "newest" ? model.tokens[model.tokens.length - 1]! : model.tokens[choice % model.tokens.length]!

/**
 * The in-memory domain, but every read of a refresh token then yields to the other fibers, so
 * concurrent refreshes of one token all read it live before any marks it rotated: the race that
 * PostgreSQL's row lock settles (the loser's markRotated answers false). Counts those lost races.
 */
const racyDomain = () => {
  const lostRaces = { count: 0 }
  const YieldingReads = Layer.effect(
    RefreshTokenStore,
    Effect.map(RefreshTokenStore, (store) => ({
      ...store,
      find: (hash: string) => Effect.zipLeft(store.find(hash), Effect.yieldNow()),
      markRotated: (hash: string, at: Date) =>
        Effect.tap(store.markRotated(hash, at), (won) => Effect.sync(() => void (won || lostRaces.count++)))
    }))
  )
  // The yielding store comes last: it replaces the plain one of InMemoryAdapters.
  const adapters = Layer.mergeAll(InMemoryAdapters, Layer.provideMerge(YieldingReads, IdentityMemoryAdapters))
  const layer = ApplicationServices.pipe(
    Layer.provideMerge(adapters),
    Layer.provideMerge(AppConfigOf({ dataDir: scratchDir("domain") })),
    Layer.provideMerge(Logger.minimumLogLevel(LogLevel.Error))
  )
  return { layer, lostRaces }
}

const variants = [
  { name: "in-memory domain", make: () => ({ layer: inMemoryDomain(), lostRaces: undefined }) },
  { name: "in-memory domain with interleaved concurrent reads", make: racyDomain }
]

/** The layers of the variants: the tests' effects run on what all of them provide. */
type Domain = ReturnType<(typeof variants)[number]["make"]>["layer"]

describe.each(variants)("refresh-token rotation ($name)", ({ make }) => {
  let runtime: RuntimeOf<Domain>
  let lostRaces: { count: number } | undefined
  beforeAll(() => {
    const made = make()
    runtime = ManagedRuntime.make(made.layer)
    lostRaces = made.lostRaces
  })
  afterAll(() => runtime.dispose())
  const run = <A, E>(effect: Effect.Effect<A, E, ServicesOf<Domain>>) => runtime.runPromise(effect)

  it("never honours a token twice, and a replay or a race on one token kills the whole family (the newest token too)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        const identity = await run(Identity)
        const { email, password } = await run(verifiedAccount())
        const family = (): FamilyModel => ({ tokens: [], spent: new Set<string>(), revoked: false })
        const models: [FamilyModel, FamilyModel] = [family(), family()]
        for (const model of models) model.tokens.push((await run(asSession(identity.login(email, password)))).refreshToken)
        const everHonoured = new Set<string>()

        for (const s of steps) {
          const model = models[s.family]
          const token = chosen(model, s.pick)
          const wasLive = !model.revoked && !model.spent.has(token)
          const isReplay = model.spent.has(token)

          if (s.kind === "logout") {
            await run(identity.logout(token))
            model.revoked = true
            continue
          }

          const copies = s.kind === "concurrent" ? s.copies : 1
          const exits = await run(
            Effect.all(
              Array.from({ length: copies }, () => Effect.exit(identity.refresh(token))),
              { concurrency: "unbounded" }
            )
          )
          const successes = exits.filter(Exit.isSuccess).map((e) => e.value)
          for (const failure of exits.filter(Exit.isFailure)) {
            // Every refusal is a plain 401 SessionExpired, never a defect.
            expect(
              Exit.isFailure(failure) && failure.cause._tag === "Fail" ? (failure.cause.error as { code: string }).code : "defect"
            ).toBe("SESSION_EXPIRED")
          }

          // A token is honoured at most once, ever, even by concurrent requests.
          expect(successes.length).toBeLessThanOrEqual(1)
          if (everHonoured.has(token)) expect(successes).toEqual([])
          // And exactly when the model says it is live.
          expect(successes.length).toBe(wasLive ? 1 : 0)
          if (successes.length === 1) {
            everHonoured.add(token)
            expect(successes[0]!.refreshToken).not.toBe(token)
            model.tokens.push(successes[0]!.refreshToken)
          }
          model.spent.add(token)
          if (isReplay || copies > 1) model.revoked = true
        }

        // Final check, from the client's view: a dead family honours none of its tokens, not even the
        // newest; a live one honours exactly its newest token.
        for (const model of models) {
          const newest = model.tokens[model.tokens.length - 1]!
          expect(Exit.isSuccess(await run(Effect.exit(identity.refresh(newest))))).toBe(!model.revoked)
          for (const token of model.tokens.slice(0, -1)) {
            expect(Exit.isSuccess(await run(Effect.exit(identity.refresh(token))))).toBe(false)
          }
        }
      }),
      { numRuns: 150 }
    )
    // The interleaved variant really exercised the race (both requests saw the token live).
    if (lostRaces) expect(lostRaces.count).toBeGreaterThan(0)
  })

  it("a replay in one session leaves the account's other sessions alive", async () => {
    const identity = await run(Identity)
    const { email, password } = await run(verifiedAccount())
    const a = await run(asSession(identity.login(email, password)))
    const b = await run(asSession(identity.login(email, password)))
    const a2 = await run(identity.refresh(a.refreshToken))
    expect(Exit.isFailure(await run(Effect.exit(identity.refresh(a.refreshToken))))).toBe(true)
    expect(Exit.isFailure(await run(Effect.exit(identity.refresh(a2.refreshToken))))).toBe(true)
    const b2 = await run(identity.refresh(b.refreshToken))
    expect(b2.user.email).toBe(email)
  })
})
