import { Flags } from "@oclif/core"
import { JsonCommand } from "../../base"
import { listApplications, renderList } from "./shared"

export default class ApplicationsList extends JsonCommand {
  static override description = "List provider applications (newest submission first), with search and status filter"
  static override examples = [
    "<%= config.bin %> applications:list",
    "<%= config.bin %> applications:list --status PENDING --json",
    "<%= config.bin %> applications:list --search dubois --page 2 --limit 50"
  ]
  static override flags = {
    status: Flags.string({ description: "PENDING, APPROVED or REJECTED (all when omitted)" }),
    search: Flags.string({ description: "Part of the applicant's first name, last name or email" }),
    page: Flags.integer({ default: 1, min: 1 }),
    limit: Flags.integer({ default: 20, min: 1, max: 100 })
  }

  async run() {
    const { flags } = await this.parse(ApplicationsList)
    const list = await this.runEffect(listApplications(flags))
    this.print(list, () => renderList(list))
  }
}
