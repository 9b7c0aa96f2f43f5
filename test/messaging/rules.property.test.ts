import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  contentLength,
  decideStart,
  decideWrite,
  isParticipant,
  MAX_CONTENT_LENGTH,
  pairKey,
  toMarkRead,
  unreadCount,
  validateContent
} from "../../src/modules/messaging/domain"
import {
  applyRead,
  characterCount,
  conversationTitle,
  draftProblem,
  mergeMessages,
  relativeTime,
  tallyRead,
  tallyReceived,
  unreadTally,
  withMessage,
  withRead
} from "../../ui/messaging/rules"
import type { Conversation, Message } from "../../ui/api/contract"

const codeOf = (r: Either.Either<unknown, { code: string }>) => (Either.isLeft(r) ? r.left.code : "OK")
const detailKeys = (r: Either.Either<unknown, object>) =>
  Either.isLeft(r) && "details" in r.left ? (r.left as { details: ReadonlyArray<{ key: string }> }).details.map((d) => d.key) : []

const whitespace = fc.constantFrom(" ", "\n", "\t", "\u00a0", "\u2003")
const padding = fc.array(whitespace, { maxLength: 4 }).map((a) => a.join(""))
/** Text whose first and last characters are not white space (emoji and accents included). */
const core = fc
  .array(fc.oneof(fc.constantFrom("a", "é", "🙂", "字", "-", "!"), fc.string({ minLength: 1, maxLength: 3 })), {
    minLength: 1,
    maxLength: 40
  })
  .map((parts) => parts.join(""))
  .filter((s) => s.trim() === s && s !== "")
const id = fc.uuid()

describe("message content", () => {
  it("accepts exactly the texts that are not blank and at most 2000 characters once trimmed, and answers them trimmed", () => {
    fc.assert(
      fc.property(padding, core, padding, (before, text, after) => {
        const result = validateContent(before + text + after)
        if (contentLength(text) <= MAX_CONTENT_LENGTH) expect(result).toEqual(Either.right(text))
        else expect(detailKeys(result)).toEqual(["messaging.contentTooLong"])
      })
    )
    fc.assert(
      fc.property(padding, (blank) => {
        expect(detailKeys(validateContent(blank))).toEqual(["messaging.contentRequired"])
      })
    )
    expect(detailKeys(validateContent(undefined))).toEqual(["messaging.contentRequired"])
  })

  it("counts characters as PostgreSQL does (code points), at the 2000 boundary", () => {
    fc.assert(
      fc.property(fc.constantFrom("a", "é", "🙂", "👩‍👩‍👧"), fc.integer({ min: 1990, max: 2010 }), (unit, times) => {
        const text = unit.repeat(Math.ceil(times / [...unit].length)).slice(0)
        const length = [...text].length
        expect(contentLength(text)).toBe(length)
        expect(Either.isRight(validateContent(text))).toBe(length <= MAX_CONTENT_LENGTH)
        // The UI counts and refuses the same way.
        expect(characterCount(text)).toBe(length)
        expect(draftProblem(text)).toBe(length <= MAX_CONTENT_LENGTH ? null : "tooLong")
      })
    )
  })

  it("the UI's draft check agrees with the server's rule on any text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        const server = validateContent(text)
        const ui = draftProblem(text)
        expect(ui === null).toBe(Either.isRight(server))
      })
    )
  })
})

describe("who may do what", () => {
  const user = fc.record({ id, isActive: fc.boolean() })

  it("start: never with oneself (422), only with an active account (404), only by an active account (403)", () => {
    fc.assert(
      fc.property(user, fc.option(user, { nil: undefined }), fc.boolean(), (me, other, self) => {
        const target = self ? { ...me } : other
        const code = codeOf(decideStart(me, target))
        if (!me.isActive) expect(code).toBe("ACCOUNT_DEACTIVATED")
        else if (target !== undefined && target.id === me.id) expect(code).toBe("VALIDATION_ERROR")
        else if (target === undefined || !target.isActive) expect(code).toBe("USER_NOT_FOUND")
        else expect(code).toBe("OK")
      })
    )
  })

  it("write: non-participants get the same 404 whatever their state; participants need an active account", () => {
    fc.assert(
      fc.property(user, fc.array(id, { maxLength: 4 }), fc.boolean(), (writer, others, member) => {
        const participants = member ? [...others, writer.id] : others.filter((o) => o !== writer.id)
        const code = codeOf(decideWrite(writer, participants))
        expect(isParticipant(participants, writer.id)).toBe(member)
        expect(code).toBe(!member ? "CONVERSATION_NOT_FOUND" : writer.isActive ? "OK" : "ACCOUNT_DEACTIVATED")
      })
    )
  })

  it("a pair has one key whatever the order, and different pairs different keys", () => {
    fc.assert(
      fc.property(id, id, id, (a, b, c) => {
        expect(pairKey(a, b)).toBe(pairKey(b, a))
        if (c !== a && c !== b) expect(pairKey(a, c)).not.toBe(pairKey(a, b))
      })
    )
  })
})

const message = (senderId: string, read: boolean, n: number): Message => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
  conversationId: "c",
  senderId,
  content: `m${n}`,
  createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(),
  isRead: read,
  readAt: read ? new Date(Date.UTC(2025, 0, 2)).toISOString() : null,
  masked: false,
  maskedForRecipient: false,
  hidden: false
})
const history = fc
  .array(fc.record({ mine: fc.boolean(), read: fc.boolean() }), { maxLength: 30 })
  .map((rows) => rows.map((r, n) => message(r.mine ? "me" : "you", r.read, n)))

describe("read marks and unread counts", () => {
  it("unread = what others sent without a mark; marking everything leaves none and touches only those", () => {
    fc.assert(
      fc.property(history, (messages) => {
        const records = messages.map((m) => ({ id: m.id, senderId: m.senderId, readAt: m.readAt === null ? null : new Date(m.readAt) }))
        const unread = unreadCount(records, "me")
        expect(unread).toBe(messages.filter((m) => m.senderId !== "me" && !m.isRead).length)
        const marked = toMarkRead(records, "me")
        expect(marked).toHaveLength(unread)
        const after = records.map((r) => (marked.includes(r.id) ? { ...r, readAt: new Date() } : r))
        expect(unreadCount(after, "me")).toBe(0)
        // Never one's own messages, never twice.
        expect(toMarkRead(after, "me")).toEqual([])
        for (const markedId of marked) expect(records.find((r) => r.id === markedId)!.senderId).not.toBe("me")
      })
    )
  })

  it("marking named ids marks only those among the unread", () => {
    fc.assert(
      fc.property(history, fc.array(fc.nat({ max: 40 })), (messages, picks) => {
        const records = messages.map((m) => ({ id: m.id, senderId: m.senderId, readAt: m.isRead ? new Date() : null }))
        const named = picks.map((n) => message("x", false, n).id)
        const marked = toMarkRead(records, "me", named)
        expect(new Set(marked)).toEqual(new Set(toMarkRead(records, "me").filter((x) => named.includes(x))))
      })
    )
  })

  it("the UI merges pages and events into one list, oldest first, each message once, read marks applied", () => {
    fc.assert(
      fc.property(history, fc.array(fc.nat({ max: 29 }), { maxLength: 30 }), (messages, split) => {
        const a = messages.filter((_, i) => split.includes(i))
        const b = messages.filter((_, i) => !split.includes(i) || i % 2 === 0)
        const merged = mergeMessages(a, b)
        expect(merged.map((m) => m.id)).toEqual(messages.map((m) => m.id))
        const read = applyRead(merged, { messageIds: merged.map((m) => m.id), readAt: "2025-02-01T00:00:00.000Z" })
        expect(read.every((m) => m.isRead)).toBe(true)
      })
    )
  })
})

const participant = (n: number, first = `P${n}`, last = `L${n}`) => ({ id: `user-${n}`, firstName: first, lastName: last })

describe("conversation titles", () => {
  it("its own title, else the other participant's full name, else the number of participants", () => {
    fc.assert(
      fc.property(
        fc.option(fc.string({ maxLength: 20 }), { nil: null }),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom("", "Marie"),
        (title, count, first) => {
          const participants = [
            participant(0),
            ...Array.from({ length: count }, (_, i) =>
              participant(i + 1, i === 0 ? first : `P${i + 1}`, i === 0 && first === "" ? "" : `L${i + 1}`)
            )
          ]
          const result = conversationTitle({ title, participants }, "user-0")
          if (title !== null && title.trim() !== "") expect(result).toEqual({ kind: "title", text: title.trim() })
          else if (count === 1 && first !== "") expect(result).toEqual({ kind: "name", text: `${first} L1` })
          else expect(result).toEqual({ kind: "count", count: count + 1 })
        }
      )
    )
  })
})

describe("relative times", () => {
  it("picks the largest unit under a week, never a future value, then a date", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 * 86_400_000 }), (elapsed) => {
        const now = Date.UTC(2025, 5, 1)
        const r = relativeTime(now - elapsed, now)
        if (elapsed < 60_000) expect(r).toEqual({ unit: "second", value: 0 })
        else if (elapsed < 3_600_000) expect(r).toEqual({ unit: "minute", value: -Math.floor(elapsed / 60_000) })
        else if (elapsed < 86_400_000) expect(r).toEqual({ unit: "hour", value: -Math.floor(elapsed / 3_600_000) })
        else if (elapsed < 7 * 86_400_000) expect(r).toEqual({ unit: "day", value: -Math.floor(elapsed / 86_400_000) })
        else expect(r).toEqual({ unit: "date" })
        if (r.unit !== "date") expect(r.value).toBeLessThanOrEqual(0)
      })
    )
  })
})

describe("the live conversation list", () => {
  const conversation = (n: number, unread: number): Conversation => ({
    id: `conv-${n}`,
    title: null,
    serviceId: null,
    participants: [participant(0), participant(n + 1)],
    unreadCount: unread,
    lastMessage: null,
    lastMessageAt: new Date(Date.UTC(2025, 0, 1, 0, 0, 60 - n)).toISOString(),
    createdAt: new Date(Date.UTC(2025, 0, 1)).toISOString(),
    privateUntilBooked: true,
    blocked: "NONE"
  })
  const list = fc.array(fc.nat({ max: 5 }), { minLength: 1, maxLength: 8 }).map((unread) => unread.map((u, n) => conversation(n, u)))

  it("a new message moves its conversation to the top, the others keep their order; unread +1 unless mine, -n when read", () => {
    fc.assert(
      fc.property(list, fc.nat(), fc.boolean(), (conversations, pick, mine) => {
        const target = conversations[pick % conversations.length]!
        const incoming = { ...message(mine ? "user-0" : "someone", false, 99), id: "new-message", conversationId: target.id }
        const event = { conversationId: target.id, message: incoming, sender: { id: incoming.senderId, firstName: "X", lastName: "Y" } }
        const next = withMessage(conversations, event, "user-0")
        if (next === "reload") throw new Error("the conversation is on the page")
        expect(next.map((c) => c.id)).toEqual([target.id, ...conversations.filter((c) => c.id !== target.id).map((c) => c.id)])
        expect(next[0]!.unreadCount).toBe(target.unreadCount + (mine ? 0 : 1))
        expect(next[0]!.lastMessage?.content).toBe("m99")
        // The same event twice (REST and socket) counts once.
        expect(withMessage(next, event, "user-0")).toBe(next)
        // The viewer reading it brings the count back down, never below zero.
        const read = withRead(
          next,
          { conversationId: target.id, readerId: "user-0", messageIds: ["new-message"], readAt: "2025-01-02T00:00:00Z" },
          "user-0"
        )
        expect(read[0]!.unreadCount).toBe(Math.max(0, next[0]!.unreadCount - 1))
        expect(read[0]!.lastMessage?.isRead).toBe(true)
      })
    )
    expect(
      withMessage(
        [conversation(0, 0)],
        { conversationId: "elsewhere", message: message("x", false, 1), sender: { id: "x", firstName: "X", lastName: "Y" } },
        "user-0"
      )
    ).toBe("reload")
  })
})

describe("the navigation's unread badge", () => {
  const received = (senderId: string, n: number) => ({
    conversationId: "c",
    message: message(senderId, false, n),
    sender: { id: senderId, firstName: "A", lastName: "B" }
  })
  const readBy = (readerId: string, ids: ReadonlyArray<string>) => ({
    conversationId: "c",
    readerId,
    messageIds: [...ids],
    readAt: "2025-01-02T00:00:00Z"
  })

  it("counts each message others sent once, lowers on the viewer's marks only, and never goes below zero", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 50 }),
        fc.array(fc.record({ mine: fc.boolean(), n: fc.nat({ max: 20 }) }), { maxLength: 40 }),
        (start, events) => {
          let tally = unreadTally(start)
          const fromOthers = new Set<string>()
          for (const e of events) {
            const event = received(e.mine ? "me" : "you", e.n)
            tally = tallyReceived(tally, event, "me")
            if (!e.mine) fromOthers.add(event.message.id)
          }
          // Duplicates (the same id twice) and the viewer's own messages add nothing.
          expect(tally.count).toBe(start + fromOthers.size)
          // The other side's marks leave the count alone.
          expect(tallyRead(tally, readBy("you", [...fromOthers]), "me").count).toBe(tally.count)
          // The viewer reading the new ones brings it back to where it was.
          const read = tallyRead(tally, readBy("me", [...fromOthers]), "me")
          expect(read.count).toBe(start)
          // Marks for more than the count (read elsewhere before the load) stop at zero.
          expect(
            tallyRead(
              read,
              readBy(
                "me",
                Array.from({ length: start + 3 }, (_, i) => `x${i}`)
              ),
              "me"
            ).count
          ).toBe(0)
        }
      )
    )
  })
})
