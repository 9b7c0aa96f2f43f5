import { SqlError } from "@effect/sql/SqlError"
import { Cause } from "effect"
import fc from "fast-check"
import pg from "pg"
import { describe, expect, it } from "vitest"
import { isDatabaseUnreachable, RETRY_AFTER_SECONDS, unavailableOf } from "../../src/platform/outage"
import { guardPool } from "../../src/platform/pg-pool"

const errno = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code })
const pgError = (code: string, message = "boom") => Object.assign(new Error(message), { code, severity: "FATAL" })
const wrapped = (cause: unknown) => new SqlError({ cause, message: "Failed to execute statement" })

describe("which database failures are a 503", () => {
  it.each([
    ["ECONNREFUSED (the server is stopped)", errno("ECONNREFUSED")],
    ["ECONNRESET (the connection was cut)", errno("ECONNRESET")],
    ["ENOENT (the embedded database's socket is gone)", errno("ENOENT")],
    ["57P01 admin_shutdown", pgError("57P01", "terminating connection due to administrator command")],
    ["57P03 cannot_connect_now", pgError("57P03", "the database system is starting up")],
    ["08006 connection_failure", pgError("08006")],
    ["53300 too_many_connections", pgError("53300")],
    ["Connection terminated unexpectedly", new Error("Connection terminated unexpectedly")],
    ["pg-pool's acquisition timeout", new Error("timeout exceeded when trying to connect")],
    ["a client that broke earlier", new Error("Client has encountered a connection error and is not queryable")],
    ["both addresses refused (AggregateError)", new AggregateError([errno("ECONNREFUSED"), errno("ECONNREFUSED")])]
  ])("%s", (_, cause) => {
    expect(isDatabaseUnreachable(wrapped(cause))).toBe(true)
    // As a failure, or as the defect services turn SqlErrors into (orDie).
    for (const failed of [Cause.fail(wrapped(cause)), Cause.die(wrapped(cause))]) {
      const unavailable = unavailableOf(failed)
      expect(unavailable?._tag).toBe("ServiceUnavailable")
      expect(unavailable?.code).toBe("SERVICE_UNAVAILABLE")
      expect(unavailable?.key).toBe("server.unavailable")
      expect(unavailable?.retryAfterSeconds).toBe(RETRY_AFTER_SECONDS)
    }
  })

  it.each([
    ["a syntax error", pgError("42601", 'syntax error at or near "SELEC"')],
    ["a unique violation", pgError("23505", "duplicate key value violates unique constraint")],
    ["a value out of range", pgError("22003", "numeric field overflow")],
    ["a serialization failure", pgError("40001")],
    ["a bug", new TypeError("Cannot read properties of undefined")]
  ])("%s stays a 500", (_, cause) => {
    expect(isDatabaseUnreachable(wrapped(cause))).toBe(false)
    expect(unavailableOf(Cause.die(wrapped(cause)))).toBeUndefined()
    expect(unavailableOf(Cause.fail(wrapped(cause)))).toBeUndefined()
  })

  it("an interruption or an empty cause is not an outage", () => {
    expect(unavailableOf(Cause.interrupt("fiber" as never))).toBeUndefined()
    expect(unavailableOf(Cause.empty)).toBeUndefined()
  })

  it("property: found at any depth of causes, and never invented from codes outside the lists", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.constantFrom("ECONNREFUSED", "57P01", "08001", "ECONNRESET"), (depth, code) => {
        let error: unknown = errno(code)
        for (let i = 0; i < depth; i++) error = new Error("outer", { cause: error })
        return isDatabaseUnreachable(wrapped(error))
      })
    )
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9A-Z]{5}$/).filter((code) => !code.startsWith("08") && !["57P01", "57P02", "57P03", "53300"].includes(code)),
        fc.string().filter((message) => !/Connection terminated|timeout exceeded|not queryable|Connection timed out/.test(message)),
        (code, message) => !isDatabaseUnreachable(wrapped(pgError(code, message)))
      )
    )
  })
})

describe("guardPool", () => {
  it("an error of a client nobody listens to is reported, never thrown", async () => {
    const reported: Array<string> = []
    const pool = guardPool(new pg.Pool({ host: "127.0.0.1", port: 1, max: 1 }), (e) => reported.push(e.message))
    // Every client the pool creates announces itself with `connect`: it gets the guard's listener.
    const client = new pg.Client()
    pool.emit("connect", client)
    expect(() => client.emit("error", new Error("Connection terminated unexpectedly"))).not.toThrow()
    expect(reported).toEqual(["Connection terminated unexpectedly"])
    // The pool's copy of an idle client's error (the client's own listener reported it) is not thrown either.
    expect(() => pool.emit("error", new Error("Connection terminated unexpectedly"), client)).not.toThrow()
    await pool.end()
  })

  const url = process.env.TEST_DATABASE_URL
  it.skipIf(url === undefined)("a held connection killed by the server frees its slot; releasing it again is harmless", async () => {
    const reported: Array<string> = []
    const pool = guardPool(new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 2000 }), (e) => reported.push(e.message))
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    try {
      // Held for good, as socket.io's adapter holds its LISTEN connection (it never releases a dead one).
      const held = await pool.connect()
      const pid = (await held.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid
      const ended = new Promise((resolve) => held.once("end", resolve))
      await admin.query("SELECT pg_terminate_backend($1)", [pid])
      await ended
      expect(reported.length).toBeGreaterThan(0)
      // The pool's only slot is free again: without the guard this waits for the dead client and times out.
      const again = await pool.connect()
      expect((await again.query("SELECT 1 AS one")).rows[0]).toEqual({ one: 1 })
      again.release()
      expect(() => held.release()).not.toThrow()
    } finally {
      await admin.end()
      await pool.end()
    }
  })
})
