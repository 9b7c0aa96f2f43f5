import { Flags } from "@oclif/core"
import { Effect } from "effect"
import * as crypto from "node:crypto"
import { Identity } from "../../../src/modules/identity"
import { runMigrations } from "../../../src/platform/migrations"
import { JsonCommand } from "../../base"

/** A password that meets the registration rule (upper, lower, digit, special, 8+). */
const generatedPassword = () => `Adm!${crypto.randomBytes(9).toString("base64url")}7a`

export default class CreateAdmin extends JsonCommand {
  static override description = "Create an administrator account (email verified); prints the password when generated"
  static override examples = [
    "<%= config.bin %> users:create-admin --email ops@example.com",
    "<%= config.bin %> users:create-admin --email ops@example.com --password 'S3cure!pass' --json"
  ]
  static override flags = {
    email: Flags.string({ required: true, description: "Email of the new administrator" }),
    password: Flags.string({ description: "Password (generated when omitted)" }),
    "first-name": Flags.string({ default: "Admin" }),
    "last-name": Flags.string({ default: "Marketplace" }),
    phone: Flags.string({ default: "0000000000", description: "Phone number, digits only (10+)" })
  }

  async run() {
    const { flags } = await this.parse(CreateAdmin)
    const password = flags.password ?? generatedPassword()
    const user = await this.runEffect(
      Effect.zipRight(
        runMigrations,
        Effect.flatMap(Identity, (identity) =>
          identity.createAccount({
            email: flags.email,
            password,
            confirmPassword: password,
            firstName: flags["first-name"],
            lastName: flags["last-name"],
            phoneNumber: flags.phone,
            role: "ADMIN"
          })
        )
      )
    )
    const result = { id: user.id, email: user.email, role: user.role, ...(flags.password ? {} : { password }) }
    this.print(
      result,
      () => `Administrator ${user.email} created (id ${user.id}).${flags.password ? "" : `\nGenerated password: ${password}`}`
    )
  }
}
