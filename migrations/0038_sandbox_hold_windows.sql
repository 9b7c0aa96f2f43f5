-- The sandbox's holds last as the card networks say (payments/holds.ts): whether an intent was
-- confirmed off-session by the platform (merchant-initiated: 4 days 18 hours on Visa) and whether
-- the network extended the hold (Mastercard: 30 days), as Stripe's charge reports it
-- (`payment_method_details.card.extended_authorization.status`).

ALTER TABLE sandbox_payment_intents
  ADD COLUMN off_session boolean NOT NULL DEFAULT false,
  ADD COLUMN extended_authorization text CHECK (extended_authorization IN ('enabled', 'disabled'));
