import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { execFile } from "node:child_process"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveApplication, listApplications, rejectApplication, renderDecision, renderList } from "../../cli/commands/applications/shared"
import { applicationOn } from "../../src/app/application"
import { AppConfigOf } from "../../src/platform/config"
import { databaseUrlLayer, InMemoryDatabase } from "../../src/platform/database"
import { testDatabaseKind } from "../support/database"
import { httpClient, mailsTo } from "../support/http"
import type { TestServer } from "../support/server"
import { freshUser } from "../profiles/support"
import { applicationForm, submit } from "./support"

const root = path.resolve(import.meta.dirname, "../..")
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })

/**
 * The real app on a database the CLI process can reach too: PGlite served on a socket in DATA_DIR
 * (the CLI attaches to it, as to a running server), or a fresh schema on TEST_DATABASE_URL.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mkt-cli-"))
let server: TestServer
let cliEnv: Record<string, string>
let dispose: () => Promise<void>

beforeAll(async () => {
  const port = await freePort()
  let database: Layer.Layer<SqlClient.SqlClient, unknown>
  if (testDatabaseKind === "postgres") {
    const base = process.env.TEST_DATABASE_URL!
    const schema = `t_${crypto.randomBytes(6).toString("hex")}`
    const url = new URL(base)
    url.searchParams.set("options", `-c search_path=${schema},public`)
    const createSchema = Layer.scopedDiscard(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.acquireRelease(sql.unsafe(`CREATE SCHEMA ${schema}`), () => sql.unsafe(`DROP SCHEMA ${schema} CASCADE`).pipe(Effect.orDie))
      )
    ).pipe(Layer.provide(databaseUrlLayer(base, 1)))
    database = Layer.provideMerge(databaseUrlLayer(url.toString(), 5), createSchema) as Layer.Layer<SqlClient.SqlClient, unknown>
    cliEnv = { DATABASE_URL: url.toString(), DATA_DIR: dataDir }
  } else {
    database = InMemoryDatabase(dataDir)
    cliEnv = { DATABASE_URL: "", DATA_DIR: dataDir }
  }
  const layer = applicationOn(database).pipe(
    Layer.provide(AppConfigOf({ port, host: "127.0.0.1", dataDir, authRateLimit: 10_000 })),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )
  const runtime = ManagedRuntime.make(layer as Layer.Layer<any, unknown, never>)
  await runtime.runPromise(Effect.void)
  server = { url: `http://127.0.0.1:${port}`, port, stop: () => runtime.dispose(), run: (effect) => runtime.runPromise(effect as any) }
  dispose = () => runtime.dispose()
}, 60_000)
afterAll(() => dispose?.())

const applicant = async () => {
  const api = httpClient(server)
  const person = await freshUser(server, api, "CLIENT", { firstName: "Cli" })
  const reply = await submit(server, person.token, await applicationForm())
  expect(reply.status, reply.text).toBe(201)
  return { ...person, id: reply.body.data.application.id as string }
}

describe("applications:* as Effects (what the commands run)", () => {
  it("list filters and paginates; approve and reject decide as an operator; typed failures", async () => {
    const a = await applicant()
    const b = await applicant()
    const list = await server.run(listApplications({ status: "pending", search: a.email }))
    expect(list.pagination).toEqual({ total: 1, page: 1, limit: 20, pages: 1 })
    expect(list.applications[0]).toMatchObject({ id: a.id, status: "PENDING", user: { email: a.email } })
    expect(renderList(list)).toContain(a.email)
    expect(renderList({ applications: [], pagination: { total: 0, page: 1, limit: 20, pages: 0 } })).toBe("No application.")

    const approved = await server.run(approveApplication(a.id))
    expect(approved).toMatchObject({ id: a.id, status: "APPROVED", user: { email: a.email, role: "PROVIDER" } })
    expect(renderDecision("approved", approved)).toContain("role PROVIDER")
    const rejected = await server.run(rejectApplication(b.id, "Documents illisibles"))
    expect(rejected).toMatchObject({ status: "REJECTED", rejectionReason: "Documents illisibles", rejectionCount: 1 })
    expect(renderDecision("rejected", rejected)).toContain("Reason: Documents illisibles")
    expect((await mailsTo(server, b.email))[0]!.text).toContain("Documents illisibles")

    const failure = (effect: Effect.Effect<unknown, unknown, any>) =>
      server.run(Effect.flip(effect)).then((e) => (e as { code: string }).code)
    expect(await failure(rejectApplication(a.id, "x"))).toBe("APPLICATION_NOT_PENDING")
    expect(await failure(rejectApplication(b.id, "  "))).toBe("VALIDATION_ERROR")
    expect(await failure(approveApplication("nope"))).toBe("APPLICATION_NOT_FOUND")
    expect(await failure(listApplications({ status: "LOST" }))).toBe("VALIDATION_ERROR")
  })
})

// The real CLI (bin/run.mjs over dist/cli/commands.js, built by `make test` / `make build`).
const built = fs.existsSync(path.join(root, "dist/cli/commands.js")) && fs.readFileSync(path.join(root, "dist/cli/commands.js"), "utf8").includes("applications:list")
/** Runs the CLI asynchronously (the database it reaches is served by this very process). */
const cli = (...args: Array<string>) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ["bin/run.mjs", ...args],
      { cwd: root, env: { ...process.env, LOG_LEVEL: "warn", ...cliEnv }, encoding: "utf8", timeout: 60_000 },
      (error, stdout, stderr) => resolve({ status: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr })
    )
  })

describe.skipIf(!built)("bin/run applications:list | approve | reject (spawned, same database)", () => {
  it("lists as JSON, approves and rejects by id; refusals exit with code 2 and a clear message", async () => {
    const a = await applicant()
    const b = await applicant()
    const listed = await cli("applications:list", "--status", "PENDING", "--search", a.email, "--json")
    expect(listed.status, listed.stderr).toBe(0)
    const json = JSON.parse(listed.stdout)
    expect(json.pagination.total).toBe(1)
    expect(json.applications[0]).toMatchObject({ id: a.id, status: "PENDING", user: { email: a.email } })
    const text = await cli("applications:list", "--search", a.email)
    expect(text.stdout).toContain("1 application(s)")

    const approved = await cli("applications:approve", a.id, "--json")
    expect(approved.status, approved.stderr).toBe(0)
    expect(JSON.parse(approved.stdout).application).toMatchObject({ id: a.id, status: "APPROVED", user: { role: "PROVIDER" } })
    const api = httpClient(server)
    expect((await api.get("/api/auth/me", { token: a.token })).body.data.user.role).toBe("PROVIDER")

    const rejected = await cli("applications:reject", b.id, "--reason", "Pièce d'identité expirée", "--json")
    expect(rejected.status, rejected.stderr).toBe(0)
    expect(JSON.parse(rejected.stdout).application).toMatchObject({ status: "REJECTED", rejectionReason: "Pièce d'identité expirée" })

    const again = await cli("applications:approve", a.id)
    expect(again.status).toBe(2)
    expect(again.stderr).toContain("APPLICATION_NOT_PENDING")
    const noReason = await cli("applications:reject", b.id)
    expect(noReason.status).not.toBe(0)
    expect(noReason.stderr).toMatch(/reason/i)
  }, 120_000)
})
