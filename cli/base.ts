import { Command } from "@oclif/core"
import { Cause, Effect, Exit, Layer, ManagedRuntime, Option } from "effect"
import { LiveDomain } from "../src/app/layers"
import { AppConfigLive } from "../src/platform/config"
import { errorBody, errorText, isAppError } from "../src/platform/errors"
import { PinoLoggerLive } from "../src/platform/logger"

/** What every command can use: the same application layers as the server. */
const cliLayer = () =>
  LiveDomain({ attachToRunning: true }).pipe(
    Layer.provide(AppConfigLive),
    Layer.provideMerge(PinoLoggerLive(process.env.LOG_LEVEL ?? "warn", 2))
  )
export type CliServices = Layer.Layer.Success<ReturnType<typeof cliLayer>>

/**
 * Exit codes, distinct so that a script can tell them apart: oclif's own usage errors (an unknown
 * flag, a missing argument) exit 2, so the domain's refusals take 3.
 */
export const ExitCodes = { ok: 0, unexpected: 1, usage: 2, refused: 3 } as const

/**
 * Base of every admin command: runs one Effect on a managed runtime built from the server's own
 * layers (the embedded database is shared with a running server through its socket), prints
 * typed failures as a clear message with exit code 3 (its error code beside it), and always
 * disposes the runtime.
 */
export abstract class EffectCommand extends Command {
  protected async runEffect<A>(effect: Effect.Effect<A, unknown, CliServices>): Promise<A> {
    const runtime = ManagedRuntime.make(cliLayer())
    try {
      const exit = await runtime.runPromiseExit(effect)
      if (Exit.isSuccess(exit)) return exit.value
      const failure = Cause.failureOption(exit.cause)
      if (Option.isSome(failure) && isAppError(failure.value)) {
        this.error(errorText(failure.value, "en"), { exit: ExitCodes.refused, code: errorBody(failure.value, "en").code })
      }
      const squashed = Cause.squash(exit.cause)
      this.error(squashed instanceof Error ? squashed.message : Cause.pretty(exit.cause), { exit: ExitCodes.unexpected })
    } finally {
      await runtime.dispose()
    }
  }

  protected print(value: unknown, text: () => string) {
    if (this.jsonEnabled()) this.logJson(value)
    else this.log(text())
  }
}

/**
 * A command whose result can also be printed as JSON: oclif's own `--json` (enableJsonFlag), so a
 * failure under it is JSON too, on standard output: `{ "error": { "code", "message", "exit" } }`,
 * usage errors included. Every command but the CSV exports, which refuse the flag.
 */
export abstract class JsonCommand extends EffectCommand {
  static override enableJsonFlag = true

  protected override toErrorJson(err: unknown) {
    const error = err as { message?: string; code?: string; oclif?: { exit?: number } }
    const exit = error.oclif?.exit ?? ExitCodes.unexpected
    return {
      error: { code: error.code ?? (exit === ExitCodes.usage ? "USAGE" : "UNEXPECTED"), message: error.message ?? String(err), exit }
    }
  }
}
