import { Either, Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { checkJwtSecret, parseTrustProxy } from "../../src/platform/config"
import { resolveClientAddress } from "../../src/platform/http/client-address"

describe("TRUST_PROXY", () => {
  it("parses nothing, a hop count, or a list of addresses; refuses anything else at start", () => {
    expect(parseTrustProxy(Option.none())).toEqual(Either.right({ _tag: "None" }))
    expect(parseTrustProxy(Option.some("0"))).toEqual(Either.right({ _tag: "None" }))
    expect(parseTrustProxy(Option.some("2"))).toEqual(Either.right({ _tag: "Hops", hops: 2 }))
    expect(parseTrustProxy(Option.some("10.0.0.1, ::ffff:10.0.0.2"))).toEqual(
      Either.right({ _tag: "Addresses", addresses: ["10.0.0.1", "10.0.0.2"] })
    )
    expect(Either.isLeft(parseTrustProxy(Option.some("yes please")))).toBe(true)
  })

  it("without trusted proxies the socket's address is the client, whatever X-Forwarded-For says", () => {
    expect(resolveClientAddress("::ffff:10.0.0.5", "203.0.113.9", { _tag: "None" })).toBe("10.0.0.5")
  })

  it("with n hops, the n-th address outwards (the one the outermost trusted proxy saw); never beyond the chain", () => {
    expect(resolveClientAddress("10.0.0.5", "198.51.100.1, 203.0.113.9", { _tag: "Hops", hops: 1 })).toBe("203.0.113.9")
    expect(resolveClientAddress("10.0.0.5", "198.51.100.1, 203.0.113.9", { _tag: "Hops", hops: 2 })).toBe("198.51.100.1")
    expect(resolveClientAddress("10.0.0.5", "203.0.113.9", { _tag: "Hops", hops: 5 })).toBe("203.0.113.9")
    expect(resolveClientAddress("10.0.0.5", undefined, { _tag: "Hops", hops: 1 })).toBe("10.0.0.5")
  })

  it("with a list, trusted proxies are skipped from the right; a client cannot prepend its way out", () => {
    const trust = { _tag: "Addresses", addresses: ["10.0.0.5", "10.0.0.6"] } as const
    expect(resolveClientAddress("10.0.0.5", "forged-by-client, 203.0.113.9, 10.0.0.6", trust)).toBe("203.0.113.9")
    // A peer that is not a trusted proxy is the client itself.
    expect(resolveClientAddress("192.0.2.1", "203.0.113.9", trust)).toBe("192.0.2.1")
  })
})

describe("JWT_SECRET", () => {
  it("under 32 bytes is refused at start; unset (the generated secret) and 32 bytes or more are accepted", () => {
    expect(Either.isLeft(checkJwtSecret(Option.some(Redacted.make("x"))))).toBe(true)
    expect(Either.isLeft(checkJwtSecret(Option.some(Redacted.make("a".repeat(31)))))).toBe(true)
    expect(
      String(
        Either.isLeft(checkJwtSecret(Option.some(Redacted.make("x")))) &&
          checkJwtSecret(Option.some(Redacted.make("x"))).pipe(Either.flip, Either.getOrThrow)
      )
    ).toContain("JWT_SECRET")
    expect(Either.isRight(checkJwtSecret(Option.none()))).toBe(true)
    expect(Either.isRight(checkJwtSecret(Option.some(Redacted.make("a".repeat(32)))))).toBe(true)
  })
})
