import { Flags } from "@oclif/core"
import { JsonCommand } from "../../base"
import { listUsers, renderUsers } from "../administration"

export default class UsersList extends JsonCommand {
  static override description = "List accounts (newest first) with search, role and status filters"
  static override examples = [
    "<%= config.bin %> users:list --role PROVIDER",
    "<%= config.bin %> users:list --search dubois --status inactive --json"
  ]
  static override flags = {
    search: Flags.string({ description: "Name or email (substring, any case)" }),
    role: Flags.string({ description: "CLIENT (or USER), PROVIDER or ADMIN" }),
    status: Flags.string({ options: ["active", "inactive"], description: "Active or inactive accounts only" }),
    page: Flags.integer({ default: 1, min: 1 }),
    limit: Flags.integer({ default: 20, min: 1, max: 100 })
  }

  async run() {
    const { flags } = await this.parse(UsersList)
    const list = await this.runEffect(listUsers(flags))
    this.print(list, () => renderUsers(list))
  }
}
