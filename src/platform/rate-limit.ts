import { Context, Effect, Layer } from "effect"
import { RateLimiterMemory, type RateLimiterRes } from "rate-limiter-flexible"
import { AppConfig } from "./config"
import { TooManyRequests } from "./errors"

/** Counts attempts per key (an action and a client address) and refuses past the configured limit. */
export interface RateLimiterShape {
  readonly consume: (key: string) => Effect.Effect<void, TooManyRequests>
}
export class RateLimiter extends Context.Tag("platform/RateLimiter")<RateLimiter, RateLimiterShape>() {}

export const RateLimiterMemoryLive = Layer.effect(
  RateLimiter,
  Effect.map(AppConfig, (config) => {
    const limiter = new RateLimiterMemory({ points: config.authRateLimit, duration: config.authRateWindowSeconds })
    return {
      consume: (key) =>
        Effect.tryPromise({
          try: () => limiter.consume(key),
          catch: (res) =>
            new TooManyRequests({
              code: "RATE_LIMITED",
              key: "request.tooManyRequests",
              params: { seconds: String(Math.max(1, Math.ceil(((res as RateLimiterRes).msBeforeNext ?? 1000) / 1000))) }
            })
        }).pipe(Effect.asVoid)
    }
  })
)
