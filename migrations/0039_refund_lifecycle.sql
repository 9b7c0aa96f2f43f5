-- Refunds that can fail (issue 24, item 4). A refund is what the gateway says of it: pending,
-- succeeded, failed or canceled (Stripe's `refund.status`, updated by `charge.refund.updated` and
-- `refund.failed`). A failed or canceled refund gave nothing back: the money figures read
-- `counted_payment_operations`, which leaves them out, and the booking is flagged REFUND_FAILED.

ALTER TABLE payment_operations ADD COLUMN refund_status text CHECK (refund_status IN ('pending', 'succeeded', 'failed', 'canceled'));
-- The refunds recorded so far were counted as given back.
UPDATE payment_operations SET refund_status = 'succeeded' WHERE kind = 'REFUND';
ALTER TABLE payment_operations ADD CONSTRAINT payment_operations_refund_has_status CHECK ((kind = 'REFUND') = (refund_status IS NOT NULL));

-- The operations that count in money figures: every one but a refund that gave nothing back.
CREATE VIEW counted_payment_operations AS
  SELECT * FROM payment_operations WHERE refund_status IS NULL OR refund_status IN ('pending', 'succeeded');

ALTER TABLE bookings DROP CONSTRAINT bookings_payment_issue_check;
ALTER TABLE bookings ADD CONSTRAINT bookings_payment_issue_check
  CHECK (payment_issue IN ('NOT_SECURED', 'AUTHORIZATION_FAILED', 'HOLD_RELEASED', 'REFUND_FAILED'));

-- The sandbox's test card whose refunds fail afterwards (Stripe's 4000 0000 0000 5126), and its refunds' states.
ALTER TABLE sandbox_payment_methods DROP CONSTRAINT sandbox_payment_methods_behaviour_check;
ALTER TABLE sandbox_payment_methods ADD CONSTRAINT sandbox_payment_methods_behaviour_check
  CHECK (behaviour IN ('succeeds', 'declines', 'authenticates', 'refund_fails'));
ALTER TABLE sandbox_refunds
  ADD COLUMN status text NOT NULL DEFAULT 'succeeded' CHECK (status IN ('pending', 'succeeded', 'failed', 'canceled')),
  ADD COLUMN failure_reason text;
