import { expect } from "@effect/vitest"
import { layer } from "../support/effect-layer"
import { Effect } from "effect"
import type { User } from "../../src/modules/identity"
import { BookedPairsMemory } from "../../src/modules/messaging/adapters/safety-memory"
import { Moderation } from "../../src/modules/messaging/moderation"
import { Messaging } from "../../src/modules/messaging/service"
import { failureOf, inMemoryDomain, verifiedAccount } from "../support/domain"

/** Blocks, reports, moderation and privacy on the in-memory stack (its adapters keep the Postgres ones' contracts). */
const account = (firstName: string) => Effect.map(verifiedAccount({ firstName }), ({ user }) => user)
const admin = (user: User) => ({ ...user, role: "ADMIN" as const })

layer(inMemoryDomain(), { excludeTestServices: true })("safety (in memory)", (it) => {
  it.effect("private until the pair is booked; blocks refuse either way; reports and decisions", () =>
    Effect.gen(function* () {
      const [messaging, moderation] = [yield* Messaging, yield* Moderation]
      const [ana, ben, cleo] = [yield* account("Ana"), yield* account("Ben"), yield* account("Cléo")]
      const { conversation } = yield* messaging.start(ana.id, { participantId: ben.id })
      expect(conversation.isPrivate).toBe(true)
      const { isPrivate, message } = yield* messaging.send(ana.id, conversation.id, "Mon 06 12 34 56 78")
      expect(isPrivate).toBe(true)
      expect((yield* messaging.messages(ben.id, conversation.id, {})).isPrivate).toBe(true)
      // A booked pair (as the bookings port answers it) reads everything.
      yield* Effect.map(BookedPairsMemory, (pairs) => pairs.add(`${ben.id}:${ana.id}`))
      expect((yield* messaging.get(ana.id, conversation.id)).isPrivate).toBe(false)
      expect((yield* messaging.list(ben.id, {})).rows[0]!.isPrivate).toBe(false)

      // Blocks: either way, start and send refused; the list; unblock once.
      expect((yield* moderation.block(ben.id, ana.id)).created).toBe(true)
      expect((yield* moderation.block(ben.id, ana.id)).created).toBe(false)
      expect(yield* failureOf(messaging.send(ana.id, conversation.id, "Allô ?"))).toMatchObject({ status: 403, code: "USER_BLOCKED" })
      expect(yield* failureOf(messaging.start(ben.id, { participantId: ana.id }))).toMatchObject({ status: 403 })
      expect(yield* failureOf(moderation.block(ben.id, ben.id))).toMatchObject({ status: 422 })
      expect((yield* moderation.blocks(ben.id, {})).rows.map((b) => b.user.id)).toEqual([ana.id])
      yield* moderation.unblock(ben.id, ana.id)
      expect(yield* failureOf(moderation.unblock(ben.id, ana.id))).toMatchObject({ status: 404, code: "BLOCK_NOT_FOUND" })
      expect((yield* messaging.send(ana.id, conversation.id, "Merci")).message.content).toBe("Merci")

      // Reports: of a message the reporter received, not by a stranger; the queue and a decision.
      expect(yield* failureOf(moderation.report(cleo.id, { reason: "SPAM", messageId: message.id }))).toMatchObject({ status: 404 })
      const { report } = yield* moderation.report(ben.id, { reason: "scam", messageId: message.id })
      expect(report).toMatchObject({ reason: "SCAM", status: "OPEN", reportedUser: { id: ana.id }, message: { id: message.id } })
      expect(yield* failureOf(moderation.queue(ben, {}))).toMatchObject({ status: 403 })
      expect((yield* moderation.queue(admin(cleo), { status: "open" })).rows.map((r) => r.id)).toEqual([report.id])
      const hidden = yield* moderation.decide(admin(cleo), report.id, { action: "hide_message" })
      expect(hidden).toMatchObject({ status: "MESSAGE_HIDDEN", decidedBy: cleo.id, message: { hiddenAt: expect.any(Date) } })
      expect((yield* messaging.messages(ben.id, conversation.id, {})).rows.find((m) => m.id === message.id)!.hiddenAt).not.toBeNull()
      expect(yield* failureOf(moderation.decide(admin(cleo), report.id, { action: "DISMISS" }))).toMatchObject({ status: 409 })
    })
  )
})
