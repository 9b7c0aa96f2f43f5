import { Effect, Layer, Schema } from "effect"
import { JobQueue } from "../../platform/jobs"
import { DeferredMailJob, DEFERRED_MAIL_QUEUE, DIGEST_CRON, DIGEST_QUEUE } from "./delivery"
import { Mailer } from "./ports"
import { NotificationSettings } from "./settings"

/**
 * The notifications' background work while the server runs: mails held back by quiet hours, sent
 * again through the Mailer when their job starts (so a preference changed meanwhile still counts),
 * and the digest pass on a cron tick (once per tick across processes).
 */
export const NotificationJobsLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const jobs = yield* JobQueue
    const mailer = yield* Mailer
    const settings = yield* NotificationSettings
    yield* jobs.work(DEFERRED_MAIL_QUEUE, (data) => Effect.flatMap(Schema.decodeUnknown(DeferredMailJob)(data), mailer.send))
    yield* jobs.work(DIGEST_QUEUE, () => Effect.asVoid(settings.sendDueDigests))
    yield* jobs.schedule(DIGEST_QUEUE, DIGEST_CRON)
  })
)
