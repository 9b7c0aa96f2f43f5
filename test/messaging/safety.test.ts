import { describe, expect, it } from "vitest"
import { MASK } from "../../src/modules/messaging/contact-details/rules"
import { REPORTS_PER_DAY } from "../../src/modules/messaging/rules"
import { en, fr } from "../../src/platform/messages"
import { newClient, providerWithService, type Session } from "../support/accounts"
import { expectError, mailsTo } from "../support/http"
import { bookingIn } from "../support/scenarios"
import { record, socketsClosedAfterEach, until } from "../support/sockets"
import { httpWorld } from "../support/world"
import { as, conversationsOn } from "./support"

/** Issue 15 through the API and the socket: private until booked, blocks, reports and the moderation queue. */
const { server, api, admin } = httpWorld({ admin: true })
const sockets = socketsClosedAfterEach()

const client = () => newClient(server, api)
const { start, send } = conversationsOn(api)
const connectAs = (who: Session) => sockets.connectAs(server, who)
const messagesOf = async (who: Session, conversationId: string) => {
  const reply = await api.get(`/api/conversations/${conversationId}/messages`, as(who))
  expect(reply.status, reply.text).toBe(200)
  return reply.body.data.messages as Array<any>
}

const PHONE_TEXT = "Appelle-moi au 06 12 34 56 78 ou écris à lucie.martin@gmail.com, le cours à 45 € le 12/05 à 14h30."
const MASKED_TEXT = `Appelle-moi au ${MASK} ou écris à ${MASK}, le cours à 45 € le 12/05 à 14h30.`

describe("private until booked", () => {
  it("masks contact details for the reader until a booking between the two is CONFIRMED, over REST and the socket", async () => {
    const {
      provider,
      client: buyer,
      serviceId
    } = await providerWithService(server, api, {
      title: "Cours de piano",
      description: "Tous niveaux.",
      price: 45
    })
    const conversation = await start(buyer, provider)
    expect(conversation.privateUntilBooked).toBe(true)
    const [providerSocket, buyerSocket] = [await connectAs(provider), await connectAs(buyer)]
    const [toProvider, toBuyer] = [record(providerSocket, "message_received"), record(buyerSocket, "message_received")]

    const sent = await send(buyer, conversation.id, PHONE_TEXT)
    expect(sent.status, sent.text).toBe(201)
    // The sender gets the original, marked as masked for the other.
    expect(sent.body.data.message).toMatchObject({ content: PHONE_TEXT, masked: false, maskedForRecipient: true, hidden: false })
    expect((await messagesOf(buyer, conversation.id))[0]).toMatchObject({ content: PHONE_TEXT, masked: false, maskedForRecipient: true })
    // The reader gets it masked, with the flag; the list's last message too.
    expect((await messagesOf(provider, conversation.id))[0]).toMatchObject({ content: MASKED_TEXT, masked: true })
    const list = await api.get("/api/conversations", as(provider))
    expect(list.body.data.conversations[0]).toMatchObject({
      id: conversation.id,
      privateUntilBooked: true,
      lastMessage: { content: MASKED_TEXT, masked: true }
    })
    expect(JSON.stringify(list.body)).not.toContain("06 12 34 56 78")
    // The socket: masked for the provider, the original for the sender's other tabs.
    await until(() => toProvider.length === 1 && toBuyer.length === 1, 3000)
    expect(toProvider[0].message).toMatchObject({ content: MASKED_TEXT, masked: true })
    expect(toBuyer[0].message).toMatchObject({ content: PHONE_TEXT, masked: false, maskedForRecipient: true })
    // A plain message is not flagged.
    const plain = await send(provider, conversation.id, "Avec plaisir, à mardi !")
    expect(plain.body.data.message).toMatchObject({ masked: false, maskedForRecipient: false })

    // A paid request is not enough (PENDING)...
    const { bookingId } = await bookingIn(server, "paid", {
      provider,
      client: buyer,
      serviceId,
      startsInHours: 26,
      address: "1200 rue Sainte-Catherine, Montréal"
    })
    expect((await messagesOf(provider, conversation.id))[1]).toMatchObject({ content: MASKED_TEXT, masked: true })
    // ...once CONFIRMED, everything shows, the earlier message included.
    const confirmed = await api.post(`/api/bookings/${bookingId}/confirm`, {}, as(provider))
    expect(confirmed.status, confirmed.text).toBe(200)
    expect((await messagesOf(provider, conversation.id))[1]).toMatchObject({
      content: PHONE_TEXT,
      masked: false,
      maskedForRecipient: false
    })
    expect((await api.get(`/api/conversations/${conversation.id}`, as(provider))).body.data.conversation.privateUntilBooked).toBe(false)
    await send(buyer, conversation.id, "Mon autre numéro : (514) 555-1234")
    await until(() => toProvider.length === 3, 3000)
    expect(toProvider[2].message).toMatchObject({ content: "Mon autre numéro : (514) 555-1234", masked: false })

    // A block stops the messages, booked or not, and leaves the booking as it was.
    expect((await api.post(`/api/users/${provider.id}/block`, {}, as(buyer))).status).toBe(201)
    expectError(await send(provider, conversation.id, "Bonjour ?"), 403, "USER_BLOCKED")
    for (const who of [buyer, provider]) {
      const booking = await api.get(`/api/bookings/${bookingId}`, as(who))
      expect(booking.status).toBe(200)
      expect(booking.body.data.booking.status).toBe("CONFIRMED")
    }
  })
})

describe("private until booked, beyond messages (issue 23, item 9)", () => {
  const NOTES = "Code de la porte 1234B. Mon numéro : zéro six douze trente-quatre cinquante-six soixante-dix-huit, IG @lucie_m."

  it("a booking's notes reach the provider masked until the booking is confirmed; the client is told, and reads them whole", async () => {
    const built = await bookingIn(server, "paid", { notes: NOTES })
    const read = async (who: Session, language: "fr" | "en" = "fr") =>
      (await api.get(`/api/bookings/${built.bookingId}`, as(who, language))).body.data.booking as { notes: string; notesMasked: boolean }
    expect(await read(built.provider)).toEqual(
      expect.objectContaining({ notes: `Code de la porte 1234B. Mon numéro : ${MASK}, ${MASK}.`, notesMasked: true })
    )
    expect(await read(built.client)).toEqual(expect.objectContaining({ notes: NOTES, notesMasked: true }))
    const listed = await api.get("/api/bookings?role=provider", as(built.provider))
    expect(JSON.stringify(listed.body)).not.toContain("trente-quatre")
    expect((await api.post(`/api/bookings/${built.bookingId}/confirm`, {}, as(built.provider))).status).toBe(200)
    expect(await read(built.provider)).toEqual(expect.objectContaining({ notes: NOTES, notesMasked: false }))
  })

  it("a service's title and description, and a profile's bio, refuse contact details with a message in the reader's language", async () => {
    const { provider, serviceId } = await providerWithService(server, api, { title: "Plomberie", description: "Dépannage.", price: 50 })
    const cases: ReadonlyArray<readonly [string, Record<string, unknown>, string]> = [
      [
        "POST",
        { title: "Plombier 06 12 34 56 78", description: "Dépannage.", price: 50, duration: 60, location: "Montréal", categoryId: 7 },
        "title"
      ],
      ["PATCH", { description: "Devis sur marie-plomberie.fr" }, "description"],
      ["PATCH", { description: "Écrivez-moi : marie\u200b@gmail.com" }, "description"],
      ["PATCH", { title: "Plomberie (IG @marie_plombe)" }, "title"]
    ]
    for (const [method, body, field] of cases) {
      for (const [language, messages] of [
        ["fr", fr],
        ["en", en]
      ] as const) {
        const reply =
          method === "POST"
            ? await api.post("/api/services", body, as(provider, language))
            : await api.patch(`/api/services/${serviceId}`, body, as(provider, language))
        expectError(reply, 422, "VALIDATION_ERROR", JSON.stringify(body))
        expect(reply.body.details, JSON.stringify(body)).toContainEqual(
          expect.objectContaining({ field, message: messages["validation.contactDetails"] })
        )
      }
    }
    // Prices, dates and times stay welcome.
    const fine = await api.patch(
      `/api/services/${serviceId}`,
      { description: "Dès 50 € de l'heure, le samedi 12/05 de 9h à 17h." },
      as(provider)
    )
    expect(fine.status, fine.text).toBe(200)
    const bio = await api.patch("/api/users/me", { bio: "Appelez le 514 555 1234" }, as(provider, "en"))
    expectError(bio, 422, "VALIDATION_ERROR")
    expect(bio.body.details).toContainEqual(expect.objectContaining({ field: "bio", message: en["validation.contactDetails"] }))
  })
})

describe("blocks", () => {
  it("POST/DELETE /api/users/{id}/block and GET /api/users/me/blocks, with every refusal", async () => {
    const [a, b] = [await client(), await client()]
    const conversation = await start(a, b)
    expect((await send(b, conversation.id, "Salut")).status).toBe(201)

    const blocked = await api.post(`/api/users/${b.id}/block`, {}, as(a, "en"))
    expect(blocked.status, blocked.text).toBe(201)
    expect(blocked.body).toMatchObject({ data: { created: true, block: { user: { id: b.id } } }, message: en["messaging.userBlocked"] })
    expect((await api.post(`/api/users/${b.id.toUpperCase()}/block`, {}, as(a))).status).toBe(200)
    expectError(await api.post(`/api/users/${a.id}/block`, {}, as(a)), 422, "VALIDATION_ERROR")
    expectError(await api.post("/api/users/00000000-0000-4000-8000-000000000000/block", {}, as(a)), 404, "USER_NOT_FOUND")
    expectError(await api.post("/api/users/nope/block", {}, as(a)), 404, "USER_NOT_FOUND")
    expect((await api.post(`/api/users/${b.id}/block`, {})).status).toBe(401)

    // Neither can write nor start, either way; in both languages.
    const fromB = await send(b, conversation.id, "Tu es là ?", "fr")
    expectError(fromB, 403, "USER_BLOCKED")
    expect(fromB.body.message).toBe(fr["messaging.blocked"])
    const fromA = await send(a, conversation.id, "Hello", "en")
    expectError(fromA, 403, "USER_BLOCKED")
    expect(fromA.body.message).toBe(en["messaging.blocked"])
    expectError(await api.post("/api/conversations", { participantId: a.id }, as(b)), 403, "USER_BLOCKED")
    // Reading what was said stays possible.
    expect((await messagesOf(b, conversation.id)).length).toBe(1)

    const list = await api.get("/api/users/me/blocks", as(a))
    expect(list.status).toBe(200)
    expect(list.body.data.blocks.map((x: any) => x.user.id)).toEqual([b.id])
    expect(list.body.data.pagination).toMatchObject({ total: 1, page: 1 })
    expect((await api.get("/api/users/me/blocks", as(b))).body.data.blocks).toEqual([])
    expect((await api.get("/api/users/me/blocks")).status).toBe(401)

    // Only the blocker lifts it.
    expectError(await api.call("DELETE", `/api/users/${a.id}/block`, as(b)), 404, "BLOCK_NOT_FOUND")
    expectError(await api.call("DELETE", "/api/users/garbage/block", as(a)), 404, "USER_NOT_FOUND")
    const lifted = await api.call("DELETE", `/api/users/${b.id}/block`, as(a))
    expect(lifted.status, lifted.text).toBe(200)
    expectError(await api.call("DELETE", `/api/users/${b.id}/block`, as(a)), 404, "BLOCK_NOT_FOUND")
    expect((await send(b, conversation.id, "Merci !")).status).toBe(201)
  })
})

describe("reports and moderation", () => {
  const report = (who: Session, body: Record<string, unknown>, language?: string) => api.post("/api/reports", body, as(who, language))

  it("POST /api/reports: a message or a profile, every refusal, and the daily limit", async () => {
    const [a, b, stranger] = [await client(), await client(), await client()]
    const conversation = await start(a, b)
    const theirs = (await send(b, conversation.id, "Paie-moi en liquide, hors site.")).body.data.message
    const mine = (await send(a, conversation.id, "Non merci.")).body.data.message

    const filed = await report(a, { reason: "off_platform", details: "Demande de paiement en liquide.", messageId: theirs.id })
    expect(filed.status, filed.text).toBe(201)
    expect(filed.body.data.report).toMatchObject({
      reason: "OFF_PLATFORM",
      status: "OPEN",
      messageId: theirs.id,
      reportedUser: { id: b.id }
    })
    expect(filed.body.message).toBe(fr["moderation.reportReceived"])
    expect((await report(a, { reason: "SPAM", userId: b.id })).status).toBe(201)

    const invalid = await report(a, { reason: "RUDE", messageId: theirs.id, userId: b.id }, "en")
    expectError(invalid, 422, "VALIDATION_ERROR")
    expect(invalid.body.details).toEqual([
      { field: "reason", message: en["moderation.reasonInvalid"] },
      { field: "userId", message: en["moderation.targetRequired"] }
    ])
    expectError(await report(a, { userId: b.id }), 422, "VALIDATION_ERROR")
    expectError(await report(a, { reason: "SPAM" }), 422, "VALIDATION_ERROR")
    expectError(await report(a, { reason: "SPAM", userId: b.id, details: "x".repeat(1001) }), 422, "VALIDATION_ERROR")
    expectError(await report(a, { reason: "SPAM", messageId: mine.id }), 422, "VALIDATION_ERROR")
    expectError(await report(a, { reason: "SPAM", userId: a.id }), 422, "VALIDATION_ERROR")
    // A message of a conversation the reporter is not in is unknown to them.
    expectError(await report(stranger, { reason: "SPAM", messageId: theirs.id }), 404, "MESSAGE_NOT_FOUND")
    expectError(await report(a, { reason: "SPAM", messageId: "nope" }), 404, "MESSAGE_NOT_FOUND")
    expectError(await report(a, { reason: "SPAM", userId: "00000000-0000-4000-8000-000000000000" }), 404, "USER_NOT_FOUND")
    expect((await api.post("/api/reports", { reason: "SPAM", userId: b.id })).status).toBe(401)
    expectError(await report(a, { reason: "SPAM", userId: b.id, extra: 1 }), 400, "MALFORMED_REQUEST")

    // REPORTS_PER_DAY reports filed per reporter (the two above count; the same target again files none), then 429.
    const more = []
    for (let i = 0; i < REPORTS_PER_DAY - 1; i++) more.push((await send(b, conversation.id, `Message ${i}`)).body.data.message)
    for (const message of more.slice(0, -1)) expect((await report(a, { reason: "OTHER", messageId: message.id })).status).toBe(201)
    expect((await report(a, { reason: "SPAM", userId: b.id })).body.message).toBe(fr["moderation.alreadyReported"])
    const limited = await report(a, { reason: "OTHER", messageId: more.at(-1)!.id })
    expectError(limited, 429, "RATE_LIMITED")
    expect((await report(stranger, { reason: "OTHER", userId: b.id })).status).toBe(201)
  })

  it("the queue is the admins': list by status with paging, detail, and each decision with its effect", async () => {
    const [a, b] = [await client(), await client()]
    const conversation = await start(a, b)
    const offending = (await send(b, conversation.id, "Message insultant 06 11 22 33 44")).body.data.message
    const byMessage = (await report(a, { reason: "HARASSMENT", messageId: offending.id })).body.data.report
    const byProfile = (await report(a, { reason: "SCAM", userId: b.id, details: "Faux profil" })).body.data.report
    const other = (await report(b, { reason: "SPAM", userId: a.id })).body.data.report

    // Admins only.
    for (const [method, path] of [
      ["GET", "/api/admin/reports"],
      ["GET", `/api/admin/reports/${byMessage.id}`],
      ["POST", `/api/admin/reports/${byMessage.id}/decision`]
    ] as const) {
      const body = method === "POST" ? { json: { action: "DISMISS" } } : {}
      expect((await api.call(method, path, body)).status).toBe(401)
      expectError(await api.call(method, path, { ...body, ...as(a) }), 403, "FORBIDDEN")
    }

    const open = await api.get("/api/admin/reports?status=OPEN&limit=2", as(admin))
    expect(open.status, open.text).toBe(200)
    expect(open.body.data.reports.map((r: any) => r.id)).toEqual([other.id, byProfile.id])
    expect(open.body.data.pagination).toMatchObject({ page: 1, limit: 2 })
    expect(open.body.data.pagination.total).toBeGreaterThanOrEqual(3)
    expect((await api.get("/api/admin/reports?status=OPEN&limit=2&page=2", as(admin))).body.data.reports[0].id).toBe(byMessage.id)
    expectError(await api.get("/api/admin/reports?status=CLOSED", as(admin)), 422, "VALIDATION_ERROR")
    const detail = await api.get(`/api/admin/reports/${byMessage.id}`, as(admin))
    expect(detail.body.data.report).toMatchObject({
      reason: "HARASSMENT",
      reporter: { id: a.id },
      reportedUser: { id: b.id, isActive: true },
      // Admins read the original, marked as masked for its recipient.
      message: { id: offending.id, content: "Message insultant 06 11 22 33 44", maskedForRecipient: true, hidden: false }
    })
    expectError(await api.get("/api/admin/reports/00000000-0000-4000-8000-000000000000", as(admin)), 404, "REPORT_NOT_FOUND")
    expectError(await api.get("/api/admin/reports/nope", as(admin)), 404, "REPORT_NOT_FOUND")

    const decide = (id: string, body: Record<string, unknown>) => api.post(`/api/admin/reports/${id}/decision`, body, as(admin))
    expectError(await decide(byMessage.id, { action: "BAN" }), 422, "VALIDATION_ERROR")
    expectError(await decide(byMessage.id, {}), 422, "VALIDATION_ERROR")
    expectError(await decide(byProfile.id, { action: "HIDE_MESSAGE" }), 422, "VALIDATION_ERROR")
    expectError(await decide("00000000-0000-4000-8000-000000000000", { action: "DISMISS" }), 404, "REPORT_NOT_FOUND")

    // Hide: hidden for both participants, shown to admins.
    const hidden = await decide(byMessage.id, { action: "HIDE_MESSAGE", note: "Insulte" })
    expect(hidden.status, hidden.text).toBe(200)
    expect(hidden.body.data.report).toMatchObject({ status: "MESSAGE_HIDDEN", decisionNote: "Insulte", message: { hidden: true } })
    expect(hidden.body.data.report.message.content).toBe("Message insultant 06 11 22 33 44")
    for (const who of [a, b])
      expect((await messagesOf(who, conversation.id))[0]).toMatchObject({ id: offending.id, content: "", hidden: true })
    expect((await api.get("/api/conversations", as(a))).body.data.conversations[0].lastMessage).toMatchObject({ content: "", hidden: true })
    expectError(await decide(byMessage.id, { action: "DISMISS" }), 409, "REPORT_ALREADY_DECIDED")

    // Warn: a mail to the reported user.
    const warned = await decide(other.id, { action: "WARN", note: "Soyez courtois." })
    expect(warned.body.data.report.status).toBe("WARNED")
    const mails = await mailsTo(server, a.email)
    expect(mails.some((m) => m.subject === fr["mail.moderationWarning.subject"] && m.text.includes("Soyez courtois."))).toBe(true)

    // Deactivate: through the back-office's path; the account can no longer sign in.
    const deactivated = await decide(byProfile.id, { action: "DEACTIVATE" })
    expect(deactivated.status, deactivated.text).toBe(200)
    expect(deactivated.body.data.report).toMatchObject({ status: "ACCOUNT_DEACTIVATED", reportedUser: { id: b.id, isActive: false } })
    expect((await api.get("/api/users/me", as(b))).status).toBe(401)
    expect((await api.get("/api/admin/reports?status=ACCOUNT_DEACTIVATED", as(admin))).body.data.reports.map((r: any) => r.id)).toContain(
      byProfile.id
    )

    // An admin reported by someone cannot deactivate themself through the queue (identity's rule: 409).
    const self = (await report(a, { reason: "OTHER", userId: admin.id })).body.data.report
    expectError(await decide(self.id, { action: "DEACTIVATE" }), 409, "CANNOT_DEACTIVATE_SELF")
    expect((await decide(self.id, { action: "DISMISS" })).body.data.report.status).toBe("DISMISSED")
  })
})
