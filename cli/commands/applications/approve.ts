import { Args } from "@oclif/core"
import { JsonCommand } from "../../base"
import { approveApplication, renderDecision } from "./shared"

export default class ApplicationsApprove extends JsonCommand {
  static override description = "Approve a PENDING provider application: its applicant becomes PROVIDER (mailed in their language)"
  static override examples = ["<%= config.bin %> applications:approve 3f1c...e9", "<%= config.bin %> applications:approve 3f1c...e9 --json"]
  static override args = { id: Args.string({ required: true, description: "Application id" }) }

  async run() {
    const { args } = await this.parse(ApplicationsApprove)
    const result = await this.runEffect(approveApplication(args.id))
    this.print({ application: result }, () => renderDecision("approved", result))
  }
}
