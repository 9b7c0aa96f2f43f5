import * as crypto from "node:crypto"
import { beforeAll, describe, expect, it } from "vitest"
import { newClient, providerWithService, type Session } from "../support/accounts"
import { adjustableClock } from "../support/clock"
import { bookingIn } from "../support/scenarios"
import { httpWorld } from "../support/world"
import { DAY, HOUR } from "../support/durations"

interface Component {
  readonly name: string
  readonly properties: ReadonlyArray<{ readonly name: string; readonly params: string; readonly value: string }>
  readonly children: ReadonlyArray<Component>
}

/**
 * A strict reading of RFC 5545's syntax: CRLF lines, folded lines unfolded, every content line
 * NAME[;params]:value, BEGIN/END nested and matched. Throws on anything else.
 */
const parseICalendar = (text: string): Component => {
  if (!text.includes("\r\n")) throw new Error("lines must end with CRLF")
  const lines = text
    .replace(/\r\n[ \t]/g, "")
    .split("\r\n")
    .filter((line, i, all) => line !== "" || i < all.length - 1)
  const stack: Array<{ name: string; properties: Array<Component["properties"][number]>; children: Array<Component> }> = []
  let root: Component | undefined
  for (const line of lines) {
    const match = /^([A-Za-z0-9-]+)((?:;[^:]*)?):(.*)$/.exec(line)
    if (!match) throw new Error(`not a content line: ${JSON.stringify(line)}`)
    const [, name, params, value] = match as unknown as [string, string, string, string]
    const upper = name.toUpperCase()
    if (upper === "BEGIN") stack.push({ name: value, properties: [], children: [] })
    else if (upper === "END") {
      const done = stack.pop()
      if (!done || done.name !== value) throw new Error(`END:${value} does not close ${done?.name}`)
      if (stack.length === 0) root = done
      else stack[stack.length - 1]!.children.push(done)
    } else {
      if (stack.length === 0) throw new Error(`property outside a component: ${line}`)
      stack[stack.length - 1]!.properties.push({ name: upper, params, value })
    }
  }
  if (!root || stack.length > 0) throw new Error("unbalanced components")
  return root
}
const prop = (component: Component, name: string) => component.properties.find((p) => p.name === name)?.value
const utc = (date: Date) => `${date.toISOString().replace(/[-:]/g, "").slice(0, 15)}Z`

const time = adjustableClock()
const world = httpWorld({
  clock: time.clock,
  service: { title: "Réparation de vélos", description: "Révision complète, freins et dérailleurs.", price: 35, location: "Montréal" }
})
const { server, api, provider, client, sql } = world
/** Another provider's service and client, whose bookings the first provider's feed never shows. */
let other: { provider: Session; client: Session; serviceId: string }
beforeAll(async () => {
  other = await providerWithService(server, api, {
    title: "Cours de guitare",
    description: "Accords, rythme et morceaux choisis.",
    price: 30,
    location: "Montréal",
    categoryId: 7
  })
})

/** A booking of 90 minutes at `start`: paid and confirmed, or only requested. */
const book = async (who: { client: Session; provider: Session; serviceId: string }, start: Date, confirm: boolean) => {
  const built = await bookingIn(server, confirm ? "confirmed" : "pending", {
    ...who,
    start,
    hours: 1.5,
    address: "4000 rue Saint-Denis, Montréal"
  })
  return built.bookingId
}
/** The feed at a URL the API gave (its path on the test server). */
const fetchFeed = (url: string) => fetch(`${server.url}${new URL(url).pathname}`)
const hourFromNow = (hours: number) => new Date(Math.ceil((Date.now() + hours * HOUR) / HOUR) * HOUR)

describe("GET /api/providers/me/calendar-feed and POST .../regenerate", () => {
  it("need a signed-in provider: 401 without a token, 403 for a client", async () => {
    expect((await api.get("/api/providers/me/calendar-feed")).status).toBe(401)
    expect((await api.post("/api/providers/me/calendar-feed/regenerate")).status).toBe(401)
    const someone = await newClient(server, api)
    const refused = await api.get("/api/providers/me/calendar-feed", { token: someone.token })
    expect(refused.status).toBe(403)
    expect((await api.post("/api/providers/me/calendar-feed/regenerate", {}, { token: someone.token })).status).toBe(403)
  })

  it("make the URL on the first call and answer the same one after; the token carries at least 128 random bits", async () => {
    const first = await api.get("/api/providers/me/calendar-feed", { token: provider.token })
    expect(first.status, first.text).toBe(200)
    const url = first.body.data.url as string
    expect(url).toMatch(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/)
    expect((await api.get("/api/providers/me/calendar-feed", { token: provider.token })).body.data.url).toBe(url)
    const theirs = await api.get("/api/providers/me/calendar-feed", { token: other.provider.token })
    expect(theirs.body.data.url).not.toBe(url)
  })

  it("keeps no token in the database, only its SHA-256: the URL is written again from a nonce and the app's secret", async () => {
    const { url } = (await api.get("/api/providers/me/calendar-feed", { token: provider.token })).body.data
    const token = /\/api\/calendar\/([A-Za-z0-9_-]+)\.ics$/.exec(url)![1]!
    const [row] = await sql<Record<string, unknown>>("SELECT * FROM calendar_feeds WHERE provider_id = $1", [provider.id])
    expect(JSON.stringify(row)).not.toContain(token)
    expect(row!.tokenHash).toBe(crypto.createHash("sha256").update(token).digest("hex"))
    expect(row!.legacyTokenHash).toBeNull()
  })

  it("the feed lists the provider's confirmed bookings in UTC, not requests waiting for them, nor another provider's", async () => {
    const confirmedStart = hourFromNow(26)
    const confirmed = await book({ provider, client, serviceId: world.serviceId }, confirmedStart, true)
    const waiting = await book({ provider, client, serviceId: world.serviceId }, hourFromNow(50), false)
    const theirs = await book(other, hourFromNow(26), true)

    const { url } = (await api.get("/api/providers/me/calendar-feed", { token: provider.token })).body.data
    const reply = await fetchFeed(url)
    expect(reply.status).toBe(200)
    expect(reply.headers.get("content-type")).toBe("text/calendar; charset=utf-8")
    const calendar = parseICalendar(await reply.text())
    expect(calendar.name).toBe("VCALENDAR")
    expect(prop(calendar, "VERSION")).toBe("2.0")
    expect(prop(calendar, "METHOD")).toBe("PUBLISH")
    const events = calendar.children.filter((c) => c.name === "VEVENT")
    expect(events.map((e) => prop(e, "UID"))).toEqual([`booking-${confirmed}@marketplace`])
    const [event] = events
    expect(prop(event!, "DTSTART")).toBe(utc(confirmedStart))
    expect(prop(event!, "DTEND")).toBe(utc(new Date(confirmedStart.getTime() + 90 * 60_000)))
    expect(prop(event!, "SUMMARY")).toBe("Réparation de vélos")
    expect(prop(event!, "LOCATION")).toBe("4000 rue Saint-Denis\\, Montréal")
    const text = JSON.stringify(calendar)
    expect(text).not.toContain(waiting)
    expect(text).not.toContain(theirs)

    // The other provider's feed has theirs only.
    const otherUrl = (await api.get("/api/providers/me/calendar-feed", { token: other.provider.token })).body.data.url
    const otherEvents = parseICalendar(await (await fetchFeed(otherUrl)).text()).children
    expect(otherEvents.map((e) => prop(e, "UID"))).toEqual([`booking-${theirs}@marketplace`])
  })

  it("regenerating gives a new URL and the old one stops working (404)", async () => {
    const old = (await api.get("/api/providers/me/calendar-feed", { token: provider.token })).body.data.url as string
    expect((await fetchFeed(old)).status).toBe(200)
    const regenerated = await api.post("/api/providers/me/calendar-feed/regenerate", {}, { token: provider.token })
    expect(regenerated.status, regenerated.text).toBe(200)
    const fresh = regenerated.body.data.url as string
    expect(fresh).not.toBe(old)
    const gone = await fetchFeed(old)
    expect(gone.status).toBe(404)
    expect((await gone.json()).code).toBe("CALENDAR_FEED_NOT_FOUND")
    expect((await fetchFeed(fresh)).status).toBe(200)
    expect((await api.get("/api/providers/me/calendar-feed", { token: provider.token })).body.data.url).toBe(fresh)
  })

  it("GET /api/calendar/{token}.ics: an unknown or malformed token is a 404, in the request's language", async () => {
    for (const path of [`/api/calendar/${"A".repeat(43)}.ics`, "/api/calendar/short.ics", "/api/calendar/no-extension"]) {
      const reply = await fetch(`${server.url}${path}`, { headers: { "accept-language": "en" } })
      expect(reply.status, path).toBe(404)
      const body = await reply.json()
      expect(body.code).toBe("CALENDAR_FEED_NOT_FOUND")
      expect(body.message).toBe("Calendar not found.")
    }
  })
})

describe("the feed's time window", () => {
  it("keeps a booking under way until 30 days after its end, then drops it", async () => {
    const start = hourFromNow(30 + 24 * 3)
    const id = await book({ provider, client, serviceId: world.serviceId }, start, true)
    const { url } = (await api.get("/api/providers/me/calendar-feed", { token: provider.token })).body.data
    const uids = async () => parseICalendar(await (await fetchFeed(url)).text()).children.map((e) => prop(e, "UID"))
    expect(await uids()).toContain(`booking-${id}@marketplace`)
    const end = start.getTime() + 90 * 60_000
    time.advance(end + 29 * DAY - time.now().getTime())
    expect(await uids()).toContain(`booking-${id}@marketplace`)
    time.advance(2 * DAY)
    expect(await uids()).not.toContain(`booking-${id}@marketplace`)
  })
})
