// Helpers shared by the benchmark scripts of `make bench`.

import autocannon from "autocannon"
import * as esbuild from "esbuild"
import { spawn } from "node:child_process"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as http from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

/** The repository's root. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

/** How long each measurement runs, in seconds (BENCH_SECONDS, 10 by default). */
export const benchSeconds = () => Number(process.env.BENCH_SECONDS ?? 10)

/**
 * What every bench starts with: its log (on stderr, so that stdout is the results' JSON alone) and its
 * results, which open with the machine they were measured on (the load average before; after, at the end).
 */
export const benchRun = (name) => ({
  log: (...args) => console.error(`[bench:${name}]`, ...args),
  results: {
    machine: {
      cpus: os.cpus().length,
      node: process.version,
      speed: machineSpeed(),
      loadAverageBefore: os.loadavg().map((l) => +l.toFixed(2))
    }
  }
})

/**
 * The PostgreSQL a bench measures (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local one), as
 * `baseUrl`, and as `databaseUrl` with `schema` first on its search path (the bench's tables apart).
 */
export const benchDatabase = (schema) => {
  const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"
  const url = new URL(baseUrl)
  url.searchParams.set("options", `-c search_path=${schema},public`)
  return { baseUrl, databaseUrl: url.toString() }
}

/** Drops `schema` with all it holds and creates it again, empty (`client`: a connected pg client). */
export const freshSchema = async (client, schema) => {
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  await client.query(`CREATE SCHEMA ${schema}`)
}

/** How many services `schema` holds (0 when it has no services table yet). */
export const servicesIn = (client, schema) =>
  client
    .query(`SELECT count(*)::int AS n FROM ${schema}.services`)
    .then((r) => r.rows[0].n)
    .catch(() => 0)

/**
 * One client's GETs to 127.0.0.1 over one kept-alive connection, `headers` on each: `get(pathAndQuery)`
 * answers the status and the body (text); `apiCall(pathAndQuery)` is a call that must answer 200 (for
 * `oneClient`). Both go to `defaultPort` unless given another.
 */
export const keptAliveClient = (defaultPort, headers = {}) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const get = (pathAndQuery, port = defaultPort) =>
    new Promise((resolve, reject) => {
      const req = http.get({ host: "127.0.0.1", port, path: pathAndQuery, agent, headers }, (res) => {
        const chunks = []
        res.on("data", (c) => chunks.push(c))
        res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString("utf8") }))
      })
      req.on("error", reject)
    })
  const apiCall =
    (pathAndQuery, port = defaultPort) =>
    async () => {
      const res = await get(pathAndQuery, port)
      if (res.status !== 200) throw new Error(`${pathAndQuery} -> ${res.status} ${res.body.slice(0, 200)}`)
      return res
    }
  return { get, apiCall }
}

/** An autocannon run (many connections) of `benchSeconds()` unless `opts.duration` says otherwise: its figures. */
export const cannon = (opts) =>
  new Promise((resolve, reject) => autocannon({ duration: benchSeconds(), ...opts }, (err, r) => (err ? reject(err) : resolve(r))))

/** What the results keep of an autocannon run: requests/s, latency quantiles, failures and the answers' statuses. */
export const throughput = (r) => ({
  requestsPerSecond: Math.round(r.requests.average),
  p50ms: r.latency.p50,
  p90ms: r.latency.p90,
  p99ms: r.latency.p99,
  errors: r.errors,
  timeouts: r.timeouts,
  non2xx: r.non2xx,
  statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]))
})

/** The catalogue's geographic search (text, category, price range, 25 km around Montréal, nearest first), as API parameters. */
export const GEO_SEARCH = {
  search: "menage",
  category: "5",
  minPrice: "50",
  maxPrice: "100",
  lat: "45.5019",
  lng: "-73.5674",
  radius: "25",
  sortBy: "distance"
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; NaN elsewhere). */
export const cpuMsOf = (pid) => {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100)
  } catch {
    return Number.NaN
  }
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until `target` answers 2xx (a server starting). */
export const waitFor = async (target, timeoutMs = 60_000) => {
  const start = Date.now()
  for (;;) {
    try {
      const res = await fetch(target)
      if (res.ok) return
    } catch {}
    if (Date.now() - start > timeoutMs) throw new Error(`timeout waiting for ${target}`)
    await sleep(50)
  }
}

export const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]

/** Latency figures of a list of durations in milliseconds. */
export const stats = (ms) => {
  const sorted = [...ms].sort((a, b) => a - b)
  const r = (x) => +x.toFixed(2)
  return {
    n: sorted.length,
    p50ms: r(quantile(sorted, 0.5)),
    p95ms: r(quantile(sorted, 0.95)),
    p99ms: r(quantile(sorted, 0.99)),
    maxMs: r(sorted.at(-1))
  }
}

/** One client, back to back, for `seconds` (after a short warm-up): latency figures. */
export const oneClient = async (fn, seconds) => {
  for (let i = 0; i < 50; i++) await fn()
  const times = []
  const end = performance.now() + seconds * 1000
  while (performance.now() < end) {
    const t = performance.now()
    await fn()
    times.push(performance.now() - t)
  }
  return stats(times)
}

/**
 * Several calls by one client, taking turns (a, b, a, b...) for `seconds` after a short warm-up:
 * latency figures of each, measured under the same load, for ratios taken in the same run.
 */
export const interleaved = async (fns, seconds) => {
  for (let i = 0; i < 20; i++) for (const fn of fns) await fn()
  const times = fns.map(() => [])
  const end = performance.now() + seconds * 1000
  while (performance.now() < end) {
    for (let i = 0; i < fns.length; i++) {
      const t = performance.now()
      await fns[i]()
      times[i].push(performance.now() - t)
    }
  }
  return times.map(stats)
}

/**
 * Spawns the built server (dist/server.js) on 127.0.0.1:`port` with a throwaway data directory, no
 * demo data and warnings only; `env` adds to (or blanks) the process's environment.
 */
export const spawnServer = ({ root, port, name, env = {} }) => {
  const child = spawn(process.execPath, [path.join(root, "dist/server.js")], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), `bench-${name}-`)),
      SEED_DEMO_DATA: "false",
      ...env
    },
    stdio: ["ignore", "ignore", "inherit"]
  })
  return {
    pid: child.pid,
    stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once("exit", resolve), child.kill("SIGTERM"))))
  }
}

/**
 * Starts the stack's floor (stack-floor.mjs: the same statement behind @effect/platform-node and
 * @effect/sql-pg, no application code) on `port`; resolves once it answers.
 */
export const startStackFloor = async ({ root, port, databaseUrl, sql, params }) => {
  const child = spawn(process.execPath, [path.join(root, "test/bench/stack-floor.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      FLOOR_PORT: String(port),
      FLOOR_DATABASE_URL: databaseUrl,
      FLOOR_SQL: sql,
      FLOOR_PARAMS: JSON.stringify(params)
    },
    stdio: ["ignore", "ignore", "inherit"]
  })
  await waitFor(`http://127.0.0.1:${port}/`)
  return {
    pid: child.pid,
    url: `http://127.0.0.1:${port}/`,
    stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once("exit", resolve), child.kill("SIGTERM"))))
  }
}

/**
 * How fast this machine runs the kind of work a request does, for comparing runs across machines
 * (the development machine's speed has varied by a factor of three between sessions): one SHA-256
 * HMAC and one small-object allocation, in microseconds and nanoseconds.
 */
export const machineSpeed = () => {
  const HMACS = 50_000
  const OBJECTS = 1_000_000
  let t = performance.now()
  for (let i = 0; i < HMACS; i++) crypto.createHmac("sha256", "key").update(`message ${i}`).digest()
  const hmacUs = ((performance.now() - t) * 1000) / HMACS
  t = performance.now()
  let kept = []
  for (let i = 0; i < OBJECTS; i++) {
    kept.push({ id: i, name: String(i) })
    if (kept.length > 1000) kept = []
  }
  const allocationNs = ((performance.now() - t) * 1e6) / OBJECTS
  return { hmacUs: +hmacUs.toFixed(2), allocationNs: +allocationNs.toFixed(1) }
}

/**
 * The server's own TypeScript (a module whose source is `contents`, importing from `./src/...`) bundled
 * by esbuild into `dist/<name>.mjs`, imported, and the file removed: a bench measures the product's
 * code, never a copy.
 */
export const importServerCode = async (root, name, contents) => {
  const compiled = await esbuild.build({
    stdin: { contents, resolveDir: root, loader: "ts" },
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    write: false,
    logLevel: "error"
  })
  const file = path.join(root, "dist", `${name}.mjs`)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, compiled.outputFiles[0].text)
  try {
    return await import(pathToFileURL(file).href)
  } finally {
    fs.rmSync(file, { force: true })
  }
}
