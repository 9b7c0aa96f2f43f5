import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { changeUser, exportCsv, financeStats, listUsers, renderStats, renderUsers } from "../../cli/commands/administration"
import { cliBuiltWith } from "../support/cli"
import { cliWorld } from "../support/world"
import { freshUser } from "../support/accounts"
import { parseCsv } from "./csv"
import { scratchDir } from "../support/scratch"

const { server, api, cli, failureCode } = cliWorld()

describe("users:*, export:*, finance:* as Effects (what the commands run)", () => {
  it("lists and changes users through identity's rules", async () => {
    const person = await freshUser(server, api, "CLIENT", { firstName: "Ginette" })
    const list = await server.run(listUsers({ search: person.email, status: "active" }))
    expect(list.users).toEqual([expect.objectContaining({ id: person.user.id, role: "CLIENT", isActive: true })])
    expect(renderUsers(list)).toContain(person.email)
    expect(await server.run(changeUser(person.user.id, { isActive: false }))).toMatchObject({ isActive: false })
    expect(await server.run(changeUser(person.user.id, { role: "provider" }))).toMatchObject({ role: "PROVIDER" })
    expect(await failureCode(changeUser(person.user.id, { role: "KING" }))).toBe("VALIDATION_ERROR")
    expect(await failureCode(changeUser("00000000-0000-4000-8000-000000000001", { isActive: true }))).toBe("USER_NOT_FOUND")
    expect(await failureCode(listUsers({ status: "sleeping" }))).toBe("VALIDATION_ERROR")
  })

  it("exports the demo bookings and payments as CSV with proper quoting; finance stats", async () => {
    const bookings = parseCsv(await server.run(exportCsv("bookings", {})))
    expect(bookings[0]).toEqual([
      "id",
      "status",
      "paymentStatus",
      "startTime",
      "endTime",
      "service",
      "category",
      "clientName",
      "clientEmail",
      "providerName",
      "providerEmail",
      "totalMinor",
      "capturedMinor",
      "refundedMinor",
      "commissionMinor",
      "currency",
      "createdAt"
    ])
    expect(bookings.length).toBeGreaterThan(1)
    expect(bookings.slice(1).every((row) => row.length === 17)).toBe(true)
    const clients = bookings.slice(1).map((row) => row[8])
    expect(clients).toContain("lucas.bernard@marketplace.local")
    // Only days in range: nothing starts before 2000.
    expect(parseCsv(await server.run(exportCsv("bookings", { to: "1999-12-31" })))).toHaveLength(1)
    expect(await failureCode(exportCsv("bookings", { from: "31/12/2024" }))).toBe("VALIDATION_ERROR")

    const payments = parseCsv(await server.run(exportCsv("payments", {})))
    expect(payments[0]!.slice(0, 4)).toEqual(["id", "bookingId", "kind", "status"])
    expect(payments.slice(1).some((row) => row[2] === "CAPTURE" && row[3] === "COMPLETED")).toBe(true)

    // One currency: only its rows; an unsupported one is refused.
    const currency = payments[1]![6]!
    const inOne = parseCsv(await server.run(exportCsv("payments", { currency: currency.toLowerCase() })))
    expect(inOne.length).toBeGreaterThan(1)
    expect(inOne.slice(1).every((row) => row[6] === currency)).toBe(true)
    const bookingsInOne = parseCsv(await server.run(exportCsv("bookings", { currency })))
    expect(bookingsInOne.slice(1).every((row) => row[15] === currency)).toBe(true)
    expect(await failureCode(exportCsv("payments", { currency: "ZZZ" }))).toBe("VALIDATION_ERROR")

    // The most active currency by default.
    const stats = await server.run(financeStats("year", undefined))
    expect(stats.currency).toBe(stats.currencies[0])
    expect(renderStats(stats)).toContain("Gross revenue")
    expect(renderStats(stats)).toContain("Net to providers")
    expect(await failureCode(financeStats("decade", undefined))).toBe("VALIDATION_ERROR")
  })
})

const built = cliBuiltWith("finance:stats")

describe.skipIf(!built)("bin/run users:* | export:* | finance:stats (spawned, same database)", () => {
  it("lists, deactivates and changes roles; exports CSV to a file; exits 3 on a refusal (2 is oclif's for usage errors)", async () => {
    const person = await freshUser(server, api, "CLIENT", { lastName: 'Virgule, "dite" Gigi' })
    const listed = await cli("users:list", "--search", person.email, "--json")
    expect(listed.status, listed.stderr).toBe(0)
    expect(JSON.parse(listed.stdout).users[0]).toMatchObject({ id: person.user.id, isActive: true })

    const off = await cli("users:status", person.user.id, "--inactive", "--json")
    expect(off.status, off.stderr).toBe(0)
    expect(JSON.parse(off.stdout).user.isActive).toBe(false)
    expect((await api.post("/api/auth/login", { email: person.email, password: person.password })).status).toBe(401)
    expect((await cli("users:role", person.user.id, "ADMIN")).stdout).toContain("ADMIN")
    const bad = await cli("users:role", person.user.id, "KING")
    expect(bad.status).toBe(3)
    expect(bad.stderr).toContain("VALIDATION_ERROR")
    // Under --json a failure is JSON too, on standard output, with the same exit codes: 3 for the
    // domain's refusal, 2 for oclif's usage errors.
    const badAsJson = await cli("users:role", person.user.id, "KING", "--json")
    expect(badAsJson.status).toBe(3)
    expect(JSON.parse(badAsJson.stdout)).toEqual({
      error: { code: "VALIDATION_ERROR", message: expect.stringContaining("VALIDATION_ERROR"), exit: 3 }
    })
    const usage = await cli("users:list", "--colour", "red", "--json")
    expect(usage.status).toBe(2)
    expect(JSON.parse(usage.stdout)).toEqual({ error: { code: "USAGE", message: expect.stringContaining("--colour"), exit: 2 } })

    const file = path.join(scratchDir("export"), "bookings.csv")
    const exported = await cli("export:bookings", "--output", file)
    expect(exported.status, exported.stderr).toBe(0)
    expect(exported.stdout).toMatch(/rows written to/)
    expect(parseCsv(fs.readFileSync(file, "utf8"))[0]![0]).toBe("id")
    const payments = await cli("export:payments")
    expect(payments.stdout.startsWith("id,bookingId,kind,status")).toBe(true)
    // An export writes CSV: --json is refused, not ignored (issue 23).
    const asJson = await cli("export:bookings", "--json")
    expect(asJson.status).not.toBe(0)
    expect(asJson.stderr).toContain("--json")
    expect(asJson.stdout).toBe("")
    const stats = await cli("finance:stats", "--period", "year", "--json")
    expect(stats.status, stats.stderr).toBe(0)
    const parsed = JSON.parse(stats.stdout)
    expect(parsed).toMatchObject({ period: "year", currency: parsed.currencies[0] })
    const inOne = await cli("export:payments", "--currency", parsed.currency)
    expect(inOne.status, inOne.stderr).toBe(0)
    expect(
      parseCsv(inOne.stdout)
        .slice(1)
        .every((row) => row[6] === parsed.currency)
    ).toBe(true)
  }, 120_000)
})
