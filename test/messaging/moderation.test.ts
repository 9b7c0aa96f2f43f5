import { Effect, type Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { User } from "../../src/modules/identity"
import { BookedPairsMemory } from "../../src/modules/messaging/adapters/safety-memory"
import { Moderation } from "../../src/modules/messaging/moderation"
import { Messaging } from "../../src/modules/messaging/service"
import { failureOf, inMemoryDomain, verifiedAccount } from "../support/domain"

/** Blocks, reports, moderation and privacy on the in-memory stack (its adapters keep the Postgres ones' contracts). */
let runtime: ManagedRuntime.ManagedRuntime<any, unknown>
const run = <A, E>(effect: Effect.Effect<A, E, any>) => runtime.runPromise(effect) as Promise<A>
beforeAll(() => {
  runtime = ManagedRuntime.make(inMemoryDomain() as Layer.Layer<any, unknown, never>)
})
afterAll(() => runtime?.dispose())

const account = (firstName: string) => run(Effect.map(verifiedAccount({ firstName }), ({ user }) => user))
const admin = (user: User) => ({ ...user, role: "ADMIN" as const })

describe("safety (in memory)", () => {
  it("private until the pair is booked; blocks refuse either way; reports and decisions", async () => {
    const [messaging, moderation] = [await run(Messaging), await run(Moderation)]
    const [ana, ben, cleo] = [await account("Ana"), await account("Ben"), await account("Cléo")]
    const { conversation } = await run(messaging.start(ana.id, { participantId: ben.id }))
    expect(conversation.isPrivate).toBe(true)
    const { isPrivate, message } = await run(messaging.send(ana.id, conversation.id, "Mon 06 12 34 56 78"))
    expect(isPrivate).toBe(true)
    expect((await run(messaging.messages(ben.id, conversation.id, {}))).isPrivate).toBe(true)
    // A booked pair (as the bookings port answers it) reads everything.
    await run(Effect.map(BookedPairsMemory, (pairs) => pairs.add(`${ben.id}:${ana.id}`)))
    expect((await run(messaging.get(ana.id, conversation.id))).isPrivate).toBe(false)
    expect((await run(messaging.list(ben.id, {}))).rows[0]!.isPrivate).toBe(false)

    // Blocks: either way, start and send refused; the list; unblock once.
    expect((await run(moderation.block(ben.id, ana.id))).created).toBe(true)
    expect((await run(moderation.block(ben.id, ana.id))).created).toBe(false)
    expect(await run(failureOf(messaging.send(ana.id, conversation.id, "Allô ?")))).toMatchObject({ status: 403, code: "USER_BLOCKED" })
    expect(await run(failureOf(messaging.start(ben.id, { participantId: ana.id })))).toMatchObject({ status: 403 })
    expect(await run(failureOf(moderation.block(ben.id, ben.id)))).toMatchObject({ status: 422 })
    expect((await run(moderation.blocks(ben.id, {}))).rows.map((b) => b.user.id)).toEqual([ana.id])
    await run(moderation.unblock(ben.id, ana.id))
    expect(await run(failureOf(moderation.unblock(ben.id, ana.id)))).toMatchObject({ status: 404, code: "BLOCK_NOT_FOUND" })
    expect((await run(messaging.send(ana.id, conversation.id, "Merci"))).message.content).toBe("Merci")

    // Reports: of a message the reporter received, not by a stranger; the queue and a decision.
    expect(await run(failureOf(moderation.report(cleo.id, { reason: "SPAM", messageId: message.id })))).toMatchObject({ status: 404 })
    const report = await run(moderation.report(ben.id, { reason: "scam", messageId: message.id }))
    expect(report).toMatchObject({ reason: "SCAM", status: "OPEN", reportedUser: { id: ana.id }, message: { id: message.id } })
    expect(await run(failureOf(moderation.queue(ben, {})))).toMatchObject({ status: 403 })
    expect((await run(moderation.queue(admin(cleo), { status: "open" }))).rows.map((r) => r.id)).toEqual([report.id])
    const hidden = await run(moderation.decide(admin(cleo), report.id, { action: "hide_message" }))
    expect(hidden).toMatchObject({ status: "MESSAGE_HIDDEN", decidedBy: cleo.id, message: { hiddenAt: expect.any(Date) } })
    expect((await run(messaging.messages(ben.id, conversation.id, {}))).rows.find((m) => m.id === message.id)!.hiddenAt).not.toBeNull()
    expect(await run(failureOf(moderation.decide(admin(cleo), report.id, { action: "DISMISS" })))).toMatchObject({ status: 409 })
  })
})
