import { ConfigProvider, Effect, Exit, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { AppConfig, AppConfigLive } from "../../src/platform/config"

/** The configuration as the server reads it at start, from these environment variables only. */
const start = (env: Record<string, string>) =>
  Effect.runPromiseExit(
    Effect.provide(
      AppConfig,
      AppConfigLive.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))
    )
  )

describe("the server's configuration at start", () => {
  it("refuses a JWT_SECRET under 32 bytes with a message naming it", async () => {
    const exit = await start({ JWT_SECRET: "x" })
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(Exit.isFailure(exit) ? exit.cause : "")).toContain("JWT_SECRET must be at least 32 bytes")
    expect(Exit.isSuccess(await start({ JWT_SECRET: "k".repeat(48) }))).toBe(true)
    // In development, no JWT_SECRET: the generated secret (app-secret.ts) is used.
    expect(Exit.isSuccess(await start({}))).toBe(true)
  })

  it("DEV_MAIL: on in the embedded default, off with PUBLIC_URL or NODE_ENV=production, refused when asked for in production", async () => {
    const devMail = async (env: Record<string, string>) => {
      const exit = await start(env)
      return Exit.isSuccess(exit) ? exit.value.devMail : "refused"
    }
    expect(await devMail({})).toBe(true)
    expect(await devMail({ PUBLIC_URL: "https://market.example.com" })).toBe(false)
    expect(await devMail({ DATABASE_URL: "postgres://db/market" })).toBe(false)
    expect(await devMail({ DATABASE_URL: "postgres://db/market", DEV_MAIL: "1" })).toBe(true)
    expect(await devMail({ NODE_ENV: "production" })).toBe(false)
    expect(await devMail({ NODE_ENV: "production", DEV_MAIL: "1" })).toBe("refused")
    expect(await devMail({ SMTP_URL: "smtp://mail.example.com", DEV_MAIL: "1" })).toBe(false)
  })

  it("TRUST_PROXY is read at start; nonsense is refused", async () => {
    const exit = await start({ TRUST_PROXY: "1" })
    expect(Exit.isSuccess(exit) && exit.value.trustProxy).toEqual({ _tag: "Hops", hops: 1 })
    expect(Exit.isFailure(await start({ TRUST_PROXY: "everyone" }))).toBe(true)
  })
})
