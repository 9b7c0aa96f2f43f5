// Distances on the sphere earthdistance uses, so that the in-memory adapter and the service agree
// with PostgreSQL's earth_distance(ll_to_earth(...)) to the metre.

/** The sphere radius earthdistance uses (earth(), in metres). */
export const EARTH_RADIUS_M = 6_378_168

/** A position as earthdistance's 3-D point (metres from the Earth's centre), like ll_to_earth(). */
export const earthPoint = (p: { readonly lat: number; readonly lng: number }): readonly [number, number, number] => {
  const rad = Math.PI / 180
  return [
    EARTH_RADIUS_M * Math.cos(p.lat * rad) * Math.cos(p.lng * rad),
    EARTH_RADIUS_M * Math.cos(p.lat * rad) * Math.sin(p.lng * rad),
    EARTH_RADIUS_M * Math.sin(p.lat * rad)
  ]
}
/** The straight-line (chord) length of a great-circle distance in metres, like earthdistance's gc_to_sec(). */
export const chordOf = (metres: number) => 2 * EARTH_RADIUS_M * Math.sin(Math.min(metres, Math.PI * EARTH_RADIUS_M) / (2 * EARTH_RADIUS_M))
/** The great-circle distance in metres of a chord, like earthdistance's sec_to_gc(). */
export const arcOf = (chord: number) => 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, chord / (2 * EARTH_RADIUS_M)))

/** Great-circle distance in km, as earth_distance(ll_to_earth(a), ll_to_earth(b)) computes it. */
export const distanceKm = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) => {
  const [x1, y1, z1] = earthPoint(a)
  const [x2, y2, z2] = earthPoint(b)
  return arcOf(Math.hypot(x1 - x2, y1 - y2, z1 - z2)) / 1000
}
