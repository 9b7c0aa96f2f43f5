import { Command, Flags } from "@oclif/core"
import { Cause, Effect, Exit, Layer, ManagedRuntime, Option } from "effect"
import { LiveDomain } from "../src/app/layers"
import { AppConfigLive } from "../src/platform/config"
import { errorText, isAppError } from "../src/platform/errors"
import { PinoLoggerLive } from "../src/platform/logger"

/** What every command can use: the same application layers as the server. */
const cliLayer = () =>
  LiveDomain({ attachToRunning: true }).pipe(
    Layer.provide(AppConfigLive),
    Layer.provideMerge(PinoLoggerLive(process.env.LOG_LEVEL ?? "warn", 2))
  )
export type CliServices = Layer.Layer.Success<ReturnType<typeof cliLayer>>

/**
 * Base of every admin command: runs one Effect on a managed runtime built from the server's own
 * layers (the embedded database is shared with a running server through its socket), prints
 * typed failures as a clear message with exit code 2, and always disposes the runtime.
 */
export abstract class EffectCommand extends Command {
  protected async runEffect<A>(effect: Effect.Effect<A, unknown, CliServices>): Promise<A> {
    const runtime = ManagedRuntime.make(cliLayer())
    try {
      const exit = await runtime.runPromiseExit(effect)
      if (Exit.isSuccess(exit)) return exit.value
      const failure = Cause.failureOption(exit.cause)
      if (Option.isSome(failure) && isAppError(failure.value)) {
        this.error(errorText(failure.value, "en"), { exit: 2 })
      }
      const squashed = Cause.squash(exit.cause)
      this.error(squashed instanceof Error ? squashed.message : Cause.pretty(exit.cause), { exit: 1 })
    } finally {
      await runtime.dispose()
    }
  }

  protected print(json: boolean, value: unknown, text: () => string) {
    this.log(json ? JSON.stringify(value, null, 2) : text())
  }
}

/** A command whose result can also be printed as JSON (`--json`): every command but the CSV exports. */
export abstract class JsonCommand extends EffectCommand {
  static override baseFlags = {
    json: Flags.boolean({ description: "Print the result as JSON", default: false })
  }
}
