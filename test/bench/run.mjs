#!/usr/bin/env node
// `make bench`: the foundation's speed targets, measured on this machine.
//  1. GET /api/auth/me with a valid token, 50 connections (autocannon), against a bare node:http
//     handler doing the same database work (one primary-key lookup of the user), same database, same run;
//     with the server's CPU time per request (Linux /proc), the figure least moved by other load; and
//     the stack's floor (stack-floor.mjs: @effect/platform-node and @effect/sql-pg, one route, the same
//     statement, no application code) in the same run, the ceiling of the ratio on this stack and machine.
//  2. Time from `node dist/server.js` to the first answer of /api/health on an already-built tree
//     with an existing embedded database (what `make start` does the second time).
//  3. Gzipped size of the JavaScript the UI loads on first paint (entry chunk and its static imports).
// Database: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local PostgreSQL (schema `bench`).
import autocannon from "autocannon"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as http from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import * as zlib from "node:zlib"
import pg from "pg"
import { benchDatabase, benchSeconds, cpuMsOf, freshSchema, machineSpeed, root, startStackFloor } from "./lib.mjs"

const DURATION = benchSeconds()
const CONNECTIONS = 50
const results = {}
const speed = machineSpeed()

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const waitFor = async (url, timeoutMs = 30_000) => {
  const start = Date.now()
  for (;;) {
    try {
      const res = await fetch(url)
      if (res.ok) return Date.now() - start
    } catch {}
    if (Date.now() - start > timeoutMs) throw new Error(`timeout waiting for ${url}`)
    await sleep(20)
  }
}
const startServer = (env) => {
  const child = spawn(process.execPath, [path.join(root, "dist/server.js")], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "ignore", "inherit"]
  })
  return child
}
const stop = (child) =>
  new Promise((resolve) => {
    child.once("exit", resolve)
    child.kill("SIGTERM")
  })
const cannon = (opts) =>
  new Promise((resolve, reject) =>
    autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts }, (err, r) => (err ? reject(err) : resolve(r)))
  )
const summary = (r) => ({
  requestsPerSecond: Math.round(r.requests.average),
  p50ms: r.latency.p50,
  p99ms: r.latency.p99,
  errors: r.errors,
  non2xx: r.non2xx
})

// ---- 1. /api/auth/me versus a bare handler ----------------------------------------------------
const schema = "bench"
const { baseUrl, databaseUrl } = benchDatabase(schema)
const admin = new pg.Client({ connectionString: baseUrl })
await admin.connect()
await freshSchema(admin, schema)
await admin.end()

const port = 3900
const server = startServer({
  PORT: String(port),
  DATABASE_URL: databaseUrl,
  DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "bench-")),
  AUTH_RATE_LIMIT: "100000"
})
await waitFor(`http://127.0.0.1:${port}/api/health`)
const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ email: "lucas.bernard@marketplace.local", password: "Client1234!" })
}).then((r) => r.json())
const token = login.data.token
const userId = login.data.user.id
await cannon({ url: `http://127.0.0.1:${port}/api/auth/me`, headers: { authorization: `Bearer ${token}` }, duration: 3 }) // warm-up
// The server's own CPU time per request (user + system, from /proc): steadier than requests/s when
// something else shares the two cores.
const serverCpuMs = () => cpuMsOf(server.pid)
const cpuBefore = serverCpuMs()
const authMeRun = await cannon({ url: `http://127.0.0.1:${port}/api/auth/me`, headers: { authorization: `Bearer ${token}` } })
results.authMe = {
  ...summary(authMeRun),
  serverCpuUsPerRequest: Math.round(((serverCpuMs() - cpuBefore) * 1000) / authMeRun.requests.total)
}
await stop(server)

// The bare baseline: node:http + a pg pool of the same size (10), one primary-key lookup, JSON answer.
const lookup = `SELECT id, email, first_name, last_name, phone_number, role, is_email_verified, is_active, preferred_language, created_at FROM users WHERE id = $1`
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 })
const bare = http.createServer(async (_req, res) => {
  const { rows } = await pool.query(lookup, [userId])
  res.writeHead(200, { "content-type": "application/json" })
  res.end(JSON.stringify({ success: true, data: { user: rows[0] } }))
})
await new Promise((r) => bare.listen(port + 1, "127.0.0.1", r))
await cannon({ url: `http://127.0.0.1:${port + 1}/`, duration: 3 })
results.bareNodeHttp = summary(await cannon({ url: `http://127.0.0.1:${port + 1}/` }))
await new Promise((r) => bare.close(r))
await pool.end()
results.authMeVersusBare = Number((results.authMe.requestsPerSecond / results.bareNodeHttp.requestsPerSecond).toFixed(2))

// The stack's floor: the same statement behind @effect/platform-node's router and @effect/sql-pg alone.
const floor = await startStackFloor({ root, port: port + 3, databaseUrl, sql: lookup, params: [userId] })
await cannon({ url: floor.url, duration: 3 })
const floorCpuBefore = cpuMsOf(floor.pid)
const floorRun = await cannon({ url: floor.url })
results.stackFloor = {
  ...summary(floorRun),
  serverCpuUsPerRequest: Math.round(((cpuMsOf(floor.pid) - floorCpuBefore) * 1000) / floorRun.requests.total)
}
await floor.stop()
results.stackFloorVersusBare = Number((results.stackFloor.requestsPerSecond / results.bareNodeHttp.requestsPerSecond).toFixed(2))
results.authMeVersusStackFloor = Number((results.authMe.requestsPerSecond / results.stackFloor.requestsPerSecond).toFixed(2))

// ---- 2. Ready time on an already-built tree with an existing embedded database ---------------
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-embedded-"))
const embeddedEnv = { PORT: String(port + 2), DATA_DIR: dataDir, DATABASE_URL: "" }
delete process.env.DATABASE_URL
let first = startServer(embeddedEnv)
results.firstStartMs = await waitFor(`http://127.0.0.1:${port + 2}/api/health`, 60_000)
await stop(first)
const t0 = Date.now()
const second = startServer(embeddedEnv)
await waitFor(`http://127.0.0.1:${port + 2}/api/health`)
results.readyMs = Date.now() - t0
await stop(second)

// ---- 3. First-load JavaScript of the UI ------------------------------------------------------
const uiDir = path.join(root, "dist/ui")
console.error(JSON.stringify(results))
const html = fs.readFileSync(path.join(uiDir, "index.html"), "utf8")
const entry = /<script type="module" src="([^"]+)"/.exec(html)[1]
const seen = new Set()
const visit = (rel) => {
  if (seen.has(rel)) return
  seen.add(rel)
  const code = fs.readFileSync(path.join(uiDir, rel), "utf8")
  // Static imports only (import ... from "./x.js" and import "./x.js"); dynamic import() chunks load later.
  for (const m of code.matchAll(/(?:^|[;}\s])import(?:[^"'()]*?from)?\s*["'](\.\/[^"']+)["']/g))
    visit(path.posix.join(path.posix.dirname(rel), m[1]))
}
visit(entry)
results.firstLoadJs = {
  files: [...seen],
  gzipBytes: [...seen].reduce((n, rel) => n + zlib.gzipSync(fs.readFileSync(path.join(uiDir, rel)), { level: 9 }).length, 0)
}

console.log(
  JSON.stringify(
    { machine: { cpus: os.cpus().length, node: process.version, speed }, durationSeconds: DURATION, connections: CONNECTIONS, ...results },
    null,
    2
  )
)
const ok =
  results.authMe.requestsPerSecond >= 4000 &&
  results.authMeVersusBare >= 0.5 &&
  results.readyMs <= 3000 &&
  results.firstLoadJs.gzipBytes <= 150 * 1024
console.log(ok ? "all targets met" : "some targets missed")
