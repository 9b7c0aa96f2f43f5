import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { SandboxChargeStore } from "../../src/modules/payments/ports"
import { cliBuiltWith } from "../support/cli"
import { cliWorld } from "../support/world"

/** `bin/run payments:reconcile` (issue 10): the reconciliation by hand, on the server's database. */

const { server, cli } = cliWorld()

/** A hold in the sandbox's tables that no booking references (its booking never existed), 20 minutes old. */
const orphanHold = () =>
  server.run(
    Effect.gen(function* () {
      const store = yield* SandboxChargeStore
      const id = `pi_orphan_${Math.random().toString(36).slice(2)}`
      const createdAt = new Date(Date.now() - 20 * 60_000)
      yield* store.saveIntent({
        id,
        bookingId: "0b5e1f0e-9a3c-4c6e-8d1b-2f7a9c3e5d10",
        amountMinor: 4_200,
        currency: "eur",
        status: "requires_capture",
        amountCapturable: 4_200,
        amountReceived: 0,
        amountRefunded: 0,
        applicationFeeMinor: 210,
        destinationAccountId: "acct_sandbox_orphan",
        customerId: null,
        paymentMethodId: null,
        chargeId: `ch_${id}`,
        captureBefore: new Date(createdAt.getTime() + 7 * 24 * 3_600_000),
        offSession: false,
        extendedAuthorization: "disabled",
        lastErrorCode: null,
        lastDeclineCode: null,
        createdAt
      })
      return id
    })
  )

describe.skipIf(!cliBuiltWith("payments:reconcile"))("bin/run payments:reconcile (spawned, same database)", () => {
  it("releases a hold no booking references and prints what it did, as JSON or text", async () => {
    const id = await orphanHold()
    const first = await cli("payments:reconcile", "--json")
    expect(first.status, first.stderr).toBe(0)
    const report = JSON.parse(first.stdout)
    expect(report.released).toContainEqual({ bookingId: null, paymentIntentId: id })
    const status = await server.run(Effect.flatMap(SandboxChargeStore, (store) => store.findIntent(id)))
    expect(status._tag === "Some" && status.value.status).toBe("canceled")
    // Run again: nothing left to release.
    const second = await cli("payments:reconcile")
    expect(second.status, second.stderr).toBe(0)
    expect(second.stdout).toContain("open hold(s)")
    expect(second.stdout).not.toContain(id)
  }, 60_000)
})
