#!/usr/bin/env node
// Prices compared in euros (issue 14 item 4): the search statements with price sorts and ranges,
// compiled by the server's own code, against the same searches comparing bare numbers as before
// (with the old services_price_idx recreated for the run, so "before" is measured at its best).
// Schema `bench_rates` (BENCH_SERVICES, default 200,000 services by `bin/run seed:bulk`, reused when
// present). Database: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local PostgreSQL.
// Run: `node test/bench/rates.mjs` (not part of `make bench`: a side measurement of the catalogue's).
import { spawnSync } from "node:child_process"
import * as os from "node:os"
import * as path from "node:path"
import pg from "pg"
import { benchDatabase, freshSchema, GEO_SEARCH, importServerCode, root, servicesIn } from "./lib.mjs"

const SERVICES = Number(process.env.BENCH_SERVICES ?? 200_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 40)
const schema = "bench_rates"
const { baseUrl, databaseUrl } = benchDatabase(schema)
const log = (...args) => console.error("[bench:rates]", ...args)

const admin = new pg.Client({ connectionString: baseUrl })
await admin.connect()
if ((await servicesIn(admin, schema)) < SERVICES) {
  await freshSchema(admin, schema)
  for (const args of [["migrate"], ["seed:bulk", "--services", String(SERVICES)]]) {
    log("bin/run", args.join(" "))
    const r = spawnSync(path.join(root, "bin/run"), args, {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: "inherit"
    })
    if (r.status !== 0) throw new Error(`bin/run ${args.join(" ")} failed`)
  }
}
await admin.end()

const { statementFor } = await importServerCode(
  root,
  "bench-rates-sql",
  `
      import * as Statement from "@effect/sql/Statement"
      import { PgClient } from "@effect/sql-pg"
      import { Effect, Either } from "effect"
      import { parseSearch, paging, pricedQuery } from "./src/modules/catalogue/search"
      import { DEMO_RATES, rateTableOf } from "./src/modules/catalogue/rates/domain"
      import { searchStatement } from "./src/modules/catalogue/adapters/postgres"
      const sql = Statement.make(Effect.never, PgClient.makeCompiler(), [], undefined)
      const rates = rateTableOf(DEMO_RATES.map(([currency, perEurMicro]) => ({ currency, perEurMicro })))
      /** The statement for these parameters: prices in euros (the API's), or bare numbers (before issue 14). */
      export const statementFor = (input, euros) => {
        const c = Either.getOrThrow(parseSearch(input))
        const prices = euros ? pricedQuery(c, rates) : { minPriceCents: c.minPriceCents, maxPriceCents: c.maxPriceCents }
        return searchStatement(sql, { text: c.text, categoryId: c.category?.id, ...prices, geo: c.geo, sort: c.sort, limit: c.limit,
          offset: paging(c.page, c.limit).offset, withTotal: true }).compile()
      }`
)

const cases = {
  priceAsc: { sortBy: "price_asc" },
  priceDesc: { sortBy: "price_desc" },
  priceAscPage10: { sortBy: "price_asc", page: "10" },
  range50to100Newest: { minPrice: "50", maxPrice: "100" },
  range50to100PriceAsc: { minPrice: "50", maxPrice: "100", sortBy: "price_asc" },
  textPriceAsc: { search: "menage", sortBy: "price_asc" },
  geoBench: GEO_SEARCH
}
const client = new pg.Client({ connectionString: databaseUrl })
await client.connect()
// "Before" ran on services_price_idx (price_cents, id), which migration 0032 replaced.
await client.query(
  "CREATE INDEX IF NOT EXISTS bench_old_price_idx ON services (price_cents, id) WHERE status = 'ACTIVE' AND archived_at IS NULL"
)
const results = { loadAverageBefore: os.loadavg().map((l) => +l.toFixed(2)), services: SERVICES, runs: RUNS, cases: {} }
const measure = async (text, values) => {
  for (let i = 0; i < 3; i++) await client.query(text, values)
  const times = []
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now()
    await client.query(text, values)
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  return { p50: +times[Math.floor(RUNS * 0.5)].toFixed(2), p95: +times[Math.ceil(RUNS * 0.95) - 1].toFixed(2) }
}
try {
  for (const [name, input] of Object.entries(cases)) {
    const bare = await measure(...statementFor(input, false))
    const euros = await measure(...statementFor(input, true))
    results.cases[name] = { bareP50: bare.p50, bareP95: bare.p95, eurosP50: euros.p50, eurosP95: euros.p95 }
  }
} finally {
  await client.query("DROP INDEX IF EXISTS bench_old_price_idx")
  await client.end()
}
results.loadAverageAfter = os.loadavg().map((l) => +l.toFixed(2))
console.table(results.cases)
console.log(JSON.stringify(results))
