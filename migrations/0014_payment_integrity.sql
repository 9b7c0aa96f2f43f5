-- Money moves only when it should (issue 10). A booking that reached COMPLETED or VALIDATED without
-- captured money records why (NOT_SECURED, AUTHORIZATION_FAILED, HOLD_RELEASED): the back-office flags it.
ALTER TABLE bookings ADD COLUMN payment_issue text
  CHECK (payment_issue IN ('NOT_SECURED', 'AUTHORIZATION_FAILED', 'HOLD_RELEASED'));
CREATE INDEX bookings_payment_issue_idx ON bookings (updated_at) WHERE payment_issue IS NOT NULL;
-- Bookings finished unpaid before this rule: flagged with the reason their payment status tells. Those
-- still CARD_SAVED or AUTHORIZED are collected or captured by the sweep from now on.
UPDATE bookings SET payment_issue = CASE WHEN payment_status = 'CANCELED' THEN 'HOLD_RELEASED' ELSE 'NOT_SECURED' END
  WHERE status IN ('COMPLETED', 'VALIDATED') AND captured_minor = 0 AND payment_status NOT IN ('AUTHORIZED', 'CARD_SAVED');

-- Charge events are applied in the order the gateway created them, per payment intent: the creation
-- time of the last event applied to each intent. An older event arriving later is recorded (its id is
-- in the webhook events) and ignored.
CREATE TABLE charge_event_clocks (
  payment_intent_id text PRIMARY KEY,
  last_event_at timestamptz NOT NULL
);
