import { describe, expect, it } from "vitest"
import { pickLanguage, readCookie, toLanguage } from "../../ui/i18n/detect"

describe("language detection order (query, cookie, localStorage, sessionStorage, navigator, <html lang>)", () => {
  const all = { query: "en", cookie: "fr", localStorage: "en", sessionStorage: "fr", navigator: "en-US", html: "fr" }

  it("takes each source in turn when the ones before are absent", () => {
    expect(pickLanguage(all)).toBe("en")
    expect(pickLanguage({ ...all, query: null })).toBe("fr")
    expect(pickLanguage({ ...all, query: null, cookie: null })).toBe("en")
    expect(pickLanguage({ ...all, query: null, cookie: null, localStorage: null })).toBe("fr")
    expect(pickLanguage({ navigator: "en-US", html: "fr" })).toBe("en")
    expect(pickLanguage({ navigator: null, html: "en" })).toBe("en")
  })

  it("skips unsupported values and defaults to French", () => {
    expect(pickLanguage({ query: "de", cookie: "es", navigator: "it-IT", html: "en" })).toBe("en")
    expect(pickLanguage({ navigator: "de-DE" })).toBe("fr")
    expect(pickLanguage({})).toBe("fr")
  })

  it("reads region tags and case", () => {
    expect(toLanguage("EN-ca")).toBe("en")
    expect(toLanguage("fr_CA")).toBe("fr")
    expect(toLanguage("english")).toBeUndefined()
  })

  it("reads the lang cookie among others", () => {
    expect(readCookie("a=1; lang=en; b=2", "lang")).toBe("en")
    expect(readCookie("language=en", "lang")).toBeNull()
  })
})
