import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { applicationOn } from "../../src/app/application"
import { AppConfigOf } from "../../src/platform/config"
import { InMemoryDatabase } from "../../src/platform/database"
import { freshTestSchema, testDatabaseKind } from "./database"
import { freePort, type TestServer } from "./server"

const root = path.resolve(import.meta.dirname, "../..")

/** Whether the real CLI is built (bin/run.mjs over dist/cli/commands.js, built by `make test`) and knows a command. */
export const cliBuiltWith = (command: string) => {
  const file = path.join(root, "dist/cli/commands.js")
  return fs.existsSync(file) && fs.readFileSync(file, "utf8").includes(command)
}

/**
 * The real app on a database a spawned CLI process can reach too: PGlite served on a socket in
 * DATA_DIR (the CLI attaches to it, as to a running server), or a fresh schema on TEST_DATABASE_URL.
 * `cli(...args)` runs `bin/run.mjs` asynchronously (the database it reaches is served by this process).
 */
export const startCliReachableServer = async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mkt-cli-"))
  const port = await freePort()
  let database: Layer.Layer<SqlClient.SqlClient, unknown>
  let cliEnv: Record<string, string>
  if (testDatabaseKind === "postgres") {
    const schema = freshTestSchema("postgres")
    database = schema.layer
    cliEnv = { DATABASE_URL: schema.url!, DATA_DIR: dataDir }
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
  const server: TestServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    databaseUrl: undefined,
    stop: () => runtime.dispose(),
    run: (effect) => runtime.runPromise(effect as any)
  }
  const cli = (...args: Array<string>) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ["bin/run.mjs", ...args],
        { cwd: root, env: { ...process.env, LOG_LEVEL: "warn", ...cliEnv }, encoding: "utf8", timeout: 60_000 },
        (error, stdout, stderr) => resolve({ status: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr })
      )
    })
  return { server, cli }
}
