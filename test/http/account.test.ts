import { describe, expect, it } from "vitest"
import { en, fr } from "../../src/platform/messages"
import { login, newClient, newProvider, type Session } from "../support/accounts"
import { mailsAtLeast, mailsTo, registration } from "../support/http"
import { bookingIn, serviceOf } from "../support/scenarios"
import { httpWorld } from "../support/world"

// Account self-service on /settings (issue 15, item 3): sessions, email change, data export, deletion.

const { server, api, sql } = httpWorld()

const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"

const loginAs = async (email: string, password: string, userAgent?: string) => {
  const reply = await api.post("/api/auth/login", { email, password }, userAgent ? { headers: { "user-agent": userAgent } } : {})
  expect(reply.status, reply.text).toBe(200)
  return { token: reply.body.data.token as string, cookie: reply.cookies.refreshToken!.value }
}

/** A person whose name, email and phone appear nowhere else (each test searches for them). */
const uniquePerson = () => {
  const tag = Math.random().toString(36).slice(2, 8)
  return registration({
    firstName: `Ysolde${tag}`,
    lastName: `Quenneville${tag}`,
    email: `ysolde.${tag}@example.org`,
    phoneNumber: `51477${Math.floor(10_000 + Math.random() * 89_999)}`
  })
}

describe("active sessions", () => {
  it("lists the caller's sessions with device, coarse address and which is current; ends one, then every other", async () => {
    const person = registration()
    const me = await newClient(server, api, person)
    const laptop = await loginAs(me.email, person.password, FIREFOX_LINUX)
    const phone = await loginAs(me.email, person.password, SAFARI_IPHONE)
    const listed = await api.get("/api/auth/sessions", { token: laptop.token })
    expect(listed.status, listed.text).toBe(200)
    const sessions = listed.body.data.sessions as Array<Record<string, unknown>>
    expect(sessions).toHaveLength(3)
    expect(sessions.filter((s) => s.current)).toHaveLength(1)
    expect(sessions.find((s) => s.current)).toMatchObject({ browser: "Firefox", os: "Linux", address: "127.0.0.0/24" })
    expect(sessions.find((s) => s.browser === "Safari")).toMatchObject({ os: "iOS", current: false })
    // The most recently used first.
    expect(sessions[0]!.browser).toBe("Safari")

    // Log out the phone only: its access token and its refresh token stop working at once.
    const phoneId = sessions.find((s) => s.browser === "Safari")!.id as string
    const ended = await api.call("DELETE", `/api/auth/sessions/${phoneId}`, { token: laptop.token, language: "en" })
    expect([ended.status, ended.body.message]).toEqual([200, en["auth.sessionEnded"]])
    expect((await api.get("/api/auth/me", { token: phone.token })).status).toBe(401)
    expect((await api.post("/api/auth/refresh", {}, { refreshCookie: phone.cookie })).status).toBe(401)
    expect((await api.get("/api/auth/me", { token: laptop.token })).status).toBe(200)
    const again = await api.call("DELETE", `/api/auth/sessions/${phoneId}`, { token: laptop.token })
    expect([again.status, again.body.code, again.body.message]).toEqual([404, "SESSION_NOT_FOUND", fr["auth.sessionNotFound"]])
    expect((await api.get("/api/auth/sessions", { token: laptop.token })).body.data.sessions).toHaveLength(2)

    // Nobody ends another person's session.
    const stranger = await newClient(server, api)
    const laptopId = sessions.find((s) => s.current)!.id as string
    expect((await api.call("DELETE", `/api/auth/sessions/${laptopId}`, { token: stranger.token })).status).toBe(404)
    expect((await api.get("/api/auth/me", { token: laptop.token })).status).toBe(200)

    // "Log out everywhere else": only the caller's session stays.
    const tablet = await loginAs(me.email, person.password, SAFARI_IPHONE)
    const others = await api.post("/api/auth/sessions/end-others", {}, { token: laptop.token })
    expect([others.status, others.body.message]).toEqual([200, fr["auth.otherSessionsEnded"]])
    for (const gone of [tablet.token, me.token]) expect((await api.get("/api/auth/me", { token: gone })).status).toBe(401)
    expect((await api.post("/api/auth/refresh", {}, { refreshCookie: tablet.cookie })).status).toBe(401)
    const left = (await api.get("/api/auth/sessions", { token: laptop.token })).body.data.sessions
    expect(left).toHaveLength(1)
    expect(left[0]).toMatchObject({ id: laptopId, current: true })
    expect((await api.post("/api/auth/refresh", {}, { refreshCookie: laptop.cookie })).status).toBe(200)
  })

  it("a password change from /settings ends every other session and keeps the caller's", async () => {
    const person = registration()
    await newClient(server, api, person)
    const here = await loginAs(person.email, person.password)
    const there = await loginAs(person.email, person.password)
    const changed = await api.patch(
      "/api/auth/update-password",
      { currentPassword: person.password, newPassword: "Chang3d!pw", confirmPassword: "Chang3d!pw" },
      { token: here.token, refreshCookie: here.cookie }
    )
    expect(changed.status, changed.text).toBe(200)
    expect((await api.get("/api/auth/me", { token: there.token })).status).toBe(401)
    expect((await api.get("/api/auth/sessions", { token: here.token })).body.data.sessions).toHaveLength(1)
    expect((await api.post("/api/auth/login", { email: person.email, password: person.password })).status).toBe(401)
    expect((await api.post("/api/auth/login", { email: person.email, password: "Chang3d!pw" })).status).toBe(200)
  })
})

describe("email change", () => {
  it("takes effect only through the link mailed to the new address; the old address is told", async () => {
    const person = registration()
    const me = await newClient(server, api, person)
    const taken = await newClient(server, api)
    const change = (body: Record<string, unknown>, language?: string) =>
      api.post("/api/auth/change-email", body, { token: me.token, ...(language ? { language } : {}) })

    const invalid = await change({ newEmail: "not-an-address", currentPassword: person.password }, "en")
    expect([invalid.status, invalid.body.details]).toEqual([422, [{ field: "newEmail", message: en["validation.email"] }]])
    const same = await change({ newEmail: person.email.toUpperCase(), currentPassword: person.password })
    expect([same.status, same.body.details]).toEqual([422, [{ field: "newEmail", message: fr["auth.sameEmail"] }]])
    const wrongPassword = await change({ newEmail: `new.${person.email}`, currentPassword: "Wrong1!pw" })
    expect([wrongPassword.status, wrongPassword.body.details[0].field]).toEqual([422, "currentPassword"])
    const conflict = await change({ newEmail: taken.email, currentPassword: person.password }, "en")
    expect([conflict.status, conflict.body.code, conflict.body.message]).toEqual([409, "EMAIL_TAKEN", en["auth.emailTaken"]])

    const newEmail = `moved.${person.email}`
    const asked = await change({ newEmail, currentPassword: person.password })
    expect([asked.status, asked.body.message]).toEqual([200, fr["auth.emailChangeSent"]])
    // Nothing changed yet: the account keeps its address, and the new one does not log in.
    expect((await api.get("/api/auth/me", { token: me.token })).body.data.user.email).toBe(person.email)
    expect((await api.post("/api/auth/login", { email: newEmail, password: person.password })).status).toBe(401)
    expect(await mailsTo(server, person.email)).toHaveLength(1) // only the verification mail of the registration

    const [mail] = await mailsAtLeast(server, newEmail, 1)
    const token = /\/confirm-email\/([A-Za-z0-9_-]+)/.exec(mail!.text)?.[1]
    expect(token).toBeDefined()
    expect((await api.get("/api/auth/confirm-email/not-a-token")).status).toBe(400)
    const confirmed = await api.get(`/api/auth/confirm-email/${token}`)
    expect([confirmed.status, confirmed.body.data.user.email, confirmed.body.message]).toEqual([200, newEmail, fr["auth.emailChanged"]])
    // Opened without the asking session's cookie (from another device): every session ended (issue 23).
    expect((await api.get("/api/auth/me", { token: me.token })).status).toBe(401)
    const again = await api.post("/api/auth/login", { email: newEmail, password: person.password })
    expect(again.status).toBe(200)
    expect(again.body.data.user).toMatchObject({ email: newEmail, isEmailVerified: true })
    expect((await api.post("/api/auth/login", { email: person.email, password: person.password })).status).toBe(401)
    // The old address is told (without naming the new one); the link works once.
    const told = await mailsTo(server, person.email)
    expect(told.map((m) => m.subject)).toContain(fr["mail.emailChanged.subject"])
    expect(told.every((m) => !m.text.includes(newEmail))).toBe(true)
    expect((await api.get(`/api/auth/confirm-email/${token}`)).status).toBe(400)
  })

  it("an older link dies when a newer change is asked", async () => {
    const person = registration()
    const me = await newClient(server, api, person)
    const first = `first.${person.email}`
    const second = `second.${person.email}`
    for (const newEmail of [first, second])
      expect((await api.post("/api/auth/change-email", { newEmail, currentPassword: person.password }, { token: me.token })).status).toBe(
        200
      )
    const [firstMail] = await mailsAtLeast(server, first, 1)
    const token = /\/confirm-email\/([A-Za-z0-9_-]+)/.exec(firstMail!.text)![1]
    expect((await api.get(`/api/auth/confirm-email/${token}`)).status).toBe(400)
  })
})

/** A provider with a service, a client, and a booking between them taken to COMPLETED (paid, captured, reviewed). */
const completedBooking = async (client: Session, provider: Session, serviceId: string) => {
  const completed = await bookingIn(server, "completed", {
    provider,
    client,
    serviceId,
    startsInHours: 36 + Math.floor(Math.random() * 200) * 3,
    address: "1200 rue Sainte-Catherine, Montréal",
    notes: "Sonnez deux fois",
    review: { rating: 5, comment: "Parfait." }
  })
  return completed.bookingId
}

const newService = (provider: Session) =>
  serviceOf(server, provider, { title: "Cours de piano", description: "Cours à domicile.", price: 50 })

/** The token of the export link mailed to `email` (the job runs in the background: waits up to 15 s). */
const exportLink = async (email: string) => {
  const deadline = Date.now() + 15_000
  for (;;) {
    const found = (await mailsTo(server, email)).map((mail) => /\/account\/export\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1]).find(Boolean)
    if (found || Date.now() > deadline) return found
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe("export my data", () => {
  it("mails a link to a JSON archive of the caller's records, naming the other party by display name only", async () => {
    const me = uniquePerson()
    const other = uniquePerson()
    const provider = await newProvider(server, api, { paymentReady: true }, other)
    const client = await newClient(server, api, me)
    const serviceId = await newService(provider)
    const bookingId = await completedBooking(client, provider, serviceId)
    const started = await api.post("/api/conversations", { participantId: provider.id }, { token: client.token })
    expect([201, 200]).toContain(started.status)
    const conversationId = started.body.data.conversation.id as string
    const mine = "Bonjour, le piano est au deuxième étage."
    const theirs = "Parfait, j'apporte mon accordeur personnel."
    expect((await api.post(`/api/conversations/${conversationId}/messages`, { content: mine }, { token: client.token })).status).toBe(201)
    expect((await api.post(`/api/conversations/${conversationId}/messages`, { content: theirs }, { token: provider.token })).status).toBe(
      201
    )

    const asked = await api.post("/api/account/export", {}, { token: client.token, language: "en" })
    expect([asked.status, asked.body.message]).toEqual([202, en["privacy.exportRequested"]])
    expect((await api.post("/api/account/export", {})).status).toBe(401)
    const link = await exportLink(me.email)
    expect(link).toBeDefined()
    // The mail opens the page (a scanner's GET spends nothing); the page's button POSTs for the file.
    const mailed = (await mailsTo(server, me.email)).find((m) => m.text.includes(`/account/export/${link}`))!
    expect(mailed.text).not.toContain(`/api/account/export/${link}`)
    const opened = await fetch(`${server.url}/api/account/export/${link}`, { redirect: "manual" })
    expect([opened.status, opened.headers.get("location")]).toEqual([303, `/account/export/${link}`])
    const download = await fetch(`${server.url}/api/account/export/${link}`, { method: "POST" })
    expect(download.status).toBe(200)
    expect(download.headers.get("content-disposition")).toContain("attachment")
    const text = await download.text()
    const archive = JSON.parse(text)
    expect(archive.profile).toMatchObject({ email: me.email, first_name: me.firstName, phone_number: me.phoneNumber })
    expect(archive.bookings).toEqual([
      expect.objectContaining({ id: bookingId, as: "CLIENT", otherParty: `${other.firstName} ${other.lastName[0]}.`, status: "COMPLETED" })
    ])
    expect(archive.messages.map((m: { content: string }) => m.content)).toEqual([mine])
    expect(archive.reviews.written).toEqual([expect.objectContaining({ rating: 5, comment: "Parfait." })])
    expect(archive.conversations).toEqual([
      expect.objectContaining({ id: conversationId, with: `${other.firstName} ${other.lastName[0]}.` })
    ])
    // Nobody else's personal data: not the provider's email, phone, last name, nor their words.
    for (const foreign of [other.email, other.phoneNumber, other.lastName, theirs]) expect(text).not.toContain(foreign)

    // The provider's own export holds their side (and not the client's address or contact details).
    expect((await api.post("/api/account/export", {}, { token: provider.token })).status).toBe(202)

    // Once: the same link again is a 404 in the reader's language, and the archive is no longer stored.
    for (const [language, messages] of [
      ["fr", fr],
      ["en", en]
    ] as const) {
      const again = await api.post(`/api/account/export/${link}`, {}, { language })
      expect([again.status, again.body.code, again.body.message]).toEqual([404, "EXPORT_NOT_FOUND", messages["privacy.exportNotFound"]])
    }
    expect(await sql("SELECT archive FROM data_exports WHERE user_id = $1 AND downloaded_at IS NOT NULL", [client.id])).toEqual([
      { archive: null }
    ])
    const unknown = await api.post("/api/account/export/not-a-real-token", {}, { language: "en" })
    expect([unknown.status, unknown.body.code, unknown.body.message]).toEqual([404, "EXPORT_NOT_FOUND", en["privacy.exportNotFound"]])
  })

  it("expires after a week, and two downloads at once get the file once", async () => {
    const person = uniquePerson()
    const client = await newClient(server, api, person)
    /** Asks for an export and answers the token of the link mailed for it (the newest mail, as account-security's exportLink reads it). */
    const ask = async () => {
      const before = (await mailsTo(server, person.email)).length
      expect((await api.post("/api/account/export", {}, { token: client.token })).status).toBe(202)
      const mail = (await mailsAtLeast(server, person.email, before + 1))[0]!
      return /\/account\/export\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!
    }
    const racing = await ask()
    const answers = await Promise.all([1, 2, 3].map(() => fetch(`${server.url}/api/account/export/${racing}`, { method: "POST" })))
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404])
    const late = await ask()
    await sql("UPDATE data_exports SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND downloaded_at IS NULL", [client.id])
    expect((await api.post(`/api/account/export/${late}`, {})).status).toBe(404)
  })
})

/** Every text, citext, json and array column of every table of the test schema holding `needle`, as "table.column". */
const columnsHolding = async (needle: string) => {
  const columns = await sql<{ tableName: string; columnName: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
     WHERE table_schema = current_schema()
       AND (data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY') OR udt_name = 'citext')
       AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE')`
  )
  expect(columns.length).toBeGreaterThan(100)
  const hits: Array<string> = []
  for (const { tableName: table_name, columnName: column_name } of columns) {
    const [row] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${table_name}" WHERE strpos(lower("${column_name}"::text), lower($1)) > 0`,
      [needle]
    ).catch((error) => {
      throw new Error(`${table_name}.${column_name}: ${String(error?.cause ?? error)}`)
    })
    if (row!.n > 0) hits.push(`${table_name}.${column_name}`)
  }
  return hits
}

describe("delete my account", () => {
  it("is refused with the reason while a booking is under way, and needs the password", async () => {
    const provider = await newProvider(server, api)
    const person = uniquePerson()
    const client = await newClient(server, api, person)
    const serviceId = await newService(provider)
    await bookingIn(server, "pending", { provider, client, serviceId, startsInHours: 48, address: "1 rue X, Montréal" })
    const wrong = await api.post("/api/account/delete", { password: "Wrong1!pw" }, { token: client.token })
    expect([wrong.status, wrong.body.details[0].field]).toEqual([422, "password"])
    for (const [language, table] of [
      ["fr", fr],
      ["en", en]
    ] as const) {
      const refused = await api.post("/api/account/delete", { password: person.password }, { token: client.token, language })
      expect([refused.status, refused.body.code, refused.body.message]).toEqual([
        409,
        "BOOKING_UNDER_WAY",
        table["privacy.bookingUnderWay"]
      ])
    }
    // The provider is refused too: the booking is theirs as well.
    const providerRefused = await api.post("/api/account/delete", { password: registration().password }, { token: provider.token })
    expect([providerRefused.status, providerRefused.body.code]).toEqual([409, "BOOKING_UNDER_WAY"])
    // Nothing was touched.
    expect((await api.get("/api/auth/me", { token: client.token })).body.data.user.email).toBe(person.email)
  })

  it("is refused while money is held on a finished booking", async () => {
    const provider = await newProvider(server, api)
    const person = uniquePerson()
    const client = await newClient(server, api, person)
    const id = await completedBooking(client, provider, await newService(provider))
    await sql("UPDATE bookings SET payment_status = 'AUTHORIZED', status = 'CANCELLED', captured_minor = 0 WHERE id = $1", [id])
    const refused = await api.post("/api/account/delete", { password: person.password }, { token: client.token, language: "en" })
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([409, "MONEY_HELD", en["privacy.moneyHeld"]])
  })

  it("erases the person's name, email and phone from every table, keeps payments and reviews, and ends login", async () => {
    const provider = await newProvider(server, api)
    const person = uniquePerson()
    const client = await newClient(server, api, person)
    const other = await loginAs(person.email, person.password)
    const serviceId = await newService(provider)
    const bookingId = await completedBooking(client, provider, serviceId)
    const started = await api.post("/api/conversations", { participantId: provider.id }, { token: client.token })
    const conversationId = started.body.data.conversation.id as string
    expect(
      (await api.post(`/api/conversations/${conversationId}/messages`, { content: "Merci pour le cours !" }, { token: client.token }))
        .status
    ).toBe(201)
    await api.patch("/api/users/me", { bio: "Pianiste amatrice", address: "12 rue des Érables", city: "Laval" }, { token: client.token })
    await api.post("/api/contact", {
      name: `${person.firstName} ${person.lastName}`,
      email: person.email,
      subject: "general",
      message: "Bonjour"
    })
    expect((await api.post("/api/account/export", {}, { token: client.token })).status).toBe(202)
    expect(await exportLink(person.email)).toBeDefined()
    // Before: the person is in the data (the search below can find them).
    expect(await columnsHolding(person.email)).toContain("users.email")
    const paymentsBefore = await sql<{ n: number }>("SELECT count(*)::int AS n FROM payment_operations WHERE booking_id = $1", [bookingId])
    expect(paymentsBefore[0]!.n).toBeGreaterThanOrEqual(2)

    const deleted = await api.post("/api/account/delete", { password: person.password }, { token: client.token, language: "en" })
    expect([deleted.status, deleted.body.message]).toEqual([200, en["privacy.accountDeleted"]])

    for (const needle of [person.email, person.firstName, person.lastName, person.phoneNumber])
      expect(await columnsHolding(needle), needle).toEqual([])
    // Payments, the booking and the review stay, without personal data.
    const paymentsAfter = await sql<{ n: number }>("SELECT count(*)::int AS n FROM payment_operations WHERE booking_id = $1", [bookingId])
    expect(paymentsAfter[0]!.n).toBe(paymentsBefore[0]!.n)
    const [booking] = await sql<{ status: string; captured: number; address: string }>(
      "SELECT status, captured_minor::int AS captured, address FROM bookings WHERE id = $1",
      [bookingId]
    )
    expect(booking).toMatchObject({ status: "COMPLETED", address: "-" })
    expect(booking!.captured).toBeGreaterThan(0)
    const reviews = (await api.get(`/api/services/${serviceId}/reviews`)).body.data.reviews
    expect(reviews).toEqual([expect.objectContaining({ rating: 5, comment: "Parfait.", client: { firstName: "", lastName: "" } })])

    // Login is impossible and every session ended.
    expect((await api.post("/api/auth/login", { email: person.email, password: person.password })).status).toBe(401)
    for (const token of [client.token, other.token]) expect((await api.get("/api/auth/me", { token })).status).toBe(401)
    expect((await api.post("/api/auth/refresh", {}, { refreshCookie: other.cookie })).status).toBe(401)
    // The address is free again.
    expect((await api.post("/api/auth/register", { ...registration(), email: person.email })).status).toBe(201)
    expect(await login(api, "admin@marketplace.local", "Admin1234!")).toBeTruthy()
  })
})
