import { countsInFigures } from "../payments"
import type { PaymentOperation } from "./ports"
import { PaymentEvents, type PaymentEvent as PaymentEventKind } from "./rules"

// A booking's payment timeline (issue 23, items 4 and 5): one event per payment operation, in the
// order they happened, named by what the operation did and nothing else. The admin's booking page
// once labelled an authorisation by the state it ended in ("Encaissé 60 $" beside "Encaissé 20 $" after
// a partial capture of 20): an admin read 80 taken. The client, the provider and the admin read the
// same events; only the commission is left out of the client's.

export { PaymentEvents }

/** A payment record as the timeline reads it (a refund's state, when known, says whether it failed). */
type Operation = Pick<PaymentOperation, "kind" | "amountMinor" | "feeMinor" | "currency" | "paymentIntentId" | "paymentMethod"> &
  Partial<Pick<PaymentOperation, "refundStatus">> & {
    readonly createdAt: Date
  }

export interface PaymentEvent {
  readonly event: PaymentEventKind
  readonly amountMinor: number
  readonly currency: string
  /** The platform's commission taken (a capture) or given back (a refund); null for the client. */
  readonly feeMinor: number | null
  /** The card or method the operation used ("visa •••• 4242", "card"); null when none is known. */
  readonly method: string | null
  readonly at: Date
}

export type TimelineReader = "client" | "provider" | "admin"

const eventOf = (operation: Operation, heldBefore: boolean): PaymentEventKind => {
  switch (operation.kind) {
    case "AUTHORIZATION":
      return heldBefore ? "renewed" : "held"
    case "CARD_SAVED":
      return "cardSaved"
    case "CAPTURE":
      return "captured"
    case "CANCELLATION":
      return "released"
    case "REFUND":
      // A refund the gateway failed (or canceled) gave nothing back: it reads so.
      return countsInFigures(operation) ? "refunded" : "refundFailed"
    case "FAILURE":
      return "failed"
  }
}

/**
 * The events of a booking's operations, oldest first (ties keep their recorded order). A capture,
 * release or refund names the method of the hold it acted on when the gateway named none with it
 * (the card of its payment intent, else the last card the booking used).
 */
export const paymentTimeline = (operations: ReadonlyArray<Operation>, reader: TimelineReader): ReadonlyArray<PaymentEvent> => {
  const ordered = operations
    .map((operation, index) => ({ operation, index }))
    .sort((a, b) => a.operation.createdAt.getTime() - b.operation.createdAt.getTime() || a.index - b.index)
  const methodOfIntent = new Map<string, string>()
  let lastMethod: string | null = null
  let held = false
  return ordered.map(({ operation }) => {
    const own = operation.paymentMethod
    const intent = operation.paymentIntentId
    const method = own ?? (intent !== null ? methodOfIntent.get(intent) : undefined) ?? lastMethod
    if (own !== null) {
      lastMethod = own
      if (intent !== null) methodOfIntent.set(intent, own)
    }
    const event = eventOf(operation, held)
    if (operation.kind === "AUTHORIZATION") held = true
    return {
      event,
      amountMinor: operation.amountMinor,
      currency: operation.currency,
      feeMinor: reader === "client" ? null : operation.feeMinor,
      method,
      at: operation.createdAt
    }
  })
}
