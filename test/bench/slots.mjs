#!/usr/bin/env node
// `make bench` (slots, issue 12): GET /api/services/{id}/slots for a 31-day window and a 60-minute
// duration, for a provider with 500 bookings and 20 exceptions (a weekly plan with a lunch break in
// Europe/Paris, 2 hours' notice, a 15-minute buffer):
//  a. p95 with one client (target: under 20 ms);
//  b. requests/s with 20 connections, against GET /api/services/{id} of the same service in the same run
//     (target: at least half its throughput).
// The statement behind it (the plan, the window's exceptions and bookings, one round trip) is printed
// with its EXPLAIN, to show the bookings come from the exclusion constraint's GiST index.
// Database: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local PostgreSQL (schema `bench_slots`).
import * as os from "node:os"
import pg from "pg"
import {
  benchDatabase,
  benchRun,
  benchSeconds,
  cannon,
  cpuMsOf,
  freshSchema,
  keptAliveClient,
  oneClient,
  root,
  spawnServer,
  waitFor
} from "./lib.mjs"

const SECONDS = benchSeconds()
const BOOKINGS = 500
const EXCEPTIONS = 20
const schema = "bench_slots"
const port = Number(process.env.BENCH_PORT ?? 3930)
const { log, results } = benchRun("slots")
const { baseUrl, databaseUrl } = benchDatabase(schema)

const admin = new pg.Client({ connectionString: baseUrl })
await admin.connect()
await freshSchema(admin, schema)
await admin.end()

const server = spawnServer({ root, port, name: "slots", env: { DATABASE_URL: databaseUrl } })
const stopServer = server.stop

const { apiCall } = keptAliveClient(port, { "accept-language": "fr" })
const measured = async (target) => {
  const before = cpuMsOf(server.pid)
  const r = await cannon({ url: target, connections: 20 })
  return {
    requestsPerSecond: Math.round(r.requests.average),
    p50ms: r.latency.p50,
    p99ms: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
    serverCpuMsPerRequest: +((cpuMsOf(server.pid) - before) / r.requests.total).toFixed(3)
  }
}

const db = new pg.Pool({ connectionString: databaseUrl, max: 2 })
try {
  await waitFor(`http://127.0.0.1:${port}/api/health`)
  log(`server up (schema ${schema}); one provider with ${BOOKINGS} bookings and ${EXCEPTIONS} exceptions, by SQL`)
  const [provider, client] = (
    await db.query(
      `INSERT INTO users (email, password_hash, first_name, last_name, phone_number, role, is_email_verified, preferred_language, time_zone)
       VALUES ('bench.slots.provider@bench.local', 'x', 'Provider', 'P', '+33612345678', 'PROVIDER', true, 'fr', 'Europe/Paris'),
              ('bench.slots.client@bench.local', 'x', 'Client', 'C', '+33612345678', 'CLIENT', true, 'fr', NULL)
       RETURNING id`
    )
  ).rows
  const service = (
    await db.query(
      `INSERT INTO services (user_id, category_id, title, description, price_minor, currency, duration_minutes, location)
       VALUES ($1, 1, 'Service de benchmark', 'Un service de benchmark.', 5000, 'EUR', 60, 'Paris') RETURNING id`,
      [provider.id]
    )
  ).rows[0]
  // Monday to Saturday 08:00–12:00 and 13:00–19:00 in Paris; 2 hours' notice, 15 minutes' buffer.
  await db.query(
    `INSERT INTO availability_plans (provider_id, time_zone, notice_minutes, buffer_minutes) VALUES ($1, 'Europe/Paris', 120, 15)`,
    [provider.id]
  )
  await db.query(
    `INSERT INTO availability_ranges (provider_id, weekday, start_minute, end_minute)
     SELECT $1, d, r.s, r.e FROM generate_series(1, 6) d, (VALUES (480, 720), (780, 1140)) r(s, e)`,
    [provider.id]
  )
  const day = 24 * 3_600_000
  const start = Math.ceil(Date.now() / day) * day + day
  // 20 exceptions in the window: closed afternoons and extra open evenings, alternately.
  await db.query(
    `INSERT INTO availability_exceptions (provider_id, kind, start_time, end_time, note)
     SELECT $1, CASE WHEN i % 2 = 0 THEN 'closed' ELSE 'open' END,
            to_timestamp($2 / 1000.0) + (i * 36 + 12) * interval '1 hour', to_timestamp($2 / 1000.0) + (i * 36 + 16) * interval '1 hour', 'bench'
       FROM generate_series(0, $3::int - 1) i`,
    [provider.id, start, EXCEPTIONS]
  )
  // 500 one-hour bookings, one every 3 hours from the window's start (about 250 in the 31 days, the rest after).
  await db.query(
    `INSERT INTO bookings (service_id, client_id, provider_id, start_time, end_time, address, hourly_price_minor, currency, total_minor, status, payment_status)
     SELECT $1, $2, $3, to_timestamp($4 / 1000.0) + i * interval '3 hours', to_timestamp($4 / 1000.0) + i * interval '3 hours' + interval '1 hour',
            'bench', 5000, 'EUR', 5000, 'CONFIRMED', 'AUTHORIZED'
       FROM generate_series(0, $5::int - 1) i`,
    [service.id, client.id, provider.id, start, BOOKINGS]
  )
  await db.query("ANALYZE bookings; ANALYZE availability_exceptions")
  const from = new Date(start).toISOString()
  const to = new Date(start + 31 * day).toISOString()
  const slotsPath = `/api/services/${service.id}/slots?${new URLSearchParams({ from, to, duration: "60" })}`
  const servicePath = `/api/services/${service.id}`
  const sample = JSON.parse((await apiCall(slotsPath)()).body)
  results.request = `GET ${slotsPath}`
  results.data = {
    bookings: BOOKINGS,
    bookingsInWindow: (
      await db.query(
        `SELECT count(*)::int AS n FROM bookings WHERE provider_id = $1 AND tstzrange(start_time, end_time, '[)') && tstzrange($2, $3, '[)')`,
        [provider.id, from, to]
      )
    ).rows[0].n,
    exceptions: EXCEPTIONS,
    slotsAnswered: sample.data.slots.length
  }
  results.bookingsPlan = (
    await db.query(
      `EXPLAIN SELECT 1 FROM bookings b WHERE b.provider_id = $1 AND b.status NOT IN ('REJECTED', 'CANCELLED')
         AND tstzrange(b.start_time, b.end_time, '[)') && tstzrange($2::timestamptz, $3::timestamptz, '[)')`,
      [provider.id, from, to]
    )
  ).rows.map((r) => r["QUERY PLAN"])

  log("a: slots, one client")
  results.slotsOneClient = await oneClient(apiCall(slotsPath), SECONDS)
  log("a: the service, one client")
  results.serviceOneClient = await oneClient(apiCall(servicePath), SECONDS)
  log("b: slots, 20 connections")
  results.slots20Connections = await measured(`http://127.0.0.1:${port}${slotsPath}`)
  log("b: the service, 20 connections")
  results.service20Connections = await measured(`http://127.0.0.1:${port}${servicePath}`)
  results.throughputRatio = +(results.slots20Connections.requestsPerSecond / results.service20Connections.requestsPerSecond).toFixed(2)
  results.targets = {
    p95Under20ms: results.slotsOneClient.p95ms < 20,
    atLeastHalfTheThroughput: results.throughputRatio >= 0.5
  }
} finally {
  await db.end()
  await stopServer()
  results.machine.loadAverageAfter = os.loadavg().map((l) => +l.toFixed(2))
}
console.log(JSON.stringify(results, null, 2))
