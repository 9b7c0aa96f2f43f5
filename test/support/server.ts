import { Effect, Layer, ManagedRuntime, Logger, LogLevel } from "effect"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { applicationOn } from "../../src/app/application"
import { AppConfigOf, type AppConfigShape } from "../../src/platform/config"
import { freshTestDatabase } from "./database"

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })

export interface TestServer {
  readonly url: string
  readonly port: number
  readonly stop: () => Promise<void>
  /** Runs an effect against the server's own services and database. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>
}

/** The real application on a free port with a fresh database (demo accounts seeded). */
export const startTestServer = async (overrides: Partial<AppConfigShape> = {}): Promise<TestServer> => {
  const port = await freePort()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mkt-server-"))
  const layer = applicationOn(freshTestDatabase()).pipe(
    Layer.provide(AppConfigOf({ port, host: "127.0.0.1", dataDir, authRateLimit: 10_000, ...overrides })),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )
  const runtime = ManagedRuntime.make(layer as Layer.Layer<any, unknown, never>)
  await runtime.runPromise(Effect.void)
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: () => runtime.dispose(),
    run: (effect) => runtime.runPromise(effect as Effect.Effect<any, any, any>)
  }
}
