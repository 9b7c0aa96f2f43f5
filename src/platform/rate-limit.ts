import { Context, Effect, Layer } from "effect"
import { RateLimiterMemory, type RateLimiterRes } from "rate-limiter-flexible"
import { AppConfig } from "./config"
import { TooManyRequests } from "./errors"

/** Counts attempts per key (an action and a client address) and refuses past the configured limit. */
export interface RateLimiterShape {
  readonly consume: (key: string) => Effect.Effect<void, TooManyRequests>
}
export class RateLimiter extends Context.Tag("platform/RateLimiter")<RateLimiter, RateLimiterShape>() {}

/** `points` attempts per key and `seconds` window, counted in this process; 429 with the wait in seconds. */
export const memoryRateLimiter = (points: number, seconds: number): RateLimiterShape => {
  const limiter = new RateLimiterMemory({ points, duration: seconds })
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
}

export const RateLimiterMemoryLive = Layer.effect(
  RateLimiter,
  Effect.map(AppConfig, (config) => memoryRateLimiter(config.authRateLimit, config.authRateWindowSeconds))
)
