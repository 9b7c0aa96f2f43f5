import { Effect, Layer, Ref } from "effect"
import { newId, now } from "../clock"
import { AuditTrail, type AuditRecord } from "./port"

/** The audit log in memory (the in-memory domain): newest first, the same filters as PostgreSQL's. */
export const AuditTrailMemory = Layer.effect(
  AuditTrail,
  Effect.map(Ref.make<ReadonlyArray<AuditRecord>>([]), (entries) => ({
    record: (entry) =>
      Effect.gen(function* () {
        const stored: AuditRecord = { ...entry, id: yield* newId, createdAt: yield* now }
        yield* Ref.update(entries, (all) => [...all, stored])
      }),
    list: (filter) =>
      Effect.map(Ref.get(entries), (all) => {
        const rows = all
          .filter(
            (e) =>
              (filter.action === undefined || e.action === filter.action) &&
              (filter.actorId === undefined || e.actorId === filter.actorId) &&
              (filter.subjectType === undefined || e.subject.type === filter.subjectType) &&
              (filter.subjectId === undefined || e.subject.id === filter.subjectId) &&
              (filter.from === undefined || e.createdAt >= filter.from) &&
              (filter.to === undefined || e.createdAt < filter.to)
          )
          .reverse()
        return { rows: rows.slice(filter.offset, filter.offset + filter.limit), total: rows.length }
      })
  }))
)
