import { Flags } from "@oclif/core"
import { JsonCommand } from "../../base"
import { financeStats, renderStats } from "../administration"

export default class FinanceStats extends JsonCommand {
  static override description = "Revenue, 5% commissions, refunds and payment counts of the last week, month or year, in one currency"
  static override examples = ["<%= config.bin %> finance:stats", "<%= config.bin %> finance:stats --period year --currency EUR --json"]
  static override flags = {
    period: Flags.string({ options: ["week", "month", "year"], default: "month" }),
    currency: Flags.string({ description: "ISO code (by default the one with the most payment operations)" })
  }

  async run() {
    const { flags } = await this.parse(FinanceStats)
    const stats = await this.runEffect(financeStats(flags.period, flags.currency))
    this.print(stats, () => renderStats(stats))
  }
}
