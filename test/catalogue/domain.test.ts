import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isUuid } from "../../src/platform/ids"
import { isStorableNumber } from "../../src/platform/numbers"
import { toMajor } from "../../src/platform/money"
import {
  copyTitle,
  DURATION_MAX,
  normalizeText,
  parsePrice,
  type ServiceInput,
  slugify,
  TITLE_MAX,
  validateNewService,
  validateServicePatch,
  wordsOf
} from "../../src/modules/catalogue/domain"
import { distanceKm } from "../../src/modules/catalogue/geography"
import {
  chooseSort,
  correctableWords,
  LOOKAHEAD_PAGES,
  MAX_LIMIT,
  matchesText,
  paging,
  pagination,
  parseSearch,
  parseTextQuery,
  RELEVANCE_CANDIDATES,
  resultWindow,
  Sorts,
  toTsQuery,
  widenQuery
} from "../../src/modules/catalogue/search"

const valid: ServiceInput = {
  title: "Ménage à domicile",
  description: "Entretien complet du logement.",
  price: 35,
  duration: 120,
  location: "Montréal, QC",
  categoryId: 5
}
const fields = (result: Either.Either<unknown, { details: ReadonlyArray<{ field: string; key: string }> }>) =>
  Either.isLeft(result) ? result.left.details.map((d) => `${d.field}:${d.key}`) : []

describe("money", () => {
  it("prices in major units become integer minor units; zero-decimal currencies have no minor unit", () => {
    expect(parsePrice(45.5, "EUR")).toEqual(Either.right(4550))
    expect(parsePrice("39,90", "CAD")).toEqual(Either.right(3990))
    expect(parsePrice("0.01", "EUR")).toEqual(Either.right(1))
    expect(parsePrice(19.99, "EUR")).toEqual(Either.right(1999))
    expect(parsePrice(0.1 + 0.2, "EUR")).toEqual(Either.right(30))
    expect(parsePrice(5000, "JPY")).toEqual(Either.right(5000))
    expect(parsePrice("10.50", "XOF")).toEqual(Either.left("catalogue.priceNoDecimals"))
    expect(parsePrice("10.00", "XAF")).toEqual(Either.right(10))
    expect(parsePrice(10.999, "EUR")).toEqual(Either.left("catalogue.priceInvalid"))
    expect(parsePrice(0, "EUR")).toEqual(Either.left("catalogue.priceInvalid"))
    expect(parsePrice("1e3", "EUR")).toEqual(Either.left("catalogue.priceInvalid"))
    expect(parsePrice(undefined, "EUR")).toEqual(Either.left("validation.required"))
    expect(parsePrice("  ", "EUR")).toEqual(Either.left("validation.required"))
    expect(toMajor(4550, "EUR")).toBe(45.5)
    expect(toMajor(5000, "JPY")).toBe(5000)
  })

  it("property: any amount of whole cents round-trips, as a number and as a string", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000_000 }), (cents) => {
        expect(parsePrice(cents / 100, "EUR")).toEqual(Either.right(cents))
        expect(parsePrice((cents / 100).toFixed(2), "CAD")).toEqual(Either.right(cents))
        expect(toMajor(cents, "EUR")).toBeCloseTo(cents / 100, 9)
      })
    )
  })
})

describe("service input (spec section 5)", () => {
  it("a valid form: trimmed, EUR by default, lat and lng 0 when blank", () => {
    expect(validateNewService({ ...valid, title: "  Ménage à domicile ", lat: "", lng: null })).toEqual(
      Either.right({
        title: "Ménage à domicile",
        description: "Entretien complet du logement.",
        priceMinor: 3500,
        currency: "EUR",
        durationMinutes: 120,
        location: "Montréal, QC",
        lat: 0,
        lng: 0,
        category: { _tag: "Existing", id: 5 }
      })
    )
    expect(
      Either.getOrThrow(validateNewService({ ...valid, categoryId: undefined, newCategoryName: "  Photo   de mariage " })).category
    ).toEqual({
      _tag: "New",
      name: "Photo de mariage"
    })
  })

  it("every required field, and the category rule both ways", () => {
    expect(fields(validateNewService({}))).toEqual([
      "title:validation.required",
      "description:validation.required",
      "price:validation.required",
      "duration:validation.required",
      "location:validation.required",
      "categoryId:catalogue.categoryRequired"
    ])
    const both = validateNewService({ ...valid, newCategoryName: "Autre" })
    expect(fields(both)).toEqual(["newCategoryName:catalogue.categoryChoiceBoth"])
    expect(Either.isLeft(both) && both.left.key).toBe("catalogue.categoryChoiceBoth")
  })

  it("property: a creation duration is accepted exactly when it is a whole number of minutes from 1 to 7 days", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -100, max: DURATION_MAX + 100 }), fc.double({ min: -10, max: 20_000, noNaN: true })),
        (duration) => {
          const ok = Number.isInteger(duration) && duration >= 1 && duration <= DURATION_MAX
          expect(Either.isRight(validateNewService({ ...valid, duration }))).toBe(ok)
        }
      )
    )
  })

  it("property: an edited duration must be at least 15 minutes, by steps of 15", () => {
    fc.assert(
      fc.property(fc.integer({ min: -30, max: DURATION_MAX + 60 }), (duration) => {
        const ok = duration >= 15 && duration % 15 === 0 && duration <= DURATION_MAX
        expect(Either.isRight(validateServicePatch({ duration }, { priceMinor: 1000, currency: "EUR" }))).toBe(ok)
      })
    )
  })

  it("property: latitude and longitude are accepted within range only", () => {
    fc.assert(
      fc.property(fc.double({ min: -400, max: 400, noNaN: true }), fc.double({ min: -400, max: 400, noNaN: true }), (lat, lng) => {
        // Within range, and storable (a subnormal such as 5e-324 underflows in PostgreSQL).
        const ok = Math.abs(lat) <= 90 && Math.abs(lng) <= 180 && isStorableNumber(lat) && isStorableNumber(lng)
        expect(Either.isRight(validateNewService({ ...valid, lat, lng }))).toBe(ok)
      })
    )
  })

  it("a patch checks only what it carries; a currency change re-expresses the price", () => {
    expect(validateServicePatch({}, { priceMinor: 1000, currency: "EUR" })).toEqual(Either.right({}))
    expect(validateServicePatch({ currency: "CAD" }, { priceMinor: 1999, currency: "EUR" })).toEqual(
      Either.right({ currency: "CAD", priceMinor: 1999 })
    )
    expect(validateServicePatch({ currency: "EUR" }, { priceMinor: 5000, currency: "JPY" })).toEqual(
      Either.right({ currency: "EUR", priceMinor: 500000 })
    )
    expect(fields(validateServicePatch({ currency: "JPY" }, { priceMinor: 1999, currency: "EUR" }))).toEqual([
      "price:catalogue.priceNoDecimals"
    ])
    expect(fields(validateServicePatch({ title: "" }, { priceMinor: 1, currency: "EUR" }))).toEqual(["title:validation.required"])
    expect(fields(validateServicePatch({ currency: "" }, { priceMinor: 1, currency: "EUR" }))).toEqual(["currency:validation.required"])
  })
})

describe("search criteria", () => {
  it("defaults: page 1, 20 per page, newest; relevance when there is text; distance needs a position", () => {
    const c = Either.getOrThrow(parseSearch({}))
    expect(c).toMatchObject({ page: 1, limit: 20, sort: "newest", text: undefined, geo: undefined })
    expect(Either.getOrThrow(parseSearch({ search: "ménage" })).sort).toBe("relevance")
    expect(Either.getOrThrow(parseSearch({ sortBy: "distance" })).sort).toBe("newest")
    expect(Either.getOrThrow(parseSearch({ sortBy: "distance", lat: "45.5", lng: "-73.6" }))).toMatchObject({
      sort: "distance",
      geo: { lat: 45.5, lng: -73.6, radiusKm: 100 }
    })
    expect(Either.getOrThrow(parseSearch({ sortBy: "relevance" })).sort).toBe("newest")
    for (const requested of [undefined, ...Sorts]) {
      for (const hasText of [true, false]) {
        for (const hasGeo of [true, false]) {
          const sort = chooseSort(requested, hasText, hasGeo)
          if (sort === "distance") expect(hasGeo).toBe(true)
          if (sort === "relevance") expect(hasText).toBe(true)
        }
      }
    }
  })

  it("the UI's price ranges in major units become inclusive bounds in cents; 200+ is a minimum only", () => {
    expect(Either.getOrThrow(parseSearch({ minPrice: "0", maxPrice: "50" }))).toMatchObject({ minPriceCents: 0, maxPriceCents: 5000 })
    expect(Either.getOrThrow(parseSearch({ minPrice: "200" }))).toMatchObject({ minPriceCents: 20000, maxPriceCents: undefined })
    expect(fields(parseSearch({ minPrice: "100", maxPrice: "50" }))).toEqual(["maxPrice:catalogue.priceRange"])
  })

  it("category by id, slug or name; 'all' is no filter", () => {
    expect(Either.getOrThrow(parseSearch({ category: "5" })).category).toEqual({ _tag: "Id", id: 5 })
    expect(Either.getOrThrow(parseSearch({ categoryId: "5", category: "jardinage" })).category).toEqual({ _tag: "Id", id: 5 })
    expect(Either.getOrThrow(parseSearch({ category: "ménage" })).category).toEqual({ _tag: "Name", name: "ménage" })
    expect(Either.getOrThrow(parseSearch({ category: "all" })).category).toBeUndefined()
    expect(fields(parseSearch({ categoryId: "five" }))).toEqual(["categoryId:catalogue.invalidNumber"])
  })

  it("property: the page size always lies between 1 and 100; offsets follow pages", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: -5, max: 1000 }), (page, limit) => {
        const p = paging(page, limit)
        expect(p.limit).toBeGreaterThanOrEqual(1)
        expect(p.limit).toBeLessThanOrEqual(MAX_LIMIT)
        expect(p.offset).toBe((p.page - 1) * p.limit)
        expect(pagination(7, p.page, p.limit).pages).toBe(Math.ceil(7 / p.limit))
      })
    )
  })

  it("the result window: the page plus the pages read ahead and one row; relevance ranks a fixed candidate set", () => {
    expect(resultWindow({ sort: "newest", hasText: false, offset: 0, limit: 20, withTotal: true })).toBe(20 * (LOOKAHEAD_PAGES + 1) + 1)
    expect(resultWindow({ sort: "newest", hasText: false, offset: 40, limit: 20, withTotal: false })).toBe(60)
    expect(resultWindow({ sort: "relevance", hasText: true, offset: 40, limit: 20, withTotal: true })).toBe(RELEVANCE_CANDIDATES)
  })
})

describe("text", () => {
  it("accents, case and ligatures are ignored like the database's f_unaccent(lower(...))", () => {
    expect(normalizeText("Ménage À Domicile")).toBe("menage a domicile")
    expect(normalizeText("Œnologie, cœur, Straße, Ærø")).toBe("oenologie, coeur, strasse, aero")
    expect(wordsOf("L'atelier d'œnologie — réparation/vélo 3D!")).toEqual(["l", "atelier", "d", "oenologie", "reparation", "velo", "3d"])
    expect(slugify("Réparation & entretien de vélos")).toBe("reparation-entretien-de-velos")
    expect(slugify("!!!")).toBe("")
  })

  it("queries: one-letter words dropped, the last word a prefix from 3 letters, at most 8 words", () => {
    expect(toTsQuery(parseTextQuery("Ménage à domicile")!)).toBe("'menage' & 'domicile':*")
    expect(toTsQuery(parseTextQuery("cours de pi")!)).toBe("'cours' & 'de' & 'pi'")
    expect(toTsQuery(parseTextQuery("a")!)).toBe("'a'")
    expect(parseTextQuery("  !!  ")).toBeUndefined()
    expect(parseTextQuery("un deux trois quatre cinq six sept huit neuf dix")!.terms).toHaveLength(8)
  })

  it("property: whatever is typed, the tsquery text only quotes letters and digits", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.fullUnicodeString(), fc.constantFrom("l'eau", "a' | b", "x:* & !y", "\\'; DROP", "ʹquoteʹ")),
        (raw) => {
          const query = parseTextQuery(raw)
          if (query === undefined) return
          const text = toTsQuery(query)
          for (const term of query.terms) for (const a of term.alternatives) expect(a.word).toMatch(/^[\p{L}\p{Nd}]+$/u)
          expect(text).not.toMatch(/\\/)
          expect(text.replace(/'[\p{L}\p{Nd}]+'(:\*)?/gu, "").replace(/[()|& ]/g, "")).toBe("")
        }
      )
    )
  })

  it("typo tolerance: short queries widen each word with near spellings; matching follows the alternatives", () => {
    const query = parseTextQuery("plombrie")!
    expect(correctableWords(query)).toEqual([{ word: "plombrie", prefix: true }])
    expect(correctableWords(parseTextQuery("un deux trois quatre")!)).toEqual([])
    const widened = widenQuery(query, new Map([["plombrie", ["plomberie", "plombier"]]]))
    expect(toTsQuery(widened)).toBe("('plombrie':* | 'plomberie' | 'plombier')")
    expect(matchesText(new Set(wordsOf("Plomberie générale")), widened)).toBe(true)
    expect(matchesText(new Set(wordsOf("Plomberie générale")), query)).toBe(false)
    expect(matchesText(new Set(wordsOf("Ménage")), parseTextQuery("men")!)).toBe(true)
  })
})

describe("places and copies", () => {
  it("great-circle distances as earthdistance computes them", () => {
    const montreal = { lat: 45.5019, lng: -73.5674 }
    expect(distanceKm(montreal, montreal)).toBe(0)
    expect(distanceKm(montreal, { lat: 46.8139, lng: -71.208 })).toBeGreaterThan(225)
    expect(distanceKm(montreal, { lat: 46.8139, lng: -71.208 })).toBeLessThan(240)
    expect(distanceKm(montreal, { lat: 48.8566, lng: 2.3522 })).toBeGreaterThan(5490)
    expect(distanceKm(montreal, { lat: 48.8566, lng: 2.3522 })).toBeLessThan(5540)
  })

  it("property: a copy's title keeps the suffix and the limit", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: TITLE_MAX }), fc.constantFrom("(copie)", "(copy)"), (title, suffix) => {
        const copy = copyTitle(title, suffix)
        expect(copy.length).toBeLessThanOrEqual(TITLE_MAX)
        expect(copy.endsWith(` ${suffix}`)).toBe(true)
      })
    )
  })

  it("ids", () => {
    expect(isUuid("0b5a9a84-5c4e-4c43-9d7a-2b1a9c0e7f10")).toBe(true)
    expect(isUuid("0B5A9A84-5C4E-4C43-9D7A-2B1A9C0E7F10")).toBe(true)
    expect(isUuid("0b5a9a84-5c4e-4c43-9d7a-2b1a9c0e7f1")).toBe(false)
    expect(isUuid("' OR 1=1 --")).toBe(false)
  })
})
