import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { MAX_PAGE, MAX_PAGE_SIZE, pageOf, pagination, paging } from "../../src/platform/paging"

describe("platform paging", () => {
  it("any page and size, numbers or text, land within bounds with a consistent offset", () => {
    const anything = fc.oneof(fc.constant(undefined), fc.double(), fc.integer(), fc.string(), fc.double().map(String))
    fc.assert(
      fc.property(anything, anything, fc.integer({ min: 1, max: MAX_PAGE_SIZE }), (page, limit, defaultLimit) => {
        const p = pageOf({ page, limit }, defaultLimit)
        expect(Number.isInteger(p.page) && p.page >= 1 && p.page <= MAX_PAGE).toBe(true)
        expect(Number.isInteger(p.limit) && p.limit >= 1 && p.limit <= MAX_PAGE_SIZE).toBe(true)
        expect(p.offset).toBe((p.page - 1) * p.limit)
      })
    )
  })

  it("text and numbers read alike; absent or junk take the defaults", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 2_000_000 }), fc.integer({ min: -10, max: 500 }), (page, limit) => {
        expect(pageOf({ page: String(page), limit: String(limit) }, 20)).toEqual(paging(page, limit, 20))
      })
    )
    expect(pageOf({}, 50)).toEqual({ page: 1, limit: 50, offset: 0 })
    expect(pageOf({ page: "", limit: " " }, 20)).toEqual({ page: 1, limit: 20, offset: 0 })
    expect(pageOf({ page: "x", limit: "NaN" }, 20)).toEqual({ page: 1, limit: 20, offset: 0 })
    expect(pageOf({ page: "2.9", limit: "0" }, 20)).toEqual({ page: 2, limit: 1, offset: 1 })
    expect(pageOf({ page: "1e40", limit: "500" }, 20)).toEqual({
      page: MAX_PAGE,
      limit: MAX_PAGE_SIZE,
      offset: (MAX_PAGE - 1) * MAX_PAGE_SIZE
    })
  })

  it("the answer counts the pages needed for the total", () => {
    fc.assert(
      fc.property(fc.nat(100_000), fc.integer({ min: 1, max: MAX_PAGE_SIZE }), fc.integer({ min: 1, max: 50 }), (total, limit, page) => {
        const answer = pagination(total, page, limit)
        expect(answer).toMatchObject({ total, page, limit })
        expect(answer.pages * limit).toBeGreaterThanOrEqual(total)
        expect((answer.pages - 1) * limit).toBeLessThan(Math.max(total, 1))
      })
    )
    expect(pagination(0, 1, 20).pages).toBe(0)
  })
})
