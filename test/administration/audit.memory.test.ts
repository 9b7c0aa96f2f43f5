import { expect } from "@effect/vitest"
import { layer } from "../support/effect-layer"
import { Effect } from "effect"
import type { User } from "../../src/modules/identity"
import { Moderation } from "../../src/modules/messaging/moderation"
import { Messaging } from "../../src/modules/messaging/service"
import { AuditTrail } from "../../src/platform/audit/port"
import { failureOf, inMemoryDomain, verifiedAccount } from "../support/domain"

/** The audit log on the in-memory stack (its adapter keeps the PostgreSQL one's filters and order). */
const account = (firstName: string) => Effect.map(verifiedAccount({ firstName }), ({ user }) => user)
const admin = (user: User) => ({ ...user, role: "ADMIN" as const })
const entries = (filter: Partial<Parameters<Effect.Effect.Success<typeof AuditTrail>["list"]>[0]> = {}) =>
  Effect.flatMap(AuditTrail, (audit) => audit.list({ limit: 100, offset: 0, ...filter }))

layer(inMemoryDomain(), { excludeTestServices: true })("the audit log (in memory)", (it) => {
  it.effect("a report moderated writes one entry with before and after; a refused second decision writes none", () =>
    Effect.gen(function* () {
      const [messaging, moderation] = [yield* Messaging, yield* Moderation]
      const [ana, ben, cleo] = [yield* account("Ana"), yield* account("Ben"), yield* account("Cléo")]
      const { conversation } = yield* messaging.start(ana.id, { participantId: ben.id })
      const { message } = yield* messaging.send(ana.id, conversation.id, "Payez-moi en dehors du site")
      const { report } = yield* moderation.report(ben.id, { reason: "scam", messageId: message.id })
      expect((yield* entries()).rows).toEqual([])

      yield* moderation.decide(admin(cleo), report.id, { action: "hide_message", note: "Hors plateforme" })
      expect(yield* failureOf(moderation.decide(admin(cleo), report.id, { action: "DISMISS" }))).toMatchObject({ status: 409 })
      // A refused actor leaves nothing either.
      expect(yield* failureOf(moderation.decide(ben, report.id, { action: "DISMISS" }))).toMatchObject({ status: 403 })

      const { rows, total } = yield* entries({ subjectType: "REPORT", subjectId: report.id })
      expect(total).toBe(1)
      expect(rows[0]).toMatchObject({
        actorId: cleo.id,
        action: "REPORT_MODERATED",
        subject: { type: "REPORT", id: report.id },
        before: { status: "OPEN", reportedUserId: ana.id, messageId: message.id, reason: "SCAM" },
        after: { status: "MESSAGE_HIDDEN", action: "HIDE_MESSAGE", note: "Hors plateforme", reportedUserId: ana.id, messageId: message.id },
        createdAt: expect.any(Date)
      })
      // Filters: by action and actor; another actor has none.
      expect((yield* entries({ action: "REPORT_MODERATED", actorId: cleo.id })).total).toBe(1)
      expect((yield* entries({ actorId: ana.id })).total).toBe(0)
      expect((yield* entries({ from: new Date(Date.now() + 60_000) })).total).toBe(0)
    })
  )
})
