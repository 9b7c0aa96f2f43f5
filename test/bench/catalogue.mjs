#!/usr/bin/env node
// `make bench` (catalogue): search over 1,000,000 services in PostgreSQL, through the HTTP API and bare.
//  0. Bulk generation of 1,000,000 services with `bin/run seed:bulk` (timed), in the schema
//     `bench_catalogue`; an existing full schema is reused (BENCH_REGENERATE=1 starts afresh).
//  a. text + category + price range + 25 km radius, nearest first: p95 with one client, requests/s
//     with 20 clients, and the same SQL statement (compiled by the server's own code) run bare
//     through `pg` in the same run: API p50 / bare p50; and the stack's floor (stack-floor.mjs: the
//     statement behind @effect/platform-node and @effect/sql-pg with no application code), same run.
//  b. relevance-sorted and typo-tolerant searches: p95 with one client.
//  c. GET /api/services (first page, no filter): requests/s with 50 connections.
//  d. words around a place (issue 14): `search=menage&near=Montréal` within 25 km and within 100 km
//     (the UI's default radius) against the same words without a place, one client, taking turns
//     (same load for each): p95 ratios through the API, and bare for the same statements.
// BENCH_PARTS runs some parts only ("d" or "a,d"; default all four).
// Database: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local PostgreSQL.
// Run it when the machine is quiet (the summary records the load average before and after).
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import pg from "pg"
import {
  benchDatabase,
  benchRun,
  benchSeconds,
  cannon,
  cpuMsOf,
  freshSchema,
  GEO_SEARCH,
  importServerCode,
  interleaved,
  keptAliveClient,
  oneClient,
  root,
  servicesIn,
  spawnServer,
  startStackFloor,
  throughput,
  waitFor
} from "./lib.mjs"

const SERVICES = Number(process.env.BENCH_SERVICES ?? 1_000_000)
const SECONDS = benchSeconds()
const schema = "bench_catalogue"
const PARTS = new Set((process.env.BENCH_PARTS ?? "a,b,c,d").split(",").map((p) => p.trim()))
const port = Number(process.env.BENCH_PORT ?? 3910)
const { log, results } = benchRun("catalogue")
const { baseUrl, databaseUrl } = benchDatabase(schema)

// ---- 0. One million services ----------------------------------------------------------------
const admin = new pg.Client({ connectionString: baseUrl })
await admin.connect()
const existing = await servicesIn(admin, schema)
const bulkReportFile = path.join(root, "var", "bench-catalogue-bulk.json")
if (existing >= SERVICES && process.env.BENCH_REGENERATE !== "1") {
  log(`reusing the ${existing.toLocaleString("en")} services of schema ${schema}`)
  results.bulk = {
    reused: true,
    services: existing,
    previousRun: fs.existsSync(bulkReportFile) ? JSON.parse(fs.readFileSync(bulkReportFile, "utf8")) : null
  }
} else {
  await freshSchema(admin, schema)
  log(`generating ${SERVICES.toLocaleString("en")} services (bin/run seed:bulk)`)
  const started = performance.now()
  const run = spawnSync(process.execPath, [path.join(root, "bin/run.mjs"), "seed:bulk", "--services", String(SERVICES), "--json"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn", DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "bench-cat-")) },
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8"
  })
  if (run.status !== 0) throw new Error(`seed:bulk failed (${run.status})`)
  const report = JSON.parse(run.stdout)
  results.bulk = { reused: false, services: SERVICES, wallSeconds: +((performance.now() - started) / 1000).toFixed(1), ...report }
  fs.mkdirSync(path.dirname(bulkReportFile), { recursive: true })
  fs.writeFileSync(bulkReportFile, JSON.stringify({ at: new Date().toISOString(), ...results.bulk }, null, 2))
}
await admin.end()

// ---- The server's own SQL for a search (compiled by src/modules/catalogue, not copied) ---------
const { statementFor } = await importServerCode(
  root,
  "bench-catalogue-sql",
  `
      import * as Statement from "@effect/sql/Statement"
      import { PgClient } from "@effect/sql-pg"
      import { Effect, Either } from "effect"
      import { parseSearch, paging, pricedQuery } from "./src/modules/catalogue/search"
      import { DEMO_RATES, rateTableOf } from "./src/modules/catalogue/rates/domain"
      import { searchStatement } from "./src/modules/catalogue/adapters/postgres"
      const sql = Statement.make(Effect.never, PgClient.makeCompiler(), [], undefined)
      /** The statement GET /api/services runs for these query parameters (numeric category ids only). */
      export const statementFor = (input) => {
        const c = Either.getOrThrow(parseSearch(input))
        // Prices compared in euros at the demo rates (migration 0032 seeds them; the bench's schema keeps them).
        const rates = rateTableOf(DEMO_RATES.map(([currency, perEurMicro]) => ({ currency, perEurMicro })))
        const query = { text: c.text, categoryId: c.category?.id, providerId: c.providerId, ...pricedQuery(c, rates),
          geo: c.geo, sort: c.sort, limit: c.limit, offset: paging(c.page, c.limit).offset, withTotal: true }
        return searchStatement(sql, query).compile()
      }`
)

// ---- Clients ----------------------------------------------------------------------------------
const { apiCall } = keptAliveClient(port, { "accept-language": "fr" })
/** CPU time (user + system) the server process has used so far, in ms (Linux). */
const serverCpuMs = () => cpuMsOf(server.pid)
/** Throughput of a run, with the server's own CPU per request (what the server, not PostgreSQL, costs). */
const measured = async (opts) => {
  const before = serverCpuMs()
  const r = await cannon(opts)
  return { ...throughput(r), serverCpuMsPerRequest: +((serverCpuMs() - before) / r.requests.total).toFixed(3) }
}

// ---- Queries ----------------------------------------------------------------------------------
const params = (o) => new URLSearchParams(o).toString()
const relevanceQueries = {
  relevanceMenage: { search: "menage", sortBy: "relevance", limit: "12" },
  relevanceCoursDePiano: { search: "cours de piano", sortBy: "relevance", limit: "12" },
  typoPlombrie: { search: "plombrie", sortBy: "relevance", limit: "12" },
  typoJardinnage: { search: "jardinnage", limit: "12" }
}

// Words around a place (d): the place by name, as the search screen sends it, and the words alone.
const placeQueries = {
  text: { search: "menage" },
  place25: { search: "menage", near: "Montréal", radius: "25" },
  place100: { search: "menage", near: "Montréal", radius: "100" }
}

// ---- Server -----------------------------------------------------------------------------------
const server = spawnServer({ root, port, name: "cat-server", env: { DATABASE_URL: databaseUrl } })
const stopServer = server.stop
try {
  await waitFor(`http://127.0.0.1:${port}/api/health`)
  if (PARTS.has("a")) {
    const sample = JSON.parse((await apiCall(`/api/services?${params(GEO_SEARCH)}`)()).body)
    results.a = {
      request: `GET /api/services?${params(GEO_SEARCH)}`,
      matches: {
        total: sample.data.pagination.total,
        exactTotal: sample.data.exactTotal,
        firstDistanceKm: sample.data.services[0]?.distanceKm
      }
    }

    // a. API, one client; then the same statement bare through pg (pool of 10 like the server's).
    log("a: geo search, one client")
    results.a.apiOneClient = await oneClient(apiCall(`/api/services?${params(GEO_SEARCH)}`), SECONDS)
    const [text, values] = statementFor(GEO_SEARCH)
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 })
    const bareRows = (await pool.query(text, values)).rows
    if (bareRows.length !== sample.data.services.length || bareRows[0]?.id !== sample.data.services[0]?.id) {
      throw new Error("the bare statement does not answer what the API answered")
    }
    log("a: same statement bare, one client")
    results.a.bareOneClient = await oneClient(() => pool.query(text, values), SECONDS)
    results.a.apiP50OverBareP50 = +(results.a.apiOneClient.p50ms / results.a.bareOneClient.p50ms).toFixed(2)
    // The stack's floor: the same statement behind @effect/platform-node and @effect/sql-pg alone,
    // answering its rows as JSON: what any server on this stack pays over the bare query here.
    log("a: same statement through the stack's floor, one client and 20 clients")
    {
      const floor = await startStackFloor({ root, port: port + 1, databaseUrl, sql: text, params: values })
      try {
        results.a.stackFloorOneClient = await oneClient(apiCall("/", port + 1), SECONDS)
        results.a.stackFloorP50OverBareP50 = +(results.a.stackFloorOneClient.p50ms / results.a.bareOneClient.p50ms).toFixed(2)
        results.a.stackFloor20Clients = throughput(await cannon({ url: floor.url, connections: 20 }))
      } finally {
        await floor.stop()
      }
    }
    log("a: geo search, 20 clients")
    results.a.api20Clients = await measured({ url: `http://127.0.0.1:${port}/api/services?${params(GEO_SEARCH)}`, connections: 20 })
    // The floor of the HTTP stack on this machine: the health check (one SELECT 1), 20 clients.
    results.a.health20Clients = await measured({ url: `http://127.0.0.1:${port}/api/health`, connections: 20 })
    // The bare statement under 20 concurrent callers, for comparison.
    {
      let count = 0
      const end = performance.now() + SECONDS * 1000
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          while (performance.now() < end) {
            await pool.query(text, values)
            count++
          }
        })
      )
      results.a.bare20Clients = { queriesPerSecond: Math.round(count / SECONDS) }
    }
    await pool.end()
  }

  // b. Relevance and typo tolerance, one client.
  if (PARTS.has("b")) results.b = {}
  for (const [name, q] of Object.entries(PARTS.has("b") ? relevanceQueries : {})) {
    log(`b: ${name}`)
    const first = JSON.parse((await apiCall(`/api/services?${params(q)}`)()).body)
    results.b[name] = {
      request: `GET /api/services?${params(q)}`,
      total: first.data.pagination.total,
      firstTitle: first.data.services[0]?.title,
      ...(await oneClient(apiCall(`/api/services?${params(q)}`), Math.max(3, SECONDS / 2)))
    }
  }

  // c. The plain first page, 50 connections.
  if (PARTS.has("c")) {
    log("c: GET /api/services, 50 connections")
    await cannon({ url: `http://127.0.0.1:${port}/api/services`, connections: 50, duration: 2 })
    results.c = { request: "GET /api/services", ...(await measured({ url: `http://127.0.0.1:${port}/api/services`, connections: 50 })) }
  }

  // d. Words around a place against the same words alone (issue 14: p95 within 1.5 times), taking
  // turns so that each query meets the same load; then the same statements bare through pg.
  if (PARTS.has("d")) {
    log("d: words around a place against the same words alone, one client, taking turns")
    const queries = { text: placeQueries.text, ...Object.fromEntries(Object.entries(placeQueries).filter(([k]) => k !== "text")) }
    const names = Object.keys(queries)
    results.d = {}
    for (const name of names) {
      const body = JSON.parse((await apiCall(`/api/services?${params(queries[name])}`)()).body)
      results.d[name] = {
        request: `GET /api/services?${params(queries[name])}`,
        total: body.data.pagination.total,
        exactTotal: body.data.exactTotal
      }
    }
    const api = await interleaved(
      names.map((name) => apiCall(`/api/services?${params(queries[name])}`)),
      SECONDS * 2
    )
    // Bare: the same statements, the place given by the centre the API resolved (lat/lng).
    const centre = JSON.parse((await apiCall(`/api/places?${params({ q: placeQueries.place25.near, limit: "1" })}`)()).body).data.places[0]
    const bareInput = (q) => {
      const { near, ...rest } = q
      return near === undefined ? rest : { ...rest, lat: String(centre.lat), lng: String(centre.lng) }
    }
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 })
    const statements = names.map((name) => statementFor(bareInput(queries[name])))
    for (let i = 0; i < names.length; i++) {
      const rows = (await pool.query(...statements[i])).rows
      const body = JSON.parse((await apiCall(`/api/services?${params(queries[names[i]])}`)()).body)
      if (rows.map((r) => r.id).join() !== body.data.services.map((s) => s.id).join()) {
        throw new Error(`d: the bare statement of ${names[i]} does not answer what the API answered`)
      }
    }
    const bare = await interleaved(
      statements.map((st) => () => pool.query(...st)),
      SECONDS
    )
    await pool.end()
    names.forEach((name, i) => Object.assign(results.d[name], { api: api[i], bare: bare[i] }))
    for (const name of names.filter((n) => n !== "text")) {
      results.d[name].apiP95OverTextP95 = +(api[names.indexOf(name)].p95ms / api[0].p95ms).toFixed(2)
      results.d[name].bareP95OverTextP95 = +(bare[names.indexOf(name)].p95ms / bare[0].p95ms).toFixed(2)
    }
  }
} finally {
  agent.destroy()
  await stopServer()
}

results.machine.loadAverageAfter = os.loadavg().map((l) => +l.toFixed(2))
const bulkSeconds = results.bulk.reused ? results.bulk.previousRun?.wallSeconds : results.bulk.wallSeconds
results.targets = {
  ...(results.a && {
    "a: p95 one client < 10 ms": results.a.apiOneClient.p95ms < 10,
    "a: >= 500 requests/s with 20 clients": results.a.api20Clients.requestsPerSecond >= 500,
    "a: API p50 / bare p50 < 1.5": results.a.apiP50OverBareP50 < 1.5
  }),
  ...(results.b && { "b: p95 one client < 100 ms": Object.values(results.b).every((r) => r.p95ms < 100) }),
  ...(results.c && { "c: >= 3000 requests/s": results.c.requestsPerSecond >= 3000 }),
  ...(results.d && {
    "d: words around a place p95 <= 1.5 x the same words alone (API, same run)": ["place25", "place100"].every(
      (n) => results.d[n].apiP95OverTextP95 <= 1.5
    )
  }),
  "bulk 1M < 120 s": bulkSeconds === undefined ? null : bulkSeconds < 120
}
console.log(JSON.stringify({ durationSeconds: SECONDS, ...results }, null, 2))
console.log(Object.values(results.targets).every((v) => v !== false) ? "all catalogue targets met" : "some catalogue targets missed")
