import * as http from "node:http"
import type { AddressInfo } from "node:net"

export interface RecordedRequest {
  readonly method: string
  readonly path: string
  /** The form-encoded body, decoded to flat bracketed keys (`capabilities[transfers][requested]`). */
  readonly form: Readonly<Record<string, string>>
  readonly idempotencyKey: string | undefined
  readonly authorization: string | undefined
  /** The Stripe-Version header: the API version the request names. */
  readonly stripeVersion: string | undefined
}

export interface FakeAccount {
  id: string
  country: string
  email: string
  charges_enabled: boolean
  payouts_enabled: boolean
  details_submitted: boolean
  metadata: Record<string, string>
  /** As Stripe describes a new Express account: what is due, and charges disabled for it. */
  requirements: { currently_due: Array<string>; past_due: Array<string>; disabled_reason: string | null }
}

export interface FakeIntent {
  id: string
  status: string
  amount: number
  metadata: Record<string, string>
  amountRefunded?: number
  /** Seconds since the epoch (list filters on it). */
  created?: number
  customer?: string
  payment_method?: string
  /** The held charge's card, as a retrieval that expands it answers. */
  card?: Record<string, unknown>
}

/** A Checkout Session as the fake keeps it (a test may complete one by hand: status, intents). */
export interface FakeSession {
  id: string
  mode: string
  status: "open" | "complete" | "expired"
  created: number
  metadata: Record<string, string>
  customer: string | null
  payment_intent: string | null
  setup_intent: { id: string; object: "setup_intent"; status: string; payment_method: string | null } | null
}

/** Stripe's test payment methods the fake knows for off-session authorisations (any other one is held). */
export const FAKE_PAYMENT_METHODS = {
  authenticationRequired: "pm_card_authenticationRequired",
  declined: "pm_card_chargeDeclined",
  /** Held, but its charge does not say `capture_before` (the adapter then assumes 7 days). */
  noCaptureBefore: "pm_card_noCaptureBefore"
} as const

/** The customer Stripe's test payment methods above (and `pm_card_visa`) are attached to in the fake. */
export const FAKE_CUSTOMER = "cus_1"

/** The country of the platform's own Stripe account, as `GET /v1/account` answers it. */
export const FAKE_PLATFORM_COUNTRY = "CA"

/** `capture_before` the fake gives held authorisations: 6 days and 12 hours after the request. */
export const FAKE_HOLD_SECONDS = 6.5 * 24 * 3600

interface FakeFailure {
  /** 0: no answer at all (the connection is dropped, as on a timeout). */
  status: number
  type: string
  message: string
  code?: string
  /** How many requests in a row fail (the library retries 5xx answers); 1 by default. */
  times?: number
}

/** A payment intent as Stripe's API writes it: its id, status, amount and metadata, with `fields` besides. */
const intentJson = (intent: FakeIntent, fields: Record<string, unknown>) => ({
  id: intent.id,
  object: "payment_intent",
  status: intent.status,
  amount: intent.amount,
  metadata: intent.metadata,
  ...fields
})

/**
 * A tiny stand-in for Stripe's HTTP API: records every request (method, path, form body,
 * Idempotency-Key) and answers canned JSON for the calls of connected accounts and of charges
 * (Checkout Sessions, PaymentIntents, refunds). `failNext` makes the next request(s) answer a Stripe error.
 */
export const startFakeStripe = async () => {
  const requests: Array<RecordedRequest> = []
  const accounts = new Map<string, FakeAccount>()
  const byIdempotencyKey = new Map<string, string>()
  const intents = new Map<string, FakeIntent>()
  /** Payment methods and the customer each is attached to (null: attached to nobody). */
  const paymentMethods = new Map<string, string | null>(
    ["pm_card_visa", ...Object.values(FAKE_PAYMENT_METHODS)].map((id) => [id, FAKE_CUSTOMER])
  )
  /** Stripe's idempotency: a POST's answer stored under its key, with what the request was. */
  const stored = new Map<string, { fingerprint: string; status: number; body: unknown }>()
  const sessions = new Map<string, FakeSession>()
  let failNext: FakeFailure | undefined
  let sequence = 0
  /** Every refund, made through the API or `refundInDashboard` (as someone in Stripe's dashboard would). */
  const refunds: Array<{ id: string; payment_intent: string; amount: number; status: string }> = []

  const server = http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8")
      const url = new URL(req.url ?? "/", "http://fake")
      const form = Object.fromEntries(new URLSearchParams(req.method === "GET" ? url.search : raw))
      const idempotencyKey = req.headers["idempotency-key"] as string | undefined
      requests.push({
        method: req.method ?? "",
        path: url.pathname,
        form,
        idempotencyKey,
        authorization: req.headers.authorization,
        stripeVersion: req.headers["stripe-version"] as string | undefined
      })
      const fingerprint = `${req.method} ${url.pathname} ${raw}`
      const keyed = req.method === "POST" && idempotencyKey !== undefined
      const answer = (status: number, body: unknown, replayed = false) => {
        // Stripe stores the answer of a request that began executing, errors included (not a 409 or 429).
        if (keyed && !replayed && status !== 409 && status !== 429) stored.set(idempotencyKey!, { fingerprint, status, body })
        res.writeHead(status, {
          "content-type": "application/json",
          "request-id": `req_fake_${requests.length}`,
          ...(replayed ? { "idempotent-replayed": "true" } : {})
        })
        res.end(JSON.stringify(body))
      }
      const previous = keyed ? stored.get(idempotencyKey!) : undefined
      if (previous) {
        if (previous.fingerprint !== fingerprint) {
          return answer(
            400,
            {
              error: {
                type: "idempotency_error",
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`
              }
            },
            true
          )
        }
        // The same request again: the stored answer, whatever it was (a stored 500 too, for 24 hours).
        return answer(previous.status, previous.body, true)
      }
      if (failNext) {
        const failure = failNext
        failNext = (failure.times ?? 1) > 1 ? { ...failure, times: failure.times! - 1 } : undefined
        if (failure.status === 0) return void req.socket.destroy()
        return answer(failure.status, {
          error: { type: failure.type, message: failure.message, ...(failure.code ? { code: failure.code } : {}) }
        })
      }
      const charges = chargesAnswer(req.method ?? "", url.pathname, form)
      if (charges) return answer(charges.status, charges.body)
      // The platform's own account (its country decides which charges must settle on the provider's).
      if (req.method === "GET" && url.pathname === "/v1/account") {
        return answer(200, { id: "acct_fake_platform", object: "account", country: FAKE_PLATFORM_COUNTRY })
      }
      const accountPath = /^\/v1\/accounts\/([^/]+)$/.exec(url.pathname)
      const loginPath = /^\/v1\/accounts\/([^/]+)\/login_links$/.exec(url.pathname)
      if (req.method === "POST" && url.pathname === "/v1/accounts") {
        const controlled = Object.keys(form).some((key) => key.startsWith("controller["))
        // As Stripe: `type` and `controller` are mutually exclusive.
        if (form.type !== undefined && controlled) {
          return answer(400, {
            error: {
              type: "invalid_request_error",
              code: "parameter_unknown",
              param: "type",
              message: "You cannot specify `type` when using `controller` properties."
            }
          })
        }
        const replay = idempotencyKey ? byIdempotencyKey.get(idempotencyKey) : undefined
        if (replay) return answer(200, { object: "account", type: "express", ...accounts.get(replay)! })
        const account: FakeAccount = {
          id: `acct_fake_${++sequence}`,
          country: form.country ?? "US",
          email: form.email ?? "",
          charges_enabled: false,
          payouts_enabled: false,
          details_submitted: false,
          metadata: { userId: form["metadata[userId]"] ?? "" },
          requirements: {
            currently_due: ["business_profile.url", "external_account", "individual.verification.document", "tos_acceptance.date"],
            past_due: ["external_account", "tos_acceptance.date"],
            disabled_reason: "requirements.past_due"
          }
        }
        accounts.set(account.id, account)
        if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, account.id)
        return answer(200, { object: "account", type: "express", ...account })
      }
      if (req.method === "POST" && url.pathname === "/v1/account_links") {
        if (!accounts.has(form.account ?? ""))
          return answer(400, { error: { type: "invalid_request_error", code: "resource_missing", message: "No such account" } })
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
  const metadataOf = (form: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(form).flatMap(([key, value]) => {
        const match = /^metadata\[(\w+)\]$/.exec(key)
        return match ? [[match[1]!, value]] : []
      })
    )
  const cardError = (code: string, declineCode: string, intent: FakeIntent) => ({
    status: 402,
    body: {
      error: {
        type: "card_error",
        code,
        decline_code: declineCode,
        message: "Your card was declined.",
        payment_intent: { id: intent.id, object: "payment_intent", status: intent.status }
      }
    }
  })

  /** A refund of a payment (an intent the fake does not know is a captured 100.00): the refund, and the charge after it. */
  const createRefund = (intentId: string, amount: number) => {
    const intent = intents.get(intentId) ?? { id: intentId, status: "succeeded", amount: 10_000, metadata: {} }
    intents.set(intent.id, intent)
    intent.amountRefunded = (intent.amountRefunded ?? 0) + amount
    const refund = { id: `re_fake_${++sequence}`, payment_intent: intentId, amount, status: "succeeded" }
    refunds.push(refund)
    const charge = { id: `ch_fake_${intent.id}`, object: "charge", amount_refunded: intent.amountRefunded }
    return { charge, refund }
  }

  /** Stripe's 404 for an object it does not know. */
  const missing = (param: string, message: string) => ({
    status: 404,
    body: { error: { type: "invalid_request_error", code: "resource_missing", param, message } }
  })

  /** The charges' endpoints; undefined for any other request. */
  const chargesAnswer = (method: string, path: string, form: Record<string, string>): { status: number; body: unknown } | undefined => {
    const now = Math.floor(Date.now() / 1000)
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const id = `cs_fake_${++sequence}`
      sessions.set(id, {
        id,
        mode: form.mode ?? "payment",
        status: "open",
        created: now,
        metadata: metadataOf(form),
        customer: null,
        payment_intent: null,
        setup_intent: null
      })
      return {
        status: 200,
        body: {
          id,
          object: "checkout.session",
          mode: form.mode,
          status: "open",
          url: `https://checkout.stripe.test/c/pay/${id}`,
          metadata: metadataOf(form)
        }
      }
    }
    // Lists (one page: has_more false). `created[gte]` filters; only the expansions asked for are expanded.
    const expanded = (name: string) => Object.entries(form).some(([key, value]) => key.startsWith("expand[") && value === name)
    const list = (url: string, data: ReadonlyArray<unknown>) => ({ status: 200, body: { object: "list", url, has_more: false, data } })
    const since = Number(form["created[gte]"] ?? 0)
    if (method === "GET" && path === "/v1/checkout/sessions") {
      const data = [...sessions.values()]
        .filter((c) => c.created >= since && (form.status === undefined || c.status === form.status))
        .map((c) => ({
          ...c,
          object: "checkout.session",
          setup_intent: c.setup_intent && !expanded("data.setup_intent") ? c.setup_intent.id : c.setup_intent
        }))
      return list(path, data)
    }
    if (method === "GET" && path === "/v1/payment_intents") {
      // Stripe's list has no status filter: every recent intent comes back.
      const data = [...intents.values()]
        .filter((i) => (i.created ?? now) >= since)
        .map((i) =>
          intentJson(i, {
            amount_capturable: i.status === "requires_capture" ? i.amount : 0,
            created: i.created ?? now,
            customer: i.customer ?? null,
            payment_method: i.payment_method ?? null,
            latest_charge: expanded("data.latest_charge")
              ? {
                  id: `ch_${i.id}`,
                  object: "charge",
                  payment_method_details: { type: "card", card: { capture_before: (i.created ?? now) + FAKE_HOLD_SECONDS } }
                }
              : `ch_${i.id}`
          })
        )
      return list(path, data)
    }
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path)
    if (sessionPath) {
      const session = sessions.get(decodeURIComponent(sessionPath[1]!))
      if (!session)
        return {
          status: 404,
          body: { error: { type: "invalid_request_error", code: "resource_missing", message: "No such checkout.session" } }
        }
      if (method === "POST" && sessionPath[2]) {
        // Stripe expires open sessions only.
        if (session.status !== "open") {
          return {
            status: 400,
            body: {
              error: {
                type: "invalid_request_error",
                message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`
              }
            }
          }
        }
        session.status = "expired"
      }
      if (method === "GET" || sessionPath[2]) return { status: 200, body: { ...session, object: "checkout.session" } }
    }
    if (method === "POST" && path === "/v1/customers") {
      return { status: 200, body: { id: `cus_fake_${++sequence}`, object: "customer", email: form.email, metadata: metadataOf(form) } }
    }
    if (method === "POST" && path === "/v1/setup_intents") {
      const id = `seti_fake_${++sequence}`
      return {
        status: 200,
        body: {
          id,
          object: "setup_intent",
          status: "requires_payment_method",
          client_secret: `${id}_secret_fake`,
          customer: form.customer,
          usage: form.usage,
          metadata: metadataOf(form)
        }
      }
    }
    const paymentMethodPath = /^\/v1\/payment_methods\/([^/]+)(\/attach)?$/.exec(path)
    if (paymentMethodPath) {
      const id = decodeURIComponent(paymentMethodPath[1]!)
      if (!paymentMethods.has(id)) return missing("payment_method", `No such PaymentMethod: '${id}'`)
      if (method === "POST" && paymentMethodPath[2]) {
        const owner = paymentMethods.get(id)
        if (owner !== null && owner !== form.customer) {
          return {
            status: 400,
            body: {
              error: { type: "invalid_request_error", message: "The payment method you provided has already been attached to a customer." }
            }
          }
        }
        paymentMethods.set(id, form.customer ?? null)
      } else if (method !== "GET") return undefined
      return {
        status: 200,
        body: {
          id,
          object: "payment_method",
          type: "card",
          customer: paymentMethods.get(id) ?? null,
          card: { brand: "visa", last4: "4242" }
        }
      }
    }
    if (
      method === "POST" &&
      path === "/v1/payment_intents" &&
      form.off_session === "true" &&
      form.payment_method !== undefined &&
      paymentMethods.get(form.payment_method) !== form.customer
    ) {
      // As Stripe: a card used off-session with a customer must be attached to that customer.
      return {
        status: 400,
        body: {
          error: {
            type: "invalid_request_error",
            code: "payment_method_invalid_parameter",
            param: "payment_method",
            message: `The provided PaymentMethod ${form.payment_method} is not attached to the Customer ${form.customer}.`
          }
        }
      }
    }
    if (method === "POST" && path === "/v1/payment_intents") {
      const intent: FakeIntent = {
        id: `pi_fake_${++sequence}`,
        status: "requires_payment_method",
        amount: Number(form.amount),
        metadata: metadataOf(form),
        created: now,
        ...(form.customer ? { customer: form.customer } : {}),
        ...(form.payment_method ? { payment_method: form.payment_method } : {})
      }
      intents.set(intent.id, intent)
      if (form.confirm !== "true") {
        // Created for the page to confirm with Stripe Elements (its client secret).
        return {
          status: 200,
          body: intentJson(intent, { client_secret: `${intent.id}_secret_fake` })
        }
      }
      if (form.payment_method === FAKE_PAYMENT_METHODS.authenticationRequired)
        return cardError("authentication_required", "authentication_required", intent)
      if (form.payment_method === FAKE_PAYMENT_METHODS.declined) return cardError("card_declined", "generic_decline", intent)
      intent.status = "requires_capture"
      const chargeId = `ch_fake_${++sequence}`
      const card =
        form.payment_method === FAKE_PAYMENT_METHODS.noCaptureBefore
          ? { brand: "visa", last4: "4242" }
          : { brand: "visa", last4: "4242", capture_before: now + FAKE_HOLD_SECONDS }
      intent.card = card
      const expanded = Object.entries(form).some(([key, value]) => key.startsWith("expand[") && value === "latest_charge")
      return {
        status: 200,
        body: intentJson(intent, {
          amount_capturable: intent.amount,
          amount_received: 0,
          customer: form.customer,
          payment_method: form.payment_method,
          latest_charge: expanded ? { id: chargeId, object: "charge", payment_method_details: { type: "card", card } } : chargeId
        })
      }
    }
    // A retrieval: the charge an id unless `expand[]=latest_charge` (events never expand it).
    const intentPath = /^\/v1\/payment_intents\/([^/]+)$/.exec(path)
    if (method === "GET" && intentPath) {
      const intent = intents.get(decodeURIComponent(intentPath[1]!))
      if (!intent) return missing("intent", `No such payment_intent: '${decodeURIComponent(intentPath[1]!)}'`)
      const chargeId = `ch_${intent.id}`
      return {
        status: 200,
        body: intentJson(intent, {
          latest_charge:
            intent.card && expanded("latest_charge")
              ? { id: chargeId, object: "charge", payment_method_details: { type: "card", card: intent.card } }
              : intent.card
                ? chargeId
                : null
        })
      }
    }
    const intentAction = /^\/v1\/payment_intents\/([^/]+)\/(capture|cancel)$/.exec(path)
    if (method === "POST" && intentAction) {
      const intent = intents.get(decodeURIComponent(intentAction[1]!)) ?? {
        id: decodeURIComponent(intentAction[1]!),
        status: "requires_capture",
        amount: 10_000,
        metadata: {}
      }
      intents.set(intent.id, intent)
      if (intentAction[2] === "cancel") {
        if (intent.status === "canceled") {
          return {
            status: 400,
            body: {
              error: {
                type: "invalid_request_error",
                code: "payment_intent_unexpected_state",
                message: "You cannot cancel this PaymentIntent because it has a status of canceled.",
                payment_intent: { id: intent.id, object: "payment_intent", status: "canceled" }
              }
            }
          }
        }
        intent.status = "canceled"
        return { status: 200, body: { id: intent.id, object: "payment_intent", status: "canceled", amount: intent.amount } }
      }
      intent.status = "succeeded"
      const received = form.amount_to_capture ? Number(form.amount_to_capture) : intent.amount
      return {
        status: 200,
        body: { id: intent.id, object: "payment_intent", status: "succeeded", amount: intent.amount, amount_received: received }
      }
    }
    if (method === "POST" && path === "/v1/refunds") {
      const { charge, refund } = createRefund(form.payment_intent ?? "", Number(form.amount))
      return { status: 200, body: { ...refund, object: "refund", charge: expanded("charge") ? charge : charge.id } }
    }
    if (method === "GET" && path === "/v1/refunds") {
      return list(
        path,
        refunds.filter((r) => r.payment_intent === form.payment_intent).map((r) => ({ ...r, object: "refund" }))
      )
    }
    return undefined
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** A card saved through Checkout's setup mode, attached to `customer` (or to nobody). */
    addPaymentMethod: (id: string, customer: string | null) => void paymentMethods.set(id, customer),
    paymentMethods,
    accounts,
    refunds,
    /** A refund made outside the app (Stripe's dashboard): the charge as its `charge.refunded` event carries it. */
    refundInDashboard: (paymentIntentId: string, amountMinor: number) => createRefund(paymentIntentId, amountMinor).charge,
    intents,
    sessions,
    failNext: (failure: FakeFailure) => {
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
