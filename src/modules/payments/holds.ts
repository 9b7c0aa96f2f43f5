// How long a card hold lasts (Stripe's "Place a hold on a payment method" and "Place an extended hold
// on an online card payment"). Pure rules: the gateways, the charge events and the sandbox share them.

import type { HeldPayment } from "./ports"

const HOUR_MS = 60 * 60 * 1000
const DAY_MS = 24 * HOUR_MS

/** Who started a payment: the client, on-session (checkout, the in-page form), or the platform, off-session (a renewal, a saved card). */
export type Initiator = "customer" | "merchant"

/** The metadata key naming a payment's initiator: Stripe's objects do not say whether an intent was confirmed off-session. */
export const INITIATOR_METADATA_KEY = "initiator"

/** An online card hold when the network names nothing shorter. */
export const CUSTOMER_INITIATED_HOLD_MS = 7 * DAY_MS
/** Visa's merchant-initiated hold (the shortest of the networks): 4 days 18 hours. */
export const MERCHANT_INITIATED_HOLD_MS = 4 * DAY_MS + 18 * HOUR_MS
/** An extended authorisation where the network grants it. */
export const EXTENDED_HOLD_MS = 30 * DAY_MS

/** The initiator a payment's metadata names; a payment that names none was started by the client. */
export const initiatorOf = (metadata: Readonly<Record<string, string>> | null | undefined): Initiator =>
  metadata?.[INITIATOR_METADATA_KEY] === "merchant" ? "merchant" : "customer"

/** What a fallback takes off its window: the event it is computed from is created a little after the hold itself. */
export const FALLBACK_MARGIN_MS = HOUR_MS

/**
 * Until when a hold can be captured when the gateway does not say (no `capture_before`): the shortest
 * window the initiator allows, an hour short, so that a renewal is never planned after the hold has lapsed.
 */
export const fallbackHoldEnd = (initiator: Initiator, reportedAt: Date): Date =>
  new Date(reportedAt.getTime() + (initiator === "merchant" ? MERCHANT_INITIATED_HOLD_MS : CUSTOMER_INITIATED_HOLD_MS) - FALLBACK_MARGIN_MS)

/**
 * Whether a network grants an extended authorisation to a marketplace of services (Stripe's table:
 * Mastercard in every merchant category; Visa only for lodging, vehicle rental and cruise lines, not ours).
 */
export const grantsExtendedAuthorization = (brand: string) => brand === "mastercard"

/** The window a network gives a hold: extended where asked and granted, else by initiator (Visa's merchant-initiated is shorter). */
export const holdWindowMs = (brand: string, initiator: Initiator, extendedRequested: boolean): number =>
  extendedRequested && grantsExtendedAuthorization(brand)
    ? EXTENDED_HOLD_MS
    : initiator === "merchant" && brand === "visa"
      ? MERCHANT_INITIATED_HOLD_MS
      : CUSTOMER_INITIATED_HOLD_MS

/** The fields of a Stripe charge's `payment_method_details.card` a hold is read from. */
export interface HoldCard {
  readonly brand?: string | null | undefined
  readonly last4?: string | null | undefined
  /** Seconds since the epoch. */
  readonly capture_before?: number | null | undefined
  readonly extended_authorization?: { readonly status?: string | null | undefined } | null | undefined
}

/**
 * A hold as its charge's card says it: until when it can be captured, the card as the payment records
 * name it ("visa •••• 4242"), and whether the network extended it. One reading for the charge events,
 * the Stripe adapter and the sandbox.
 */
export const heldCardOf = (card: HoldCard | null | undefined): HeldPayment => ({
  captureBefore: card?.capture_before ? new Date(card.capture_before * 1000) : null,
  paymentMethod: card?.brand && card.last4 ? `${card.brand} •••• ${card.last4}` : null,
  extendedAuthorization: card?.extended_authorization?.status === "enabled"
})

/** The AUTHORIZATION payment operation's detail when the network extended the hold. */
export const EXTENDED_AUTHORIZATION_DETAIL = "extended_authorization"

/** A hold's end as one report says it: `known` when the gateway named `capture_before`, else a fallback. */
export interface ReportedHoldEnd {
  readonly expiresAt: Date
  readonly known: boolean
}

/**
 * The end to keep for a hold already recorded with `stored` when a report about the same hold
 * arrives: a known `capture_before` is never replaced by a fallback, and of two ends the earlier is
 * kept (a hold cannot be captured past either).
 */
export const keptHoldEnd = (stored: Date | null, reported: ReportedHoldEnd): Date => {
  if (stored === null) return reported.expiresAt
  if (!reported.known) return stored
  return reported.expiresAt.getTime() < stored.getTime() ? reported.expiresAt : stored
}
