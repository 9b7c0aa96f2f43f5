import { Effect, Layer } from "effect"
import { AppConfig } from "../../../platform/config"
import { memoryRateLimiter } from "../../../platform/rate-limit"
import { MessageRateLimiter, ReportRateLimiter } from "../ports"
import { REPORTS_PER_DAY } from "../rules"

/** MESSAGE_RATE_LIMIT messages per MESSAGE_RATE_WINDOW_SECONDS per user, counted in this process. */
export const MessageRateLimiterMemory = Layer.effect(
  MessageRateLimiter,
  Effect.map(AppConfig, (config) => {
    const limiter = memoryRateLimiter(config.messageRateLimit, config.messageRateWindowSeconds)
    return { consume: (userId: string) => limiter.consume(`message:${userId}`) }
  })
)

/** REPORTS_PER_DAY reports per user per 24 hours, counted in this process. */
export const ReportRateLimiterMemory = Layer.sync(ReportRateLimiter, () => {
  const limiter = memoryRateLimiter(REPORTS_PER_DAY, 24 * 60 * 60)
  return { consume: (userId: string) => limiter.consume(`report:${userId}`) }
})
