import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { startTestServer } from "./server"

/** What a run of the real CLI answers. */
export interface CliResult {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}
export type CliRun = (...args: Array<string>) => Promise<CliResult>

const root = path.resolve(import.meta.dirname, "../..")

/** Whether the real CLI is built (bin/run.mjs over dist/cli/commands.js, built by `make test`) and knows a command. */
export const cliBuiltWith = (command: string) => {
  const file = path.join(root, "dist/cli/commands.js")
  return fs.existsSync(file) && fs.readFileSync(file, "utf8").includes(command)
}

/**
 * A test server whose database a spawned CLI process can reach too: on PGlite its socket in the
 * server's DATA_DIR (the CLI attaches to it, as to a running server), on PostgreSQL its database URL.
 * `cli(...args)` runs `bin/run.mjs` asynchronously (the database it reaches is served by this process).
 */
export const startCliReachableServer = async (...serverOptions: Parameters<typeof startTestServer>) => {
  const server = await startTestServer(...serverOptions)
  const cliEnv = { DATABASE_URL: server.databaseUrl ?? "", DATA_DIR: server.dataDir }
  const cli: CliRun = (...args) =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        ["bin/run.mjs", ...args],
        { cwd: root, env: { ...process.env, LOG_LEVEL: "warn", ...cliEnv }, encoding: "utf8", timeout: 60_000 },
        (error, stdout, stderr) => resolve({ status: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr })
      )
    })
  return { server, cli }
}
