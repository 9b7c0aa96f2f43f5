import { Effect, Layer } from "effect"
import { AppConfig } from "../../../platform/config"
import { memoryRateLimiter } from "../../../platform/rate-limit"
import { MessageRateLimiter } from "../ports"

/** MESSAGE_RATE_LIMIT messages per MESSAGE_RATE_WINDOW_SECONDS per user, counted in this process. */
export const MessageRateLimiterMemory = Layer.effect(
  MessageRateLimiter,
  Effect.map(AppConfig, (config) => {
    const limiter = memoryRateLimiter(config.messageRateLimit, config.messageRateWindowSeconds)
    return { consume: (userId: string) => limiter.consume(`message:${userId}`) }
  })
)
