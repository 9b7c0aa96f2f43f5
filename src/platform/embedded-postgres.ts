import { PGlite } from "@electric-sql/pglite"
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist"
import { citext } from "@electric-sql/pglite/contrib/citext"
import { cube } from "@electric-sql/pglite/contrib/cube"
import { earthdistance } from "@electric-sql/pglite/contrib/earthdistance"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { unaccent } from "@electric-sql/pglite/contrib/unaccent"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Data, Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { rootLogger } from "./logger"

/**
 * PGlite served over the PostgreSQL wire protocol on a unix socket inside the data folder, so the
 * application talks to it with the same PgClient as to a real server (one code path), and the CLI
 * can reach the running server's database instead of opening the folder a second time.
 */
export class EmbeddedDatabaseError extends Data.TaggedError("EmbeddedDatabaseError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

export interface EmbeddedConnection {
  /** Directory holding the `.s.PGSQL.5432` socket: node-postgres' `host` for unix sockets. */
  readonly socketDir: string
  /** Whether this process owns the database (false when it attached to a running server). */
  readonly owner: boolean
}

const SOCKET_PORT = 5432
const socketFile = (dir: string) => path.join(dir, `.s.PGSQL.${SOCKET_PORT}`)

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** Takes the lock file, or reports the live process that holds it. A stale lock is taken over. */
const acquireLock = (lockFile: string): { readonly acquired: true } | { readonly acquired: false; readonly pid: number } => {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: "wx" })
      return { acquired: true }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
      const pid = Number(fs.readFileSync(lockFile, "utf8").trim())
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) return { acquired: false, pid }
      fs.rmSync(lockFile, { force: true })
    }
  }
  throw new Error(`could not take ${lockFile}`)
}

export interface EmbeddedOptions {
  /** Folder for the data files; `undefined` keeps the database in memory (tests). */
  readonly dataDir: string | undefined
  /** Folder for the lock file and the socket (defaults to `dataDir`). */
  readonly runDir: string
  readonly maxConnections: number
  /** When another live process holds the database, connect to its socket instead of failing. */
  readonly attachToRunning: boolean
  /** A data directory dumped by `dumpTo` to start from (tests copy one migrated database instead of migrating each). */
  readonly loadFrom?: string
  /** Where to write the data directory (a tarball) when the database closes. */
  readonly dumpTo?: string
}

export const startEmbedded = (options: EmbeddedOptions) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        fs.mkdirSync(options.runDir, { recursive: true })
        const lockFile = path.join(options.runDir, "pglite.lock")
        const lock = acquireLock(lockFile)
        if (!lock.acquired) {
          if (options.attachToRunning && fs.existsSync(socketFile(options.runDir))) {
            return { connection: { socketDir: options.runDir, owner: false }, close: async () => {} }
          }
          throw new Error(`the embedded database in ${options.runDir} is in use by process ${lock.pid}; stop it or set DATABASE_URL`)
        }
        try {
          fs.rmSync(socketFile(options.runDir), { force: true })
          if (options.dataDir) fs.mkdirSync(options.dataDir, { recursive: true })
          const db = await PGlite.create({
            ...(options.dataDir ? { dataDir: options.dataDir } : {}),
            ...(options.loadFrom ? { loadDataDir: new Blob([fs.readFileSync(options.loadFrom)]) } : {}),
            // Only the extensions the migrations use: each one costs start-up time.
            extensions: { btree_gist, citext, cube, earthdistance, pg_trgm, unaccent }
          })
          const server = new PGLiteSocketServer({
            db,
            path: socketFile(options.runDir),
            maxConnections: options.maxConnections
          })
          // A client socket that breaks (a killed CLI, a reset) is reported as an `error` event: logged, never fatal.
          server.addEventListener("error", (event) => {
            const detail = (event as CustomEvent<unknown>).detail
            rootLogger().warn({ err: detail instanceof Error ? detail.message : String(detail) }, "embedded database: connection error")
          })
          await server.start()
          const close = async () => {
            await server.stop()
            if (options.dumpTo) fs.writeFileSync(options.dumpTo, Buffer.from(await (await db.dumpDataDir("none")).arrayBuffer()))
            await db.close()
            fs.rmSync(socketFile(options.runDir), { force: true })
            fs.rmSync(lockFile, { force: true })
          }
          return { connection: { socketDir: options.runDir, owner: true } as EmbeddedConnection, close }
        } catch (error) {
          fs.rmSync(lockFile, { force: true })
          throw error
        }
      },
      catch: (cause) => new EmbeddedDatabaseError({ message: cause instanceof Error ? cause.message : String(cause), cause })
    }),
    ({ close }) => Effect.promise(close)
  ).pipe(Effect.map(({ connection }) => connection))
