import { beforeAll, describe, expect, it } from "vitest"
import { newClient } from "../support/accounts"
import { httpWorld } from "../support/world"

// Prices in two currencies compared honestly (issue 14 item 4), through the real server.

const { server, api, admin, provider, sql } = httpWorld({ admin: true, provider: true })
/** The provider's services by "price currency". */
const ids: Record<string, string> = {}

const put = (json: unknown, token?: string, language?: string) =>
  api.call("PUT", "/api/rates", { json, ...(token ? { token } : {}), ...(language ? { language } : {}) })
const setRates = async (rates: Record<string, string>) => {
  const reply = await put({ rates: Object.entries(rates).map(([currency, rate]) => ({ currency, rate })) }, admin.token)
  expect(reply.status, reply.text).toBe(200)
  return reply
}
/** The test provider's services for these parameters, as "price currency" texts in order. */
const listed = async (query: string, language = "fr") => {
  const reply = await api.get(`/api/services?provider=${provider.id}&limit=50&${query}`, { language })
  expect(reply.status, reply.text).toBe(200)
  return (reply.body.data.services as Array<{ price: number; currency: string }>).map((s) => `${s.price} ${s.currency}`)
}
beforeAll(async () => {
  for (const [price, currency] of [
    [28, "EUR"],
    [35, "CAD"],
    [38, "EUR"],
    [60, "CAD"],
    [150, "CAD"],
    [75, "EUR"]
  ] as const) {
    const reply = await api.post(
      "/api/services",
      {
        title: `Cours à ${price} ${currency}`,
        description: "Cours particulier.",
        price,
        currency,
        duration: 60,
        location: "Montréal",
        lat: 45.5,
        lng: -73.56,
        categoryId: 9
      },
      { token: provider.token }
    )
    expect(reply.status, reply.text).toBe(201)
    ids[`${price} ${currency}`] = reply.body.data.service.id
  }
}, 120_000)

describe("GET /api/rates", () => {
  it("lists the demo rates of every currency against the euro", async () => {
    const reply = await api.get("/api/rates")
    expect(reply.status).toBe(200)
    expect(reply.body.data.reference).toBe("EUR")
    const rates = Object.fromEntries((reply.body.data.rates as Array<{ currency: string; rate: string }>).map((r) => [r.currency, r.rate]))
    expect(rates).toMatchObject({ EUR: "1", CAD: "1.62", XOF: "655.957", XAF: "655.957" })
    expect(Object.keys(rates).sort()).toEqual(["CAD", "CHF", "EUR", "GBP", "JPY", "USD", "XAF", "XOF"])
  })
})

describe("price sorts and ranges compare amounts in euros", () => {
  it("sorts 35 $CA between 28 € and 38 € when the rate makes it so, and before both at 1.62", async () => {
    await setRates({ CAD: "1.1" }) // 35 CAD = 31.82 €
    expect(await listed("sortBy=price_asc")).toEqual(["28 EUR", "35 CAD", "38 EUR", "60 CAD", "75 EUR", "150 CAD"])
    expect(await listed("sortBy=price_desc")).toEqual(["150 CAD", "75 EUR", "60 CAD", "38 EUR", "35 CAD", "28 EUR"])
    await setRates({ CAD: "1.62" }) // 35 CAD = 21.60 €, 60 CAD = 37.04 €, 150 CAD = 92.59 €
    expect(await listed("sortBy=price_asc")).toEqual(["35 CAD", "28 EUR", "60 CAD", "38 EUR", "75 EUR", "150 CAD"])
  })

  it("reads a range in the viewer's currency: 50–100 € leaves out 60 $CA (37 €) and takes 150 $CA (92,59 €)", async () => {
    await setRates({ CAD: "1.62" })
    // French readers: euros.
    expect(await listed("sortBy=price_asc&minPrice=50&maxPrice=100")).toEqual(["75 EUR", "150 CAD"])
    // English readers: Canadian dollars (50–100 CA$ is 30.86–61.73 €; 60 CA$ = 37.04 € < 38 €).
    expect(await listed("sortBy=price_asc&minPrice=50&maxPrice=100", "en")).toEqual(["60 CAD", "38 EUR"])
    // An explicit currency wins over the language.
    expect(await listed("sortBy=price_asc&minPrice=50&maxPrice=100&currency=EUR", "en")).toEqual(["75 EUR", "150 CAD"])
    // An open range, and the boundary itself: 28 € is in "28 and more".
    expect(await listed("sortBy=price_asc&minPrice=28&currency=EUR")).toEqual(["28 EUR", "60 CAD", "38 EUR", "75 EUR", "150 CAD"])
  })

  it("refuses a currency the product does not accept (422, in the reader's language)", async () => {
    const reply = await api.get("/api/services?minPrice=10&currency=ABC", { language: "en" })
    expect(reply.status).toBe(422)
    expect(reply.body.details).toEqual([
      expect.objectContaining({ field: "currency", message: expect.stringContaining("Unsupported currency") })
    ])
  })

  it("gives each card its price converted into the viewer's currency when it differs", async () => {
    await setRates({ CAD: "1.62" })
    const fr = await api.get(`/api/services?provider=${provider.id}&sortBy=price_asc`, { language: "fr" })
    const byTitle = Object.fromEntries((fr.body.data.services as Array<any>).map((s) => [s.title, s]))
    expect(byTitle["Cours à 35 CAD"].approxPrice).toEqual({ price: 21.6, priceMinor: 2160, currency: "EUR" })
    expect(byTitle["Cours à 28 EUR"].approxPrice).toBeUndefined()
    const en = await api.get(`/api/services/${ids["28 EUR"]}`, { language: "en" })
    expect(en.body.data.service.approxPrice).toEqual({ price: 45.36, priceMinor: 4536, currency: "CAD" })
  })
})

describe("PUT /api/rates (back-office)", () => {
  it("is for administrators only: 401 without a session, 403 for a client or a provider", async () => {
    const body = { rates: [{ currency: "CAD", rate: "2" }] }
    expect((await put(body)).status).toBe(401)
    const client = await newClient(server, api)
    expect((await put(body, client.token)).status).toBe(403)
    expect((await put(body, provider.token)).status).toBe(403)
    const rows = await sql<{ rate: string }>("SELECT per_eur_micro::text AS rate FROM exchange_rates WHERE currency = 'CAD'")
    expect(rows[0]!.rate).not.toBe("2000000")
  })

  it("answers 422 per bad entry, in the reader's language, and changes nothing", async () => {
    await setRates({ CAD: "1.62", USD: "1.155" })
    const reply = await put(
      {
        rates: [
          { currency: "CAD", rate: "abc" },
          { currency: "USD", rate: -1 },
          { currency: "EUR", rate: "1.2" },
          { currency: "ZZZ", rate: "1" }
        ]
      },
      admin.token,
      "en"
    )
    expect(reply.status).toBe(422)
    expect(reply.body.details.map((d: { field: string }) => d.field)).toEqual(["rates.CAD", "rates.USD", "rates.EUR", "rates.ZZZ"])
    expect(reply.body.details[2].message).toContain("reference currency")
    expect((await put({ rates: [] }, admin.token, "fr")).body.details[0].message).toBe("Indiquez au moins un taux de change.")
    const missing = await put({}, admin.token, "fr")
    expect(missing.status).toBe(422)
    expect(missing.body.details).toEqual([{ field: "rates", message: "Indiquez au moins un taux de change." }])
    const rates = await api.get("/api/rates")
    expect(rates.body.data.rates.find((r: { currency: string }) => r.currency === "USD").rate).toBe("1.155")
  })

  it("stores the rates with their source and records the decision in the audit log", async () => {
    const reply = await setRates({ GBP: "0.8765", JPY: "181,5" })
    const rates = Object.fromEntries((reply.body.data.rates as Array<any>).map((r) => [r.currency, r]))
    expect(rates.GBP).toMatchObject({ rate: "0.8765", perEurMicro: 876_500, source: "ADMIN" })
    expect(rates.JPY).toMatchObject({ rate: "181.5", source: "ADMIN" })
    const audit = await api.get("/api/admin/audit?action=EXCHANGE_RATES_SET", { token: admin.token })
    expect(audit.status, audit.text).toBe(200)
    const entry = JSON.stringify(audit.body.data)
    expect(entry).toContain("GBP,JPY")
    expect(entry).toContain("0.8765")
  })
})
