import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { cellsCovering, cellsOf, distanceKm, EARTH_RADIUS_M, MAX_CELLS } from "../../src/modules/catalogue/geography"

/** The point `km` away from `from` in direction `bearing` (radians) on earthdistance's sphere. */
const destination = (from: { lat: number; lng: number }, km: number, bearing: number) => {
  const rad = Math.PI / 180
  const d = (km * 1000) / EARTH_RADIUS_M
  const lat1 = from.lat * rad
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing))
  const lng2 = from.lng * rad + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2))
  // Back into [-180, 180).
  return { lat: lat2 / rad, lng: ((((lng2 / rad + 180) % 360) + 360) % 360) - 180 }
}

const centre = fc.record({
  lat: fc.double({ min: -85, max: 85, noNaN: true }),
  lng: fc.double({ min: -180, max: 180, noNaN: true })
})

describe("grid cells around a place (the text index's second column)", () => {
  it("cover every position within the radius, the antimeridian included", () => {
    fc.assert(
      fc.property(
        centre,
        fc.double({ min: 0.05, max: 800, noNaN: true }),
        // Mostly on the circle itself, where a cover too small would show.
        fc.oneof(fc.constant(1 - 1e-9), fc.double({ min: 0.999, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })),
        fc.oneof(fc.constantFrom(0, Math.PI / 2, Math.PI, (3 * Math.PI) / 2), fc.double({ min: 0, max: 2 * Math.PI, noNaN: true })),
        (c, radiusKm, fraction, bearing) => {
          const cells = cellsCovering({ ...c, radiusKm })
          if (cells === undefined) return
          expect(cells.length).toBeLessThanOrEqual(MAX_CELLS)
          // A point that rounding put just outside the circle is not a match: skipped.
          const p = destination(c, radiusKm * fraction, bearing)
          if (distanceKm(c, p) > radiusKm) return
          expect(
            cellsOf(p).some((cell) => cells.includes(cell)),
            JSON.stringify({ c, radiusKm, p })
          ).toBe(true)
        }
      ),
      { numRuns: 5000 }
    )
  })

  it("use ¼° cells for a town's radius, 1° or 4° ones for a region's, none for a continent or a pole", () => {
    const montreal = { lat: 45.5019, lng: -73.5674 }
    const [quarter, one, four] = cellsOf(montreal)
    const at = (radiusKm: number) => cellsCovering({ ...montreal, radiusKm })!
    expect(at(25)).toContain(quarter)
    expect(at(25).length).toBeLessThanOrEqual(MAX_CELLS)
    expect(at(25).every((cell) => cell < 2_000_000)).toBe(true)
    expect(at(100)).toContain(one)
    expect(at(100).every((cell) => cell >= 2_000_000 && cell < 3_000_000)).toBe(true)
    expect(at(300)).toContain(four)
    expect(at(300).every((cell) => cell >= 3_000_000)).toBe(true)
    expect(cellsCovering({ ...montreal, radiusKm: 3000 })).toBeUndefined()
    expect(cellsCovering({ lat: 89.5, lng: 0, radiusKm: 100 })).toBeUndefined()
    // Fiji: both sides of the antimeridian.
    const fiji = cellsCovering({ lat: -17.7, lng: 179.95, radiusKm: 20 })!
    expect(fiji).toContain(cellsOf({ lat: -17.7, lng: -179.95 })[0])
    expect(fiji).toContain(cellsOf({ lat: -17.7, lng: 179.99 })[0])
  })
})
