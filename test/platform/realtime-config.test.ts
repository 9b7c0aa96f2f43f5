import { ConfigProvider, Effect, Either, Layer, Option, Redacted } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { AppConfig, AppConfigLive, resolveRealtimeAdapter } from "../../src/platform/config"
import { channelPrefixOf } from "../../src/platform/realtime-postgres"

describe("REALTIME_ADAPTER", () => {
  const url = Option.some(Redacted.make("postgres://db.example/marketplace"))
  it("defaults to postgres on an external PostgreSQL and to local on PGlite; an explicit choice wins", () => {
    expect(resolveRealtimeAdapter(Option.none(), url)).toEqual(Either.right("postgres"))
    expect(resolveRealtimeAdapter(Option.none(), Option.none())).toEqual(Either.right("local"))
    expect(resolveRealtimeAdapter(Option.some("local"), url)).toEqual(Either.right("local"))
  })

  const configFrom = (env: Record<string, string>) =>
    Effect.runPromise(
      Effect.either(
        AppConfig.pipe(
          Effect.provide(AppConfigLive.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))))
        )
      )
    )

  it("postgres without DATABASE_URL (the single-process PGlite) and unknown values are refused at start", async () => {
    const onPglite = await configFrom({ REALTIME_ADAPTER: "postgres" })
    expect(String(Either.getLeft(onPglite).pipe(Option.getOrThrow))).toContain("REALTIME_ADAPTER=postgres needs DATABASE_URL")
    const unknown = await configFrom({ REALTIME_ADAPTER: "redis", DATABASE_URL: "postgres://db.example/m" })
    expect(String(Either.getLeft(unknown).pipe(Option.getOrThrow))).toContain('REALTIME_ADAPTER must be "postgres" or "local"')
    expect(
      Either.getOrThrow(await configFrom({ REALTIME_ADAPTER: " Local ", DATABASE_URL: "postgres://db.example/m" })).realtimeAdapter
    ).toBe("local")
    expect(Either.getOrThrow(await configFrom({ REALTIME_ADAPTER: "", DATABASE_URL: "postgres://db.example/m" })).realtimeAdapter).toBe(
      "postgres"
    )
  })
})

describe("the notification channel prefix", () => {
  it("is the same for one database URL and differs between URLs (so servers that share no data never hear each other)", () => {
    fc.assert(
      fc.property(fc.webUrl(), fc.webUrl(), (a, b) => {
        expect(channelPrefixOf(a)).toMatch(/^sio_[0-9a-f]{12}$/)
        expect(channelPrefixOf(a)).toBe(channelPrefixOf(a))
        if (a !== b) expect(channelPrefixOf(a)).not.toBe(channelPrefixOf(b))
      })
    )
    const base = "postgres://postgres@127.0.0.1:5432/test"
    expect(channelPrefixOf(`${base}?options=-c%20search_path%3Dt_a`)).not.toBe(channelPrefixOf(`${base}?options=-c%20search_path%3Dt_b`))
  })
})
