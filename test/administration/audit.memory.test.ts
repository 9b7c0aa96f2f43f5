import { Effect, type Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { User } from "../../src/modules/identity"
import { Moderation } from "../../src/modules/messaging/moderation"
import { Messaging } from "../../src/modules/messaging/service"
import { AuditTrail } from "../../src/platform/audit/port"
import { failureOf, inMemoryDomain, verifiedAccount } from "../support/domain"

/** The audit log on the in-memory stack (its adapter keeps the PostgreSQL one's filters and order). */
let runtime: ManagedRuntime.ManagedRuntime<any, unknown>
const run = <A, E>(effect: Effect.Effect<A, E, any>) => runtime.runPromise(effect) as Promise<A>
beforeAll(() => {
  runtime = ManagedRuntime.make(inMemoryDomain() as Layer.Layer<any, unknown, never>)
})
afterAll(() => runtime?.dispose())

const account = (firstName: string) => run(Effect.map(verifiedAccount({ firstName }), ({ user }) => user))
const admin = (user: User) => ({ ...user, role: "ADMIN" as const })
const entries = (filter: Partial<Parameters<Effect.Effect.Success<typeof AuditTrail>["list"]>[0]> = {}) =>
  run(Effect.flatMap(AuditTrail, (audit) => audit.list({ limit: 100, offset: 0, ...filter })))

describe("the audit log (in memory)", () => {
  it("a report moderated writes one entry with before and after; a refused second decision writes none", async () => {
    const [messaging, moderation] = [await run(Messaging), await run(Moderation)]
    const [ana, ben, cleo] = [await account("Ana"), await account("Ben"), await account("Cléo")]
    const { conversation } = await run(messaging.start(ana.id, { participantId: ben.id }))
    const { message } = await run(messaging.send(ana.id, conversation.id, "Payez-moi en dehors du site"))
    const report = await run(moderation.report(ben.id, { reason: "scam", messageId: message.id }))
    expect((await entries()).rows).toEqual([])

    await run(moderation.decide(admin(cleo), report.id, { action: "hide_message", note: "Hors plateforme" }))
    expect(await run(failureOf(moderation.decide(admin(cleo), report.id, { action: "DISMISS" })))).toMatchObject({ status: 409 })
    // A refused actor leaves nothing either.
    expect(await run(failureOf(moderation.decide(ben, report.id, { action: "DISMISS" })))).toMatchObject({ status: 403 })

    const { rows, total } = await entries({ subjectType: "REPORT", subjectId: report.id })
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
    expect((await entries({ action: "REPORT_MODERATED", actorId: cleo.id })).total).toBe(1)
    expect((await entries({ actorId: ana.id })).total).toBe(0)
    expect((await entries({ from: new Date(Date.now() + 60_000) })).total).toBe(0)
  })
})
