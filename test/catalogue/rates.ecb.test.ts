import { Effect, Layer, ManagedRuntime, Option } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { EcbRateFeed } from "../../src/modules/catalogue/rates/adapters/ecb"
import { ExchangeRateRepositoryMemory } from "../../src/modules/catalogue/rates/adapters/memory"
import { RateFeed } from "../../src/modules/catalogue/rates/ports"
import { ExchangeRateJobsLive, RATES_CRON } from "../../src/modules/catalogue/rates/jobs"
import { ExchangeRates, ExchangeRatesLive } from "../../src/modules/catalogue/rates/service"
import { InMemoryJobQueueLive } from "../../src/platform/jobs/memory"
import { AuditTrailMemory } from "../../src/platform/audit/memory"
import { NoTransaction } from "../../src/platform/transaction"

// The ECB adapter against a local fake of www.ecb.europa.eu, started by the test.

const DAILY = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender>
  <Cube>
    <Cube time='2026-11-25'>
      <Cube currency='USD' rate='1.1561'/>
      <Cube currency='JPY' rate='180.52'/>
      <Cube currency='GBP' rate='0.87928'/>
      <Cube currency='CHF' rate='0.9323'/>
      <Cube currency='CAD' rate='1.6283'/>
      <Cube currency='AUD' rate='1.7866'/>
    </Cube>
  </Cube>
</gesmes:Envelope>`

let fake: http.Server
let base = ""
const requests: Array<string> = []
beforeAll(async () => {
  fake = http.createServer((req, res) => {
    requests.push(req.url ?? "")
    if (req.url === "/stats/eurofxref/eurofxref-daily.xml") {
      res.writeHead(200, { "content-type": "text/xml" }).end(DAILY)
    } else if (req.url === "/empty.xml") {
      res.writeHead(200, { "content-type": "text/xml" }).end("<html>maintenance</html>")
    } else {
      res.writeHead(500).end("down")
    }
  })
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`
})
afterAll(() => {
  fake.closeAllConnections()
  fake.close()
})

const runtimeWith = (feed: Layer.Layer<RateFeed> | Layer.Layer<never>) =>
  ManagedRuntime.make(
    ExchangeRatesLive.pipe(Layer.provideMerge(Layer.mergeAll(ExchangeRateRepositoryMemory, AuditTrailMemory, NoTransaction, feed)))
  )

describe("EcbRateFeed", () => {
  it("fetches the daily file and stores the product's currencies as ECB rates (XOF and XAF keep their peg)", async () => {
    const runtime = runtimeWith(EcbRateFeed(`${base}/stats/eurofxref/eurofxref-daily.xml`))
    try {
      const saved = await runtime.runPromise(Effect.flatMap(ExchangeRates, (rates) => rates.refresh))
      const byCurrency = Object.fromEntries(Option.getOrThrow(saved).map((r) => [r.currency, r]))
      expect(byCurrency.CAD).toMatchObject({ perEurMicro: 1_628_300, source: "ECB" })
      expect(byCurrency.GBP).toMatchObject({ perEurMicro: 879_280, source: "ECB" })
      expect(byCurrency.JPY).toMatchObject({ perEurMicro: 180_520_000, source: "ECB" })
      expect(byCurrency.XOF).toMatchObject({ perEurMicro: 655_957_000, source: "DEMO" })
      expect(byCurrency.EUR).toMatchObject({ perEurMicro: 1_000_000 })
      expect(byCurrency.AUD).toBeUndefined()
      const table = await runtime.runPromise(Effect.flatMap(ExchangeRates, (rates) => rates.table))
      expect(table.get("CAD")).toBe(1_628_300)
      expect(requests).toContain("/stats/eurofxref/eurofxref-daily.xml")
    } finally {
      await runtime.dispose()
    }
  })

  it("fails with a RateFeedError, and keeps the stored rates, when the server fails or the file holds no rate", async () => {
    for (const path of ["/down.xml", "/empty.xml"]) {
      const runtime = runtimeWith(EcbRateFeed(`${base}${path}`))
      try {
        const error = await runtime.runPromise(Effect.flip(Effect.flatMap(ExchangeRates, (rates) => rates.refresh)))
        expect(error._tag).toBe("RateFeedError")
        expect(error.reason).toContain(path)
        const table = await runtime.runPromise(Effect.flatMap(ExchangeRates, (rates) => rates.table))
        expect(table.get("CAD")).toBe(1_620_000)
      } finally {
        await runtime.dispose()
      }
    }
    // Unreachable (nothing listens there).
    const closed = await Effect.runPromise(
      Effect.flip(
        Effect.flatMap(RateFeed, (feed) => feed.latest()).pipe(Effect.provide(EcbRateFeed("http://127.0.0.1:9/eurofxref-daily.xml")))
      )
    )
    expect(closed._tag).toBe("RateFeedError")
  })

  it("runs as a job: one fetch at start, then a daily cron tick", async () => {
    const runtime = ManagedRuntime.make(
      ExchangeRateJobsLive.pipe(
        Layer.provideMerge(ExchangeRatesLive),
        Layer.provideMerge(
          Layer.mergeAll(
            ExchangeRateRepositoryMemory,
            AuditTrailMemory,
            NoTransaction,
            InMemoryJobQueueLive,
            EcbRateFeed(`${base}/stats/eurofxref/eurofxref-daily.xml`)
          )
        )
      )
    )
    try {
      let source = ""
      for (let i = 0; i < 100 && source !== "ECB"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        const rates = await runtime.runPromise(Effect.flatMap(ExchangeRates, (r) => r.list))
        source = rates.find((r) => r.currency === "CAD")!.source
      }
      expect(source).toBe("ECB")
      expect(RATES_CRON).toBe("30 16 * * *")
    } finally {
      await runtime.dispose()
    }
  })

  it("without a configured feed (the offline default) refreshes nothing", async () => {
    const runtime = runtimeWith(Layer.empty)
    try {
      expect(Option.isNone(await runtime.runPromise(Effect.flatMap(ExchangeRates, (rates) => rates.refresh)))).toBe(true)
    } finally {
      await runtime.dispose()
    }
  })
})
