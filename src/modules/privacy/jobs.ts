import { Effect, Layer, Schema } from "effect"
import { JobQueue } from "../../platform/jobs"
import { EXPORT_QUEUE, Privacy } from "./service"

const ExportJob = Schema.Struct({ userId: Schema.String })

/** The data-export worker: each job prepares one user's archive and mails its link (retried by the queue on failure). */
export const PrivacyJobsLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const jobs = yield* JobQueue
    const privacy = yield* Privacy
    yield* jobs.work(EXPORT_QUEUE, (data) =>
      Effect.flatMap(Schema.decodeUnknown(ExportJob)(data), (job) => privacy.prepareExport(job.userId))
    )
  })
)
