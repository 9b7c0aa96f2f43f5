import { Clock, Effect, Layer, ManagedRuntime, Logger, LogLevel } from "effect"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { applicationOn } from "../../src/app/application"
import { AppConfigOf, type AppConfigShape } from "../../src/platform/config"
import { freshTestDatabase } from "./database"

/** A port nobody listens on right now. */
export const freePort = () =>
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

/**
 * A clock a test moves forward by hand (timers, holds, expiries) while everything else keeps running in
 * real time: it reads the wall clock plus an offset, and sleeps for real.
 */
export const adjustableClock = () => {
  let offset = 0
  const clock: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => Date.now() + offset,
    currentTimeMillis: Effect.sync(() => Date.now() + offset),
    unsafeCurrentTimeNanos: () => BigInt(Date.now() + offset) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(Date.now() + offset) * 1_000_000n),
    sleep: (duration) => Effect.sleep(duration).pipe(Effect.withClock(Clock.make()))
  }
  return { clock, advance: (ms: number) => void (offset += ms), now: () => new Date(Date.now() + offset) }
}

/** The real application on a free port with a fresh database (demo accounts seeded). */
export const startTestServer = async (overrides: Partial<AppConfigShape> = {}, options: { readonly clock?: Clock.Clock } = {}): Promise<TestServer> => {
  const port = await freePort()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mkt-server-"))
  const layer = applicationOn(freshTestDatabase()).pipe(
    Layer.provide(AppConfigOf({ port, host: "127.0.0.1", dataDir, authRateLimit: 10_000, ...overrides })),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning)),
    Layer.provide(options.clock ? Layer.setClock(options.clock) : Layer.empty)
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
