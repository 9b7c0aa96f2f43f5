import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { photoOrder } from "../../src/modules/catalogue/domain"
import { MAX_SERVICE_PHOTOS } from "../../src/modules/catalogue/rules"

// The order of a service's photos (PUT /api/services/{id}/photos/order): only a permutation of
// exactly the service's photos is taken.

const ids = fc.uniqueArray(fc.uuid(), { minLength: 0, maxLength: MAX_SERVICE_PHOTOS })

describe("photoOrder", () => {
  it("takes every permutation of the service's photos, as given (in lower case)", () => {
    fc.assert(
      fc.property(
        ids.chain((current) => fc.tuple(fc.constant(current), fc.shuffledSubarray(current, { minLength: current.length }))),
        ([current, shuffled]) => {
          const given = shuffled.map((id, i) => (i % 2 === 0 ? id.toUpperCase() : ` ${id} `))
          expect(photoOrder(current, given)).toEqual(Either.right(shuffled.map((id) => id.toLowerCase())))
        }
      )
    )
  })

  it("refuses a list that misses, repeats or adds a photo, and a missing list", () => {
    fc.assert(
      fc.property(ids, fc.array(fc.uuid(), { maxLength: MAX_SERVICE_PHOTOS + 2 }), (current, given) => {
        const same = given.length === current.length && new Set(given).size === given.length && given.every((id) => current.includes(id))
        fc.pre(!same)
        const answer = photoOrder(current, given)
        expect(Either.isLeft(answer)).toBe(true)
        if (Either.isLeft(answer)) expect(answer.left.details).toEqual([{ field: "photoIds", key: "catalogue.photoOrderMismatch" }])
      })
    )
    fc.assert(
      fc.property(
        ids.filter((c) => c.length > 0),
        (current) => {
          expect(Either.isLeft(photoOrder(current, [...current, current[0]!]))).toBe(true)
          expect(Either.isLeft(photoOrder(current, current.slice(1)))).toBe(true)
        }
      )
    )
    expect(Either.isLeft(photoOrder([], undefined))).toBe(true)
    expect(Either.isLeft(photoOrder([], null))).toBe(true)
  })
})
