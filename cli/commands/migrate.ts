import { runMigrations } from "../../src/platform/migrations"
import { JsonCommand } from "../base"

export default class Migrate extends JsonCommand {
  static override description = "Apply pending database migrations (migrations/*.sql, in order)"
  static override examples = ["<%= config.bin %> migrate", "DATABASE_URL=postgres://... <%= config.bin %> migrate --json"]

  async run() {
    await this.parse(Migrate)
    const applied = await this.runEffect(runMigrations)
    const names = applied.map(([id, name]) => `${String(id).padStart(4, "0")}_${name}`)
    this.print({ applied: names }, () =>
      names.length === 0 ? "Database is up to date." : `Applied ${names.length} migration(s):\n  ${names.join("\n  ")}`
    )
  }
}
