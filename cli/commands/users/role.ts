import { Args } from "@oclif/core"
import { JsonCommand } from "../../base"
import { changeUser, renderUser } from "../administration"

export default class UsersRole extends JsonCommand {
  static override description = "Change an account's role (CLIENT, PROVIDER or ADMIN)"
  static override examples = ["<%= config.bin %> users:role 3f1c...e9 PROVIDER"]
  static override args = {
    id: Args.string({ required: true, description: "User id" }),
    role: Args.string({ required: true, description: "CLIENT (or USER), PROVIDER or ADMIN" })
  }

  async run() {
    const { args } = await this.parse(UsersRole)
    const user = await this.runEffect(changeUser(args.id, { role: args.role }))
    this.print({ user }, () => renderUser(user))
  }
}
