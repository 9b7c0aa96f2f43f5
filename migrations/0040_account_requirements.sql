-- What the payment provider still needs from a provider's connected account, and why it restricted it
-- (issue 24, item 7): Stripe's `requirements.past_due` and `currently_due` codes, and
-- `requirements.disabled_reason`, as account.updated and each status refresh report them.

ALTER TABLE payment_accounts
  ADD COLUMN requirements_due text[] NOT NULL DEFAULT '{}',
  ADD COLUMN disabled_reason text CHECK (char_length(disabled_reason) <= 100);
