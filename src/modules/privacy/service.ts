import { Context, Effect, Layer, Option } from "effect"
import { now } from "../../platform/clock"
import type { Conflict, NotFound, ValidationFailed } from "../../platform/errors"
import { JobQueue } from "../../platform/jobs"
import { removeAll, Storage } from "../../platform/storage"
import { Transactional } from "../../platform/transaction"
import { type Actor, Identity, UserRepository } from "../identity"
import { Notifications } from "../notifications"
import { deletionRefusal, EXPORT_TTL_MS, ExportNotFound } from "./domain"
import { DataExportStore, PersonalData } from "./ports"

/** The durable job that prepares a data export and mails its link. */
export const EXPORT_QUEUE = "data-export"

/** A user's control over what the platform keeps about them: take it (export) or erase it (deletion). */
export class Privacy extends Context.Tag("privacy/Privacy")<
  Privacy,
  {
    /** Queues the preparation of the caller's export; its link is mailed when ready. */
    readonly requestExport: (actor: Actor) => Effect.Effect<void>
    /** The job's work: builds the archive, stores it under a new token and mails the link. */
    readonly prepareExport: (userId: string) => Effect.Effect<void>
    /** The archive behind a mailed link, once (404 EXPORT_NOT_FOUND when used, unknown, expired, or its account is gone). */
    readonly download: (token: string) => Effect.Effect<unknown, NotFound>
    /**
     * Deletes the caller's account, confirmed by their password (422): refused (409, with the reason)
     * while a booking is under way or money is held; otherwise their personal data is erased or
     * anonymised in one transaction, their uploaded files removed and their sessions ended.
     */
    readonly deleteAccount: (actor: Actor, password: string | undefined) => Effect.Effect<void, ValidationFailed | Conflict>
  }
>() {}

export const PrivacyLive = Layer.effect(
  Privacy,
  Effect.gen(function* () {
    const data = yield* PersonalData
    const exports = yield* DataExportStore
    const jobs = yield* JobQueue
    const users = yield* UserRepository
    const identity = yield* Identity
    const notifications = yield* Notifications
    const storage = yield* Storage
    const tx = yield* Transactional
    return {
      // One export in preparation per user: asking again while it is queued changes nothing.
      requestExport: (actor) =>
        jobs.send(EXPORT_QUEUE, { userId: actor.id }, { singletonKey: actor.id, retryLimit: 3, retryDelaySeconds: 30 }),

      prepareExport: (userId) =>
        Effect.gen(function* () {
          const user = yield* users.findById(userId)
          // Deleted or deactivated since it was asked: nothing to send.
          if (Option.isNone(user) || !user.value.isActive) return
          const at = yield* now
          const archive = yield* data.archive(userId, at)
          yield* tx.run(
            Effect.gen(function* () {
              const token = yield* exports.create(userId, archive, at, new Date(at.getTime() + EXPORT_TTL_MS))
              if (Option.isSome(token)) yield* notifications.sendDataExport(user.value, token.value)
            })
          )
        }),

      download: (token) =>
        Effect.gen(function* () {
          const found = token === "" ? Option.none() : yield* exports.claim(token, yield* now)
          if (Option.isNone(found)) return yield* ExportNotFound
          return found.value.archive
        }),

      deleteAccount: (actor, password) =>
        Effect.gen(function* () {
          yield* identity.confirmPassword(actor, password)
          const files = yield* tx.run(
            Effect.gen(function* () {
              const refusal = deletionRefusal(yield* data.blockers(actor.id))
              if (refusal) return yield* refusal
              return yield* data.erase(actor.id, yield* now)
            })
          )
          yield* removeAll(storage, files)
          yield* identity.announceAccountClosed(actor.id)
        })
    }
  })
)
