import { Flags } from "@oclif/core"
import { Effect } from "effect"
import { generateServices } from "../../../src/modules/catalogue/adapters/bulk"
import { runMigrations } from "../../../src/platform/migrations"
import { JsonCommand } from "../../base"

/** A progress bar on stderr (one line redrawn on a terminal, a line per 10% otherwise). */
const progressBar = () => {
  let started: number | undefined
  const tty = process.stderr.isTTY
  let lastTenth = -1
  return (done: number, total: number) => {
    // The clock starts with the first rows (not with the database's start-up).
    started ??= performance.now()
    const ratio = total === 0 ? 1 : done / total
    const elapsed = (performance.now() - started) / 1000
    const rate = done / Math.max(elapsed, 0.001)
    const text = `${done.toLocaleString("en")}/${total.toLocaleString("en")} services  ${Math.round(rate).toLocaleString("en")}/s  ${elapsed.toFixed(1)} s`
    if (tty) {
      const width = 30
      const filled = Math.round(ratio * width)
      process.stderr.write(`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${(ratio * 100).toFixed(0).padStart(3)}%  ${text}`)
      if (done >= total) process.stderr.write("\n")
    } else if (Math.floor(ratio * 10) > lastTenth) {
      lastTenth = Math.floor(ratio * 10)
      process.stderr.write(`${(ratio * 100).toFixed(0).padStart(3)}%  ${text}\n`)
    }
  }
}

export default class SeedBulk extends JsonCommand {
  static override description =
    "Generate N realistic services fast (benchmarks): bilingual titles in 32 Canadian and European cities, by bulk providers created when missing. " +
    "Loads of 100,000 rows or more drop and rebuild the services' secondary indexes (run it on a quiet database)."
  static override examples = [
    "<%= config.bin %> seed:bulk --services 10000",
    "DATABASE_URL=postgres://... <%= config.bin %> seed:bulk --services 1000000 --json"
  ]
  static override flags = {
    services: Flags.integer({ description: "How many services to add", required: true, min: 1, max: 10_000_000 }),
    providers: Flags.integer({
      description: "Bulk providers to spread them over (created when missing)",
      default: 300,
      min: 1,
      max: 10_000
    })
  }

  async run() {
    const { flags } = await this.parse(SeedBulk)
    const onProgress = progressBar()
    const report = await this.runEffect(
      Effect.zipRight(runMigrations, generateServices({ services: flags.services, providers: flags.providers, onProgress }))
    )
    this.print(report, () =>
      [
        `Added ${report.inserted.toLocaleString("en")} services by ${report.providers} bulk providers in ${report.seconds.total} s ` +
          `(insert ${report.seconds.insert} s, indexes ${report.indexesRebuilt ? `${report.seconds.indexes} s` : "kept"}, analyze ${report.seconds.analyze} s).`,
        `The catalogue now holds ${report.totalServices.toLocaleString("en")} services.`
      ].join("\n")
    )
  }
}
