import { Effect } from "effect"
import { seedDemoData } from "../../src/app/seed"
import { runMigrations } from "../../src/platform/migrations"
import { JsonCommand } from "../base"

export default class Seed extends JsonCommand {
  static override description =
    "Create the demo accounts (an admin, providers and clients with verified emails); running it again changes nothing"
  static override examples = ["<%= config.bin %> seed", "<%= config.bin %> seed --json"]

  async run() {
    await this.parse(Seed)
    const accounts = await this.runEffect(Effect.zipRight(runMigrations, seedDemoData))
    const rows = accounts.map(({ email, password, role, firstName, lastName, created }) => ({
      email,
      password,
      role,
      firstName,
      lastName,
      created
    }))
    this.print({ accounts: rows }, () =>
      [
        `Demo accounts (${rows.filter((r) => r.created).length} created, ${rows.filter((r) => !r.created).length} already there):`,
        ...rows.map((r) => `  ${r.role.padEnd(8)} ${r.email.padEnd(36)} ${r.password}`)
      ].join("\n")
    )
  }
}
