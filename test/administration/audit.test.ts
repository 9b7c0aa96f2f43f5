// Issue 13 items 3 and 4: refunds from the back-office (one use case with `payments:refund`), the admin
// status menu the server allows (`allowedStatuses`), and the audit log of admins' decisions, written in
// the decision's own transaction, read on GET /api/admin/audit and by `bin/run audit:list --json`.
import { Cause, Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { changeUser, listAudit, Operator, renderAudit } from "../../cli/commands/administration"
import { Administration } from "../../src/modules/administration"
import { refundBooking } from "../../cli/commands/bookings/shared"
import { en, fr } from "../../src/platform/messages"
import { newClient } from "../support/accounts"
import { cliBuiltWith } from "../support/cli"
import { cliWorld } from "../support/world"
import { applicationForm, submit } from "../onboarding/support"

const world = cliWorld({
  service: { title: "Cours de cuisine lyonnaise", description: "À domicile.", price: 45, currency: "EUR", location: "Lyon" },
  admin: true,
  slots: { hours: 2 }
})
const { server, cli, api, client, admin, sql, failureCode, bookedIn } = world

// Result names come back camelCase (the client's transform).
interface AuditRow {
  actorId: string
  action: string
  subjectType: string
  subjectId: string
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
}
const auditOf = (subjectId: string) =>
  sql<AuditRow>(
    "SELECT actor_id, action, subject_type, subject_id, before, after FROM audit_log WHERE subject_id = $1 ORDER BY created_at, id",
    [subjectId]
  )

/** A booking of the test service (45 EUR an hour, 2 hours), paid in the sandbox: PENDING, AUTHORIZED for 9000. */
const paidBooking = async () => (await bookedIn("paid")).bookingId
const setStatus = async (id: string, status: string) => {
  const reply = await api.patch(`/api/admin/bookings/${id}/status`, { status }, { token: admin.token })
  expect(reply.status, reply.text).toBe(200)
  return reply.body.data.booking
}
/** Captured: 9000 EUR cents. */
const capturedBooking = async () => {
  const id = await paidBooking()
  await setStatus(id, "CONFIRMED")
  expect(await setStatus(id, "VALIDATED")).toMatchObject({ paymentStatus: "CAPTURED", capturedMinor: 9000 })
  return id
}
const refund = (id: string, body: unknown, language = "fr") =>
  api.post(`/api/admin/bookings/${id}/refund`, body, { token: admin.token, language })

describe("POST /api/admin/bookings/{id}/refund", () => {
  it("refunds part, then the rest, with a reason; the detail lists the refunds and what is left; one audit entry each", async () => {
    const id = await capturedBooking()
    const detail = await api.get(`/api/admin/bookings/${id}`, { token: admin.token })
    expect(detail.body.data.booking).toMatchObject({ refundableMinor: 9000, refunds: [] })

    const part = await refund(id, { amountMinor: 2500, reason: "Arrivé avec une heure de retard" })
    expect(part.status, part.text).toBe(200)
    expect(part.body.message).toBe(fr["admin.bookingRefunded"])
    expect(part.body.data.booking).toMatchObject({
      paymentStatus: "PARTIALLY_REFUNDED",
      refundedMinor: 2500,
      refundableMinor: 6500,
      refunds: [{ amountMinor: 2500, currency: "EUR", reason: "Arrivé avec une heure de retard" }]
    })
    const rest = await refund(id, { reason: "Prestation non conforme" }, "en")
    expect(rest.status, rest.text).toBe(200)
    expect(rest.body.message).toBe(en["admin.bookingRefunded"])
    expect(rest.body.data.booking).toMatchObject({ paymentStatus: "REFUNDED", refundedMinor: 9000, refundableMinor: 0 })
    expect(rest.body.data.booking.refunds.map((r: { amountMinor: number }) => r.amountMinor)).toEqual([2500, 6500])

    // The operations as the finance pages read them, the reason kept on each refund.
    const operations = await sql<{ amountMinor: number; detail: string }>(
      "SELECT amount_minor::int, detail FROM payment_operations WHERE booking_id = $1 AND kind = 'REFUND' ORDER BY created_at",
      [id]
    )
    expect(operations).toEqual([
      { amountMinor: 2500, detail: "Arrivé avec une heure de retard" },
      { amountMinor: 6500, detail: "Prestation non conforme" }
    ])
    const refunds = (await auditOf(id)).filter((row) => row.action === "BOOKING_REFUNDED")
    expect(refunds).toEqual([
      {
        actorId: admin.id,
        action: "BOOKING_REFUNDED",
        subjectType: "BOOKING",
        subjectId: id,
        before: { status: "VALIDATED", paymentStatus: "CAPTURED", capturedMinor: 9000, refundedMinor: 0 },
        after: {
          paymentStatus: "PARTIALLY_REFUNDED",
          capturedMinor: 9000,
          refundedMinor: 2500,
          amountMinor: 2500,
          currency: "EUR",
          reason: "Arrivé avec une heure de retard"
        }
      },
      expect.objectContaining({
        before: { status: "VALIDATED", paymentStatus: "PARTIALLY_REFUNDED", capturedMinor: 9000, refundedMinor: 2500 },
        after: expect.objectContaining({
          paymentStatus: "REFUNDED",
          refundedMinor: 9000,
          amountMinor: 6500,
          reason: "Prestation non conforme"
        })
      })
    ])
  })

  it("refuses, in French and in English, with clear codes: nothing captured (409), above what is left (422), no reason or a bad amount (422), an unknown booking (404); none leaves an audit entry", async () => {
    const held = await paidBooking()
    for (const [language, messages] of [
      ["fr", fr],
      ["en", en]
    ] as const) {
      const nothing = await refund(held, { reason: "Geste commercial" }, language)
      expect(nothing.status).toBe(409)
      expect(nothing.body).toEqual({ success: false, code: "NOTHING_TO_REFUND", message: messages["booking.nothingToRefund"] })
    }
    const id = await capturedBooking()
    const before = (await auditOf(id)).length
    const tooMuch = await refund(id, { amountMinor: 9001, reason: "Trop" }, "en")
    expect(tooMuch.status).toBe(422)
    expect(tooMuch.body.code).toBe("REFUND_TOO_LARGE")
    expect(tooMuch.body.message).toBe("The refund is above what is left to refund (€90.00).")
    expect(tooMuch.body.details).toEqual([{ field: "amountMinor", message: "The refund is above what is left to refund (€90.00)." }])
    const tooMuchFr = await refund(id, { amountMinor: 9001, reason: "Trop" }, "fr")
    expect(tooMuchFr.body.message.replace(/\s/g, " ")).toBe("Le montant à rembourser dépasse ce qui reste remboursable (90,00 €).")

    const noReason = await refund(id, { amountMinor: 100, reason: "  " }, "fr")
    expect(noReason.status).toBe(422)
    expect(noReason.body.details).toEqual([{ field: "reason", message: fr["booking.refundReasonRequired"] }])
    const badAmount = await refund(id, { amountMinor: 12.5 }, "en")
    expect(badAmount.status).toBe(422)
    expect(badAmount.body.details).toEqual([
      { field: "amountMinor", message: en["booking.refundAmountInvalid"] },
      { field: "reason", message: en["booking.refundReasonRequired"] }
    ])
    for (const amountMinor of [0, -5, "abc", true]) expect((await refund(id, { amountMinor, reason: "x" })).status).toBe(422)

    const unknown = await refund("00000000-0000-4000-8000-000000000001", { reason: "x" }, "en")
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ success: false, code: "BOOKING_NOT_FOUND", message: en["booking.notFound"] })
    // Only admins: a party to the booking is refused.
    expect((await api.post(`/api/admin/bookings/${id}/refund`, { reason: "x" }, { token: client.token })).status).toBe(403)

    expect(await auditOf(id)).toHaveLength(before)
    expect((await auditOf(held)).filter((row) => row.action === "BOOKING_REFUNDED")).toEqual([])
    const booking = await api.get(`/api/admin/bookings/${id}`, { token: admin.token })
    expect(booking.body.data.booking).toMatchObject({ paymentStatus: "CAPTURED", refundedMinor: 0, refunds: [] })
  })

  it("is the same use case as payments:refund (the CLI's refund is audited under the operator, with its reason)", async () => {
    const id = await capturedBooking()
    expect(await server.run(refundBooking(id, 1000, "Client mécontent"))).toMatchObject({ paymentStatus: "PARTIALLY_REFUNDED" })
    const [row] = (await auditOf(id)).filter((r) => r.action === "BOOKING_REFUNDED")
    expect(row).toMatchObject({
      actorId: "00000000-0000-0000-0000-000000000000",
      after: { amountMinor: 1000, reason: "Client mécontent" }
    })
  })
})

describe("allowedStatuses: the admin menu offers only what the server allows", () => {
  it("follows the booking through its statuses, and the server still refuses the others (409)", async () => {
    const id = await paidBooking()
    const allowed = async () => (await api.get(`/api/admin/bookings/${id}`, { token: admin.token })).body.data.booking.allowedStatuses
    expect(await allowed()).toEqual(["CONFIRMED", "CANCELLED", "REJECTED"])
    for (const status of ["VALIDATED", "COMPLETED", "PENDING"]) {
      const refused = await api.patch(`/api/admin/bookings/${id}/status`, { status }, { token: admin.token })
      expect(refused.status, status).toBe(409)
    }
    expect((await setStatus(id, "CONFIRMED")).allowedStatuses).toEqual(["CANCELLED", "VALIDATED"])
    expect((await setStatus(id, "VALIDATED")).allowedStatuses).toEqual([])
    expect((await api.patch(`/api/admin/bookings/${id}/status`, { status: "CANCELLED" }, { token: admin.token })).status).toBe(409)
    // An unpaid request cannot be confirmed (the payment is not secured): not offered.
    const unpaid = await bookedIn("pending", { address: "1 rue Test, Lyon" })
    const unpaidView = await api.get(`/api/admin/bookings/${unpaid.bookingId}`, { token: admin.token })
    expect(unpaidView.body.data.booking.allowedStatuses).toEqual(["CANCELLED", "REJECTED"])
  })
})

describe("the audit log", () => {
  it("a status change writes exactly one entry with before and after; a refused one writes none", async () => {
    const id = await paidBooking()
    const refused = await api.patch(`/api/admin/bookings/${id}/status`, { status: "VALIDATED" }, { token: admin.token })
    expect(refused.status).toBe(409)
    expect(await auditOf(id)).toEqual([])
    await api.patch(`/api/admin/bookings/${id}/status`, { status: "REJECTED", reason: "Créneau indisponible" }, { token: admin.token })
    expect(await auditOf(id)).toEqual([
      {
        actorId: admin.id,
        action: "BOOKING_STATUS_CHANGED",
        subjectType: "BOOKING",
        subjectId: id,
        before: { status: "PENDING", paymentStatus: "AUTHORIZED" },
        after: { status: "REJECTED", paymentStatus: expect.any(String), reason: "Créneau indisponible" }
      }
    ])
  })

  it("user, service and payment account decisions are recorded, one entry each", async () => {
    const someone = await newClient(server, api)
    expect((await api.patch(`/api/admin/users/${someone.id}/status`, { isActive: false }, { token: admin.token })).status).toBe(200)
    expect((await api.patch(`/api/admin/users/${someone.id}/status`, { role: "PROVIDER" }, { token: admin.token })).status).toBe(200)
    // Refused (an admin cannot deactivate themself): nothing recorded.
    expect((await api.patch(`/api/admin/users/${admin.id}/status`, { isActive: false }, { token: admin.token })).status).toBe(409)
    expect((await auditOf(admin.id)).filter((r) => r.action === "USER_DEACTIVATED")).toEqual([])
    const account = await api.post(`/api/admin/users/${someone.id}/stripe-connect`, {}, { token: admin.token })
    expect(account.status, account.text).toBe(201)
    expect((await api.call("DELETE", `/api/admin/users/${someone.id}/stripe-connect`, { token: admin.token })).status).toBe(200)
    const rows = await auditOf(someone.id)
    expect(rows.map((r) => [r.action, r.before, r.after])).toEqual([
      ["USER_DEACTIVATED", { isActive: true }, { isActive: false, sessionsRevoked: true }],
      ["USER_ROLE_CHANGED", { role: "CLIENT" }, { role: "PROVIDER" }],
      ["PAYMENT_ACCOUNT_CREATED", null, { accountId: expect.any(String), gateway: "sandbox", country: "CA" }],
      ["PAYMENT_ACCOUNT_DELETED", { accountId: rows[2]!.after!.accountId, gateway: "sandbox", country: "CA" }, null]
    ])
    expect(rows.every((r) => r.actorId === admin.id && r.subjectType === "USER")).toBe(true)

    expect((await api.patch(`/api/admin/services/${world.serviceId}/status`, { isAvailable: false }, { token: admin.token })).status).toBe(
      200
    )
    expect((await api.patch(`/api/admin/services/${world.serviceId}/status`, { isAvailable: true }, { token: admin.token })).status).toBe(
      200
    )
    expect((await auditOf(world.serviceId)).map((r) => [r.action, r.before, r.after])).toEqual([
      ["SERVICE_DISABLED", { status: "ACTIVE", heldByAdmin: false }, { status: "INACTIVE", heldByAdmin: true }],
      ["SERVICE_ENABLED", { status: "INACTIVE", heldByAdmin: true }, { status: "ACTIVE", heldByAdmin: false }]
    ])
  })

  it("bulk exports and a provider's payout links are recorded: who took which rows, who opened whose payout access", async () => {
    const csvOf = async (path: string) => {
      const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${admin.token}` } })
      expect(res.status).toBe(200)
      return (await res.text()).trim().split("\n").length - 1
    }
    const bookings = await csvOf("/api/admin/exports/bookings?currency=EUR&from=2020-01-01")
    const payments = await csvOf("/api/admin/exports/payments?currency=EUR")
    const exports = await sql<AuditRow>(
      "SELECT actor_id, action, subject_type, subject_id, before, after FROM audit_log WHERE subject_type = 'EXPORT' AND actor_id = $1 ORDER BY created_at, id",
      [admin.id]
    )
    expect(exports.slice(-2).map((r) => [r.action, r.subjectId, r.before, r.after])).toEqual([
      ["BOOKINGS_EXPORTED", "bookings", null, { from: "2020-01-01T00:00:00.000Z", to: null, currency: "EUR", rows: bookings }],
      ["PAYMENTS_EXPORTED", "payments", null, { from: null, to: null, currency: "EUR", rows: payments }]
    ])

    const provider = world.provider
    const base = `/api/admin/users/${provider.id}/stripe-connect`
    expect((await api.get(`${base}/link`, { token: admin.token })).status).toBe(200)
    expect((await api.get(`${base}/dashboard`, { token: admin.token })).status).toBe(200)
    const opened = (await auditOf(provider.id)).filter((r) => r.action.startsWith("PAYOUT_"))
    expect(opened.map((r) => [r.action, r.actorId, r.subjectType, r.after])).toEqual([
      ["PAYOUT_ONBOARDING_LINK_CREATED", admin.id, "USER", { accountId: expect.stringMatching(/^acct_/) }],
      ["PAYOUT_DASHBOARD_OPENED", admin.id, "USER", { accountId: expect.stringMatching(/^acct_/) }]
    ])
  })

  it("applications approved or rejected and documents verified: one entry each, none for a refused decision", async () => {
    const applicant = await newClient(server, api)
    const submitted = await submit(server, applicant.token, await applicationForm())
    expect(submitted.status, submitted.text).toBe(201)
    const applicationId = submitted.body.data.application.id as string
    const documentId = submitted.body.data.application.documents[0].id as string
    const verified = await api.patch(
      `/api/admin/documents/${documentId}/verify`,
      { isVerified: true, notes: "Lisible" },
      { token: admin.token }
    )
    expect(verified.status, verified.text).toBe(200)
    expect((await api.patch(`/api/provider-applications/${applicationId}/approve`, undefined, { token: admin.token })).status).toBe(200)
    // Approved already: refused, nothing more recorded.
    expect((await api.patch(`/api/provider-applications/${applicationId}/approve`, undefined, { token: admin.token })).status).toBe(409)
    expect((await auditOf(documentId)).map((r) => [r.action, r.subjectType, r.before, r.after])).toEqual([
      [
        "DOCUMENT_VERIFIED",
        "DOCUMENT",
        { applicationId, slot: "identityDocument", isVerified: null, notes: null },
        { applicationId, slot: "identityDocument", isVerified: true, notes: "Lisible" }
      ]
    ])
    expect((await auditOf(applicationId)).map((r) => [r.action, r.actorId, r.before, r.after])).toEqual([
      [
        "APPLICATION_APPROVED",
        admin.id,
        { status: "PENDING", applicantId: applicant.id, role: "CLIENT" },
        { status: "APPROVED", applicantId: applicant.id, role: "PROVIDER" }
      ]
    ])

    const other = await newClient(server, api)
    const second = await submit(server, other.token, await applicationForm())
    const otherId = second.body.data.application.id as string
    const rejected = await api.patch(
      `/api/provider-applications/${otherId}/reject`,
      { rejectionReason: "Pièce d'identité illisible" },
      { token: admin.token }
    )
    expect(rejected.status, rejected.text).toBe(200)
    expect((await auditOf(otherId)).map((r) => [r.action, r.before, r.after])).toEqual([
      [
        "APPLICATION_REJECTED",
        { status: "PENDING", rejectionCount: 0 },
        { status: "REJECTED", rejectionCount: 1, reason: "Pièce d'identité illisible", nextSubmissionDate: expect.any(String) }
      ]
    ])
  })

  it("is written in the decision's transaction: when the entry cannot be written, the decision does not happen", async () => {
    const someone = await newClient(server, api)
    // The audit log refuses every row for a moment: the decision must roll back with it.
    await sql(`CREATE OR REPLACE FUNCTION audit_log_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit log refused'; END $$`)
    await sql("CREATE TRIGGER audit_log_refuse BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_refuse()")
    try {
      // The services the handlers call (an answer of 500 over HTTP): the insert's failure is a defect.
      const deactivate = await server.run(Effect.exit(changeUser(someone.id, { isActive: false })))
      expect(Exit.isFailure(deactivate) && Cause.isDie(deactivate.cause)).toBe(true)
      const disable = await server.run(
        Effect.exit(Effect.flatMap(Administration, (a) => a.setServiceAvailability(Operator, world.serviceId, false)))
      )
      expect(Exit.isFailure(disable) && Cause.isDie(disable.cause)).toBe(true)
    } finally {
      await sql("DROP TRIGGER audit_log_refuse ON audit_log")
    }
    const [user] = await sql<{ isActive: boolean }>("SELECT is_active FROM users WHERE id = $1", [someone.id])
    expect(user!.isActive).toBe(true)
    const [service] = await sql<{ status: string }>("SELECT status FROM services WHERE id = $1", [world.serviceId])
    expect(service!.status).toBe("ACTIVE")
    expect(await auditOf(someone.id)).toEqual([])
  })

  it("GET /api/admin/audit: newest first, filtered by action, actor, subject and days, paged the one way; bad filters are 422 in the user's language", async () => {
    const id = await capturedBooking()
    await refund(id, { amountMinor: 500, reason: "Retard" })
    const all = await api.get("/api/admin/audit?limit=2", { token: admin.token })
    expect(all.status, all.text).toBe(200)
    expect(all.body.data.entries).toHaveLength(2)
    expect(all.body.data.pagination).toMatchObject({ page: 1, limit: 2 })
    const total = all.body.data.pagination.total as number
    expect(total).toBeGreaterThanOrEqual(3)
    const [newest] = all.body.data.entries
    expect(newest).toMatchObject({
      action: "BOOKING_REFUNDED",
      actorId: admin.id,
      actor: { email: "admin@marketplace.local" },
      subjectType: "BOOKING",
      subjectId: id,
      after: { amountMinor: 500, reason: "Retard" }
    })

    const ofBooking = await api.get(`/api/admin/audit?subjectType=BOOKING&subjectId=${id}`, { token: admin.token })
    expect(ofBooking.body.data.entries.map((e: { action: string }) => e.action)).toEqual([
      "BOOKING_REFUNDED",
      "BOOKING_STATUS_CHANGED",
      "BOOKING_STATUS_CHANGED"
    ])
    const refunds = await api.get("/api/admin/audit?action=booking_refunded&actor=admin@marketplace.local", { token: admin.token })
    expect(refunds.body.data.entries.length).toBeGreaterThan(0)
    expect(
      refunds.body.data.entries.every((e: { action: string; actorId: string }) => e.action === "BOOKING_REFUNDED" && e.actorId === admin.id)
    ).toBe(true)
    expect((await api.get(`/api/admin/audit?actor=${client.id}`, { token: admin.token })).body.data.pagination.total).toBe(0)
    expect((await api.get("/api/admin/audit?actor=nobody@example.com", { token: admin.token })).body.data.entries).toEqual([])
    const today = new Date().toISOString().slice(0, 10)
    expect((await api.get(`/api/admin/audit?from=${today}&to=${today}`, { token: admin.token })).body.data.pagination.total).toBe(total)
    expect((await api.get("/api/admin/audit?to=2000-01-01", { token: admin.token })).body.data.pagination.total).toBe(0)
    // Past the end: an empty page with the total.
    const past = await api.get("/api/admin/audit?page=500&limit=2", { token: admin.token })
    expect(past.body.data).toMatchObject({ entries: [], pagination: { total, page: 500, limit: 2 } })

    for (const [language, messages] of [
      ["fr", fr],
      ["en", en]
    ] as const) {
      const bad = await api.get("/api/admin/audit?action=EXPLODED&subjectType=PLANET&actor=someone&from=2026-13-01", {
        token: admin.token,
        language
      })
      expect(bad.status).toBe(422)
      expect(bad.body.details).toEqual([
        { field: "action", message: messages["admin.auditActionInvalid"] },
        { field: "subjectType", message: messages["admin.auditSubjectTypeInvalid"] },
        { field: "actor", message: messages["admin.auditActorInvalid"] },
        { field: "from", message: messages["admin.dateInvalid"] }
      ])
    }
    expect((await api.get("/api/admin/audit", { token: client.token })).status).toBe(403)
  })
})

describe("audit:list", () => {
  it("answers the same entries as the API, filters as flags (what the command runs)", async () => {
    const id = await capturedBooking()
    const list = await server.run(listAudit({ subjectType: "BOOKING", subjectId: id, action: "BOOKING_STATUS_CHANGED" }))
    expect(list.entries.map((e) => [e.action, e.actor, e.after])).toEqual([
      ["BOOKING_STATUS_CHANGED", "admin@marketplace.local", { status: "VALIDATED", paymentStatus: expect.any(String) }],
      ["BOOKING_STATUS_CHANGED", "admin@marketplace.local", { status: "CONFIRMED", paymentStatus: "AUTHORIZED" }]
    ])
    expect(list.pagination).toEqual({ total: 2, page: 1, limit: 50, pages: 1 })
    expect(renderAudit(list)).toContain(id)
    expect(await failureCode(listAudit({ action: "NOPE" }))).toBe("VALIDATION_ERROR")
  })

  it.skipIf(!cliBuiltWith("audit:list"))(
    "bin/run audit:list --json prints the entries (the CLI's own refund among them, by the operator)",
    async () => {
      const id = await capturedBooking()
      const refunded = await cli("payments:refund", id, "--amount", "700", "--reason", "Geste commercial", "--json")
      expect(refunded.status, refunded.stderr).toBe(0)
      const listed = await cli("audit:list", "--subject-id", id, "--action", "BOOKING_REFUNDED", "--json")
      expect(listed.status, listed.stderr).toBe(0)
      const printed = JSON.parse(listed.stdout)
      expect(printed.entries).toEqual([
        expect.objectContaining({
          action: "BOOKING_REFUNDED",
          actor: "cli",
          subjectType: "BOOKING",
          subjectId: id,
          after: expect.objectContaining({ amountMinor: 700, reason: "Geste commercial" })
        })
      ])
      expect(printed.pagination).toMatchObject({ total: 1, page: 1 })
      const refused = await cli("audit:list", "--from", "yesterday")
      expect(refused.status).toBe(3)
      expect(refused.stderr).toContain("VALIDATION_ERROR")
    },
    60_000
  )
})
