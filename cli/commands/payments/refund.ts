import { Args, Flags } from "@oclif/core"
import { JsonCommand } from "../../base"
import { refundBooking, renderBooking } from "../bookings/shared"

export default class PaymentsRefund extends JsonCommand {
  static override description =
    "Refund a booking's captured payment, in full or in part (reverses the provider's transfer and the platform fee in proportion)"
  static override examples = [
    '<%= config.bin %> payments:refund 3f1c...e9 --reason "Service not given"',
    '<%= config.bin %> payments:refund 3f1c...e9 --amount 1500 --reason "Arrived an hour late" --json'
  ]
  static override args = { bookingId: Args.string({ required: true, description: "Booking id" }) }
  static override flags = {
    amount: Flags.integer({ description: "Amount in the currency's minor unit (cents); the whole refundable amount when omitted", min: 1 }),
    reason: Flags.string({ required: true, description: "Why (kept with the refund and in the audit log)" })
  }

  async run() {
    const { args, flags } = await this.parse(PaymentsRefund)
    const booking = await this.runEffect(refundBooking(args.bookingId, flags.amount, flags.reason))
    this.print({ booking }, () => renderBooking(booking))
  }
}
