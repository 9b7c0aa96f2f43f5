import * as http from "node:http"
import type { AddressInfo } from "node:net"

export interface RecordedRequest {
  readonly method: string
  readonly path: string
  /** The form-encoded body, decoded to flat bracketed keys (`capabilities[transfers][requested]`). */
  readonly form: Readonly<Record<string, string>>
  readonly idempotencyKey: string | undefined
  readonly authorization: string | undefined
}

export interface FakeAccount {
  id: string
  country: string
  email: string
  charges_enabled: boolean
  payouts_enabled: boolean
  details_submitted: boolean
  metadata: Record<string, string>
}

/**
 * A tiny stand-in for Stripe's HTTP API: records every request (method, path, form body,
 * Idempotency-Key) and answers canned JSON for the four calls of connected accounts. `failNext`
 * makes the next request answer a Stripe error.
 */
export const startFakeStripe = async () => {
  const requests: Array<RecordedRequest> = []
  const accounts = new Map<string, FakeAccount>()
  const byIdempotencyKey = new Map<string, string>()
  let failNext: { status: number; type: string; message: string } | undefined
  let sequence = 0

  const server = http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8")
      const url = new URL(req.url ?? "/", "http://fake")
      const form = Object.fromEntries(new URLSearchParams(req.method === "GET" ? url.search : raw))
      const idempotencyKey = req.headers["idempotency-key"] as string | undefined
      requests.push({ method: req.method ?? "", path: url.pathname, form, idempotencyKey, authorization: req.headers.authorization })
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json", "request-id": `req_fake_${requests.length}` })
        res.end(JSON.stringify(body))
      }
      if (failNext) {
        const failure = failNext
        failNext = undefined
        return answer(failure.status, { error: { type: failure.type, message: failure.message } })
      }
      const accountPath = /^\/v1\/accounts\/([^/]+)$/.exec(url.pathname)
      const loginPath = /^\/v1\/accounts\/([^/]+)\/login_links$/.exec(url.pathname)
      if (req.method === "POST" && url.pathname === "/v1/accounts") {
        const replay = idempotencyKey ? byIdempotencyKey.get(idempotencyKey) : undefined
        if (replay) return answer(200, { object: "account", type: "express", ...accounts.get(replay)! })
        const account: FakeAccount = {
          id: `acct_fake_${++sequence}`,
          country: form.country ?? "US",
          email: form.email ?? "",
          charges_enabled: false,
          payouts_enabled: false,
          details_submitted: false,
          metadata: { userId: form["metadata[userId]"] ?? "" }
        }
        accounts.set(account.id, account)
        if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, account.id)
        return answer(200, { object: "account", type: "express", ...account })
      }
      if (req.method === "POST" && url.pathname === "/v1/account_links") {
        if (!accounts.has(form.account ?? "")) return answer(400, { error: { type: "invalid_request_error", code: "resource_missing", message: "No such account" } })
        return answer(200, {
          object: "account_link",
          url: `https://connect.stripe.test/setup/e/${form.account}/${++sequence}`,
          created: Math.floor(Date.now() / 1000),
          expires_at: Math.floor(Date.now() / 1000) + 300
        })
      }
      if (req.method === "POST" && loginPath) {
        return answer(200, { object: "login_link", url: `https://connect.stripe.test/express/${loginPath[1]}/${++sequence}`, created: 1 })
      }
      if (req.method === "GET" && accountPath) {
        const account = accounts.get(decodeURIComponent(accountPath[1]!))
        if (!account) return answer(404, { error: { type: "invalid_request_error", code: "resource_missing", message: "No such account" } })
        return answer(200, { object: "account", type: "express", ...account })
      }
      answer(404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${url.pathname})` } })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    accounts,
    failNext: (failure: { status: number; type: string; message: string }) => {
      failNext = failure
    },
    /** The requests since the given count (to check one call at a time). */
    since: (count: number) => requests.slice(count),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>
