import { describe, expect, it } from "vitest"
import { en, fr } from "../../src/platform/messages"

import { login, newClient, newProvider } from "../support/accounts"
import { registration } from "../support/http"
import { httpWorld } from "../support/world"
import { exportCsv } from "../../cli/commands/administration"
import { parseCsv } from "./csv"

const world = httpWorld({
  service: { title: "Atelier de vélo suisse", description: "Révision complète.", currency: "CHF", location: "Genève" },
  admin: true,
  slots: { hours: 2 }
})
const { server, api, admin, provider, client, sql, bookedIn } = world

/** A booking of the test service (40 CHF an hour, 2 hours), paid in the sandbox: AUTHORIZED for 8000. */
const paidBooking = async () => (await bookedIn("paid")).bookingId

const ENDPOINTS: ReadonlyArray<readonly [string, string]> = [
  ["GET", "/api/admin/dashboard"],
  ["GET", "/api/admin/users"],
  ["PATCH", "/api/admin/users/00000000-0000-0000-0000-000000000001/status"],
  ["POST", "/api/admin/users/00000000-0000-0000-0000-000000000001/stripe-connect"],
  ["GET", "/api/admin/users/00000000-0000-0000-0000-000000000001/stripe-connect/link"],
  ["GET", "/api/admin/users/00000000-0000-0000-0000-000000000001/stripe-connect/status"],
  ["GET", "/api/admin/users/00000000-0000-0000-0000-000000000001/stripe-connect/dashboard"],
  ["DELETE", "/api/admin/users/00000000-0000-0000-0000-000000000001/stripe-connect"],
  ["GET", "/api/admin/bookings"],
  ["GET", "/api/admin/bookings/00000000-0000-0000-0000-000000000001"],
  ["PATCH", "/api/admin/bookings/00000000-0000-0000-0000-000000000001/status"],
  ["POST", "/api/admin/bookings/00000000-0000-0000-0000-000000000001/refund"],
  ["GET", "/api/admin/audit"],
  ["GET", "/api/admin/services"],
  ["PATCH", "/api/admin/services/00000000-0000-0000-0000-000000000001/status"],
  ["GET", "/api/admin/financial/stats"],
  ["GET", "/api/admin/payments"],
  ["GET", "/api/admin/exports/bookings"],
  ["GET", "/api/admin/exports/payments"],
  ["GET", "/api/admin/analytics"]
]

describe("access", () => {
  it("answers 401 to visitors and 403 to clients and providers on every admin endpoint", async () => {
    for (const [method, path] of ENDPOINTS) {
      const json = method === "GET" || method === "DELETE" ? {} : { json: {} }
      expect((await api.call(method, path, json)).status, `${method} ${path}`).toBe(401)
      for (const who of [client, provider]) {
        const reply = await api.call(method, path, { ...json, token: who.token })
        expect(reply.status, `${method} ${path}`).toBe(403)
        expect(reply.body.code).toBe("FORBIDDEN")
      }
    }
  })
})

describe("GET /api/admin/dashboard", () => {
  it("counts users, services, bookings and applications as the tables hold them", async () => {
    const reply = await api.get("/api/admin/dashboard", { token: admin.token })
    expect(reply.status, reply.text).toBe(200)
    const [db] = await sql<{ users: number; services: number; available: number; bookings: number; pending: number }>(
      `SELECT (SELECT count(*)::int FROM users) AS users,
              (SELECT count(*)::int FROM services WHERE archived_at IS NULL) AS services,
              (SELECT count(*)::int FROM services WHERE archived_at IS NULL AND status = 'ACTIVE') AS available,
              (SELECT count(*)::int FROM bookings) AS bookings,
              (SELECT count(*)::int FROM bookings WHERE status = 'PENDING') AS pending`
    )
    const data = reply.body.data
    expect(data.users.total).toBe(db!.users)
    expect(data.services).toEqual({ total: db!.services, available: db!.available, unavailable: db!.services - db!.available })
    expect(data.bookings.total).toBe(db!.bookings)
    expect(data.bookings.pending).toBe(db!.pending)
    // No currency asked: the one with the most payment operations (never 0 CAD when payments are in another).
    expect(data.currencies.length).toBeGreaterThan(0)
    expect(data.revenue.currency).toBe(data.currencies[0])
    expect(data.userCurrency).toBe(data.currencies[0])
    expect(typeof data.applications.pending).toBe("number")
    expect((await api.get("/api/admin/dashboard?currency=12", { token: admin.token })).status).toBe(422)
  })
})

describe("users", () => {
  it("lists with search, role and status filters and the house pagination", async () => {
    const all = await api.get("/api/admin/users?limit=2&page=1", { token: admin.token })
    expect(all.status).toBe(200)
    expect(all.body.data.users).toHaveLength(2)
    const [{ n }] = (await sql<{ n: number }>("SELECT count(*)::int AS n FROM users")) as [{ n: number }]
    expect(all.body.data.pagination).toEqual({ total: n, page: 1, limit: 2, pages: Math.ceil(n / 2) })
    // Past the last page no row carries the total: it is still the whole count.
    const beyond = await api.get(`/api/admin/users?limit=2&page=${Math.ceil(n / 2) + 1}`, { token: admin.token })
    expect(beyond.body.data.users).toEqual([])
    expect(beyond.body.data.pagination.total).toBe(n)

    const found = await api.get(`/api/admin/users?search=${encodeURIComponent(provider.email)}`, { token: admin.token })
    expect(found.body.data.users).toHaveLength(1)
    expect(found.body.data.users[0]).toMatchObject({ id: provider.id, role: "PROVIDER", isActive: true })
    expect(found.body.data.users[0].paymentAccount).toMatchObject({ chargesEnabled: true, isComplete: true })

    const admins = await api.get("/api/admin/users?role=ADMIN", { token: admin.token })
    expect(admins.body.data.users.every((u: { role: string }) => u.role === "ADMIN")).toBe(true)
    const clients = await api.get("/api/admin/users?role=USER&isActive=true", { token: admin.token })
    expect(clients.body.data.users.every((u: { role: string; isActive: boolean }) => u.role === "CLIENT" && u.isActive)).toBe(true)
    expect(clients.body.data.users.length).toBeGreaterThan(0)

    const badRole = await api.get("/api/admin/users?role=KING", { token: admin.token, language: "en" })
    expect(badRole.status).toBe(422)
    expect(badRole.body.details[0]).toMatchObject({ field: "role", message: en["admin.roleInvalid"] })
    expect((await api.get("/api/admin/users?isActive=maybe", { token: admin.token })).status).toBe(422)
    expect((await api.get(`/api/admin/users?search=${"x".repeat(201)}`, { token: admin.token })).status).toBe(422)
  })

  it("deactivates a user: their token stops working, they cannot log in, their refresh tokens are revoked; reactivation restores login", async () => {
    const input = registration()
    expect((await api.post("/api/auth/register", input)).status).toBe(201)
    await sql("UPDATE users SET is_email_verified = true WHERE email = $1", [input.email])
    const victim = await login(api, input.email, input.password)
    expect((await api.get("/api/auth/me", { token: victim.token })).status).toBe(200)

    const off = await api.patch(`/api/admin/users/${victim.id}/status`, { isActive: false }, { token: admin.token })
    expect(off.status, off.text).toBe(200)
    expect(off.body.data.user).toMatchObject({ id: victim.id, isActive: false })
    expect(off.body.message).toBe(fr["admin.userUpdated"])
    expect((await api.get("/api/auth/me", { token: victim.token })).body.code).toBe("ACCOUNT_DEACTIVATED")
    expect((await api.post("/api/auth/login", { email: input.email, password: input.password })).status).toBe(401)
    const [{ live }] = (await sql<{ live: number }>(
      "SELECT count(*)::int AS live FROM refresh_tokens WHERE user_id = $1 AND revoked_at IS NULL",
      [victim.id]
    )) as [{ live: number }]
    expect(live).toBe(0)

    const inactive = await api.get(`/api/admin/users?isActive=false&search=${encodeURIComponent(input.email)}`, { token: admin.token })
    expect(inactive.body.data.users.map((u: { id: string }) => u.id)).toEqual([victim.id])

    expect((await api.patch(`/api/admin/users/${victim.id}/status`, { isActive: true }, { token: admin.token })).status).toBe(200)
    expect((await api.post("/api/auth/login", { email: input.email, password: input.password })).status).toBe(200)
  })

  it("changes roles, refuses the admin's own deactivation or demotion (409), bad payloads (422) and unknown users (404)", async () => {
    const someone = await newClient(server, api)
    const promoted = await api.patch(`/api/admin/users/${someone.id}/status`, { role: "PROVIDER" }, { token: admin.token })
    expect(promoted.body.data.user.role).toBe("PROVIDER")
    expect((await api.get("/api/auth/me", { token: someone.token })).body.data.user.role).toBe("PROVIDER")

    const self = await api.patch(`/api/admin/users/${admin.id}/status`, { isActive: false }, { token: admin.token, language: "en" })
    expect(self.status).toBe(409)
    expect(self.body).toMatchObject({ code: "CANNOT_DEACTIVATE_SELF", message: en["admin.cannotDeactivateSelf"] })
    expect((await api.patch(`/api/admin/users/${admin.id}/status`, { role: "CLIENT" }, { token: admin.token })).body.code).toBe(
      "CANNOT_DEMOTE_SELF"
    )
    expect((await api.patch(`/api/admin/users/${someone.id}/status`, {}, { token: admin.token })).status).toBe(422)
    expect((await api.patch(`/api/admin/users/${someone.id}/status`, { role: "KING" }, { token: admin.token })).status).toBe(422)
    expect((await api.patch(`/api/admin/users/${someone.id}/status`, { isActive: "no" }, { token: admin.token })).status).toBe(422)
    expect((await api.patch("/api/admin/users/nope/status", { isActive: true }, { token: admin.token })).status).toBe(404)
    expect(
      (await api.patch("/api/admin/users/00000000-0000-0000-0000-000000000001/status", { isActive: true }, { token: admin.token })).body
        .code
    ).toBe("USER_NOT_FOUND")
  })

  it("manages a provider's payment account: create, link, status, dashboard, delete; 404s before creation and after deletion", async () => {
    const fresh = await newProvider(server, api, { paymentReady: false })
    const base = `/api/admin/users/${fresh.id}/stripe-connect`
    const first = await api.get(`${base}/link`, { token: admin.token, language: "en" })
    expect(first.status).toBe(404)
    expect(first.body.message).toBe(en["admin.createAccountFirst"])
    expect((await api.get(`${base}/status`, { token: admin.token })).body.message).toBe(fr["admin.createAccountFirst"])
    const nothing = await api.call("DELETE", base, { token: admin.token })
    expect(nothing.status).toBe(404)
    expect(nothing.body.message).toBe(fr["admin.noAccountToDelete"])

    const created = await api.post(base, {}, { token: admin.token })
    expect(created.status, created.text).toBe(201)
    expect(created.body.data.accountLink).toContain("/sandbox/connect/onboarding/")
    const status = await api.get(`${base}/status`, { token: admin.token })
    expect(status.body.data).toMatchObject({ hasAccount: true, country: "CA", chargesEnabled: false, detailsSubmitted: false })
    expect((await api.get(`${base}/link`, { token: admin.token })).body.data.accountLink).toContain("/sandbox/connect/onboarding/")
    // Stripe opens no dashboard before the details are submitted.
    expect((await api.get(`${base}/dashboard`, { token: admin.token })).body.code).toBe("PAYMENT_ACCOUNT_INCOMPLETE")

    const deleted = await api.call("DELETE", base, { token: admin.token })
    expect(deleted.status).toBe(200)
    expect(deleted.body.data).toEqual({ deleted: true, accountId: status.body.data.accountId })
    expect((await api.get(`${base}/status`, { token: admin.token })).status).toBe(404)

    // A client cannot have one (409); a ready provider's dashboard opens.
    expect((await api.post(`/api/admin/users/${client.id}/stripe-connect`, {}, { token: admin.token })).body.code).toBe("NOT_A_PROVIDER")
    const dashboard = await api.get(`/api/admin/users/${provider.id}/stripe-connect/dashboard`, { token: admin.token })
    expect(dashboard.body.data.dashboardUrl).toContain("/sandbox/connect/dashboard/")
  })
})

describe("bookings", () => {
  it("lists with search, status and paging; the detail has its sections; a status change applies its money effects", async () => {
    const id = await paidBooking()
    const listed = await api.get(`/api/admin/bookings?search=${encodeURIComponent("vélo suisse")}&status=PAID&limit=10`, {
      token: admin.token
    })
    expect(listed.status, listed.text).toBe(200)
    expect(listed.body.data.bookings.map((b: { id: string }) => b.id)).toContain(id)
    const row = listed.body.data.bookings.find((b: { id: string }) => b.id === id)
    expect(row).toMatchObject({ status: "PENDING", displayStatus: "PAID", paymentStatus: "AUTHORIZED", totalMinor: 8000, currency: "CHF" })
    expect(row.service.category.name).toBe("Réparation")
    expect(row.client.email).toBe(client.email)
    expect(
      (
        await api.get(`/api/admin/bookings?search=${encodeURIComponent("vélo suisse")}&status=COMPLETED`, { token: admin.token })
      ).body.data.bookings.map((b: { id: string }) => b.id)
    ).not.toContain(id)
    expect((await api.get("/api/admin/bookings?status=NOPE", { token: admin.token })).status).toBe(422)

    // Confirm, then validate: the capture is recorded with its 5% fee.
    const confirmed = await api.patch(`/api/admin/bookings/${id}/status`, { status: "CONFIRMED" }, { token: admin.token })
    expect(confirmed.status, confirmed.text).toBe(200)
    const validated = await api.patch(`/api/admin/bookings/${id}/status`, { status: "VALIDATED" }, { token: admin.token })
    expect(validated.status, validated.text).toBe(200)
    expect(validated.body.data.booking).toMatchObject({
      status: "VALIDATED",
      paymentStatus: "CAPTURED",
      capturedMinor: 8000,
      durationHours: 2,
      isReviewed: false
    })
    const detail = (await api.get(`/api/admin/bookings/${id}`, { token: admin.token, language: "en" })).body.data.booking
    expect(detail.service).toMatchObject({ title: "Atelier de vélo suisse", hourlyPriceMinor: 4000, category: { name: "Repair" } })
    expect(detail.client).toMatchObject({ email: client.email, phoneNumber: expect.any(String) })
    // One event per operation, named by what it did: the hold stays a hold once captured.
    expect(
      detail.payments.map((p: { event: string; amountMinor: number; feeMinor: number }) => [p.event, p.amountMinor, p.feeMinor])
    ).toEqual([
      ["held", 8000, 0],
      ["captured", 8000, 400]
    ])
    // A finished booking cannot go back (409), nor take an unknown status.
    const back = await api.patch(`/api/admin/bookings/${id}/status`, { status: "CONFIRMED" }, { token: admin.token })
    expect(back.status).toBe(409)
    expect(back.body.code).toBe("BOOKING_INVALID_TRANSITION")
    expect((await api.patch(`/api/admin/bookings/${id}/status`, { status: "PENDING" }, { token: admin.token })).status).toBe(409)
    expect((await api.patch(`/api/admin/bookings/${id}/status`, {}, { token: admin.token })).status).toBe(422)
    expect((await api.get("/api/admin/bookings/not-an-id", { token: admin.token })).status).toBe(404)
  })

  it("cancelling a paid booking releases the card hold", async () => {
    const id = await paidBooking()
    const cancelled = await api.patch(`/api/admin/bookings/${id}/status`, { status: "CANCELLED" }, { token: admin.token })
    expect(cancelled.body.data.booking).toMatchObject({ status: "CANCELLED", paymentStatus: "CANCELED" })
    expect(cancelled.body.data.booking.payments.map((p: { event: string }) => p.event)).toEqual(["held", "released"])
  })
})

describe("services", () => {
  it("filters by search, category and availability; toggles availability through the catalogue", async () => {
    const listed = await api.get("/api/admin/services?search=suisse&categoryId=7&isAvailable=true", { token: admin.token })
    expect(listed.body.data.services.map((s: { id: string }) => s.id)).toEqual([world.serviceId])
    expect(listed.body.data.services[0]).toMatchObject({
      priceMinor: 4000,
      currency: "CHF",
      isAvailable: true,
      category: { id: 7 },
      provider: { email: provider.email }
    })
    expect((await api.get("/api/admin/services?search=suisse&categoryId=1", { token: admin.token })).body.data.services).toEqual([])

    const off = await api.patch(`/api/admin/services/${world.serviceId}/status`, { isAvailable: false }, { token: admin.token })
    expect(off.body.data.service).toEqual({ id: world.serviceId, isAvailable: false })
    expect((await api.get("/api/admin/services?search=suisse&isAvailable=false", { token: admin.token })).body.data.services).toHaveLength(
      1
    )
    // Unlisted: the public catalogue no longer shows it.
    expect((await api.get(`/api/services/${world.serviceId}`)).status).toBe(404)
    expect(
      (await api.patch(`/api/admin/services/${world.serviceId}/status`, { isAvailable: true }, { token: admin.token })).body.data.service
        .isAvailable
    ).toBe(true)
  })

  it("a service an admin disabled stays disabled: its provider can neither publish nor copy it until an admin enables it", async () => {
    const status = (isAvailable: boolean) =>
      api.patch(`/api/admin/services/${world.serviceId}/status`, { isAvailable }, { token: admin.token })
    const own = (action: string, language?: string) =>
      api.post(`/api/services/${world.serviceId}/${action}`, undefined, { token: provider.token, ...(language ? { language } : {}) })
    // The provider had unpublished it already: the admin's decision still holds it.
    expect((await own("deactivate")).status).toBe(200)
    expect((await status(false)).status).toBe(200)
    const refused = await own("activate")
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ code: "SERVICE_DISABLED_BY_ADMIN", message: fr["catalogue.disabledByAdmin"] })
    expect((await own("activate", "en")).body.message).toBe(en["catalogue.disabledByAdmin"])
    expect((await own("duplicate")).status).toBe(409)
    const mine = (await api.get(`/api/services/${world.serviceId}`, { token: provider.token })).body.data.service
    expect(mine).toMatchObject({ status: "INACTIVE", disabledByAdmin: true })
    // Unpublishing again, or editing, stays the provider's own business.
    expect((await own("deactivate")).status).toBe(200)
    expect((await api.get(`/api/services/${world.serviceId}`)).status).toBe(404)

    const enabled = await status(true)
    expect(enabled.body.data.service.isAvailable).toBe(true)
    const republished = (await api.get(`/api/services/${world.serviceId}`)).body.data.service
    expect(republished.status).toBe("ACTIVE")
    expect(republished).not.toHaveProperty("disabledByAdmin")
    expect((await own("deactivate")).status).toBe(200)
    expect((await own("activate")).status).toBe(200)
  })

  it("refuses malformed service decisions", async () => {
    expect((await api.patch(`/api/admin/services/${world.serviceId}/status`, { isAvailable: "yes" }, { token: admin.token })).status).toBe(
      422
    )
    expect(
      (await api.patch("/api/admin/services/00000000-0000-0000-0000-000000000001/status", { isAvailable: true }, { token: admin.token }))
        .status
    ).toBe(404)
    expect((await api.get("/api/admin/services?categoryId=abc", { token: admin.token })).status).toBe(422)
    expect((await api.get("/api/admin/services?isAvailable=perhaps", { token: admin.token })).status).toBe(422)
  })
})

describe("the currency parameter", () => {
  it("dashboard, financial stats and payments answer in the currency asked (any case); an unsupported one is a 422 in FR and EN", async () => {
    await paidBooking()
    const dashboard = await api.get("/api/admin/dashboard?currency=chf", { token: admin.token })
    expect(dashboard.status, dashboard.text).toBe(200)
    expect(dashboard.body.data.revenue.currency).toBe("CHF")
    expect(dashboard.body.data.currencies).toContain("CHF")
    const [held] = await sql<{ amount: number; n: number }>(
      `SELECT coalesce(sum(authorized_minor), 0)::int AS amount, count(*)::int AS n FROM bookings
       WHERE currency = 'CHF' AND payment_status = 'AUTHORIZED'`
    )
    expect(dashboard.body.data.revenue).toMatchObject({ pending: held!.amount, pendingCount: held!.n })
    const payments = await api.get("/api/admin/payments?currency=CHF", { token: admin.token })
    expect(payments.body.data.currency).toBe("CHF")
    expect(payments.body.data.payments.every((p: { currency: string }) => p.currency === "CHF")).toBe(true)
    for (const path of ["/api/admin/dashboard", "/api/admin/financial/stats", "/api/admin/payments"]) {
      for (const currency of ["ZZZ", "12", "euros"]) {
        const french = await api.get(`${path}?currency=${currency}`, { token: admin.token })
        expect(french.status, `${path} ${currency}`).toBe(422)
        expect(french.body.details).toEqual([{ field: "currency", message: fr["admin.currencyInvalid"] }])
        const english = await api.get(`${path}?currency=${currency}`, { token: admin.token, language: "en" })
        expect(english.status).toBe(422)
        expect(english.body.details[0].message).toBe(en["admin.currencyInvalid"])
      }
    }
  })
})

describe("CSV exports", () => {
  /** A CSV answer (not the JSON envelope): read with fetch. */
  const download = (path: string, language = "fr") =>
    fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${admin.token}`, "accept-language": language } })

  it("downloads the payments and the bookings as CSV in the currency chosen, as the CLI writes them; 422 on a bad currency or day", async () => {
    await paidBooking()
    const payments = await download("/api/admin/exports/payments?currency=chf")
    expect(payments.status).toBe(200)
    expect(payments.headers.get("content-type")).toMatch(/^text\/csv/)
    expect(payments.headers.get("content-disposition")).toContain('attachment; filename="payments-CHF.csv"')
    const text = await payments.text()
    const lines = parseCsv(text)
    expect(lines[0]!.slice(0, 7)).toEqual(["id", "bookingId", "kind", "status", "amountMinor", "feeMinor", "currency"])
    expect(lines.length).toBeGreaterThan(1)
    expect(lines.slice(1).every((l) => l[6] === "CHF")).toBe(true)
    const [ops] = await sql<{ n: number }>(
      "SELECT count(*)::int AS n FROM payment_operations WHERE currency = 'CHF' AND kind <> 'CARD_SAVED'"
    )
    expect(lines.length - 1).toBe(ops!.n)
    expect(text).toBe(await server.run(exportCsv("payments", { currency: "CHF" })))

    const bookings = await download("/api/admin/exports/bookings?currency=CHF&from=2000-01-01")
    expect(bookings.status).toBe(200)
    expect(bookings.headers.get("content-disposition")).toContain('filename="bookings-CHF-2000-01-01.csv"')
    const rows = parseCsv(await bookings.text())
    const [chf] = await sql<{ n: number }>("SELECT count(*)::int AS n FROM bookings WHERE currency = 'CHF'")
    expect(rows.length - 1).toBe(chf!.n)

    for (const [path, field, key] of [
      ["/api/admin/exports/payments?currency=ZZZ", "currency", "admin.currencyInvalid"],
      ["/api/admin/exports/bookings?from=2024-02-30", "from", "admin.dateInvalid"]
    ] as const) {
      for (const [language, messages] of [
        ["fr", fr],
        ["en", en]
      ] as const) {
        const refused = await download(path, language)
        expect(refused.status).toBe(422)
        expect(refused.headers.get("content-type")).toMatch(/^application\/json/)
        expect((await refused.json()).details).toEqual([{ field, message: messages[key] }])
      }
    }
  })
})

describe("finance and analytics", () => {
  it("financial stats of the period in one currency: gross, 5% commissions, refunds, net, holds still held", async () => {
    const stats = async () => (await api.get("/api/admin/financial/stats?period=week&currency=CHF", { token: admin.token })).body.data
    const before = await stats()
    const id = await paidBooking()
    // Authorised: pending (held) until captured.
    const held = await stats()
    expect(held.payments.pending - before.payments.pending).toBe(1)
    expect(held.heldAmount - before.heldAmount).toBe(8000)
    expect((await api.patch(`/api/admin/bookings/${id}/status`, { status: "CONFIRMED" }, { token: admin.token })).status).toBe(200)
    expect((await api.patch(`/api/admin/bookings/${id}/status`, { status: "VALIDATED" }, { token: admin.token })).status).toBe(200)
    const after = await api.get("/api/admin/financial/stats?period=week&currency=chf", { token: admin.token })
    expect(after.status, after.text).toBe(200)
    const s = after.body.data
    expect(s.currency).toBe("CHF")
    expect(s.grossRevenue - before.grossRevenue).toBe(8000)
    expect(s.totalCommissions - before.totalCommissions).toBe(400)
    // Captured: no longer pending.
    expect(s.payments.pending).toBe(before.payments.pending)
    expect(s.heldAmount).toBe(before.heldAmount)
    expect(s.keptRevenue).toBe(s.grossRevenue - s.refundedAmount)
    expect(s.netRevenue).toBe(s.keptRevenue - s.totalCommissions)
    expect(s.netRevenue).not.toBe(s.grossRevenue)
    expect(s.commissionMargin).toBe(Math.round((s.totalCommissions / s.keptRevenue) * 10000) / 100)
    expect(s.payments.completed - before.payments.completed).toBe(1)
    expect(s.revenueByStatus.find((r: { status: string }) => r.status === "COMPLETED").amountMinor).toBe(s.grossRevenue)
    expect(s.currencies).toContain("CHF")
    // The booking is listed once in CHF's payments, captured, with its commission.
    const listed = (await api.get("/api/admin/payments?currency=CHF&limit=100", { token: admin.token })).body.data
    expect(listed.currency).toBe("CHF")
    expect(listed.payments.filter((p: { bookingId: string }) => p.bookingId === id)).toEqual([
      expect.objectContaining({ status: "COMPLETED", amountMinor: 8000, capturedMinor: 8000, commissionMinor: 400, heldMinor: 0 })
    ])
    const byDefault = (await api.get("/api/admin/financial/stats", { token: admin.token })).body.data
    expect(byDefault).toMatchObject({ period: "month", currency: byDefault.currencies[0] })
    const bad = await api.get("/api/admin/financial/stats?period=decade", { token: admin.token, language: "en" })
    expect(bad.status).toBe(422)
    expect(bad.body.details[0].message).toBe(en["admin.financePeriodInvalid"])
  })

  it("payments: one row per booking in one currency, latest first, paginated, with service, client and refunds", async () => {
    const reply = await api.get("/api/admin/payments?limit=10", { token: admin.token })
    expect(reply.status).toBe(200)
    const payments = reply.body.data.payments
    expect(payments.length).toBeGreaterThan(0)
    expect(payments.every((p: { currency: string }) => p.currency === reply.body.data.currency)).toBe(true)
    expect(new Set(payments.map((p: { bookingId: string }) => p.bookingId)).size).toBe(payments.length)
    const times = payments.map((p: { createdAt: string }) => Date.parse(p.createdAt))
    expect([...times].sort((a, b) => b - a)).toEqual(times)
    expect(payments[0]).toMatchObject({ service: { title: expect.any(String) }, client: { email: expect.any(String) } })
    expect(reply.body.data.pagination.limit).toBe(10)
  })

  it("analytics: top users and services with their counts, growth per day; 422 on an unknown period", async () => {
    const reply = await api.get("/api/admin/analytics?period=7", { token: admin.token })
    expect(reply.status, reply.text).toBe(200)
    const a = reply.body.data
    expect(a.period).toBe(7)
    expect(a.topUsers.length).toBeLessThanOrEqual(6)
    const top = a.topServices.find((s: { id: string }) => s.id === world.serviceId)
    const [{ n }] = (await sql<{ n: number }>("SELECT count(*)::int AS n FROM bookings WHERE service_id = $1", [world.serviceId])) as [
      { n: number }
    ]
    expect(top).toMatchObject({ title: "Atelier de vélo suisse", bookings: n, provider: { firstName: expect.any(String) } })
    const me = a.topUsers.find((u: { id: string }) => u.id === client.id)
    expect(me.counts.bookingsAsClient).toBe(n)
    const today = new Date().toISOString().slice(0, 10)
    expect(a.growth.bookings.find((d: { date: string }) => d.date === today).count).toBeGreaterThanOrEqual(n)
    expect((await api.get("/api/admin/analytics?period=31", { token: admin.token })).status).toBe(422)
    expect((await api.get("/api/admin/analytics", { token: admin.token })).body.data.period).toBe(30)
  })
})
