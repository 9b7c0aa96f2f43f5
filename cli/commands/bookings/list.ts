import { Flags } from "@oclif/core"
import { JsonCommand } from "../../base"
import { listBookings, renderList } from "./shared"

export default class BookingsList extends JsonCommand {
  static override description = "List bookings (latest start first), with a status filter"
  static override examples = ["<%= config.bin %> bookings:list", "<%= config.bin %> bookings:list --status PAID,CONFIRMED --json"]
  static override flags = {
    status: Flags.string({
      description:
        "One or more of PENDING, PAID, CONFIRMED, IN_PROGRESS, SERVICE_RENDERED, COMPLETED, VALIDATED, REJECTED, CANCELLED (comma-separated)"
    }),
    page: Flags.integer({ default: 1, min: 1 }),
    limit: Flags.integer({ default: 20, min: 1, max: 100 })
  }

  async run() {
    const { flags } = await this.parse(BookingsList)
    const list = await this.runEffect(listBookings(flags))
    this.print(list, () => renderList(list))
  }
}
