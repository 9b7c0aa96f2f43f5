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

// ---- Grid cells (issue 14: text and place from one index) -------------------------------------
// Every service is indexed with the three grid cells holding its position (¼°, about 28 km; 1°;
// 4°) beside its words, in one GIN index (migration 0033). A search by text around a place asks
// for the cells that cover its circle: the index then answers "these words in these cells"
// together, where two separate indexes read every service of a dense city first. Each cell asked
// for is one more posting list to merge, so a circle takes the finest level with few cells.

/** Cells per degree of each level, finest first (powers of two: lat × k is exact in floating point). */
const CELL_LEVELS = [4, 1, 0.25] as const
/** A circle covered by more cells than this at every level is searched without cells. */
export const MAX_CELLS = 16
// One key space for the three levels: each level's rows × columns from its own base.
const LEVEL_BASE: Record<(typeof CELL_LEVELS)[number], number> = { 4: 0, 1: 2_000_000, 0.25: 3_000_000 }
/** The cell of row y = floor(lat × k) and column x = floor(lng × k) at k cells per degree. */
const cellId = (k: (typeof CELL_LEVELS)[number], y: number, x: number) =>
  LEVEL_BASE[k] + (y + Math.ceil(90 * k)) * (Math.floor(360 * k) + 1) + (x + Math.ceil(180 * k))

/** The cells of a position (the index's own expression, CELLS in adapters/postgres.ts, computes the same). */
export const cellsOf = (p: { readonly lat: number; readonly lng: number }): ReadonlyArray<number> =>
  CELL_LEVELS.map((perDegree) => cellId(perDegree, Math.floor(p.lat * perDegree), Math.floor(p.lng * perDegree)))

/**
 * The cells of one level that cover every position within `radiusKm` (great-circle, on
 * earthdistance's sphere) of the centre, at the finest level that needs at most MAX_CELLS of them;
 * undefined when none does (a very large circle, or one reaching a pole). A superset: the exact
 * distance check still decides.
 */
export const cellsCovering = (geo: { readonly lat: number; readonly lng: number; readonly radiusKm: number }) => {
  const angle = (geo.radiusKm * 1000) / EARTH_RADIUS_M
  const deg = 180 / Math.PI
  // A margin for rounding (about 1 cm at the equator), far below the cell sizes.
  const margin = 1e-7
  const dLat = angle * deg + margin
  if (angle >= Math.PI / 2 || Math.abs(geo.lat) + dLat >= 90) return undefined
  // The widest longitude of a spherical cap that does not contain a pole.
  const dLng = Math.asin(Math.min(1, Math.sin(angle) / Math.cos(geo.lat / deg))) * deg + margin
  const lngRanges: Array<readonly [number, number]> = []
  const west = geo.lng - dLng
  const east = geo.lng + dLng
  if (west < -180) lngRanges.push([west + 360, 180], [-180, east])
  else if (east > 180) lngRanges.push([west, 180], [-180, east - 360])
  else lngRanges.push([west, east])
  for (const perDegree of CELL_LEVELS) {
    const lat0 = Math.floor((geo.lat - dLat) * perDegree)
    const lat1 = Math.floor((geo.lat + dLat) * perDegree)
    const cols = lngRanges.map(([w, e]) => [Math.floor(Math.max(-180, w) * perDegree), Math.floor(Math.min(180, e) * perDegree)] as const)
    const count = (lat1 - lat0 + 1) * cols.reduce((n, [w, e]) => n + e - w + 1, 0)
    if (count > MAX_CELLS) continue
    const cells = new Set<number>()
    for (let y = lat0; y <= lat1; y++) for (const [w, e] of cols) for (let x = w; x <= e; x++) cells.add(cellId(perDegree, y, x))
    return [...cells].sort((a, b) => a - b)
  }
  return undefined
}
