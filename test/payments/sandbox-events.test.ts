import { Effect, Option, Redacted } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sandboxEventSender } from "../../src/modules/payments/adapters/sandbox-events"
import { AppConfig, AppConfigOf } from "../../src/platform/config"
import { startWebhookRecorder, type WebhookRecorder } from "./support"
import { scratchDir } from "../support/scratch"

const SECRET = "whsec_sandbox_events_platform"
const CONNECT_SECRET = "whsec_sandbox_events_connect"

let recorder: WebhookRecorder
beforeAll(async () => {
  recorder = await startWebhookRecorder(SECRET, CONNECT_SECRET)
})
afterAll(() => recorder?.stop())

const senderFor = (overrides: Parameters<typeof AppConfigOf>[0]) =>
  Effect.runPromise(
    Effect.provide(
      Effect.map(AppConfig, sandboxEventSender),
      AppConfigOf({
        port: recorder.port,
        host: "127.0.0.1",
        paymentsMode: "sandbox",
        dataDir: scratchDir("sandbox-events"),
        ...overrides
      })
    )
  )

describe("the sandbox delivers each event to its endpoint, signed with that endpoint's secret (as Stripe routes them)", () => {
  it("account.updated to /api/payments/webhook/connect with the connect secret; charge events to /api/payments/webhook with the platform's", async () => {
    const sender = await senderFor({
      stripeWebhookSecret: Option.some(Redacted.make(SECRET)),
      stripeConnectWebhookSecret: Option.some(Redacted.make(CONNECT_SECRET))
    })
    await Effect.runPromise(
      sender.deliverAll([
        { type: "account.updated", object: { id: "acct_sandbox_1", object: "account", charges_enabled: true } },
        { type: "payment_intent.canceled", object: { id: "pi_sandbox_1", object: "payment_intent", status: "canceled" } }
      ])
    )
    expect(recorder.refused()).toBe(0)
    expect(recorder.events.map((e) => [e.type, e.endpoint])).toEqual([
      ["account.updated", "connect"],
      ["payment_intent.canceled", "platform"]
    ])
  })

  it("without configured secrets, each endpoint gets its own generated secret (two files in DATA_DIR)", async () => {
    const dataDir = scratchDir("sandbox-events-generated")
    await senderFor({ dataDir })
    const platform = fs.readFileSync(path.join(dataDir, "sandbox-webhook-secret"), "utf8")
    const connect = fs.readFileSync(path.join(dataDir, "sandbox-connect-webhook-secret"), "utf8")
    expect(platform).toMatch(/^whsec_sandbox_/)
    expect(connect).toMatch(/^whsec_sandbox_/)
    expect(connect).not.toBe(platform)
  })
})
