import { Args, Flags } from "@oclif/core"
import { JsonCommand } from "../../base"
import { renderBooking, setBookingStatus } from "./shared"

export default class BookingsStatus extends JsonCommand {
  static override description =
    "Set a booking's status as an administrator, through the booking rules: CONFIRMED, REJECTED (--reason), CANCELLED (releases the card hold) or VALIDATED (captures the payment)"
  static override examples = [
    "<%= config.bin %> bookings:status 3f1c...e9 VALIDATED",
    '<%= config.bin %> bookings:status 3f1c...e9 REJECTED --reason "Provider unavailable"'
  ]
  static override args = {
    id: Args.string({ required: true, description: "Booking id" }),
    status: Args.string({ required: true, description: "CONFIRMED, REJECTED, CANCELLED or VALIDATED" })
  }
  static override flags = { reason: Flags.string({ description: "Reason (required to reject)" }) }

  async run() {
    const { args, flags } = await this.parse(BookingsStatus)
    const booking = await this.runEffect(setBookingStatus(args.id, args.status, flags.reason))
    this.print({ booking }, () => renderBooking(booking))
  }
}
