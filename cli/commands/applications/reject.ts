import { Args, Flags } from "@oclif/core"
import { JsonCommand } from "../../base"
import { rejectApplication, renderDecision } from "./shared"

export default class ApplicationsReject extends JsonCommand {
  static override description =
    "Reject a PENDING provider application with a reason (mailed to the applicant in their language); starts the resubmission cooldown"
  static override examples = ['<%= config.bin %> applications:reject 3f1c...e9 --reason "Pièce d\'identité illisible"']
  static override args = { id: Args.string({ required: true, description: "Application id" }) }
  static override flags = { reason: Flags.string({ required: true, description: "Why it is refused (shown to the applicant)" }) }

  async run() {
    const { args, flags } = await this.parse(ApplicationsReject)
    const result = await this.runEffect(rejectApplication(args.id, flags.reason))
    this.print({ application: result }, () => renderDecision("rejected", result))
  }
}
