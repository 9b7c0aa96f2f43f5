import { Context, Effect, Layer, Option } from "effect"
import * as crypto from "node:crypto"
import { UserRepository } from "../../identity"
import { ConversationRepository, PairBookings, type ReportRecord, SafetyRepository, type ReportTarget } from "../ports"

// In-memory blocks and reports with the contracts of safety-postgres.ts (needs in-memory users and conversations).

type StoredReport = Omit<ReportRecord, "reporter" | "reportedUser" | "message"> & {
  readonly reporterId: string
  readonly reportedUserId: string
}

export const SafetyRepositoryMemory = Layer.effect(
  SafetyRepository,
  Effect.gen(function* () {
    const users = yield* UserRepository
    const conversations = yield* ConversationRepository
    const blocks: Array<{ readonly blockerId: string; readonly blockedId: string; readonly createdAt: Date }> = []
    const reports: Array<StoredReport> = []

    const person = (id: string) => Effect.map(users.findById(id), (u) => Option.getOrThrow(u))
    const full = (r: StoredReport): Effect.Effect<ReportRecord> =>
      Effect.gen(function* () {
        const reporter = yield* person(r.reporterId)
        const reported = yield* person(r.reportedUserId)
        const message = r.messageId === null ? Option.none() : yield* conversations.findMessage(r.messageId)
        const { reporterId: _a, reportedUserId: _b, ...rest } = r
        return {
          ...rest,
          reporter: { id: reporter.id, firstName: reporter.firstName, lastName: reporter.lastName },
          reportedUser: { id: reported.id, firstName: reported.firstName, lastName: reported.lastName, isActive: reported.isActive },
          message: Option.getOrNull(message)
        }
      })

    const isOpenReportOf = (r: StoredReport, target: ReportTarget) =>
      r.status === "OPEN" &&
      r.reporterId === target.reporterId &&
      r.reportedUserId === target.reportedUserId &&
      r.messageId === target.messageId
    const openReportOf = (target: ReportTarget) => {
      const open = reports.find((r) => isOpenReportOf(r, target))
      return open === undefined ? Effect.succeed(Option.none()) : Effect.map(full(open), Option.some)
    }

    return {
      block: (blockerId, blockedId, at) =>
        Effect.sync(() => {
          const existing = blocks.find((b) => b.blockerId === blockerId && b.blockedId === blockedId)
          if (existing !== undefined) return { created: false, createdAt: existing.createdAt }
          blocks.push({ blockerId, blockedId, createdAt: at })
          return { created: true, createdAt: at }
        }),
      unblock: (blockerId, blockedId) =>
        Effect.sync(() => {
          const i = blocks.findIndex((b) => b.blockerId === blockerId && b.blockedId === blockedId)
          if (i < 0) return false
          blocks.splice(i, 1)
          return true
        }),
      blockedEitherWay: (a, b) =>
        Effect.sync(() => blocks.some((x) => (x.blockerId === a && x.blockedId === b) || (x.blockerId === b && x.blockedId === a))),
      blocksAround: (userId, others) =>
        Effect.sync(() => ({
          blockedByMe: new Set(blocks.filter((b) => b.blockerId === userId && others.includes(b.blockedId)).map((b) => b.blockedId)),
          blockingMe: new Set(blocks.filter((b) => b.blockedId === userId && others.includes(b.blockerId)).map((b) => b.blockerId))
        })),
      blocksOf: (blockerId, page) => {
        const mine = blocks.filter((b) => b.blockerId === blockerId).sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime())
        return Effect.map(
          Effect.forEach(mine.slice(page.offset, page.offset + page.limit), (b) =>
            Effect.map(person(b.blockedId), (u) => ({
              user: { id: u.id, firstName: u.firstName, lastName: u.lastName },
              createdAt: b.createdAt
            }))
          ),
          (rows) => ({ rows, total: mine.length })
        )
      },
      openReportOf: (target) => openReportOf(target),
      insertReport: (report) => {
        const open = reports.find((r) => isOpenReportOf(r, report))
        if (open !== undefined) return Effect.map(full(open), (found) => ({ report: found, created: false }))
        const stored: StoredReport = {
          id: crypto.randomUUID(),
          reporterId: report.reporterId,
          reportedUserId: report.reportedUserId,
          messageId: report.messageId,
          reason: report.reason,
          details: report.details,
          status: "OPEN",
          decidedBy: null,
          decidedAt: null,
          decisionNote: "",
          createdAt: report.at
        }
        reports.push(stored)
        return Effect.map(full(stored), (found) => ({ report: found, created: true }))
      },
      findReport: (id) => {
        const found = reports.find((r) => r.id === id)
        return found === undefined ? Effect.succeed(Option.none()) : Effect.map(full(found), Option.some)
      },
      reports: ({ limit, offset, status }) => {
        const matching = reports.filter((r) => status === undefined || r.status === status).reverse()
        return Effect.map(Effect.forEach(matching.slice(offset, offset + limit), full), (rows) => ({ rows, total: matching.length }))
      },
      decide: (id, decision) => {
        const i = reports.findIndex((r) => r.id === id && r.status === "OPEN")
        if (i < 0) return Effect.succeed(Option.none())
        const decided = {
          ...reports[i]!,
          status: decision.status,
          decidedBy: decision.decidedBy,
          decidedAt: decision.at,
          decisionNote: decision.note
        }
        reports[i] = decided
        return Effect.map(full(decided), Option.some)
      }
    }
  })
)

/**
 * The booked pairs of the in-memory domain (its bookings are not shared with messaging): a test adds
 * `"<userId>:<partnerId>"` to BookedPairsMemory, PairBookings answers from it.
 */
export class BookedPairsMemory extends Context.Tag("messaging/BookedPairsMemory")<BookedPairsMemory, Set<string>>() {}

export const PairBookingsMemory = Layer.effectContext(
  Effect.sync(() => {
    const pairs = new Set<string>()
    return Context.make(BookedPairsMemory, pairs).pipe(
      Context.add(PairBookings, {
        bookedWith: (userId: string, partnerIds: ReadonlyArray<string>) =>
          Effect.succeed(new Set(partnerIds.filter((p) => pairs.has(`${userId}:${p}`) || pairs.has(`${p}:${userId}`))))
      })
    )
  })
)
