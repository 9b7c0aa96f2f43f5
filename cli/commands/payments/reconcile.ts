import { Effect } from "effect"
import { Bookings } from "../../../src/modules/booking"
import { PaymentGatewayUnavailable } from "../../../src/modules/payments"
import { JsonCommand } from "../../base"

/** The reconciliation report as text, one line per action. */
const render = (r: Effect.Effect.Success<Bookings["Type"]["reconcile"]>) =>
  [
    `Gateway: ${r.holdsListed} open hold(s), ${r.sessionsListed} completed session(s); ${r.holdsReferenced} hold(s) referenced by their booking.`,
    ...r.applied.map((a) => `applied   ${a.kind === "hold" ? "hold      " : "saved card"}  booking ${a.bookingId}  (${a.reference})`),
    ...r.released.map((h) => `released  hold ${h.paymentIntentId}  ${h.bookingId ? `booking ${h.bookingId}` : "(no such booking)"}`),
    ...r.deferred.map((h) => `deferred  hold ${h.paymentIntentId}  (${h.reason})`),
    r.applied.length + r.released.length + r.deferred.length === 0 ? "Nothing to do." : ""
  ]
    .filter((line) => line !== "")
    .join("\n")

export default class PaymentsReconcile extends JsonCommand {
  static override description =
    "Compare the payment gateway's open holds and completed checkout sessions with the bookings: apply missed completions, release holds no booking references (the server also runs this every 10 minutes)"
  static override examples = ["<%= config.bin %> payments:reconcile", "<%= config.bin %> payments:reconcile --json"]
  static override flags = {}

  async run() {
    await this.parse(PaymentsReconcile)
    const report = await this.runEffect(
      Effect.flatMap(Bookings, (bookings) => bookings.reconcile).pipe(
        Effect.catchTag("PaymentGatewayError", () => Effect.fail(PaymentGatewayUnavailable))
      )
    )
    this.print(report, () => render(report))
  }
}
