import { Flags } from "@oclif/core"
import { EffectCommand } from "../../base"
import { exportCsv, writeOrPrint } from "../administration"

// CSV only: no --json (refused as an unknown flag rather than ignored).
export default class ExportBookings extends EffectCommand {
  static override description = "Export bookings as CSV (RFC 4180), those starting between --from and --to (inclusive days, UTC)"
  static override examples = [
    "<%= config.bin %> export:bookings --from 2025-01-01 --to 2025-01-31 --currency EUR --output bookings.csv",
    "<%= config.bin %> export:bookings > bookings.csv"
  ]
  static override flags = {
    from: Flags.string({ description: "First day, YYYY-MM-DD" }),
    to: Flags.string({ description: "Last day, YYYY-MM-DD" }),
    currency: Flags.string({ description: "Only this currency (ISO code: EUR, CAD...); every currency when omitted" }),
    output: Flags.string({ char: "o", description: "File to write (standard output when omitted)" })
  }

  async run() {
    const { flags } = await this.parse(ExportBookings)
    const text = await this.runEffect(exportCsv("bookings", flags))
    writeOrPrint(text, flags.output, (line) => this.log(line))
  }
}
