import { Effect } from "effect"
import { expect } from "vitest"
import { Outbox } from "../../src/modules/notifications"
import { type StoredMail } from "../../src/modules/notifications/ports"
import type { TestServer } from "./server"

export interface SetCookie {
  readonly name: string
  readonly value: string
  /** Attribute names in lower case (`httponly`, `samesite`, `path`, `max-age`...) to their values ("" when bare). */
  readonly attributes: Readonly<Record<string, string>>
}

export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  /** The parsed JSON body (undefined when the body is not JSON). */
  readonly body: any
  readonly cookies: Readonly<Record<string, SetCookie>>
}

export interface CallOptions {
  /** A value sent as a JSON body. */
  readonly json?: unknown
  /** A raw body (sent with content-type application/json unless `headers` says otherwise). */
  readonly raw?: string
  readonly token?: string
  /** The refresh cookie to present. */
  readonly refreshCookie?: string
  readonly language?: string
  readonly headers?: Record<string, string>
}

const parseSetCookie = (line: string): SetCookie => {
  const [pair = "", ...attrs] = line.split(";").map((part) => part.trim())
  const eq = pair.indexOf("=")
  const attributes: Record<string, string> = {}
  for (const attr of attrs) {
    const i = attr.indexOf("=")
    attributes[(i < 0 ? attr : attr.slice(0, i)).toLowerCase()] = i < 0 ? "" : attr.slice(i + 1)
  }
  return { name: pair.slice(0, eq), value: decodeURIComponent(pair.slice(eq + 1)), attributes }
}

/**
 * Checks made on every answer of the server: the security headers and a request id are always
 * there, nothing answers 500, and every /api answer is a JSON envelope (an error one with a code
 * and a message when the status says failure), but a file a download endpoint answers.
 */
export const expectWellFormed = (path: string, reply: Reply) => {
  const where = `${path} -> ${reply.status} ${reply.text.slice(0, 300)}`
  expect(reply.headers.get("content-security-policy"), where).toContain("frame-ancestors 'none'")
  expect(reply.headers.get("x-content-type-options"), where).toBe("nosniff")
  expect(reply.headers.get("referrer-policy"), where).toBe("strict-origin-when-cross-origin")
  expect(reply.headers.get("x-request-id"), where).toMatch(/^[\w-]{1,64}$/)
  // Nothing answers 500; a 503 only says the database is away (the fault tests stop it), with Retry-After.
  if (reply.status === 503) {
    expect(reply.body?.code, where).toBe("SERVICE_UNAVAILABLE")
    expect(reply.headers.get("retry-after"), where).toMatch(/^\d+$/)
  } else expect(reply.status, where).toBeLessThan(500)
  // A file answered by a download endpoint (CSV export, PDF receipt, calendar, image) is not an envelope; its failures are.
  const download =
    reply.status < 300 && /^(text\/csv|application\/pdf|text\/calendar|image\/)/.test(reply.headers.get("content-type") ?? "")
  if (path.startsWith("/api/") && path !== "/api/docs" && !download) {
    expect(reply.headers.get("content-type"), where).toMatch(/^application\/json/)
    expect(typeof reply.body?.success, where).toBe("boolean")
    if (reply.status >= 400) {
      expect(reply.body.success, where).toBe(false)
      expect(reply.body.code, where).toMatch(/^[A-Z_]+$/)
      expect(typeof reply.body.message, where).toBe("string")
      expect(reply.body.message.length, where).toBeGreaterThan(0)
    } else expect(reply.body.success, where).toBe(true)
  }
}

/** The reply is the error `code` with `status` (`where` names the call in a failure's message). */
export const expectError = (reply: Reply, status: number, code: string, where = "") => {
  const said = `${where} ${reply.status} ${reply.text.slice(0, 300)}`.trim()
  expect(reply.status, said).toBe(status)
  expect(reply.body.code, said).toBe(code)
}

/** A small fetch client for one test server; every answer goes through expectWellFormed. */
export const httpClient = (server: TestServer) => {
  const call = async (method: string, path: string, options: CallOptions = {}): Promise<Reply> => {
    const headers: Record<string, string> = {}
    if (options.json !== undefined || options.raw !== undefined) headers["content-type"] = "application/json"
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
    if (options.refreshCookie !== undefined) headers.cookie = `refreshToken=${options.refreshCookie}`
    if (options.language !== undefined) headers["accept-language"] = options.language
    Object.assign(headers, options.headers)
    const res = await fetch(server.url + path, {
      method,
      headers,
      body: options.raw ?? (options.json === undefined ? undefined : JSON.stringify(options.json)),
      redirect: "manual"
    })
    const text = await res.text()
    let body: unknown = undefined
    try {
      body = JSON.parse(text)
    } catch {
      // not JSON
    }
    const cookies: Record<string, SetCookie> = {}
    for (const line of res.headers.getSetCookie()) {
      const cookie = parseSetCookie(line)
      cookies[cookie.name] = cookie
    }
    const reply = { status: res.status, headers: res.headers, text, body, cookies }
    expectWellFormed(path, reply)
    return reply
  }
  return {
    call,
    get: (path: string, options?: CallOptions) => call("GET", path, options),
    post: (path: string, json?: unknown, options?: CallOptions) =>
      call("POST", path, { ...options, ...(json === undefined ? {} : { json }) }),
    patch: (path: string, json?: unknown, options?: CallOptions) =>
      call("PATCH", path, { ...options, ...(json === undefined ? {} : { json }) })
  }
}

/** Mails the server sent to `to`, newest first (read from its outbox). */
export const mailsTo = (server: TestServer, to: string): Promise<ReadonlyArray<StoredMail>> =>
  server.run(
    Effect.map(
      Effect.flatMap(Outbox, (o) => o.latest(10_000)),
      (mails) => mails.filter((m) => m.to === to)
    )
  )

/**
 * Waits (up to 5 s) until `to` has at least `count` mails, and answers them: forgot-password and
 * resend-verification mail after they answer.
 */
export const mailsAtLeast = async (server: TestServer, to: string, count: number): Promise<ReadonlyArray<StoredMail>> => {
  const deadline = Date.now() + 5_000
  for (;;) {
    const mails = await mailsTo(server, to)
    if (mails.length >= count || Date.now() > deadline) return mails
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** The token of the newest `/{kind}/{token}` link mailed to `to` (waiting up to 5 s for one). */
export const mailedToken = async (server: TestServer, to: string, kind: "verify-email" | "reset-password") => {
  const deadline = Date.now() + 5_000
  do {
    for (const mail of await mailsTo(server, to)) {
      const match = new RegExp(`/${kind}/([A-Za-z0-9_-]+)`).exec(mail.text)
      if (match) return match[1]!
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  } while (Date.now() < deadline)
  throw new Error(`no /${kind}/ link mailed to ${to}`)
}

let counter = 0
/** A fresh registration payload that passes every rule. */
export const registration = (overrides: Record<string, unknown> = {}) => {
  const id = `${Date.now().toString(36)}${(++counter).toString(36)}${Math.random().toString(36).slice(2, 6)}`
  return {
    firstName: "Nadia",
    lastName: "Gagnon",
    email: `nadia.${id}@example.com`,
    phoneNumber: "4385550123",
    password: "Passw0rd!",
    confirmPassword: "Passw0rd!",
    ...overrides
  }
}
