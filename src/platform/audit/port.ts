import { Context, type Effect } from "effect"
import type { AuditAction, AuditSubjectType } from "../../modules/administration/rules"

export type { AuditAction, AuditSubjectType } from "../../modules/administration/rules"

/** A subject's state as the audit log keeps it: plain JSON (ids, statuses, amounts in minor units, reasons). */
export type AuditData = { readonly [key: string]: AuditValue }
export type AuditValue = string | number | boolean | null | AuditData | ReadonlyArray<AuditValue>

/**
 * The actor of decisions made at the command line (`bin/run`): an operator that is no account. The
 * bookings and payments commands act under this id; onboarding's CLI reviewer (id null) is recorded under it.
 */
export const CLI_OPERATOR_ID = "00000000-0000-0000-0000-000000000000"

/** One administrator's decision, as its use case records it. */
export interface AuditEntry {
  /** Who decided: the acting account (the CLI's operator id for `bin/run` commands). */
  readonly actorId: string
  readonly action: AuditAction
  readonly subject: { readonly type: AuditSubjectType; readonly id: string }
  /** The subject before and after the decision (null when it did not exist before, or no longer after). */
  readonly before: AuditData | null
  readonly after: AuditData | null
}

/** A stored entry: the decision and when it was recorded (UTC). */
export interface AuditRecord extends AuditEntry {
  readonly id: string
  readonly createdAt: Date
}

/** The log's filters (all optional, combined with AND); `to` is exclusive. Newest first. */
export interface AuditFilter {
  readonly action?: AuditAction | undefined
  readonly actorId?: string | undefined
  readonly subjectType?: AuditSubjectType | undefined
  readonly subjectId?: string | undefined
  readonly from?: Date | undefined
  readonly to?: Date | undefined
  readonly limit: number
  readonly offset: number
}

/**
 * The audit log of administrators' decisions (issue 13 item 4). A port of the platform, the shared
 * kernel, so that every module records its own decisions without depending on another module.
 *
 * `record` writes within the caller's ambient transaction: call it inside the `Transactional.run`
 * that stores the decision, so the entry commits or rolls back with it (a refused or failed
 * decision leaves no entry; a decision that succeeds leaves exactly one). Its time is the clock's now.
 *
 * A new kind of decision adds its code to `AuditActions` (administration/rules.ts) and records it, e.g.
 * the dispute resolution, inside the transaction that stores it:
 *
 *   yield* audit.record({ actorId: admin.id, action: "DISPUTE_RESOLVED", subject: { type: "BOOKING", id },
 *     before: { status: "DISPUTED", authorizedMinor }, after: { status: "RESOLVED", capturedMinor, note } })
 */
export class AuditTrail extends Context.Tag("platform/AuditTrail")<
  AuditTrail,
  {
    readonly record: (entry: AuditEntry) => Effect.Effect<void>
    readonly list: (filter: AuditFilter) => Effect.Effect<{ readonly rows: ReadonlyArray<AuditRecord>; readonly total: number }>
  }
>() {}
