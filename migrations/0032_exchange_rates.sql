-- Exchange rates (issue 14 item 4): prices in different currencies are compared in euros. One row
-- per currency: how many units of it one euro buys, in millionths (1.4567 CAD per EUR: 1456700), an
-- exact integer (no float in money arithmetic). EUR, the reference, is always 1000000.
CREATE TABLE exchange_rates (
  currency char(3) PRIMARY KEY CHECK (currency ~ '^[A-Z]{3}$'),
  per_eur_micro bigint NOT NULL CHECK (per_eur_micro > 0 AND (currency <> 'EUR' OR per_eur_micro = 1000000)),
  -- DEMO (seeded here), ADMIN (back-office), CLI (bin/run rates:set), ECB (the daily fetch).
  source text NOT NULL CHECK (source IN ('DEMO', 'ADMIN', 'CLI', 'ECB')),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Demo rates (rounded ECB reference rates of November 2025; XOF and XAF are pegged at 655.957).
INSERT INTO exchange_rates (currency, per_eur_micro, source) VALUES
  ('EUR', 1000000, 'DEMO'),
  ('CAD', 1620000, 'DEMO'),
  ('USD', 1155000, 'DEMO'),
  ('GBP', 880000, 'DEMO'),
  ('CHF', 930000, 'DEMO'),
  ('JPY', 180000000, 'DEMO'),
  ('XOF', 655957000, 'DEMO'),
  ('XAF', 655957000, 'DEMO');

-- Price sorts read each currency's public services in price order (one short index range per
-- currency, merged by the converted price) and price ranges one range per currency: both from this
-- index. It replaces services_price_idx (price_cents, id), which mixed the currencies.
DROP INDEX IF EXISTS services_price_idx;
CREATE INDEX services_currency_price_idx ON services (currency, price_cents, id)
  WHERE status = 'ACTIVE' AND archived_at IS NULL;
