-- Money you can trust: a cancellation policy (issue 13 item 2), and moves that wait for the money (issue 12).
-- A cancellation policy (issue 13 item 2): a client who cancels a confirmed booking late pays a fee,
-- captured from the hold (the rest is released). The fee is decided by the transition function when
-- the client cancels and stored here, so that the capture (and its retries) takes exactly that amount.
ALTER TABLE bookings ADD COLUMN cancellation_fee_minor bigint NOT NULL DEFAULT 0;
ALTER TABLE bookings ADD CONSTRAINT bookings_cancellation_fee CHECK (
  cancellation_fee_minor >= 0
  AND (cancellation_fee_minor = 0 OR (status = 'CANCELLED' AND cancelled_by = 'CLIENT'))
  AND (status <> 'CANCELLED' OR captured_minor <= cancellation_fee_minor));

-- A provider's public cancellation rate counts their cancellations of bookings they had confirmed.
CREATE INDEX bookings_provider_confirmed_idx ON bookings (provider_id) WHERE confirmed_at IS NOT NULL;

-- Rescheduling that raises the total of a booking holding money (issue 12): the accepted proposal waits,
-- AWAITING_PAYMENT, for the client's authorisation of the new total; the booking moves only when it
-- arrives (or the proposal closes UNAVAILABLE when the new time was taken meanwhile, the new hold released).
ALTER TABLE booking_reschedules DROP CONSTRAINT booking_reschedules_status_check;
ALTER TABLE booking_reschedules ADD CONSTRAINT booking_reschedules_status_check
  CHECK (status IN ('OPEN', 'AWAITING_PAYMENT', 'ACCEPTED', 'DECLINED', 'EXPIRED', 'UNAVAILABLE'));
DROP INDEX booking_reschedules_one_open;
CREATE UNIQUE INDEX booking_reschedules_one_open ON booking_reschedules (booking_id) WHERE status IN ('OPEN', 'AWAITING_PAYMENT');
