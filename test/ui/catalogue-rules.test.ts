import { describe, expect, it } from "vitest"
import {
  checkServiceForm,
  cutText,
  distanceKm,
  durationParts,
  hasCoordinates,
  initials,
  LIST_SORTS,
  pickSort,
  priceBounds,
  SEARCH_SORTS,
  searchCategorySlug,
  serviceRequestOf,
  shouldSearch,
  toPage,
  toPriceRange,
  toSearchCategory,
  type ServiceFormValues
} from "../../ui/catalogue/rules"
import { queryString } from "../../ui/api/query"

describe("description cut (spec section 9: 100 on cards, 160 in share metadata)", () => {
  it("keeps short text whole, with its spaces tidied", () => {
    expect(cutText("Ménage  écologique\nà domicile", 100)).toBe("Ménage écologique à domicile")
    const exact = "x".repeat(100)
    expect(cutText(exact, 100)).toBe(exact)
  })

  it("cuts long text at a word end within the limit and adds an ellipsis", () => {
    const text =
      "Entretien complet de votre logement avec des produits écologiques : cuisine, salle de bain, dépoussiérage et sols. Matériel fourni."
    const cut = cutText(text, 100)
    expect(cut.endsWith("…")).toBe(true)
    expect(Array.from(cut).length).toBeLessThanOrEqual(101)
    expect(text.startsWith(cut.slice(0, -1))).toBe(true)
    expect(cut).toBe("Entretien complet de votre logement avec des produits écologiques : cuisine, salle de bain…")
    expect(Array.from(cutText(text, 160)).length).toBeLessThanOrEqual(161)
  })

  it("cuts a text without spaces hard, and never splits an emoji", () => {
    expect(cutText("a".repeat(150), 100)).toBe(`${"a".repeat(100)}…`)
    const emojis = "😀".repeat(120)
    expect(cutText(emojis, 100)).toBe(`${"😀".repeat(100)}…`)
  })
})

describe("duration display (minutes under 1 h, hours and minutes under 24 h, then days and hours)", () => {
  it("splits a number of minutes", () => {
    expect(durationParts(0)).toEqual({ unit: "minutes", minutes: 0 })
    expect(durationParts(45)).toEqual({ unit: "minutes", minutes: 45 })
    expect(durationParts(59)).toEqual({ unit: "minutes", minutes: 59 })
    expect(durationParts(60)).toEqual({ unit: "hours", hours: 1, minutes: 0 })
    expect(durationParts(90)).toEqual({ unit: "hours", hours: 1, minutes: 30 })
    expect(durationParts(1439)).toEqual({ unit: "hours", hours: 23, minutes: 59 })
    expect(durationParts(1440)).toEqual({ unit: "days", days: 1, hours: 0 })
    expect(durationParts(1440 * 2 + 185)).toEqual({ unit: "days", days: 2, hours: 3 })
  })
})

describe("search rules (spec section 2, Search)", () => {
  it("maps price ranges to bounds; 200+ sets a minimum only", () => {
    expect(priceBounds("0-50")).toEqual({ minPrice: 0, maxPrice: 50 })
    expect(priceBounds("50-100")).toEqual({ minPrice: 50, maxPrice: 100 })
    expect(priceBounds("100-200")).toEqual({ minPrice: 100, maxPrice: 200 })
    expect(priceBounds("200+")).toEqual({ minPrice: 200 })
    expect(priceBounds(undefined)).toEqual({})
    expect(toPriceRange("200+")).toBe("200+")
    expect(toPriceRange("200-300")).toBeUndefined()
  })

  it("runs only with a text, a category, a price range or a location", () => {
    expect(shouldSearch({ text: "" })).toBe(false)
    expect(shouldSearch({ text: "   " })).toBe(false)
    expect(shouldSearch({ text: "", place: false })).toBe(false)
    expect(shouldSearch({ text: "menage" })).toBe(true)
    expect(shouldSearch({ text: "", category: "jardinage" })).toBe(true)
    expect(shouldSearch({ text: "", priceRange: "200+" })).toBe(true)
    expect(shouldSearch({ text: "", place: true })).toBe(true)
  })

  it("accepts both spellings of the search categories and maps them to the seeded slugs", () => {
    const pairs = [
      ["menage", "cleaning"],
      ["jardinage", "gardening"],
      ["reparation", "repair"],
      ["transport", "transport"],
      ["formation", "training"]
    ] as const
    for (const [id, alias] of pairs) {
      expect(toSearchCategory(id)).toBe(id)
      expect(toSearchCategory(alias.toUpperCase())).toBe(id)
      expect(searchCategorySlug(id)).toBe(id)
    }
    expect(toSearchCategory("it")).toBeUndefined()
    expect(toSearchCategory(null)).toBeUndefined()
  })

  it("offers distance only when the position is known", () => {
    expect(pickSort("distance", LIST_SORTS, "newest", false)).toBe("newest")
    expect(pickSort("distance", LIST_SORTS, "newest", true)).toBe("distance")
    expect(pickSort("relevance", LIST_SORTS, "newest", true)).toBe("newest")
    expect(pickSort("price_desc", SEARCH_SORTS, "relevance", false)).toBe("price_desc")
    expect(pickSort(null, SEARCH_SORTS, "relevance", false)).toBe("relevance")
  })

  it("reads page numbers defensively", () => {
    expect(toPage("3")).toBe(3)
    for (const bad of [null, "", "0", "-2", "1.5", "abc"]) expect(toPage(bad)).toBe(1)
  })

  it("sends only the defined query values", () => {
    expect(queryString({ search: "ménage à", page: 2, categoryId: undefined, minPrice: 0, provider: "" })).toBe(
      "?search=m%C3%A9nage+%C3%A0&page=2&minPrice=0"
    )
    expect(queryString({})).toBe("")
  })
})

describe("geography and avatars", () => {
  it("measures great-circle distances", () => {
    const montreal = { lat: 45.5019, lng: -73.5674 }
    const quebec = { lat: 46.8139, lng: -71.208 }
    expect(distanceKm(montreal, montreal)).toBe(0)
    expect(distanceKm(montreal, quebec)).toBeGreaterThan(225)
    expect(distanceKm(montreal, quebec)).toBeLessThan(240)
    expect(hasCoordinates({ lat: 0, lng: 0 })).toBe(false)
    expect(hasCoordinates({ lat: 0, lng: 2 })).toBe(true)
  })

  it("falls back to initials", () => {
    expect(initials("Marie", "Dubois")).toBe("MD")
    expect(initials("élodie", "")).toBe("É")
    expect(initials(" ", "")).toBe("?")
  })
})

describe("service form (spec section 5)", () => {
  const valid: ServiceFormValues = {
    title: "Ménage écologique",
    description: "Produits écologiques.",
    price: "42.50",
    duration: "90",
    location: "Montréal, QC",
    category: "5",
    newCategoryName: "",
    lat: "",
    lng: ""
  }

  it("accepts a complete form and sends blank coordinates as 0, with the category id only", () => {
    expect(checkServiceForm(valid, "create")).toEqual({})
    expect(serviceRequestOf(valid)).toEqual({
      title: "Ménage écologique",
      description: "Produits écologiques.",
      price: 42.5,
      duration: 90,
      location: "Montréal, QC",
      lat: 0,
      lng: 0,
      categoryId: 5
    })
  })

  it("requires every field and a category", () => {
    const empty = { ...valid, title: " ", description: "", price: "", duration: "", location: "", category: "" }
    expect(checkServiceForm(empty, "create")).toEqual({
      title: "required",
      description: "required",
      price: "required",
      duration: "required",
      location: "required",
      categoryId: "categoryRequired"
    })
  })

  it("wants a price above 0 with at most 2 decimals", () => {
    expect(checkServiceForm({ ...valid, price: "0" }, "create").price).toBe("priceInvalid")
    expect(checkServiceForm({ ...valid, price: "-3" }, "create").price).toBe("priceInvalid")
    expect(checkServiceForm({ ...valid, price: "1.234" }, "create").price).toBe("priceInvalid")
    expect(checkServiceForm({ ...valid, price: "19.99" }, "create").price).toBeUndefined()
    expect(checkServiceForm({ ...valid, price: "19,99" }, "create").price).toBeUndefined()
  })

  it("wants at least 1 minute on create, 15 by steps of 15 on edit", () => {
    expect(checkServiceForm({ ...valid, duration: "1" }, "create").duration).toBeUndefined()
    expect(checkServiceForm({ ...valid, duration: "0" }, "create").duration).toBe("durationCreate")
    expect(checkServiceForm({ ...valid, duration: "7.5" }, "create").duration).toBe("durationCreate")
    expect(checkServiceForm({ ...valid, duration: "20" }, "edit").duration).toBe("durationEdit")
    expect(checkServiceForm({ ...valid, duration: "10" }, "edit").duration).toBe("durationEdit")
    expect(checkServiceForm({ ...valid, duration: "45" }, "edit").duration).toBeUndefined()
  })

  it("with 'other', needs the new category's name and sends it instead of an id", () => {
    const other = { ...valid, category: "other" }
    expect(checkServiceForm(other, "create")).toEqual({ newCategoryName: "required" })
    const named = { ...other, newCategoryName: " Cours de cuisine " }
    expect(checkServiceForm(named, "edit")).toEqual({})
    const body = serviceRequestOf(named)
    expect(body).toMatchObject({ newCategoryName: "Cours de cuisine" })
    expect(body).not.toHaveProperty("categoryId")
  })

  it("checks optional coordinates when given", () => {
    expect(checkServiceForm({ ...valid, lat: "91", lng: "-181" }, "create")).toEqual({ lat: "latitude", lng: "longitude" })
    expect(serviceRequestOf({ ...valid, lat: "45.5", lng: "-73.6" })).toMatchObject({ lat: 45.5, lng: -73.6 })
  })
})
