import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import * as crypto from "node:crypto"
import { describe, expect, it } from "vitest"
import { UserRepository } from "../../src/modules/identity"
import { PaymentAccountRepository } from "../../src/modules/payments/ports"
import { distanceKm } from "../../src/modules/catalogue/geography"
import { en, fr } from "../../src/platform/messages"
import { login, newProvider as newProviderOf } from "../support/accounts"
import type { CallOptions } from "../support/http"
import { httpWorld } from "../support/world"

const { server, api } = httpWorld()

const del = (path: string, options?: CallOptions) => api.call("DELETE", path, options)
const MONTREAL = { lat: 45.5019, lng: -73.5674 }

/** Two providers and a client of the seed (src/app/seed.ts). */
const marie = () => login(api, "marie.dubois@marketplace.local", "Provider1234!")
const jean = () => login(api, "jean.tremblay@marketplace.local", "Provider1234!")
const client = () => login(api, "lucas.bernard@marketplace.local", "Client1234!")

/** A new verified provider, with a payout account able to take charges unless said otherwise. */
const newProvider = (options: { paymentReady: boolean } = { paymentReady: true }) => newProviderOf(server, api, options)

let counter = 0
const validService = (overrides: Record<string, unknown> = {}) => ({
  title: `Cours de guitare à domicile n°${++counter}`,
  description: "Leçons de guitare acoustique et électrique pour débutants, à votre rythme.",
  price: 45.5,
  duration: 60,
  location: "Montréal, QC",
  lat: 45.52,
  lng: -73.58,
  categoryId: 9,
  ...overrides
})

const create = async (token: string, overrides: Record<string, unknown> = {}) => {
  const reply = await api.post("/api/services", validService(overrides), { token })
  expect(reply.status, reply.text).toBe(201)
  return reply.body.data.service
}

const titles = (reply: { body: any }) => (reply.body.data.services as Array<{ title: string }>).map((s) => s.title)
const sql = <A extends object>(text: string, params: ReadonlyArray<unknown> = []) =>
  server.run(Effect.flatMap(SqlClient.SqlClient, (db) => db.unsafe<A>(text, params)))

describe("GET /api/categories", () => {
  it("lists the seeded categories with their public service counts, named in the request's language", async () => {
    const frReply = await api.get("/api/categories")
    expect(frReply.status).toBe(200)
    const categories = frReply.body.data.categories as Array<{ id: number; name: string; slug: string; serviceCount: number }>
    expect(categories.slice(0, 9).map((c) => [c.id, c.slug])).toEqual([
      [1, "it"],
      [2, "design"],
      [3, "marketing"],
      [4, "consultation"],
      [5, "menage"],
      [6, "jardinage"],
      [7, "reparation"],
      [8, "transport"],
      [9, "formation"]
    ])
    expect(categories.find((c) => c.id === 5)!.name).toBe("Ménage")
    expect(categories.find((c) => c.id === 1)!.name).toBe("Informatique")
    const enReply = await api.get("/api/categories", { language: "en-CA,en;q=0.9" })
    expect((enReply.body.data.categories as Array<{ id: number; name: string }>).find((c) => c.id === 5)!.name).toBe("Cleaning")
    // Counts agree with the public list.
    const cleaning = await api.get("/api/services?category=5&limit=100")
    expect(categories.find((c) => c.id === 5)!.serviceCount).toBe(cleaning.body.data.pagination.total)
    expect(categories.every((c) => c.serviceCount >= 0 && !("services" in c))).toBe(true)
  })

  it("includeServices adds each category's newest public services", async () => {
    const reply = await api.get("/api/categories?includeServices=true")
    const categories = reply.body.data.categories as Array<{ id: number; services: Array<{ categoryId: number }> }>
    for (const c of categories) {
      expect(c.services.length).toBeLessThanOrEqual(6)
      expect(c.services.every((s) => s.categoryId === c.id)).toBe(true)
    }
    expect(categories.find((c) => c.id === 5)!.services.length).toBeGreaterThan(0)
  })

  it("popular: the categories with the most public services first", async () => {
    const reply = await api.get("/api/categories/popular?limit=3")
    const counts = (reply.body.data.categories as Array<{ serviceCount: number }>).map((c) => c.serviceCount)
    expect(counts).toHaveLength(3)
    expect([...counts].sort((a, b) => b - a)).toEqual(counts)
    expect((await api.get("/api/categories/popular")).body.data.categories).toHaveLength(6)
  })
})

type Priced = { price: number; currency: string; approxPrice?: { price: number; currency: string } }
/** A service's price as a French reader compares it: in euros (its own, or the server's conversion). */
const inEuros = (s: Priced) => {
  if (s.currency === "EUR") return s.price
  expect(s.approxPrice?.currency).toBe("EUR")
  return s.approxPrice!.price
}

describe("GET /api/services", () => {
  it("the plain list: public demo services, newest first, with the one pagination shape", async () => {
    const reply = await api.get("/api/services")
    expect(reply.status).toBe(200)
    const { services, pagination, exactTotal } = reply.body.data
    expect(pagination).toEqual({ total: expect.any(Number), page: 1, limit: 20, pages: Math.ceil(pagination.total / 20) })
    expect(pagination.total).toBeGreaterThanOrEqual(30)
    expect(exactTotal).toBe(true)
    expect(services).toHaveLength(20)
    const dates = services.map((s: { createdAt: string }) => Date.parse(s.createdAt))
    expect([...dates].sort((a, b) => b - a)).toEqual(dates)
    const first = services[0]
    // approxPrice: the price in the reader's currency, only when the service's differs (issue 14).
    expect(
      Object.keys(first)
        .filter((key) => key !== "approxPrice")
        .sort()
    ).toEqual(
      [
        "id",
        "title",
        "description",
        "price",
        "priceMinor",
        "currency",
        "duration",
        "location",
        "lat",
        "lng",
        "categoryId",
        "category",
        "userId",
        "user",
        "providerTimeZone",
        "rating",
        "reviewCount",
        "isAvailable",
        "status",
        "images",
        "photos",
        "createdAt",
        "updatedAt"
      ].sort()
    )
    expect(first.user).toEqual({
      id: first.userId,
      firstName: expect.any(String),
      lastName: expect.any(String),
      avatarUrl: null,
      identityVerified: false
    })
    expect(first).toMatchObject({ status: "ACTIVE", isAvailable: true, rating: 0, reviewCount: 0 })
    // The demo services have photos; `images` lists their URLs.
    expect(first.photos.length).toBeGreaterThan(0)
    expect(first.images).toEqual(first.photos.map((p: { url: string }) => p.url))
    expect(first.price * 100).toBeCloseTo(first.priceMinor, 6)
  })

  it("pages do not overlap; limit is at most 100", async () => {
    const one = await api.get("/api/services?limit=7&page=1")
    const two = await api.get("/api/services?limit=7&page=2")
    const ids = [...one.body.data.services, ...two.body.data.services].map((s: { id: string }) => s.id)
    expect(new Set(ids).size).toBe(14)
    expect((await api.get("/api/services?limit=500")).body.data.pagination.limit).toBe(100)
  })

  it("finds French words whatever the accents and case: menage finds Ménage, reparation finds Réparation", async () => {
    expect(titles(await api.get("/api/services?search=menage"))).toContain("Ménage à domicile écologique")
    expect(titles(await api.get("/api/services?search=MENAGE"))).toContain("Grand ménage de printemps")
    expect(titles(await api.get("/api/services?search=reparation"))).toContain("Réparation de vélos à domicile")
    expect(titles(await api.get("/api/services?search=R%C3%89PARATION%20v%C3%A9lo"))).toEqual(["Réparation de vélos à domicile"])
    expect(titles(await api.get("/api/services?search=oenologie"))).toEqual(["Atelier d'œnologie pour débutants"])
    // English, and the last word as a prefix.
    expect(titles(await api.get("/api/services?search=clean"))).toContain("Deep house cleaning")
    expect(titles(await api.get("/api/services?search=piano%20less"))).toEqual(["Piano lessons for beginners"])
    // Words of the description count too.
    expect(titles(await api.get("/api/services?search=TEFAQ"))).toEqual(["Cours de français langue seconde"])
  })

  it("tolerates typos in short queries", async () => {
    expect(titles(await api.get("/api/services?search=plombrie"))).toContain("Plomberie : réparation de fuites et robinets")
    expect(titles(await api.get("/api/services?search=reparasion"))).toContain("Réparation de vélos à domicile")
    expect(titles(await api.get("/api/services?search=gardenning"))).toContain("Garden design and planting")
    expect(titles(await api.get("/api/services?search=xqzwv"))).toEqual([])
  })

  it("filters by category given as id, slug or name in either language", async () => {
    const byId = titles(await api.get("/api/services?categoryId=5&limit=100"))
    expect(byId.length).toBeGreaterThan(0)
    expect(titles(await api.get("/api/services?category=5&limit=100"))).toEqual(byId)
    expect(titles(await api.get("/api/services?category=menage&limit=100"))).toEqual(byId)
    expect(titles(await api.get("/api/services?category=M%C3%A9nage&limit=100"))).toEqual(byId)
    expect(titles(await api.get("/api/services?category=cleaning&limit=100"))).toEqual(byId)
    const all = (await api.get("/api/services?categoryId=5&limit=100")).body.data.services as Array<{
      categoryId: number
      category: { name: string }
    }>
    expect(all.every((s) => s.categoryId === 5 && s.category.name === "Ménage")).toBe(true)
    expect((await api.get("/api/services?category=astrologie")).body.data).toMatchObject({ services: [], pagination: { total: 0 } })
  })

  it("filters by the UI's price ranges, in major units of the reader's currency (200+ is a minimum only)", async () => {
    for (const [min, max] of [
      [0, 50],
      [50, 100],
      [100, 200],
      [200, undefined],
      [50, undefined]
    ] as const) {
      const query = `minPrice=${min}${max === undefined ? "" : `&maxPrice=${max}`}&limit=100`
      // French readers read euros: other currencies compare once converted (test/catalogue/rates.http.test.ts).
      const prices = ((await api.get(`/api/services?${query}`)).body.data.services as Array<Priced>).map(inEuros)
      expect(
        prices.every((p) => p >= min && (max === undefined || p <= max)),
        query
      ).toBe(true)
      // The demo's dearest services are around 90 €: the open range is not empty.
      if (min === 50 && max === undefined) expect(prices.length).toBeGreaterThan(0)
    }
  })

  it("radius around a position, nearest first, with each distance", async () => {
    const reply = await api.get(`/api/services?lat=${MONTREAL.lat}&lng=${MONTREAL.lng}&radius=25&sortBy=distance&limit=100`)
    const services = reply.body.data.services as Array<{ location: string; lat: number; lng: number; distanceKm: number }>
    expect(services.length).toBeGreaterThan(5)
    expect(services.every((s) => s.location.startsWith("Montréal") && s.distanceKm <= 25)).toBe(true)
    for (const s of services) expect(s.distanceKm).toBeCloseTo(distanceKm(MONTREAL, s), 1)
    const distances = services.map((s) => s.distanceKm)
    expect([...distances].sort((a, b) => a - b)).toEqual(distances)
    // 100 km by default: Québec (230 km away) is out, Montréal in.
    const around = titles(await api.get(`/api/services?lat=${MONTREAL.lat}&lng=${MONTREAL.lng}&limit=100`))
    expect(around).toContain("Électricien résidentiel certifié")
    expect(around).not.toContain("Réparation de vélos à domicile")
  })

  it("sorts by price, rating, newest; distance without a position falls back to newest", async () => {
    // Prices in euros: 35 $CA (21,60 €) sorts before 25 € (issue 14).
    const asc = ((await api.get("/api/services?sortBy=price_asc&limit=100")).body.data.services as Array<Priced>).map(inEuros)
    expect([...asc].sort((a, b) => a - b)).toEqual(asc)
    const desc = ((await api.get("/api/services?sortBy=price_desc&limit=100")).body.data.services as Array<Priced>).map(inEuros)
    expect([...desc].sort((a, b) => b - a)).toEqual(desc)
    expect((await api.get("/api/services?sortBy=rating")).status).toBe(200)
    expect(titles(await api.get("/api/services?sortBy=distance"))).toEqual(titles(await api.get("/api/services?sortBy=newest")))
    // Relevance: the title match first.
    const relevant = titles(await api.get("/api/services?search=jardin&sortBy=relevance"))
    expect(relevant[0]).toBe("Taille de haies et entretien de jardin")
  })

  it("filters by provider", async () => {
    const { id } = await marie()
    const services = (await api.get(`/api/services?provider=${id}&limit=100`)).body.data.services as Array<{ userId: string }>
    expect(services.length).toBe(10)
    expect(services.every((s) => s.userId === id)).toBe(true)
  })

  it("422 with per-field details, in French and in English", async () => {
    const reply = await api.get("/api/services?sortBy=cheapest&page=x&lat=95&lng=2&minPrice=100&maxPrice=50&provider=42")
    expect(reply.status).toBe(422)
    expect(reply.body.code).toBe("VALIDATION_ERROR")
    expect(reply.body.details).toEqual(
      expect.arrayContaining([
        { field: "sortBy", message: fr["catalogue.sortBy"] },
        { field: "page", message: fr["catalogue.invalidNumber"] },
        { field: "lat", message: fr["catalogue.invalidNumber"] },
        { field: "maxPrice", message: fr["catalogue.priceRange"] },
        { field: "provider", message: fr["catalogue.invalidId"] }
      ])
    )
    const english = await api.get("/api/services?lat=45", { language: "en" })
    expect(english.status).toBe(422)
    expect(english.body.details).toEqual([{ field: "lng", message: en["catalogue.coordinatesPair"] }])
    expect((await api.get("/api/services?page=100000")).body.details).toEqual([{ field: "page", message: fr["catalogue.pageTooFar"] }])
    expect((await api.get("/api/services?page=0")).status).toBe(422)
    expect((await api.get(`/api/services?search=${"a".repeat(201)}`)).status).toBe(422)
  })
})

describe("GET /api/services/{id} and the short lists", () => {
  it("the detail: average rating, review count, an empty reviews list; distance from a given position", async () => {
    const some = (await api.get("/api/services?search=electricien")).body.data.services[0]
    const reply = await api.get(`/api/services/${some.id}?lat=${MONTREAL.lat}&lng=${MONTREAL.lng}`)
    expect(reply.status).toBe(200)
    expect(reply.body.data.service).toMatchObject({
      id: some.id,
      title: "Électricien résidentiel certifié",
      rating: 0,
      reviewCount: 0,
      reviews: []
    })
    expect(reply.body.data.service.distanceKm).toBeCloseTo(distanceKm(MONTREAL, some), 1)
    expect((await api.get(`/api/services/${some.id}`)).body.data.service).not.toHaveProperty("distanceKm")
    expect((await api.get(`/api/services/${some.id.toUpperCase()}`)).status).toBe(200)
  })

  it("404 for unknown and malformed ids, never 500", async () => {
    for (const id of [crypto.randomUUID(), "42", "not-a-uuid", "%27%20OR%201%3D1", "00000000-0000-0000-0000-00000000000g"]) {
      const reply = await api.get(`/api/services/${id}`)
      expect(reply.status, id).toBe(404)
      expect(reply.body.code, id).toBe("SERVICE_NOT_FOUND")
    }
  })

  it("popular and recent: 6 by default, limit honoured; recent is newest first", async () => {
    expect((await api.get("/api/services/popular")).body.data.services).toHaveLength(6)
    expect((await api.get("/api/services/popular?limit=2")).body.data.services).toHaveLength(2)
    const recent = (await api.get("/api/services/recent")).body.data.services as Array<{ id: string }>
    expect(recent).toHaveLength(6)
    expect(recent.map((s) => s.id)).toEqual((await api.get("/api/services?limit=6")).body.data.services.map((s: { id: string }) => s.id))
  })

  it("by category (id or slug; 404 when unknown) and by provider (limit 100 by default)", async () => {
    const byId = (await api.get("/api/services/category/7")).body.data.services as Array<{ categoryId: number }>
    expect(byId.length).toBeGreaterThan(0)
    expect(byId.every((s) => s.categoryId === 7)).toBe(true)
    expect((await api.get("/api/services/category/reparation")).body.data.services).toEqual(byId)
    expect((await api.get("/api/services/category/7?limit=1")).body.data.services).toHaveLength(1)
    for (const bad of ["999", "nope"]) expect((await api.get(`/api/services/category/${bad}`)).status).toBe(404)
    const { id } = await jean()
    const mine = (await api.get(`/api/services/provider/${id}`)).body.data.services as Array<{ userId: string }>
    expect(mine).toHaveLength(10)
    expect(mine.every((s) => s.userId === id)).toBe(true)
    expect((await api.get(`/api/services/provider/${id}?limit=3`)).body.data.services).toHaveLength(3)
    expect((await api.get(`/api/services/provider/${crypto.randomUUID()}`)).body.data.services).toEqual([])
    expect((await api.get("/api/services/provider/not-a-uuid")).status).toBe(404)
  })
})

describe("POST /api/services (spec section 5)", () => {
  it("401 without a token; 403 for a client; 400 PAYMENT_ACCOUNT_REQUIRED (mentioning connect) without a payout account", async () => {
    expect((await api.post("/api/services", validService())).status).toBe(401)
    const { token: clientToken } = await client()
    const forbidden = await api.post("/api/services", validService(), { token: clientToken })
    expect(forbidden.status).toBe(403)
    expect(forbidden.body.code).toBe("FORBIDDEN")
    const unready = await newProvider({ paymentReady: false })
    const reply = await api.post("/api/services", validService(), { token: unready.token })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({ success: false, code: "PAYMENT_ACCOUNT_REQUIRED", message: fr["catalogue.paymentAccountRequired"] })
    expect(reply.body.message).toContain("connect")
    const english = await api.post("/api/services", validService(), { token: unready.token, language: "en" })
    expect(english.body.message).toContain("connect")
    expect(english.body.message).toBe(en["catalogue.paymentAccountRequired"])
  })

  it("201: a payment-ready provider publishes; the service is found by search at once", async () => {
    const provider = await newProvider()
    const reply = await api.post("/api/services", validService({ title: "Cours de ukulélé pour débutants", price: "39,90" }), {
      token: provider.token
    })
    expect(reply.status).toBe(201)
    expect(reply.body.message).toBe(fr["catalogue.serviceCreated"])
    expect(reply.body.data.service).toMatchObject({
      title: "Cours de ukulélé pour débutants",
      price: 39.9,
      priceMinor: 3990,
      currency: "EUR",
      duration: 60,
      location: "Montréal, QC",
      lat: 45.52,
      lng: -73.58,
      categoryId: 9,
      category: { id: 9, name: "Formation" },
      userId: provider.id,
      status: "ACTIVE",
      isAvailable: true,
      rating: 0,
      reviewCount: 0
    })
    expect(titles(await api.get("/api/services?search=ukulele"))).toEqual(["Cours de ukulélé pour débutants"])
    // Its words join the vocabulary: a typo finds it too.
    expect(titles(await api.get("/api/services?search=ukulelle"))).toEqual(["Cours de ukulélé pour débutants"])
  })

  it("422: every missing field, in French and in English; the category rule (selectOrCreateCategory)", async () => {
    const { token } = await newProvider()
    const reply = await api.post("/api/services", {}, { token })
    expect(reply.status).toBe(422)
    expect(reply.body.message).toBe(fr["catalogue.categoryRequired"])
    expect(reply.body.details).toEqual([
      { field: "title", message: fr["validation.required"] },
      { field: "description", message: fr["validation.required"] },
      { field: "price", message: fr["validation.required"] },
      { field: "duration", message: fr["validation.required"] },
      { field: "location", message: fr["validation.required"] },
      { field: "categoryId", message: fr["catalogue.categoryRequired"] }
    ])
    const english = await api.post("/api/services", { ...validService(), title: "   ", categoryId: null }, { token, language: "en" })
    expect(english.body.details).toEqual([
      { field: "title", message: en["validation.required"] },
      { field: "categoryId", message: en["catalogue.categoryRequired"] }
    ])
  })

  it("422 with the spec's message for a category and a new category name together", async () => {
    const { token } = await newProvider()
    const reply = await api.post("/api/services", validService({ categoryId: 2, newCategoryName: "Photographie" }), { token })
    expect(reply.status).toBe(422)
    expect(reply.body.message).toBe("Veuillez sélectionner soit une catégorie existante, soit créer une nouvelle, pas les deux")
    expect(reply.body.details).toEqual([{ field: "newCategoryName", message: fr["catalogue.categoryChoiceBoth"] }])
    const english = await api.post("/api/services", validService({ categoryId: 2, newCategoryName: "Photography" }), {
      token,
      language: "en"
    })
    expect(english.body.message).toBe("Please either select an existing category or create a new one, not both")
  })

  it("422 for each broken rule of price, duration, position, lengths, currency and category", async () => {
    const { token } = await newProvider()
    const cases: Array<[Record<string, unknown>, string, keyof typeof fr]> = [
      [{ price: 0 }, "price", "catalogue.priceInvalid"],
      [{ price: -5 }, "price", "catalogue.priceInvalid"],
      [{ price: 10.999 }, "price", "catalogue.priceInvalid"],
      [{ price: "12.345" }, "price", "catalogue.priceInvalid"],
      [{ price: "douze" }, "price", "catalogue.priceInvalid"],
      [{ price: 2_000_000 }, "price", "catalogue.priceTooHigh"],
      [{ price: 10.5, currency: "JPY" }, "price", "catalogue.priceNoDecimals"],
      [{ duration: 0 }, "duration", "catalogue.durationCreate"],
      [{ duration: 30.5 }, "duration", "catalogue.durationCreate"],
      [{ duration: 20_000 }, "duration", "catalogue.durationTooLong"],
      [{ lat: 95 }, "lat", "catalogue.latitude"],
      [{ lng: "-181" }, "lng", "catalogue.longitude"],
      [{ title: "x".repeat(121) }, "title", "catalogue.titleTooLong"],
      [{ description: "x".repeat(5001) }, "description", "catalogue.descriptionTooLong"],
      [{ location: "x".repeat(201) }, "location", "catalogue.locationTooLong"],
      [{ currency: "BTC" }, "currency", "catalogue.currency"],
      [{ categoryId: 999 }, "categoryId", "catalogue.categoryUnknown"],
      [{ categoryId: "abc" }, "categoryId", "catalogue.categoryUnknown"],
      [{ categoryId: undefined, newCategoryName: "x" }, "newCategoryName", "catalogue.categoryNameLength"]
    ]
    for (const [overrides, field, key] of cases) {
      const reply = await api.post("/api/services", validService(overrides), { token })
      expect(reply.status, JSON.stringify(overrides)).toBe(422)
      expect(reply.body.details, JSON.stringify(overrides)).toEqual([{ field, message: fr[key] }])
    }
    // At the limits: accepted.
    const limits = await create(token, { title: "x".repeat(120), duration: 1, lat: -90, lng: 180, price: 0.01, currency: "usd" })
    expect(limits).toMatchObject({ duration: 1, lat: -90, lng: 180, price: 0.01, priceMinor: 1, currency: "USD" })
    const yen = await create(token, { price: 5000, currency: "JPY" })
    expect(yen).toMatchObject({ price: 5000, priceMinor: 5000, currency: "JPY" })
    // lat and lng default to 0 when blank.
    expect(await create(token, { lat: "", lng: null })).toMatchObject({ lat: 0, lng: 0 })
  })

  it("400 for a malformed body or a wrong JSON type", async () => {
    const { token } = await newProvider()
    expect((await api.call("POST", "/api/services", { raw: "{nope", token })).status).toBe(400)
    expect((await api.post("/api/services", validService({ price: { amount: 10 } }), { token })).status).toBe(400)
    expect((await api.post("/api/services", validService({ title: "a\u0000b" }), { token })).status).toBe(400)
  })

  it("newCategoryName creates the category once, whatever its case and accents; an existing name is reused", async () => {
    const { token } = await newProvider()
    const first = await create(token, { categoryId: undefined, newCategoryName: "Photographie d'événements" })
    expect(first.categoryId).toBeGreaterThanOrEqual(100)
    expect(first.category.name).toBe("Photographie d'événements")
    for (const name of ["photographie d'evenements", "  PHOTOGRAPHIE D'ÉVÉNEMENTS "]) {
      expect((await create(token, { categoryId: undefined, newCategoryName: name })).categoryId).toBe(first.categoryId)
    }
    expect((await create(token, { categoryId: undefined, newCategoryName: "ménage" })).categoryId).toBe(5)
    expect((await create(token, { categoryId: undefined, newCategoryName: "Gardening" })).categoryId).toBe(6)
    const listed = (await api.get("/api/categories")).body.data.categories as Array<{ id: number; slug: string }>
    expect(listed.filter((c) => c.id === first.categoryId)).toEqual([expect.objectContaining({ slug: "photographie-d-evenements" })])
  })
})

describe("PATCH, DELETE, activate, deactivate, duplicate (owner only)", () => {
  it("the owner edits; another provider gets 403; unknown and malformed ids 404; no token 401", async () => {
    const owner = await newProvider()
    const other = await newProvider()
    const service = await create(owner.token)
    const reply = await api.patch(
      `/api/services/${service.id}`,
      { title: "Cours de guitare électrique", price: 50, duration: 90 },
      { token: owner.token }
    )
    expect(reply.status).toBe(200)
    expect(reply.body.message).toBe(fr["catalogue.serviceUpdated"])
    expect(reply.body.data.service).toMatchObject({
      title: "Cours de guitare électrique",
      price: 50,
      priceMinor: 5000,
      duration: 90,
      location: "Montréal, QC"
    })
    expect(new Date(reply.body.data.service.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(service.updatedAt).getTime())
    const forbidden = await api.patch(`/api/services/${service.id}`, { title: "Pirate" }, { token: other.token })
    expect(forbidden.status).toBe(403)
    expect(forbidden.body.code).toBe("NOT_SERVICE_OWNER")
    const { token: clientToken } = await client()
    expect((await api.patch(`/api/services/${service.id}`, { title: "Pirate" }, { token: clientToken })).status).toBe(403)
    expect((await api.patch(`/api/services/${service.id}`, { title: "Pirate" })).status).toBe(401)
    for (const id of [crypto.randomUUID(), "nope", "1"]) {
      expect((await api.patch(`/api/services/${id}`, { title: "X" }, { token: owner.token })).status, id).toBe(404)
    }
    expect((await api.get(`/api/services/${service.id}`)).body.data.service.title).toBe("Cours de guitare électrique")
  })

  it("edit rules: duration by steps of 15 (at least 15), not both category fields, no blank required field", async () => {
    const owner = await newProvider()
    const service = await create(owner.token)
    const patch = (body: Record<string, unknown>, language?: string) =>
      api.patch(`/api/services/${service.id}`, body, { token: owner.token, ...(language ? { language } : {}) })
    for (const duration of [1, 10, 20, 50]) {
      const reply = await patch({ duration })
      expect(reply.status, String(duration)).toBe(422)
      expect(reply.body.details).toEqual([{ field: "duration", message: fr["catalogue.durationEdit"] }])
    }
    expect((await patch({ duration: 45 })).body.data.service.duration).toBe(45)
    const both = await patch({ categoryId: 1, newCategoryName: "Autre" }, "en")
    expect(both.status).toBe(422)
    expect(both.body.message).toBe(en["catalogue.categoryChoiceBoth"])
    expect((await patch({ title: " " })).body.details).toEqual([{ field: "title", message: fr["validation.required"] }])
    expect((await patch({ categoryId: 2 })).body.data.service).toMatchObject({ categoryId: 2, category: { name: "Design" } })
    // A currency change re-checks the price against the new currency.
    expect((await patch({ currency: "JPY" })).body.details).toEqual([{ field: "price", message: fr["catalogue.priceNoDecimals"] }])
    expect((await patch({ currency: "JPY", price: 6000 })).body.data.service).toMatchObject({
      currency: "JPY",
      price: 6000,
      priceMinor: 6000
    })
    expect((await patch({ currency: "CAD" })).body.data.service).toMatchObject({ currency: "CAD", price: 6000, priceMinor: 600000 })
    expect((await patch({})).status).toBe(200)
  })

  it("DELETE archives: gone from every list and from the detail, kept in the database", async () => {
    const owner = await newProvider()
    const other = await newProvider()
    const service = await create(owner.token, { title: "Service éphémère à archiver" })
    expect((await del(`/api/services/${service.id}`, { token: other.token })).status).toBe(403)
    const reply = await del(`/api/services/${service.id}`, { token: owner.token })
    expect(reply.status).toBe(200)
    expect(reply.body.message).toBe(fr["catalogue.serviceDeleted"])
    expect((await api.get(`/api/services/${service.id}`, { token: owner.token })).status).toBe(404)
    expect(titles(await api.get("/api/services?search=ephemere"))).toEqual([])
    expect((await api.get(`/api/services/user/${owner.id}`, { token: owner.token })).body.data.services).toEqual([])
    expect((await del(`/api/services/${service.id}`, { token: owner.token })).status).toBe(404)
    expect((await api.patch(`/api/services/${service.id}`, { title: "Revenant" }, { token: owner.token })).status).toBe(404)
    const rows = await sql<{ archived: boolean }>("SELECT archived_at IS NOT NULL AS archived FROM services WHERE id = $1", [service.id])
    expect(rows).toEqual([{ archived: true }])
    expect((await del("/api/services/not-a-uuid", { token: owner.token })).status).toBe(404)
  })

  it("deactivate hides from the public, the owner still sees it; activate publishes again", async () => {
    const owner = await newProvider()
    const other = await newProvider()
    const service = await create(owner.token, { title: "Atelier de poterie" })
    expect((await api.post(`/api/services/${service.id}/deactivate`, undefined, { token: other.token })).status).toBe(403)
    const off = await api.post(`/api/services/${service.id}/deactivate`, undefined, { token: owner.token })
    expect(off.status).toBe(200)
    expect(off.body.data.service).toMatchObject({ status: "INACTIVE", isAvailable: false })
    expect(titles(await api.get("/api/services?search=poterie"))).toEqual([])
    expect((await api.get(`/api/services/${service.id}`)).status).toBe(404)
    expect((await api.get(`/api/services/${service.id}`, { token: other.token })).status).toBe(404)
    expect((await api.get(`/api/services/${service.id}`, { token: owner.token })).body.data.service.status).toBe("INACTIVE")
    expect((await api.get(`/api/services/user/${owner.id}`)).body.data.services).toEqual([])
    expect(titles(await api.get(`/api/services/user/${owner.id}`, { token: owner.token }))).toEqual(["Atelier de poterie"])
    expect((await api.get(`/api/services/provider/${owner.id}`)).body.data.services).toEqual([])
    const on = await api.post(`/api/services/${service.id}/activate`, undefined, { token: owner.token })
    expect(on.body.data.service).toMatchObject({ status: "ACTIVE", isAvailable: true })
    expect(titles(await api.get("/api/services?search=poterie"))).toEqual(["Atelier de poterie"])
    expect(titles(await api.get(`/api/services/user/${owner.id}`))).toEqual(["Atelier de poterie"])
    for (const action of ["activate", "deactivate", "duplicate"]) {
      expect((await api.post(`/api/services/${crypto.randomUUID()}/${action}`, undefined, { token: owner.token })).status).toBe(404)
      expect((await api.post(`/api/services/x/${action}`, undefined, { token: owner.token })).status).toBe(404)
      expect((await api.post(`/api/services/${service.id}/${action}`)).status).toBe(401)
    }
  })

  it("duplicate: an INACTIVE copy titled with a suffix in the request's language", async () => {
    const owner = await newProvider()
    const other = await newProvider()
    const service = await create(owner.token, { title: "Massage suédois", price: 80, duration: 90, categoryId: 4 })
    expect((await api.post(`/api/services/${service.id}/duplicate`, undefined, { token: other.token })).status).toBe(403)
    const copy = await api.post(`/api/services/${service.id}/duplicate`, undefined, { token: owner.token })
    expect(copy.status).toBe(201)
    expect(copy.body.message).toBe(fr["catalogue.serviceDuplicated"])
    expect(copy.body.data.service).toMatchObject({
      title: "Massage suédois (copie)",
      description: service.description,
      price: 80,
      duration: 90,
      categoryId: 4,
      userId: owner.id,
      status: "INACTIVE"
    })
    expect(copy.body.data.service.id).not.toBe(service.id)
    const english = await api.post(`/api/services/${service.id}/duplicate`, undefined, { token: owner.token, language: "en" })
    expect(english.body.data.service.title).toBe("Massage suédois (copy)")
    const long = await create(owner.token, { title: "y".repeat(120) })
    const longCopy = (await api.post(`/api/services/${long.id}/duplicate`, undefined, { token: owner.token })).body.data.service
    expect(longCopy.title).toHaveLength(120)
    expect(longCopy.title.endsWith(" (copie)")).toBe(true)
    expect(titles(await api.get("/api/services?search=massage"))).toEqual(["Massage suédois"])
  })

  it("a provider whose payout account stops taking charges cannot activate or duplicate", async () => {
    const owner = await newProvider()
    const service = await create(owner.token)
    await api.post(`/api/services/${service.id}/deactivate`, undefined, { token: owner.token })
    await server.run(
      Effect.flatMap(PaymentAccountRepository, (accounts) =>
        Effect.flatMap(accounts.findByUser(owner.id), (found) =>
          found._tag === "Some" ? accounts.upsert({ ...found.value, chargesEnabled: false }) : Effect.die("no account")
        )
      )
    )
    for (const action of ["activate", "duplicate"]) {
      const reply = await api.post(`/api/services/${service.id}/${action}`, undefined, { token: owner.token })
      expect(reply.status, action).toBe(400)
      expect(reply.body.code).toBe("PAYMENT_ACCOUNT_REQUIRED")
    }
    // Editing and deleting stay possible.
    expect((await api.patch(`/api/services/${service.id}`, { price: 60 }, { token: owner.token })).status).toBe(200)
    expect((await del(`/api/services/${service.id}`, { token: owner.token })).status).toBe(200)
  })

  it("a deactivated provider's services leave the public lists", async () => {
    const owner = await newProvider()
    await create(owner.token, { title: "Cours de calligraphie japonaise" })
    expect(titles(await api.get("/api/services?search=calligraphie"))).toHaveLength(1)
    await server.run(Effect.flatMap(UserRepository, (users) => users.setActive(owner.id, false)))
    expect(titles(await api.get("/api/services?search=calligraphie"))).toEqual([])
    expect((await api.get(`/api/services/provider/${owner.id}`)).body.data.services).toEqual([])
  })
})
