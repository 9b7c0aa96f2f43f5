-- Money you can trust (issue 13): the booking states a dispute and a late cancellation need, and the
-- money invariant that says where captured money may sit.
--   DISPUTED: the client reported a problem between "service rendered" and the capture; automatic
--             validation stops, the hold is kept (and renewed).
--   RESOLVED: an administrator decided the dispute (captured all, part or nothing).
-- Captured money only in COMPLETED, VALIDATED, RESOLVED, or a booking the client cancelled late (the
-- late-cancellation fee).
ALTER TABLE bookings DROP CONSTRAINT bookings_status_check;
ALTER TABLE bookings ADD CONSTRAINT bookings_status_check CHECK (status IN
  ('PENDING', 'CONFIRMED', 'IN_PROGRESS', 'SERVICE_RENDERED', 'DISPUTED', 'RESOLVED', 'COMPLETED', 'VALIDATED', 'REJECTED', 'CANCELLED'));

ALTER TABLE bookings DROP CONSTRAINT bookings_check3;
ALTER TABLE bookings ADD CONSTRAINT bookings_captured_where_kept CHECK (
  captured_minor = 0
  OR status IN ('COMPLETED', 'VALIDATED', 'RESOLVED')
  OR (status = 'CANCELLED' AND cancelled_by = 'CLIENT'));

-- When the provider accepted the booking (NULL: never confirmed). A provider's public cancellation rate
-- counts their cancellations of bookings they had confirmed. Earlier bookings past confirmation take
-- their last change as an approximation.
ALTER TABLE bookings ADD COLUMN confirmed_at timestamptz;
UPDATE bookings SET confirmed_at = updated_at
  WHERE status IN ('CONFIRMED', 'IN_PROGRESS', 'SERVICE_RENDERED', 'COMPLETED', 'VALIDATED');

-- The timer sweep also watches disputed bookings (their hold is renewed until an admin decides).
DROP INDEX bookings_open_idx;
CREATE INDEX bookings_open_idx ON bookings (start_time)
  WHERE status IN ('PENDING', 'CONFIRMED', 'IN_PROGRESS', 'SERVICE_RENDERED', 'DISPUTED');
