// Users' time zones over HTTP (issue 12): set from the browser at registration, adopted at login by an
// account that has none (never overwriting a chosen one), changed on /settings (PATCH /api/users/me),
// 422 for a zone that is no IANA name in both languages; the provider's and the client's zones on the
// service and booking views; and the booking mails giving the time in each recipient's zone, named, in
// their language.
import { describe, expect, it } from "vitest"
import { en, fr } from "../../src/platform/messages"
import { formatWithZone } from "../../src/platform/time-zones"
import { login, newClient, newProvider, registeredThroughApi } from "../support/accounts"
import { mailsTo, registration } from "../support/http"
import { applicationForm, submit } from "../onboarding/support"
import { httpWorld } from "../support/world"

const { server, api } = httpWorld()

/** Registers, follows the verification link; answers the registration's input and answer. */
const registered = (fields: Record<string, unknown> = {}) => registeredThroughApi(server, api, fields)
const signIn = async (email: string, password: string, timeZone?: string) => {
  const reply = await api.post("/api/auth/login", { email, password, ...(timeZone === undefined ? {} : { timeZone }) })
  expect(reply.status, reply.text).toBe(200)
  return reply.body.data as { token: string; user: { id: string; timeZone: string | null } }
}
const me = async (token: string) => (await api.get("/api/auth/me", { token })).body.data.user as { timeZone: string | null }

describe("registration", () => {
  it("keeps the browser's zone sent with the registration", async () => {
    const { input } = await registered({ timeZone: "America/Toronto" })
    // A login bringing another zone keeps the one stored at registration.
    const session = await signIn(input.email, input.password, "Europe/Paris")
    expect(session.user.timeZone).toBe("America/Toronto")
    expect((await me(session.token)).timeZone).toBe("America/Toronto")
  })

  it("without a zone the account has none (null) until a login brings one", async () => {
    const { input } = await registered()
    expect((await signIn(input.email, input.password)).user.timeZone).toBeNull()
  })

  it("422 for a zone that is no IANA name, in French and in English, and nothing is created", async () => {
    for (const [language, messages] of [
      [undefined, fr],
      ["en", en]
    ] as const) {
      for (const timeZone of ["Mars/Olympus", "+02:00", "Europe/Paris; DROP TABLE users"]) {
        const input = registration({ timeZone })
        const reply = await api.post("/api/auth/register", input, language ? { language } : {})
        expect(reply.status, reply.text).toBe(422)
        expect(reply.body.code).toBe("VALIDATION_ERROR")
        expect(reply.body.details).toEqual([{ field: "timeZone", message: messages["validation.timeZone"] }])
        expect(await mailsTo(server, input.email)).toHaveLength(0)
      }
    }
    expect(fr["validation.timeZone"]).not.toBe(en["validation.timeZone"])
  })
})

describe("login", () => {
  it("sets a missing zone from the browser's, then never overwrites it", async () => {
    const { input } = await registered()
    const first = await signIn(input.email, input.password, "Asia/Tokyo")
    expect(first.user.timeZone).toBe("Asia/Tokyo")
    expect((await me(first.token)).timeZone).toBe("Asia/Tokyo")
    const second = await signIn(input.email, input.password, "America/Toronto")
    expect(second.user.timeZone).toBe("Asia/Tokyo")
    expect((await me(second.token)).timeZone).toBe("Asia/Tokyo")
  })

  it("an unknown zone never blocks a sign-in and is not kept; no zone leaves the account as it is", async () => {
    const { input } = await registered()
    expect((await signIn(input.email, input.password, "Mars/Olympus")).user.timeZone).toBeNull()
    expect((await signIn(input.email, input.password)).user.timeZone).toBeNull()
    expect((await signIn(input.email, input.password, "Europe/Paris")).user.timeZone).toBe("Europe/Paris")
  })

  it("keeps a zone chosen on the settings", async () => {
    const { input } = await registered()
    const session = await signIn(input.email, input.password)
    expect((await api.patch("/api/users/me", { timeZone: "America/Vancouver" }, { token: session.token })).status).toBe(200)
    expect((await signIn(input.email, input.password, "Europe/Paris")).user.timeZone).toBe("America/Vancouver")
  })
})

describe("PATCH /api/users/me { timeZone }", () => {
  it("changes the account's zone, shown by GET /api/auth/me and GET /api/users/me", async () => {
    const { input } = await registered({ timeZone: "Europe/Paris" })
    const session = await signIn(input.email, input.password)
    const reply = await api.patch("/api/users/me", { timeZone: "America/Toronto" }, { token: session.token })
    expect(reply.status, reply.text).toBe(200)
    expect(reply.body.data.user.timeZone).toBe("America/Toronto")
    expect((await me(session.token)).timeZone).toBe("America/Toronto")
    expect((await api.get("/api/users/me", { token: session.token })).body.data.user.timeZone).toBe("America/Toronto")
  })

  it("422 for a bad or blank zone, in both languages, and the zone stays", async () => {
    const { input } = await registered({ timeZone: "Asia/Tokyo" })
    const session = await signIn(input.email, input.password)
    for (const [language, messages] of [
      ["fr", fr],
      ["en", en]
    ] as const) {
      for (const timeZone of ["Atlantis/Capital", "", "UTC+2"]) {
        const reply = await api.patch("/api/users/me", { timeZone }, { token: session.token, language })
        expect(reply.status, reply.text).toBe(422)
        expect(reply.body.details).toEqual([{ field: "timeZone", message: messages["validation.timeZone"] }])
      }
    }
    expect((await me(session.token)).timeZone).toBe("Asia/Tokyo")
  })

  it("401 without a session", async () => {
    expect((await api.patch("/api/users/me", { timeZone: "Europe/Paris" })).status).toBe(401)
  })
})

describe("zones on the views and in the booking mails", () => {
  it("a provider in Toronto (English) and a client in Paris (French) each get the booked instant in their zone, named", async () => {
    const provider = await newProvider(server, api)
    const setUp = await api.patch("/api/users/me", { timeZone: "America/Toronto", preferredLanguage: "en" }, { token: provider.token })
    expect(setUp.status, setUp.text).toBe(200)
    const client = await newClient(server, api, { timeZone: "Europe/Paris" })
    const created = await api.post(
      "/api/services",
      {
        title: "Cours de piano",
        description: "Une heure de piano à domicile.",
        price: 50,
        duration: 60,
        location: "Montréal",
        categoryId: 7
      },
      { token: provider.token }
    )
    expect(created.status, created.text).toBe(201)
    const serviceId = created.body.data.service.id as string
    expect(created.body.data.service.providerTimeZone).toBe("America/Toronto")
    expect((await api.get(`/api/services/${serviceId}`)).body.data.service.providerTimeZone).toBe("America/Toronto")
    // One zone everywhere (issue 23, item 1): the plan's slots and the quiet hours are the account's too.
    const window = new URLSearchParams({
      from: new Date().toISOString(),
      to: new Date(Date.now() + 7 * 24 * 3_600_000).toISOString(),
      duration: "60"
    })
    const slots = await api.get(`/api/services/${serviceId}/slots?${window}`)
    expect(slots.body.data?.timeZone, slots.text).toBe("America/Toronto")
    const me = (await api.get("/api/users/me", { token: provider.token })).body.data.user
    expect((await api.get(`/api/providers/${me.id}/availability`)).body.data.timeZone).toBe("America/Toronto")
    const quiet = await api.get("/api/notifications/preferences", { token: provider.token })
    expect(quiet.body.data.preferences.timeZone).toBe("America/Toronto")

    const start = new Date(Date.now() + 2 * 24 * 3_600_000)
    start.setUTCHours(14, 0, 0, 0)
    const booked = await api.post(
      "/api/bookings",
      {
        serviceId,
        startTime: start.toISOString(),
        endTime: new Date(start.getTime() + 3_600_000).toISOString(),
        address: "1 rue de Rivoli, Paris"
      },
      { token: client.token }
    )
    expect(booked.status, booked.text).toBe(201)
    const booking = booked.body.data.bookingData
    expect(booking.providerTimeZone).toBe("America/Toronto")
    expect(booking.clientTimeZone).toBe("Europe/Paris")
    const seen = await api.get(`/api/bookings/${booking.id}`, { token: provider.token })
    expect(seen.body.data.booking).toMatchObject({ providerTimeZone: "America/Toronto", clientTimeZone: "Europe/Paris" })

    const toClient = (await mailsTo(server, client.email)).find((m) => m.subject === fr["mail.booking.requested.subject"])
    const toProvider = (await mailsTo(server, provider.email)).find((m) => m.subject === en["mail.booking.requested.subject"])
    const parisText = formatWithZone("fr", start, "Europe/Paris")
    const torontoText = formatWithZone("en", start, "America/Toronto")
    // 14:00 UTC: 15:00 or 16:00 in Paris, 09:00 or 10:00 in Toronto (depending on the date's offsets).
    expect(parisText).toMatch(/à 1[56]:00, heure de Paris$/)
    expect(torontoText).toMatch(/at (9|10):00\s?AM, Toronto time$/)
    expect(toClient?.text).toContain(parisText)
    expect(toProvider?.text).toContain(torontoText)
    expect(toClient?.text).not.toContain("UTC")
    expect(toProvider?.text).not.toContain("UTC")
    expect(toClient?.html ?? "").toContain("heure de Paris")
  })

  it("an account without a zone reads its mails in the default zone (Europe/Paris), named", async () => {
    const provider = await newProvider(server, api)
    const { input } = await registered()
    const client = await login(api, input.email, input.password)
    expect((await me(client.token)).timeZone).toBeNull()
    const created = await api.post(
      "/api/services",
      { title: "Jardinage", description: "Taille de haies et tonte.", price: 30, duration: 60, location: "Lyon", categoryId: 7 },
      { token: provider.token }
    )
    expect(created.status, created.text).toBe(201)
    expect(created.body.data.service.providerTimeZone).toBe("Europe/Paris")
    const start = new Date(Date.now() + 3 * 24 * 3_600_000)
    start.setUTCHours(9, 30, 0, 0)
    const booked = await api.post(
      "/api/bookings",
      {
        serviceId: created.body.data.service.id,
        startTime: start.toISOString(),
        endTime: new Date(start.getTime() + 3_600_000).toISOString(),
        address: "2 place Bellecour, Lyon"
      },
      { token: client.token }
    )
    expect(booked.status, booked.text).toBe(201)
    expect(booked.body.data.bookingData.clientTimeZone).toBe("Europe/Paris")
    const mail = (await mailsTo(server, input.email)).find((m) => m.subject === fr["mail.booking.requested.subject"])
    expect(mail?.text).toContain(formatWithZone("fr", start, "Europe/Paris"))
  })
})

describe("the other mails that give a time", () => {
  it("an application's rejection says when it may be resubmitted, in the applicant's zone, named", async () => {
    const person = await newClient(server, api, { timeZone: "America/Toronto" })
    expect((await api.patch("/api/users/me", { preferredLanguage: "en" }, { token: person.token })).status).toBe(200)
    const created = await submit(server, person.token, await applicationForm())
    expect(created.status, created.text).toBe(201)
    const admin = await login(api, "admin@marketplace.local", "Admin1234!")
    const rejected = await api.patch(
      `/api/provider-applications/${created.body.data.application.id}/reject`,
      { rejectionReason: "Illegible document" },
      { token: admin.token }
    )
    expect(rejected.status, rejected.text).toBe(200)
    const until = new Date(rejected.body.data.application.nextSubmissionDate)
    const mail = (await mailsTo(server, person.email)).find((m) => m.subject === en["mail.applicationRejected.subject"])
    const expected = formatWithZone("en", until, "America/Toronto")
    expect(expected).toMatch(/, Toronto time$/)
    expect(mail?.text).toContain(`from ${expected} (attempts left`)
  })
})
