// Places (issue 14): the embedded gazetteer (GeoNames cities), the Nominatim adapter against a local
// fake, the places endpoints, and searching services around a place.
import { Effect, Either, Exit } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { distanceKm } from "../../src/modules/catalogue/geography"
import { embeddedIndex, nearestIn, resolveIn, suggestIn } from "../../src/modules/catalogue/places/adapters/embedded"
import { NominatimGazetteer } from "../../src/modules/catalogue/places/adapters/nominatim"
import { foldPlaceName, matchRank, parseCoordinates, parseSuggestQuery } from "../../src/modules/catalogue/places/domain"
import { Gazetteer } from "../../src/modules/catalogue/places/ports"
import { en, fr } from "../../src/platform/messages"
import { newProvider } from "../support/accounts"
import { httpWorld } from "../support/world"

describe("place names", () => {
  it("fold accents, case and punctuation", () => {
    expect(foldPlaceName("Saint-Jérôme")).toBe("saint jerome")
    expect(foldPlaceName("  MONTRÉAL  ")).toBe("montreal")
    expect(foldPlaceName("Trois-Rivières (QC)")).toBe("trois rivieres qc")
  })
  it("rank an exact name before a name prefix before a word prefix", () => {
    expect(matchRank("montreal", "montreal")).toBe(0)
    expect(matchRank("montreal nord", "montreal")).toBe(1)
    expect(matchRank("vieux montreal", "montreal")).toBe(2)
    expect(matchRank("paris", "montreal")).toBeUndefined()
  })
  it("validate the queries", () => {
    expect(Either.getOrThrow(parseSuggestQuery({ q: " lyon " }))).toEqual({ text: "lyon", limit: 8 })
    expect(Either.isLeft(parseSuggestQuery({ q: "x".repeat(101) }))).toBe(true)
    expect(Either.isLeft(parseSuggestQuery({ q: "lyon", limit: "0" }))).toBe(true)
    expect(Either.isLeft(parseCoordinates({ lat: "91", lng: "0" }))).toBe(true)
    expect(Either.getOrThrow(parseCoordinates({ lat: "45.5", lng: "-73.6" }))).toEqual({ lat: 45.5, lng: -73.6 })
  })
})

describe("the embedded gazetteer", () => {
  it("suggests accent- and case-insensitively, most populated first", async () => {
    const ix = await embeddedIndex()
    const montreal = suggestIn(ix, "montreal", 5)
    expect(montreal[0]).toMatchObject({ name: "Montréal", countryCode: "CA", region: "QC" })
    expect(suggestIn(ix, "saint-jerome", 3)[0]).toMatchObject({ name: "Saint-Jérôme", countryCode: "CA" })
    expect(suggestIn(ix, "PARIS", 1)[0]).toMatchObject({ name: "Paris", countryCode: "FR" })
    // A word inside the name: "jerome" finds Saint-Jérôme.
    expect(suggestIn(ix, "jérôme", 20).map((p) => p.name)).toContain("Saint-Jérôme")
    expect(suggestIn(ix, "   ", 5)).toEqual([])
  })
  it("names places in French and English alike (GeoNames' local names, found without their accents)", async () => {
    const ix = await embeddedIndex()
    expect(suggestIn(ix, "Québec", 1)[0]).toMatchObject({ countryCode: "CA" })
    expect(suggestIn(ix, "quebec", 1)[0]).toMatchObject({ countryCode: "CA" })
  })
  it("finds the place nearest to known coordinates, and none far out at sea", async () => {
    const ix = await embeddedIndex()
    expect(nearestIn(ix, { lat: 45.5088, lng: -73.5878 })).toMatchObject({ name: "Montréal" })
    expect(nearestIn(ix, { lat: 48.8566, lng: 2.3522 })).toMatchObject({ name: "Paris" })
    expect(nearestIn(ix, { lat: 0, lng: -30 })).toBeNull()
  })
  it("resolves a typed place or an id", async () => {
    const ix = await embeddedIndex()
    const montreal = resolveIn(ix, "Montreal")!
    expect(montreal).toMatchObject({ name: "Montréal", countryCode: "CA" })
    expect(resolveIn(ix, montreal.id)).toEqual(montreal)
    expect(resolveIn(ix, "Montréal, France")).toMatchObject({ name: "Montréal", countryCode: "FR" })
    expect(resolveIn(ix, "Paris, Canada")).toMatchObject({ countryCode: "CA" })
    expect(resolveIn(ix, "zzzzqqq")).toBeNull()
    expect(resolveIn(ix, "999999999999")).toBeNull()
  })
})

describe("the Nominatim adapter (against a local fake)", () => {
  let fake: http.Server
  let base = ""
  const asked: Array<string> = []
  let failing = false
  beforeAll(async () => {
    fake = http.createServer((req, res) => {
      const url = new URL(req.url!, "http://x")
      asked.push(`${url.pathname}?${url.searchParams}`)
      if (failing) return void res.writeHead(500).end("down")
      const montreal = {
        osm_type: "relation",
        osm_id: 1571328,
        lat: "45.5031824",
        lon: "-73.5698065",
        name: "Montréal",
        address: { city: "Montréal", country_code: "ca", "ISO3166-2-lvl4": "CA-QC" }
      }
      res.setHeader("content-type", "application/json")
      if (url.pathname === "/search") return void res.end(JSON.stringify(url.searchParams.get("q") === "nowhere" ? [] : [montreal]))
      if (url.pathname === "/lookup") return void res.end(JSON.stringify(url.searchParams.get("osm_ids") === "R1571328" ? [montreal] : []))
      if (url.pathname === "/reverse") {
        return void res.end(JSON.stringify(url.searchParams.get("lat") === "0" ? { error: "Unable to geocode" } : montreal))
      }
      res.writeHead(404).end()
    })
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve))
    base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())))
  const run = <A, E>(use: (g: Gazetteer["Type"]) => Effect.Effect<A, E>) =>
    Effect.runPromiseExit(Effect.provide(Effect.flatMap(Gazetteer, use), NominatimGazetteer({ baseUrl: base, timeoutMs: 1000 })))

  it("suggests, reverses and resolves through the service's API", async () => {
    const expected = { id: "osm:R1571328", name: "Montréal", countryCode: "CA", region: "QC", lat: 45.5031824, lng: -73.5698065 }
    expect(await run((g) => g.suggest("montreal", 5))).toEqual(Exit.succeed([{ ...expected, population: 0 }]))
    expect(asked.at(-1)).toContain("q=montreal")
    expect(asked.at(-1)).toContain("format=jsonv2")
    expect(await run((g) => g.nearest({ lat: 45.5, lng: -73.56 }))).toEqual(Exit.succeed({ ...expected, population: 0 }))
    expect(await run((g) => g.nearest({ lat: 0, lng: 0 }))).toEqual(Exit.succeed(null))
    expect(await run((g) => g.resolve("osm:R1571328"))).toEqual(Exit.succeed({ ...expected, population: 0 }))
    expect(await run((g) => g.resolve("nowhere"))).toEqual(Exit.succeed(null))
  })
  it("turns a failing service into a 503 PLACES_UNAVAILABLE", async () => {
    failing = true
    const exit = await run((g) => g.suggest("montreal", 5))
    failing = false
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("PLACES_UNAVAILABLE")
  })
})

describe("the places endpoints and searching around a place", () => {
  const { server, api } = httpWorld()

  it("GET /api/places suggests; a long query is a 422 in the user's language", async () => {
    const reply = await api.get("/api/places?q=montreal&limit=3")
    expect(reply.status, reply.text).toBe(200)
    expect(reply.body.data.places[0]).toMatchObject({ name: "Montréal", countryCode: "CA", region: "QC" })
    expect(reply.body.data.places).toHaveLength(3)
    expect((await api.get("/api/places?q=")).body.data.places).toEqual([])
    const long = await api.get(`/api/places?q=${"x".repeat(101)}`, { language: "en" })
    expect(long.status).toBe(422)
    expect(long.body.details[0]).toMatchObject({ field: "q", message: en["places.queryTooLong"] })
  })

  it("GET /api/places/reverse names the place of a position", async () => {
    const reply = await api.get("/api/places/reverse?lat=46.8139&lng=-71.2080")
    expect(reply.status, reply.text).toBe(200)
    expect(reply.body.data.place).toMatchObject({ countryCode: "CA", region: "QC" })
    const bad = await api.get("/api/places/reverse?lat=north&lng=2")
    expect(bad.status).toBe(422)
    expect(bad.body.details[0]).toMatchObject({ field: "lat", message: fr["catalogue.invalidNumber"] })
  })

  it("services near a place: found within the radius, sorted by distance, each with its distance", async () => {
    const montreal = (await api.get("/api/places?q=Montreal&limit=1")).body.data.places[0]
    const provider = await newProvider(server, api, { paymentReady: true })
    const word = `placetest${Date.now()}`
    // 20 km north of the gazetteer's Montréal, and 3 km east of it.
    const far = { lat: montreal.lat + 20 / 111.2, lng: montreal.lng }
    const near = { lat: montreal.lat, lng: montreal.lng + 3 / (111.2 * Math.cos((montreal.lat * Math.PI) / 180)) }
    for (const [title, at] of [
      [`Ménage ${word} loin`, far],
      [`Ménage ${word} proche`, near]
    ] as const) {
      const created = await api.post(
        "/api/services",
        {
          title,
          description: "Ménage complet de votre logement, produits fournis.",
          price: 30,
          duration: 60,
          location: "Laval, QC",
          lat: at.lat,
          lng: at.lng,
          categoryId: 5
        },
        { token: provider.token }
      )
      expect(created.status, created.text).toBe(201)
    }
    const within25 = await api.get(`/api/services?search=${word}&near=Montreal&radius=25&sortBy=distance`)
    expect(within25.status, within25.text).toBe(200)
    const found = within25.body.data.services as Array<{ title: string; distanceKm: number }>
    expect(found.map((s) => s.title)).toEqual([`Ménage ${word} proche`, `Ménage ${word} loin`])
    expect(found[0]!.distanceKm).toBeCloseTo(distanceKm(montreal, near), 1)
    expect(found[1]!.distanceKm).toBeCloseTo(distanceKm(montreal, far), 1)
    expect(Math.abs(found[1]!.distanceKm - 20)).toBeLessThan(0.2)
    const within10 = await api.get(`/api/services?search=${word}&near=${montreal.id}&radius=10`)
    expect((within10.body.data.services as Array<{ title: string }>).map((s) => s.title)).toEqual([`Ménage ${word} proche`])
    // Without a text or a sort, a search around a place is ordered by distance.
    const byDefault = await api.get(`/api/services?near=${montreal.id}&radius=25&limit=100`)
    const distances = (byDefault.body.data.services as Array<{ distanceKm: number }>).map((s) => s.distanceKm)
    expect(distances).toEqual([...distances].sort((a, b) => a - b))
  })

  it("the location is searched with the title and the description", async () => {
    const provider = await newProvider(server, api, { paymentReady: true })
    const town = `Bourgville${Date.now() % 100000}`
    const created = await api.post(
      "/api/services",
      {
        title: "Jardinage et entretien de haies",
        description: "Taille, désherbage et tonte.",
        price: 40,
        duration: 60,
        location: `${town}, QC`,
        lat: 45.4,
        lng: -73.9,
        categoryId: 6
      },
      { token: provider.token }
    )
    expect(created.status, created.text).toBe(201)
    const found = await api.get(`/api/services?search=${encodeURIComponent(`jardinage ${town.toLowerCase()}`)}`)
    expect((found.body.data.services as Array<{ id: string }>).map((s) => s.id)).toEqual([created.body.data.service.id])
  })

  it("an unknown place is a 422 on `near`, in the user's language", async () => {
    const reply = await api.get("/api/services?near=zzzzqqqq", { language: "en" })
    expect(reply.status).toBe(422)
    expect(reply.body.details[0]).toMatchObject({ field: "near", message: en["places.unknown"] })
  })
})
