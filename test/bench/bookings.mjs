#!/usr/bin/env node
// `make bench` (bookings): booking creation, the race for one slot and a long bookings list, through
// the HTTP API against PostgreSQL, with bare-SQL comparisons in the same run.
//  0. A fresh schema `bench_bookings` migrated by the server itself; then, by SQL, BENCH_PROVIDERS
//     providers with one service each, BENCH_CLIENTS clients, one race provider and one client with
//     1,000 bookings; every client logs in through the API (POST /api/auth/login).
//  1. POST /api/bookings with BENCH_CONNECTIONS connections (autocannon, a request generator: request n
//     books provider n mod P at slot floor(n / P), one hour each, so no two requests conflict):
//     requests/s, latency, non-2xx, server CPU per booking; afterwards a SQL self-join checks that no
//     two live bookings of one provider overlap. Bare comparisons, same run, server idle:
//     the INSERT ... ON CONFLICT ON CONSTRAINT bookings_no_overlap DO NOTHING alone with 50 `pg`
//     clients; the statement sequence the API runs per booking with 10 clients (the server's pool);
//     and, for comparison, a booking written with one statement (insert and outbox mails in one CTE).
//  2. Race: BENCH_RACERS (100) clients book one provider's same slot at once, BENCH_RACE_ROUNDS rounds
//     (a new slot each): exactly one 201 per round, every loser 409 BOOKING_SLOT_TAKEN; loser latency;
//     and the same bursts against the stack's floor (stack-floor.mjs) answering one user lookup.
//  3. GET /api/bookings/me?as=client for a client with 1,000 bookings: pages 1, 10 and 50 with one
//     client (p95), page 1 with 10 connections.
//  4. SQL statements per booking and per list request: a second server process reaches PostgreSQL
//     through a counting proxy (protocol messages: Execute and simple Query = statements, Sync and
//     simple Query = round trips), idle background subtracted.
// Database: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local PostgreSQL. Durations and sizes:
// BENCH_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_PROVIDERS (300), BENCH_CLIENTS (100), BENCH_RACERS
// (100), BENCH_RACE_ROUNDS (20); BENCH_SERVER measures another build of the server (default dist/server.js);
// BENCH_PARTS runs some parts only ("2" or "1,3"; default all four).
// Run it when the machine is quiet (the summary records the load average before and after).
import { spawn } from "node:child_process"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as http from "node:http"
import * as net from "node:net"
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
  oneClient,
  root,
  sleep,
  startStackFloor,
  stats,
  throughput,
  waitFor
} from "./lib.mjs"

const SECONDS = benchSeconds()
const PROVIDERS = Number(process.env.BENCH_PROVIDERS ?? 300)
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const RACERS = Number(process.env.BENCH_RACERS ?? 100)
const RACE_ROUNDS = Number(process.env.BENCH_RACE_ROUNDS ?? 20)
const PARTS = new Set((process.env.BENCH_PARTS ?? "1,2,3,4").split(",").map((p) => p.trim()))
const LIST_BOOKINGS = 1000
const schema = "bench_bookings"
const port = Number(process.env.BENCH_PORT ?? 3920)
const { log, results } = benchRun("bookings")
const { baseUrl, databaseUrl } = benchDatabase(schema)

const HOUR = 3600_000
const DAY = 24 * HOUR
// Whole hours from tomorrow on: the API accepts starts in the future and within 365 days.
const base = Math.ceil(Date.now() / HOUR) * HOUR + DAY
const apiSlot = (n) => ({ provider: n % PROVIDERS, start: base + Math.floor(n / PROVIDERS) * HOUR })
const bareSlot = (n) => ({ provider: n % PROVIDERS, start: base + 100 * DAY + Math.floor(n / PROVIDERS) * HOUR })
const sequenceSlot = (n) => ({ provider: n % PROVIDERS, start: base + 150 * DAY + Math.floor(n / PROVIDERS) * HOUR })
const singleSlot = (n) => ({ provider: n % PROVIDERS, start: base + 175 * DAY + Math.floor(n / PROVIDERS) * HOUR })
const raceSlot = (round) => base + 200 * DAY + round * HOUR
const listSlot = (i) => ({ provider: i % PROVIDERS, start: base + 250 * DAY + Math.floor(i / PROVIDERS) * HOUR })
const probeSlot = (n) => ({ provider: n % PROVIDERS, start: base + 300 * DAY + Math.floor(n / PROVIDERS) * HOUR })
const iso = (ms) => new Date(ms).toISOString()
const ADDRESS = "12 rue de la Paix, 75002 Paris"

// ---- Helpers (as in catalogue.mjs) -------------------------------------------------------------
/** One HTTP request on a keep-alive agent: status, parsed body, milliseconds. */
const call = (agent, targetPort, method, pathAndQuery, { token, body } = {}) =>
  new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body))
    const headers = { "accept-language": "fr" }
    if (token) headers.authorization = `Bearer ${token}`
    if (payload) Object.assign(headers, { "content-type": "application/json", "content-length": payload.length })
    const started = performance.now()
    const req = http.request({ host: "127.0.0.1", port: targetPort, method, path: pathAndQuery, agent, headers }, (res) => {
      const chunks = []
      res.on("data", (c) => chunks.push(c))
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        let json
        try {
          json = JSON.parse(text)
        } catch {}
        resolve({ status: res.statusCode, body: json ?? text, ms: performance.now() - started })
      })
    })
    req.on("error", reject)
    req.end(payload)
  })
/** Throughput of a run, with the server's own CPU per request (what the server, not PostgreSQL, costs). */
const measured = async (opts) => {
  const before = cpuMsOf(server.pid)
  const r = await cannon(opts)
  return {
    ...throughput(r),
    requests: r.requests.total,
    serverCpuMsPerRequest: +((cpuMsOf(server.pid) - before) / r.requests.total).toFixed(3)
  }
}
/** `workers` loops calling `fn(n)` with a shared counter for `seconds`; operations per second. */
const loop = async (workers, seconds, fn) => {
  let count = 0
  let n = 0
  const end = performance.now() + seconds * 1000
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < end) {
        await fn(n++)
        count++
      }
    })
  )
  return { operations: count, perSecond: Math.round(count / ((performance.now() - t0) / 1000)) }
}
const jwtSecret = crypto.randomBytes(48).toString("base64url")
const dataDirs = []
/** A temporary DATA_DIR for a server process, removed at the end. */
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-bookings-server-"))
  dataDirs.push(dir)
  return dir
}
// BENCH_SERVER measures another build of the server (a proposed change) with the same script.
const serverScript = path.resolve(process.env.BENCH_SERVER ?? path.join(root, "dist/server.js"))
const startServer = (serverPort, dbUrl) =>
  spawn(process.execPath, [serverScript], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(serverPort),
      HOST: "127.0.0.1",
      DATABASE_URL: dbUrl,
      LOG_LEVEL: "warn",
      DATA_DIR: dataDir(),
      SEED_DEMO_DATA: "false",
      AUTH_RATE_LIMIT: "100000",
      // One secret for both server processes: the probe server (step 4) accepts the tokens of step 0.
      JWT_SECRET: jwtSecret
    },
    stdio: ["ignore", "ignore", "inherit"]
  })
const stop = (child) =>
  new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : (child.once("exit", resolve), child.kill("SIGTERM"))
  )

/** The server's password format (src/modules/identity/adapters/crypto.ts), computed once for every bench account. */
const passwordHash = (password) => {
  const salt = crypto.randomBytes(16)
  const key = crypto.scryptSync(password, salt, 32, { N: 16384, r: 8, p: 1 })
  return `scrypt$16384$8$1$${salt.toString("base64")}$${key.toString("base64")}`
}
const PASSWORD = "Bench1234!"

// ---- 0. Schema, server, accounts -------------------------------------------------------------
const admin = new pg.Client({ connectionString: baseUrl })
await admin.connect()
await freshSchema(admin, schema)
await admin.end()

const server = startServer(port, databaseUrl)
const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(RACERS, 10) })
const db = new pg.Pool({ connectionString: databaseUrl, max: 4 })
const overlapsSql = `
  SELECT count(*)::int AS n FROM bookings a JOIN bookings b
    ON a.provider_id = b.provider_id AND a.id < b.id
   AND tstzrange(a.start_time, a.end_time, '[)') && tstzrange(b.start_time, b.end_time, '[)')
  WHERE a.status NOT IN ('REJECTED', 'CANCELLED') AND b.status NOT IN ('REJECTED', 'CANCELLED')`
let probeServer
let proxy
try {
  await waitFor(`http://127.0.0.1:${port}/api/health`)
  log(`server up (schema ${schema}); creating ${PROVIDERS} providers with a service each and ${CLIENTS + 1} clients by SQL`)
  const hash = passwordHash(PASSWORD)
  await db.query(
    `INSERT INTO users (email, password_hash, first_name, last_name, phone_number, role, is_email_verified, preferred_language)
     SELECT 'bench.provider.' || i || '@bench.local', $1, 'Provider', 'P' || i, '+33612345678', 'PROVIDER', true, 'fr' FROM generate_series(0, $2::int) i
     UNION ALL
     SELECT 'bench.client.' || i || '@bench.local', $1, 'Client', 'C' || i, '+33612345678', 'CLIENT', true, 'fr' FROM generate_series(0, $3::int - 1) i
     UNION ALL
     SELECT 'bench.lister@bench.local', $1, 'Lister', 'L', '+33612345678', 'CLIENT', true, 'fr'`,
    [hash, PROVIDERS, CLIENTS]
  )
  // Open at any hour, no notice (issue 12's availability): the bench books every hour of the day.
  await db.query(
    `INSERT INTO availability_plans (provider_id, time_zone, notice_minutes, buffer_minutes) SELECT id, 'UTC', 0, 0 FROM users WHERE role = 'PROVIDER';
     INSERT INTO availability_ranges (provider_id, weekday, start_minute, end_minute)
       SELECT u.id, d, 0, 1440 FROM users u, generate_series(1, 7) d WHERE u.role = 'PROVIDER'`
  )
  // Provider PROVIDERS (the last one) is the race's; one published service each.
  const services = (
    await db.query(
      `INSERT INTO services (user_id, category_id, title, description, price_minor, currency, duration_minutes, location, lat, lng)
       SELECT u.id, 1 + (substring(u.email from 'provider\\.(\\d+)@')::int % 9), 'Service ' || u.last_name, 'Un service de benchmark.', 5000, 'EUR', 60,
              'Paris', 48.8566, 2.3522
         FROM users u WHERE u.role = 'PROVIDER'
       RETURNING id, user_id AS "providerId", (SELECT substring(email from 'provider\\.(\\d+)@')::int FROM users WHERE id = user_id) AS i`
    )
  ).rows.sort((a, b) => a.i - b.i)
  if (services.length !== PROVIDERS + 1) throw new Error(`expected ${PROVIDERS + 1} services, got ${services.length}`)
  const raceService = services[PROVIDERS]

  const login = async (email) => {
    const res = await call(agent, port, "POST", "/api/auth/login", { body: { email, password: PASSWORD } })
    if (res.status !== 200) throw new Error(`login ${email} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`)
    return { id: res.body.data.user.id, token: res.body.data.token }
  }
  const clients = new Array(CLIENTS)
  {
    let next = 0
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < CLIENTS) {
          const i = next++
          clients[i] = await login(`bench.client.${i}@bench.local`)
        }
      })
    )
  }
  const lister = await login("bench.lister@bench.local")
  log(`${CLIENTS + 1} clients logged in through the API`)

  const bookingBody = (serviceId, start) => ({
    serviceId,
    startTime: iso(start),
    endTime: iso(start + HOUR),
    address: ADDRESS,
    notes: "benchmark"
  })

  // ---- 1. Booking creation ---------------------------------------------------------------------
  if (PARTS.has("1")) {
    let n = 0
    const creation = (extra) => ({
      url: `http://127.0.0.1:${port}/api/bookings`,
      connections: CONNECTIONS,
      requests: [
        {
          method: "POST",
          setupRequest: (req) => {
            const i = n++
            const slot = apiSlot(i)
            req.headers = {
              ...req.headers,
              "content-type": "application/json",
              "accept-language": "fr",
              authorization: `Bearer ${clients[i % CLIENTS].token}`
            }
            req.body = JSON.stringify(bookingBody(services[slot.provider].id, slot.start))
            return req
          }
        }
      ],
      ...extra
    })
    log(`1: POST /api/bookings, ${CONNECTIONS} connections (warm-up 2 s, then ${SECONDS} s)`)
    const warm = await cannon(creation({ duration: 2 }))
    results.creation = {
      request: "POST /api/bookings",
      connections: CONNECTIONS,
      providers: PROVIDERS,
      clients: CLIENTS,
      ...(await measured(creation()))
    }
    results.creation.warmUpRequests = warm.requests.total
    const created = warm["2xx"] + (results.creation.statusCodes["201"] ?? 0)
    const stored = (await db.query(`SELECT count(*)::int AS n FROM bookings WHERE start_time < $1`, [iso(base + 100 * DAY)])).rows[0].n
    // Requests still in flight when autocannon stops (at most one per connection and run) are stored unanswered.
    results.creation.bookingsAnswered201 = created
    results.creation.bookingsStored = stored
    if (stored < created || stored > created + 2 * CONNECTIONS) throw new Error(`${created} bookings answered 201 but ${stored} are stored`)

    // Bare comparisons, the server idle: the insert alone with 50 clients, then the API's sequence with 10.
    log("1: bare INSERT ... ON CONFLICT ON CONSTRAINT bookings_no_overlap DO NOTHING, 50 pg clients")
    const bare = new pg.Pool({ connectionString: databaseUrl, max: 50 })
    await Promise.all(Array.from({ length: 50 }, () => bare.query("SELECT 1")))
    const insertSql = `
      INSERT INTO bookings AS b (id, service_id, client_id, provider_id, start_time, end_time, address, notes,
        hourly_price_minor, currency, total_minor, status, payment_status, hold_expires_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'PENDING', 'UNPAID', $12)
      ON CONFLICT ON CONSTRAINT bookings_no_overlap DO NOTHING
      RETURNING b.id`
    const insertValues = (slot, clientId) => {
      const s = services[slot.provider]
      return [
        crypto.randomUUID(),
        s.id,
        clientId,
        s.providerId,
        new Date(slot.start),
        new Date(slot.start + HOUR),
        ADDRESS,
        "benchmark",
        5000,
        "EUR",
        5000,
        new Date(Date.now() + 30 * 60_000)
      ]
    }
    let bareConflicts = 0
    results.creation.bareInsert50Clients = await loop(50, SECONDS, async (i) => {
      const r = await bare.query(insertSql, insertValues(bareSlot(i), clients[i % CLIENTS].id))
      if (r.rowCount !== 1) bareConflicts++
    })
    results.creation.bareInsert50Clients.conflicts = bareConflicts
    await bare.end()

    // What the API does per booking, bare (src/modules/booking/service.ts `request`, statements as the
    // adapters write them, mails abridged): the token's user, the service with its provider and the
    // client, then in one transaction the insert and both outbox mails (one statement). 10 clients,
    // the server's pool size. Then the floor of a one-statement booking: the same two lookups, then
    // the insert and both mails in one data-modifying CTE (atomic without BEGIN/COMMIT).
    const seq = new pg.Pool({ connectionString: databaseUrl, max: 10 })
    const lookups = async (conn, slot, client) => {
      await conn.query(`SELECT id, email, first_name, last_name, role, is_active, preferred_language FROM users WHERE id = $1`, [client.id])
      await conn.query(
        `SELECT s.*, c.name_fr, c.name_en, pu.first_name, pu.last_name, pu.email, pu.is_active, cu.first_name, cu.email FROM services s
           JOIN users pu ON pu.id = s.user_id JOIN categories c ON c.id = s.category_id JOIN users cu ON cu.id = $2 WHERE s.id = $1`,
        [services[slot.provider].id, client.id]
      )
    }
    const mail = [
      "Nouvelle demande de réservation",
      "Bonjour,\n\nUne demande de réservation...".repeat(4),
      "<p>Bonjour,</p><p>Une demande de réservation...</p>".repeat(8)
    ]
    const booking = (slotOf, book) =>
      loop(10, SECONDS, async (i) => {
        const slot = slotOf(i)
        const client = clients[i % CLIENTS]
        const conn = await seq.connect()
        try {
          await lookups(conn, slot, client)
          await book(conn, slot, client)
        } finally {
          conn.release()
        }
      })
    log("1: the API's statement sequence, bare, 10 pg clients")
    results.creation.bareSequence10Clients = await booking(sequenceSlot, async (conn, slot, client) => {
      await conn.query("BEGIN")
      await conn.query(insertSql, insertValues(slot, client.id))
      await conn.query(`INSERT INTO mail_outbox (recipient, subject, text_body, html_body) VALUES ($1, $3, $4, $5), ($2, $3, $4, $5)`, [
        "client@bench.local",
        "provider@bench.local",
        ...mail
      ])
      await conn.query("COMMIT")
    })
    log("1: a one-statement booking (insert and mails in one CTE), bare, 10 pg clients")
    let singleConflicts = 0
    results.creation.bareOneStatement10Clients = await booking(singleSlot, async (conn, slot, client) => {
      const r = await conn.query(
        `WITH b AS (${insertSql})
         INSERT INTO mail_outbox (recipient, subject, text_body, html_body)
         SELECT m.recipient, m.subject, m.text_body, m.html_body FROM b,
           (VALUES ($13, $15, $16, $17), ($14, $15, $16, $17)) AS m(recipient, subject, text_body, html_body)
         RETURNING (SELECT id FROM b)`,
        [...insertValues(slot, client.id), "client@bench.local", "provider@bench.local", ...mail]
      )
      if (r.rowCount !== 2) singleConflicts++
    })
    results.creation.bareOneStatement10Clients.conflicts = singleConflicts
    await seq.end()
    results.creation.apiOverBareInsert = +(results.creation.bareInsert50Clients.perSecond / results.creation.requestsPerSecond).toFixed(2)
  }

  // ---- 2. Race for one slot ----------------------------------------------------------------------
  if (PARTS.has("2")) {
    log(`2: ${RACERS} clients for one slot, ${RACE_ROUNDS} rounds`)
    const raceRound = async (round) => {
      const start = raceSlot(round)
      const t0 = performance.now()
      const answers = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          call(agent, port, "POST", "/api/bookings", { token: clients[i % CLIENTS].token, body: bookingBody(raceService.id, start) }).then(
            (r) => ({
              ...r,
              sinceRoundStartMs: performance.now() - t0
            })
          )
        )
      )
      return answers
    }
    await raceRound(-1) // warm-up: opens the racers' connections (not counted)
    await sleep(200)
    const winnersPerRound = []
    const loserMs = []
    const winnerMs = []
    let otherAnswers = 0
    const others = []
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const answers = await raceRound(round)
      winnersPerRound.push(answers.filter((a) => a.status === 201).length)
      for (const a of answers) {
        if (a.status === 201) winnerMs.push(a.sinceRoundStartMs)
        else if (a.status === 409 && a.body?.code === "BOOKING_SLOT_TAKEN") loserMs.push(a.sinceRoundStartMs)
        else {
          otherAnswers++
          if (others.length < 3) others.push({ status: a.status, body: JSON.stringify(a.body).slice(0, 200) })
        }
      }
      await sleep(100)
    }
    results.race = {
      racers: RACERS,
      rounds: RACE_ROUNDS,
      winnersPerRound,
      losersAnswered409: loserMs.length,
      otherAnswers,
      ...(others.length > 0 ? { otherSamples: others } : {}),
      // Latency from the moment the round's requests are sent (all at once) to each answer.
      loserLatency: stats(loserMs),
      winnerLatency: stats(winnerMs)
    }
    // The same bursts against the stack's floor answering one primary-key lookup (what the cheapest
    // request of the app, a token's user lookup, costs on @effect/platform-node and @effect/sql-pg alone).
    const floor = await startStackFloor({
      root,
      port: port + 2,
      databaseUrl,
      sql: "SELECT id, email, first_name, last_name, role, is_active, preferred_language FROM users WHERE id = $1",
      params: [clients[0].id]
    })
    try {
      const burst = async () => {
        const t0 = performance.now()
        return Promise.all(Array.from({ length: RACERS }, () => call(agent, port + 2, "GET", "/").then(() => performance.now() - t0)))
      }
      await burst()
      const floorMs = []
      for (let round = 0; round < RACE_ROUNDS; round++) {
        floorMs.push(...(await burst()))
        await sleep(100)
      }
      results.race.stackFloorBurstLatency = stats(floorMs)
    } finally {
      await floor.stop()
    }
  }

  // ---- 3. A client with 1,000 bookings -----------------------------------------------------------
  const listPath = (page) => `/api/bookings/me?as=client&limit=20&page=${page}`
  if (PARTS.has("3")) {
    log(`3: GET /api/bookings/me?as=client for a client with ${LIST_BOOKINGS} bookings`)
    const statuses = ["PENDING", "CONFIRMED", "COMPLETED", "CANCELLED", "REJECTED"]
    {
      const rows = Array.from({ length: LIST_BOOKINGS }, (_, i) => {
        const slot = listSlot(i)
        const s = services[slot.provider]
        return [s.id, s.providerId, iso(slot.start), iso(slot.start + HOUR), statuses[i % statuses.length]]
      })
      await db.query(
        `INSERT INTO bookings (service_id, client_id, provider_id, start_time, end_time, address, notes, hourly_price_minor, currency, total_minor, status)
         SELECT (r->>0)::uuid, $2, (r->>1)::uuid, (r->>2)::timestamptz, (r->>3)::timestamptz, $3, 'benchmark', 5000, 'EUR', 5000, r->>4
           FROM json_array_elements($1::json) r`,
        [JSON.stringify(rows), lister.id, ADDRESS]
      )
      await db.query("ANALYZE bookings")
    }
    const list = (page) => async () => {
      const res = await call(agent, port, "GET", listPath(page), { token: lister.token })
      if (res.status !== 200) throw new Error(`${listPath(page)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`)
      return res
    }
    const first = (await list(1)()).body.data
    if (first.results !== LIST_BOOKINGS || first.bookings.length !== 20)
      throw new Error(`list: ${first.results} results, ${first.bookings.length} on page 1`)
    results.list = { bookingsOfClient: first.results, pageSize: 20, firstPageBytes: Buffer.byteLength(JSON.stringify(first)) }
    results.list.page1OneClient = { request: `GET ${listPath(1)}`, ...(await oneClient(list(1), SECONDS)) }
    for (const page of [10, 50])
      results.list[`page${page}OneClient`] = {
        request: `GET ${listPath(page)}`,
        ...(await oneClient(list(page), Math.max(3, SECONDS / 2)))
      }
    log("3: page 1, 10 connections")
    results.list.page1TenConnections = {
      request: `GET ${listPath(1)}`,
      ...(await measured({
        url: `http://127.0.0.1:${port}${listPath(1)}`,
        connections: 10,
        headers: { authorization: `Bearer ${lister.token}`, "accept-language": "fr" }
      }))
    }
  }

  // ---- Integrity -----------------------------------------------------------------------------
  results.integrity = {
    bookings: (await db.query(`SELECT count(*)::int AS n FROM bookings`)).rows[0].n,
    overlappingLivePairs: (await db.query(overlapsSql)).rows[0].n
  }
  await stop(server)

  // ---- 4. Statements per request through a counting proxy -----------------------------------
  if (PARTS.has("4")) {
    log("4: SQL statements per booking and per list request (second server behind a counting proxy)")
    const counts = { execute: 0, query: 0, sync: 0 }
    let counting = false
    const pgUrl = new URL(baseUrl)
    proxy = net.createServer((clientSocket) => {
      const upstream = net.connect(Number(pgUrl.port || 5432), pgUrl.hostname)
      let started = false
      let buffer = Buffer.alloc(0)
      clientSocket.on("data", (chunk) => {
        upstream.write(chunk)
        buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
        for (;;) {
          if (!started) {
            if (buffer.length < 4) break
            const len = buffer.readInt32BE(0)
            if (buffer.length < len) break
            buffer = buffer.subarray(len)
            started = true
            continue
          }
          if (buffer.length < 5) break
          const len = buffer.readInt32BE(1)
          if (buffer.length < 1 + len) break
          const type = String.fromCharCode(buffer[0])
          if (counting) {
            if (type === "E") counts.execute++
            else if (type === "Q") counts.query++
            else if (type === "S") counts.sync++
          }
          buffer = buffer.subarray(1 + len)
        }
      })
      upstream.on("data", (chunk) => clientSocket.write(chunk))
      const close = () => (clientSocket.destroy(), upstream.destroy())
      clientSocket.on("error", close)
      upstream.on("error", close)
      clientSocket.on("close", close)
      upstream.on("close", close)
    })
    await new Promise((r) => proxy.listen(0, "127.0.0.1", r))
    const proxied = new URL(databaseUrl)
    proxied.hostname = "127.0.0.1"
    proxied.port = String(proxy.address().port)
    probeServer = startServer(port + 1, proxied.toString())
    await waitFor(`http://127.0.0.1:${port + 1}/api/health`)
    const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    const PROBES = 50
    for (let i = 0; i < 10; i++) await call(probeAgent, port + 1, "GET", listPath(1), { token: lister.token }) // warm the pool
    await sleep(500)
    const window = async (fn) => {
      counts.execute = counts.query = counts.sync = 0
      counting = true
      const t0 = performance.now()
      await fn()
      counting = false
      return { ms: performance.now() - t0, ...counts }
    }
    const idle = await window(() => sleep(1000))
    const perRequest = (w, k) => {
      const background = (x) => (idle[x] * w.ms) / idle.ms
      return {
        statements: +((w.execute + w.query - background("execute") - background("query")) / k).toFixed(2),
        roundTrips: +((w.sync + w.query - background("sync") - background("query")) / k).toFixed(2)
      }
    }
    const bookingsWindow = await window(async () => {
      for (let i = 0; i < PROBES; i++) {
        const slot = probeSlot(i)
        const res = await call(probeAgent, port + 1, "POST", "/api/bookings", {
          token: clients[i % CLIENTS].token,
          body: bookingBody(services[slot.provider].id, slot.start)
        })
        if (res.status !== 201) throw new Error(`probe booking -> ${res.status}`)
      }
    })
    const loserWindow = await window(async () => {
      for (let i = 0; i < PROBES; i++) {
        const slot = probeSlot(0)
        const res = await call(probeAgent, port + 1, "POST", "/api/bookings", {
          token: clients[(i + 1) % CLIENTS].token,
          body: bookingBody(services[slot.provider].id, slot.start)
        })
        if (res.status !== 409) throw new Error(`probe loser -> ${res.status}`)
      }
    })
    const listWindow = await window(async () => {
      for (let i = 0; i < PROBES; i++) {
        const res = await call(probeAgent, port + 1, "GET", listPath(1), { token: lister.token })
        if (res.status !== 200) throw new Error(`probe list -> ${res.status}`)
      }
    })
    probeAgent.destroy()
    results.sqlPerRequest = {
      method:
        "protocol messages through a proxy: statements = Execute + simple Query, round trips = Sync + simple Query; idle background subtracted",
      idleBackground: { ms: Math.round(idle.ms), execute: idle.execute, query: idle.query, sync: idle.sync },
      bookingCreated: perRequest(bookingsWindow, PROBES),
      bookingSlotTaken: perRequest(loserWindow, PROBES),
      listFirstPage: perRequest(listWindow, PROBES)
    }
  }
} finally {
  agent.destroy()
  await stop(server)
  if (probeServer) await stop(probeServer)
  if (proxy) proxy.close()
  await db.end()
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true })
}

results.machine.loadAverageAfter = os.loadavg().map((l) => +l.toFixed(2))
const { creation: c, race, list: listed, sqlPerRequest } = results
results.targets = {
  ...(c && {
    "1: >= 1000 bookings/s through the API": c.requestsPerSecond >= 1000,
    "1: no non-2xx answer": c.non2xx === 0 && c.errors === 0
  }),
  "1, 2: no two live bookings of one provider overlap": results.integrity.overlappingLivePairs === 0,
  ...(race && {
    "2: exactly one winner per round": race.winnersPerRound.every((w) => w === 1),
    "2: every loser answered 409 BOOKING_SLOT_TAKEN": race.otherAnswers === 0 && race.losersAnswered409 === RACE_ROUNDS * (RACERS - 1),
    "2: loser p99 < 100 ms": race.loserLatency.p99ms < 100
  }),
  ...(listed && {
    "3: list of 1,000 bookings, one client, p95 < 30 ms (pages 1, 10, 50)": ["page1OneClient", "page10OneClient", "page50OneClient"].every(
      (k) => listed[k].p95ms < 30
    )
  })
}
console.log(JSON.stringify({ durationSeconds: SECONDS, ...results }, null, 2))
console.log(
  [
    c &&
      `bookings: ${c.requestsPerSecond}/s through the API (p50 ${c.p50ms} ms, p99 ${c.p99ms} ms, non-2xx ${c.non2xx}, server CPU ${c.serverCpuMsPerRequest} ms/booking);` +
        ` bare insert ${c.bareInsert50Clients.perSecond}/s (50 clients), bare API sequence ${c.bareSequence10Clients.perSecond}/s (10 clients),` +
        ` bare one-statement booking ${c.bareOneStatement10Clients.perSecond}/s (10 clients)`,
    race &&
      `race: winners per round ${[...new Set(race.winnersPerRound)].join("/")}, losers p99 ${race.loserLatency.p99ms} ms (max ${race.loserLatency.maxMs} ms);` +
        ` the same bursts on the stack's floor (one lookup) p99 ${race.stackFloorBurstLatency.p99ms} ms`,
    listed &&
      `list (1,000 bookings): p95 page 1 ${listed.page1OneClient.p95ms} ms, page 10 ${listed.page10OneClient.p95ms} ms, page 50 ${listed.page50OneClient.p95ms} ms;` +
        ` 10 connections ${listed.page1TenConnections.requestsPerSecond}/s (p99 ${listed.page1TenConnections.p99ms} ms)`,
    `overlapping live pairs: ${results.integrity.overlappingLivePairs}` +
      (sqlPerRequest
        ? `; statements per booking ${sqlPerRequest.bookingCreated.statements} (slot taken ${sqlPerRequest.bookingSlotTaken.statements}), per list ${sqlPerRequest.listFirstPage.statements}`
        : ""),
    `load average before ${results.machine.loadAverageBefore.join(" ")}, after ${results.machine.loadAverageAfter.join(" ")}`,
    Object.values(results.targets).every((v) => v) ? "all measured booking targets met" : "some booking targets missed"
  ]
    .filter(Boolean)
    .join("\n")
)
