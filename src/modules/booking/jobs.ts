import { Effect, Layer, Schema } from "effect"
import { JobQueue } from "../../platform/jobs"
import { BookingReminders, REMINDER_CRON } from "./calendars"
import { Bookings, Queues, RECONCILE_CRON, SWEEP_CRON } from "./service"

const SettleJob = Schema.Struct({ bookingId: Schema.String, releaseIntent: Schema.optional(Schema.String) })

/**
 * The booking's durable background work while the server runs: the timer sweep on a cron tick
 * (once per tick across processes), the money movements queued for retry, and the reconciliation
 * with the gateway every 10 minutes. A failing job is
 * retried by the queue; the sweep also picks up captures and releases left undone.
 */
export const BookingJobsLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const jobs = yield* JobQueue
    const bookings = yield* Bookings
    yield* jobs.work(Queues.sweep, () =>
      Effect.flatMap(bookings.sweep, (changed) =>
        changed > 0 ? Effect.logInfo(`booking timers: ${changed} booking(s) changed`) : Effect.void
      )
    )
    yield* jobs.work(Queues.settle, (data) =>
      Effect.flatMap(Schema.decodeUnknown(SettleJob)(data), (job) => bookings.settle(job.bookingId, job.releaseIntent))
    )
    // Every hold the platform created is referenced by a booking or released; missed completions are applied.
    yield* jobs.work(Queues.reconcile, () =>
      Effect.flatMap(bookings.reconcile, (report) =>
        report.applied.length + report.released.length > 0
          ? Effect.logInfo(
              `payment reconciliation: ${report.applied.length} completion(s) applied, ${report.released.length} hold(s) released`
            )
          : Effect.void
      )
    )
    // Reminder mails 24 h and 2 h before confirmed bookings: each tick sends the due ones not yet sent.
    const reminders = yield* BookingReminders
    yield* jobs.work(Queues.reminders, () =>
      Effect.flatMap(reminders.sendDue, (sent) =>
        sent > 0 ? Effect.logInfo(`booking reminders: ${sent} booking(s) reminded`) : Effect.void
      )
    )
    yield* jobs.schedule(Queues.reminders, REMINDER_CRON)
    yield* jobs.schedule(Queues.sweep, SWEEP_CRON)
    yield* jobs.schedule(Queues.reconcile, RECONCILE_CRON)
    // A restart runs the timers at once rather than at the next tick.
    yield* jobs.send(Queues.sweep, {}, { singletonKey: "startup" })
  })
)
