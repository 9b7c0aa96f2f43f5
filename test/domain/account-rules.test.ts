import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { coarseAddress, storedUserAgent, validateEmailChange } from "../../src/modules/identity/domain"
import { describeUserAgent } from "../../src/modules/identity/user-agent"
import { BookingUnderWay, deletionRefusal, displayName, identifyingStrings, MoneyHeld } from "../../src/modules/privacy/domain"

// The pure rules of account self-service (issue 15): what a session keeps of its client, the email
// change's checks, and privacy's deletion and anonymisation rules.

describe("coarseAddress keeps a network, never the address", () => {
  it.each([
    ["203.0.113.57", "203.0.113.0/24"],
    ["::ffff:198.51.100.7", "198.51.100.0/24"],
    ["127.0.0.1", "127.0.0.0/24"],
    ["2001:db8:85a3:8d3:1319:8a2e:370:7348", "2001:db8:85a3::/48"],
    ["2001:db8::1", "2001:db8:0::/48"],
    ["::1", "0:0:0::/48"]
  ])("%s → %s", (address, coarse) => expect(coarseAddress(address)).toBe(coarse))

  it.each(["", "unknown", "256.1.1.1", "1.2.3", "2001:db8:::1", "12345::1", "1:2:3:4:5:6:7:8:9"])("%s is no address", (address) =>
    expect(coarseAddress(address)).toBeNull()
  )
})

describe("describeUserAgent", () => {
  it.each([
    ["Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox", "Linux"],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0",
      "Microsoft Edge",
      "Windows"
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36",
      "Chrome",
      "Android"
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
      "Safari",
      "macOS"
    ],
    ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Mobile Safari/604.1", "Safari", "iOS"],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/112.0.0.0",
      "Opera",
      "Windows"
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
      "Samsung Internet for Android",
      "Android"
    ],
    [
      "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
      "Chrome",
      "Chrome OS"
    ]
  ])("%s", (ua, browser, os) => expect(describeUserAgent(ua)).toEqual({ browser, os }))

  it("names nothing it does not recognise, and stores a bounded agent or none", () => {
    expect(describeUserAgent("curl/8.5")).toEqual({ browser: null, os: null })
    expect(describeUserAgent(null)).toEqual({ browser: null, os: null })
    expect(storedUserAgent("  ")).toBeNull()
    expect(storedUserAgent("x".repeat(600))).toHaveLength(512)
  })
})

describe("validateEmailChange", () => {
  it("needs a valid address other than the current one, and the password", () => {
    const fields = (input: Parameters<typeof validateEmailChange>[0]) =>
      Either.match(validateEmailChange(input, "me@example.com"), {
        onLeft: (failure) => failure.details.map((d) => `${d.field}:${d.key}`),
        onRight: (ok) => ok
      })
    expect(fields({})).toEqual(["newEmail:validation.required", "currentPassword:validation.required"])
    expect(fields({ newEmail: "nope", currentPassword: "x" })).toEqual(["newEmail:validation.email"])
    expect(fields({ newEmail: " ME@Example.com ", currentPassword: "x" })).toEqual(["newEmail:auth.sameEmail"])
    expect(fields({ newEmail: " New@Example.com ", currentPassword: "x" })).toEqual({ newEmail: "new@example.com", currentPassword: "x" })
  })
})

describe("privacy rules", () => {
  it("refuses a deletion for a booking under way first, then for money held", () => {
    expect(deletionRefusal({ bookingUnderWay: true, moneyHeld: true })).toBe(BookingUnderWay)
    expect(deletionRefusal({ bookingUnderWay: false, moneyHeld: true })).toBe(MoneyHeld)
    expect(deletionRefusal({ bookingUnderWay: false, moneyHeld: false })).toBeUndefined()
  })

  it("names the other party by display name, and replaces the full name, email and phone, longest first", () => {
    expect(displayName(" Jeanne ", "dupont")).toBe("Jeanne D.")
    expect(displayName("Jeanne", "")).toBe("Jeanne")
    expect(
      identifyingStrings({ email: "jeanne.dupont@example.com", firstName: "Jeanne", lastName: "Dupont", phoneNumber: "5145550123" })
    ).toEqual(["jeanne.dupont@example.com", "Jeanne Dupont", "5145550123"])
    // Nothing short enough to rewrite other words.
    expect(identifyingStrings({ email: "", firstName: "", lastName: "", phoneNumber: "" })).toEqual([])
  })
})
