import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { freePort } from "./server"

/**
 * A PostgreSQL cluster of its own for a fault test, made with the machine's binaries (initdb, pg_ctl)
 * in a temp folder on a free port, that the test stops and starts at will. PostgreSQL refuses to run
 * as root: as root (CI), the folder is given to the `postgres` user and the binaries run as it.
 */
export interface ThrowawayCluster {
  readonly port: number
  /** The URL of a database of the cluster (`postgres` unless named). */
  readonly url: (database?: string) => string
  /** Stops it as a crash or a failover would (`pg_ctl stop -m immediate`). */
  readonly crash: () => void
  readonly start: () => void
  readonly running: () => boolean
  /** Stops it (if running) and deletes its folder. */
  readonly destroy: () => void
}

/**
 * The folder of `initdb` and `pg_ctl`: `pg_config --bindir`, else the newest /usr/lib/postgresql/N/bin;
 * none when they are missing, or when running as root without a `postgres` user to run them as.
 */
export const postgresBinaries = (): string | undefined => {
  if (process.getuid?.() === 0) {
    try {
      execFileSync("id", ["-u", "postgres"], { stdio: "ignore" })
    } catch {
      return undefined
    }
  }
  const has = (dir: string) => fs.existsSync(path.join(dir, "initdb")) && fs.existsSync(path.join(dir, "pg_ctl"))
  try {
    const dir = execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim()
    if (has(dir)) return dir
  } catch {
    // no pg_config on the PATH
  }
  const root = "/usr/lib/postgresql"
  if (!fs.existsSync(root)) return undefined
  const versions = fs
    .readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a))
  return versions.map((v) => path.join(root, v, "bin")).find(has)
}

export const startThrowawayCluster = async (bin: string): Promise<ThrowawayCluster> => {
  const port = await freePort()
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "mkt-pgcluster-"))
  const dataDir = path.join(root, "data")
  const asRoot = process.getuid?.() === 0
  if (asRoot) execFileSync("chown", ["-R", "postgres:postgres", root])
  const run = (tool: string, args: ReadonlyArray<string>) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", path.join(bin, tool), ...args], { stdio: "pipe", cwd: root })
      : execFileSync(path.join(bin, tool), [...args], { stdio: "pipe", cwd: root })
  run("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C"])
  // Its socket in its own folder; fsync off (a process crash loses nothing the OS has, and that is what is tested).
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`
  let running = false
  const start = () => {
    run("pg_ctl", ["-D", dataDir, "-o", options, "-l", path.join(root, "log"), "-w", "-t", "30", "start"])
    running = true
  }
  const crash = () => {
    run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"])
    running = false
  }
  start()
  return {
    port,
    url: (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`,
    crash,
    start,
    running: () => running,
    destroy: () => {
      try {
        if (running) crash()
      } finally {
        fs.rmSync(root, { recursive: true, force: true })
      }
    }
  }
}
