import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Mailer, composeMail } from "../../src/modules/notifications"
import { UnsubscribeTokens } from "../../src/modules/notifications/ports"
import { en, fr } from "../../src/platform/messages"
import { newClient } from "../support/accounts"
import { mailsTo } from "../support/http"
import { httpWorld } from "../support/world"
import { DEFAULT_PREFERENCES } from "./support"

// A low limit, so the public unsubscribe endpoint's rate limit can be reached.
const LIMIT = 8
const {
  server,
  api,
  client: alice,
  stranger: bob
} = httpWorld({ config: { authRateLimit: LIMIT, publicUrl: "http://market.test" }, client: true, stranger: true })

const put = (body: unknown, options: { token?: string; language?: string } = {}) =>
  api.call("PUT", "/api/notifications/preferences", { json: body, ...options })

/** The one-click link as a browser opens it (a page, not an API envelope). */
const openLink = async (token: string, language = "fr") => {
  const res = await fetch(`${server.url}/api/notifications/unsubscribe?token=${encodeURIComponent(token)}`, {
    headers: { "accept-language": language }
  })
  return { status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() }
}

describe("GET/PUT /api/notifications/preferences", () => {
  it("401 without a session", async () => {
    expect((await api.get("/api/notifications/preferences")).status).toBe(401)
    expect((await put({ emailFrequency: "daily" })).status).toBe(401)
  })

  it("answers the defaults when none are stored, then keeps a partial change", async () => {
    const initial = await api.get("/api/notifications/preferences", { token: alice.token })
    expect(initial.status).toBe(200)
    expect(initial.body.data.preferences).toEqual(DEFAULT_PREFERENCES)
    // The quiet hours follow the account's zone, the one an account has.
    expect((await api.patch("/api/users/me", { timeZone: "America/Montreal" }, { token: alice.token })).status).toBe(200)
    const saved = await put(
      { emailFrequency: "daily", quietHoursEnabled: true, quietHoursStart: "22:00", quietHoursEnd: "07:00", timeZone: "America/Montreal" },
      { token: alice.token, language: "en" }
    )
    expect(saved.status, saved.text).toBe(200)
    expect(saved.body.message).toBe(en["notifications.preferencesSaved"])
    expect((await put({ emailNotifications: false }, { token: alice.token })).body.data.preferences).toEqual({
      emailNotifications: false,
      emailFrequency: "daily",
      quietHoursEnabled: true,
      quietHoursStart: "22:00",
      quietHoursEnd: "07:00",
      timeZone: "America/Montreal"
    })
    expect((await api.get("/api/notifications/preferences", { token: alice.token })).body.data.preferences.emailNotifications).toBe(false)
    // Another account's preferences are untouched.
    expect((await api.get("/api/notifications/preferences", { token: bob.token })).body.data.preferences.emailFrequency).toBe("instant")
  })

  it("422 per field, in French by default and in English on request", async () => {
    const bad = { emailFrequency: "hourly", quietHoursStart: "7h", quietHoursEnd: "24:00", timeZone: "Mars/Olympus" }
    const french = await put(bad, { token: bob.token })
    expect(french.status).toBe(422)
    expect(french.body.code).toBe("VALIDATION_ERROR")
    expect(french.body.details).toEqual([
      { field: "emailFrequency", message: fr["validation.emailFrequency"] },
      { field: "quietHoursStart", message: fr["validation.clockTime"] },
      { field: "quietHoursEnd", message: fr["validation.clockTime"] },
      { field: "timeZone", message: fr["validation.timeZone"] }
    ])
    // Another zone than the account's is refused, not stored apart (it was, and drifted from the account's).
    const elsewhere = await put({ quietHoursEnabled: true, timeZone: "Asia/Tokyo" }, { token: bob.token, language: "en" })
    expect(elsewhere.status).toBe(422)
    expect(elsewhere.body.details).toEqual([{ field: "timeZone", message: en["validation.zoneOfAccount"] }])
    const same = await put({ quietHoursStart: "06:00", quietHoursEnd: "06:00" }, { token: bob.token, language: "en" })
    expect(same.status).toBe(422)
    expect(same.body.details).toEqual([{ field: "quietHoursEnd", message: en["validation.quietHoursEmpty"] }])
    // Nothing was stored.
    expect((await api.get("/api/notifications/preferences", { token: bob.token })).body.data.preferences.quietHoursStart).toBe("22:00")
    // A wrong JSON type is a malformed request.
    expect((await put({ emailNotifications: "yes" }, { token: bob.token })).status).toBe(400)
  })
})

describe("unsubscribing", () => {
  it("the signed link in a non-essential mail turns everything off; a tampered one changes nothing", async () => {
    const carol = await newClient(server, api)
    await server.run(
      Effect.flatMap(Mailer, (mailer) =>
        mailer.send(
          composeMail(
            "booking",
            { email: carol.email, firstName: "Carol", preferredLanguage: "fr" },
            "Réservation confirmée",
            ["Détails"],
            { label: "Voir", link: "http://market.test/bookings" },
            "Atelier Test"
          )
        )
      )
    )
    const mail = (await mailsTo(server, carol.email)).find((m) => m.subject === "Réservation confirmée")!
    const token = decodeURIComponent(/\/api\/notifications\/unsubscribe\?token=(\S+)/.exec(mail.text)![1]!)

    const tampered = await openLink(`${bob.id}.${token.split(".")[1]}`)
    expect(tampered.status).toBe(400)
    expect(tampered.type).toMatch(/^text\/html/)
    expect(tampered.text).toContain(fr["notifications.unsubscribePage.invalid"].replace(/'/g, "&#39;"))
    expect((await openLink(`${token.slice(0, -2)}xx`, "en")).text).toContain(en["notifications.unsubscribePage.invalid"])
    expect((await api.get("/api/notifications/preferences", { token: carol.token })).body.data.preferences.emailNotifications).toBe(true)

    const valid = await openLink(token)
    expect(valid.status).toBe(200)
    expect(valid.text).toContain('lang="fr"')
    expect(valid.text).toContain("http://market.test/settings")
    expect((await api.get("/api/notifications/preferences", { token: carol.token })).body.data.preferences).toMatchObject({
      emailNotifications: false,
      emailFrequency: "never"
    })
    // The token is the server's HMAC of the account id.
    expect(await server.run(Effect.map(UnsubscribeTokens, (t) => t.sign(carol.id)))).toBe(token)
  })

  it("POST /api/notifications/unsubscribe with a bearer token acts on the caller's own address only", async () => {
    const carol = await newClient(server, api)
    const someoneElse = await api.post("/api/notifications/unsubscribe", { email: bob.email }, { token: carol.token, language: "en" })
    expect([someoneElse.status, someoneElse.body.code, someoneElse.body.message]).toEqual([
      403,
      "NOT_YOUR_ADDRESS",
      en["notifications.unsubscribeNotYours"]
    ])
    expect((await api.get("/api/notifications/preferences", { token: bob.token })).body.data.preferences.emailNotifications).toBe(true)
    const own = await api.post("/api/notifications/unsubscribe", {}, { token: carol.token })
    expect([own.status, own.body.message]).toEqual([200, fr["notifications.unsubscribed"]])
    expect((await api.get("/api/notifications/preferences", { token: carol.token })).body.data.preferences).toMatchObject({
      emailNotifications: false,
      emailFrequency: "never"
    })
    const badToken = await api.post("/api/notifications/unsubscribe", { email: alice.email }, { token: "forged" })
    expect(badToken.status).toBe(401)
  })

  it("POST /api/notifications/unsubscribe anonymously: the same answer for an unknown and a known address, nothing turned off, the owner mailed the link to confirm; 422 for a malformed one; then 429", async () => {
    const unknown = await api.post("/api/notifications/unsubscribe", { email: "nobody.at.all@example.com" })
    const known = await api.post("/api/notifications/unsubscribe", { email: bob.email.toUpperCase() })
    expect(unknown.status).toBe(200)
    expect(known.status).toBe(200)
    expect(known.body).toEqual(unknown.body)
    expect(known.body.message).toBe(fr["notifications.unsubscribeRequested"])
    // A stranger cannot silence bob: only the link mailed to bob's own address does.
    let confirmation: { subject: string; text: string } | undefined
    for (let tries = 0; tries < 100 && !confirmation; tries++) {
      confirmation = (await mailsTo(server, bob.email)).find((m) => m.subject === fr["mail.unsubscribeConfirm.subject"])
      if (!confirmation) await new Promise((r) => setTimeout(r, 50))
    }
    expect(confirmation, "a confirmation mailed to bob").toBeDefined()
    expect((await api.get("/api/notifications/preferences", { token: bob.token })).body.data.preferences).toMatchObject({
      emailNotifications: true
    })
    const link = /\/api\/notifications\/unsubscribe\?token=([^\s]+)/.exec(confirmation!.text)![1]!
    expect((await openLink(decodeURIComponent(link))).status).toBe(200)
    expect((await api.get("/api/notifications/preferences", { token: bob.token })).body.data.preferences).toMatchObject({
      emailNotifications: false,
      emailFrequency: "never"
    })

    const french = await api.post("/api/notifications/unsubscribe", { email: "pas une adresse" })
    expect(french.status).toBe(422)
    expect(french.body.details).toEqual([{ field: "email", message: fr["validation.email"] }])
    const english = await api.post("/api/notifications/unsubscribe", {}, { language: "en" })
    expect(english.status).toBe(422)
    expect(english.body.details).toEqual([{ field: "email", message: en["validation.required"] }])

    let status = 0
    for (let n = 4; n <= LIMIT + 1 && status !== 429; n++)
      status = (await api.post("/api/notifications/unsubscribe", { email: "nobody.at.all@example.com" })).status
    expect(status).toBe(429)
  })
})
