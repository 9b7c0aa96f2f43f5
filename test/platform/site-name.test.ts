import { ConfigProvider, Effect, Exit, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { AppConfig, AppConfigLive, DEFAULT_SITE_NAME } from "../../src/platform/config"
import { brandIndex } from "../../src/platform/http/static"

/** The setting read from these environment variables, or "refused". */
const setting = async (key: "siteName" | "mailFrom", env: Record<string, string>) => {
  const exit = await Effect.runPromiseExit(
    Effect.provide(
      AppConfig,
      AppConfigLive.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))
    )
  )
  return Exit.isSuccess(exit) ? exit.value[key] : "refused"
}
const siteName = (env: Record<string, string>) => setting("siteName", env)

describe("the brand's name (SITE_NAME)", () => {
  it("defaults to the design system's name, is trimmed, and is refused when empty or longer than 40 characters", async () => {
    expect(await siteName({})).toBe(DEFAULT_SITE_NAME)
    expect(await siteName({ SITE_NAME: "  Mon Atelier " })).toBe("Mon Atelier")
    expect(await siteName({ SITE_NAME: "   " })).toBe("refused")
    expect(await siteName({ SITE_NAME: "x".repeat(41) })).toBe("refused")
  })

  it("is written into index.html escaped, with the public address", () => {
    const html = '<title>%SITE_NAME%</title><meta property="og:image" content="%PUBLIC_URL%/share/site.png" />'
    expect(brandIndex(html, { siteName: `L'"Atelier" <b>`, publicUrl: "https://example.com" })).toBe(
      '<title>L&#39;&quot;Atelier&quot; &lt;b&gt;</title><meta property="og:image" content="https://example.com/share/site.png" />'
    )
  })

  it("names the sender of mails unless MAIL_FROM does, quoted when it holds a character addresses reserve", async () => {
    expect(await setting("mailFrom", {})).toBe(`${DEFAULT_SITE_NAME} <no-reply@marketplace.local>`)
    expect(await setting("mailFrom", { SITE_NAME: "Atelier Test" })).toBe("Atelier Test <no-reply@marketplace.local>")
    expect(await setting("mailFrom", { SITE_NAME: 'Atelier, "Test"' })).toBe('"Atelier, \\"Test\\"" <no-reply@marketplace.local>')
    expect(await setting("mailFrom", { SITE_NAME: "Atelier Test", MAIL_FROM: "Bureau <bureau@example.com>" })).toBe(
      "Bureau <bureau@example.com>"
    )
  })
})
