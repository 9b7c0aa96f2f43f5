/**
 * The Stripe API version every request names, set here rather than implied by the SDK: a package bump
 * changes nothing until this line does (test/payments/stripe-adapter.test.ts fails until then). Webhook
 * endpoints send their events in the version they were created with: create both with this one
 * (docs/operations.md); an event of another version is logged (webhooks.ts).
 */
export const STRIPE_API_VERSION = "2026-10-28.endive" as const
