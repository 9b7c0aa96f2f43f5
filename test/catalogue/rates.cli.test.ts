import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { rateArguments, renderRates } from "../../cli/commands/rates/shared"
import { ExchangeRates } from "../../src/modules/catalogue"
import { AuditTrail, CLI_OPERATOR_ID } from "../../src/platform/audit/port"
import { cliBuiltWith } from "../support/cli"
import { cliWorld } from "../support/world"

// `bin/run rates:set` and `rates:list`: the same service as the back-office, audited under the CLI operator.

const { server, cli, failureCode } = cliWorld()

describe("rates:set (what the command runs)", () => {
  it("reads CURRENCY=RATE arguments, stores them through the service and audits them as the CLI operator", async () => {
    expect(rateArguments(["CAD=1.4567", "usd=1,08", "JPY"])).toEqual([
      { currency: "CAD", rate: "1.4567" },
      { currency: "usd", rate: "1,08" },
      { currency: "JPY", rate: "" }
    ])
    const rates = await server.run(Effect.flatMap(ExchangeRates, (s) => s.setByOperator(rateArguments(["CAD=1.4567", "usd=1,08"]))))
    const text = renderRates(rates)
    expect(text).toMatch(/CAD\s+1\.4567\s+CLI/)
    expect(text).toMatch(/USD\s+1\.08\s+CLI/)
    expect(text).toMatch(/EUR\s+1\s+DEMO/)
    const audit = await server.run(Effect.flatMap(AuditTrail, (trail) => trail.list({ action: "EXCHANGE_RATES_SET", limit: 5, offset: 0 })))
    expect(audit.rows[0]).toMatchObject({
      actorId: CLI_OPERATOR_ID,
      subject: { type: "EXCHANGE_RATES", id: "CAD,USD" },
      before: { CAD: "1.62", USD: "1.155" },
      after: { CAD: "1.4567", USD: "1.08", source: "CLI" }
    })
    expect(await failureCode(Effect.flatMap(ExchangeRates, (s) => s.setByOperator(rateArguments(["CAD=zero"]))))).toBe("VALIDATION_ERROR")
    expect(await failureCode(Effect.flatMap(ExchangeRates, (s) => s.setByOperator(rateArguments(["EUR=2"]))))).toBe("VALIDATION_ERROR")
  })
})

describe.skipIf(!cliBuiltWith("rates:set"))("bin/run rates:set | rates:list (spawned, same database)", () => {
  it("sets rates, lists them, and exits 3 with the field's message on a bad rate", async () => {
    const set = await cli("rates:set", "GBP=0.8765", "CHF=0.93", "--json")
    expect(set.status, set.stderr).toBe(0)
    const rates = Object.fromEntries(
      (JSON.parse(set.stdout).rates as Array<{ currency: string; rate: string; source: string }>).map((r) => [r.currency, r])
    )
    expect(rates.GBP).toMatchObject({ rate: "0.8765", source: "CLI" })
    const listed = await cli("rates:list")
    expect(listed.status, listed.stderr).toBe(0)
    expect(listed.stdout).toMatch(/GBP\s+0\.8765\s+CLI/)
    const bad = await cli("rates:set", "CAD=-1")
    expect(bad.status).toBe(3)
    expect(bad.stderr).toContain("VALIDATION_ERROR")
    expect(bad.stderr).toContain("rates.CAD")
  }, 120_000)
})
