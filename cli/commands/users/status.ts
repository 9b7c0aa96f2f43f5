import { Args, Flags } from "@oclif/core"
import { JsonCommand } from "../../base"
import { changeUser, renderUser } from "../administration"

export default class UsersStatus extends JsonCommand {
  static override description = "Activate or deactivate an account (deactivation ends its sessions at once)"
  static override examples = ["<%= config.bin %> users:status 3f1c...e9 --inactive", "<%= config.bin %> users:status 3f1c...e9 --active"]
  static override args = { id: Args.string({ required: true, description: "User id" }) }
  static override flags = {
    active: Flags.boolean({ exactlyOne: ["active", "inactive"], description: "Let the account log in again" }),
    inactive: Flags.boolean({ exactlyOne: ["active", "inactive"], description: "Deactivate the account" })
  }

  async run() {
    const { args, flags } = await this.parse(UsersStatus)
    const user = await this.runEffect(changeUser(args.id, { isActive: flags.active === true }))
    this.print({ user }, () => renderUser(user))
  }
}
