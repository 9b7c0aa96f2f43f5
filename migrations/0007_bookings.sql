-- Bookings and reviews (src/modules/booking/README.md). A booking has two dimensions, its status and
-- its payment status; only the transition function in src/modules/booking/domain.ts changes them.

-- The exclusion constraint needs btree_gist (uuid equality in a GiST index); 0003 installs it, this
-- line documents the dependency (serialised like 0003 for test schemas migrating at once).
SELECT pg_advisory_xact_lock(7303003);
CREATE EXTENSION IF NOT EXISTS btree_gist SCHEMA public;

CREATE TABLE bookings (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  service_id uuid NOT NULL REFERENCES services(id),
  client_id uuid NOT NULL REFERENCES users(id),
  -- The service's owner when booked (services never change owner); kept here for the constraint.
  provider_id uuid NOT NULL REFERENCES users(id),
  start_time timestamptz NOT NULL,
  end_time timestamptz NOT NULL,
  address text NOT NULL CHECK (char_length(address) BETWEEN 1 AND 300),
  notes text NOT NULL DEFAULT '' CHECK (char_length(notes) <= 1000),
  -- Price as booked: later price changes of the service do not touch a booking.
  hourly_price_minor bigint NOT NULL CHECK (hourly_price_minor > 0),
  currency char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  total_minor bigint NOT NULL CHECK (total_minor > 0),
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN
    ('PENDING', 'CONFIRMED', 'IN_PROGRESS', 'SERVICE_RENDERED', 'COMPLETED', 'VALIDATED', 'REJECTED', 'CANCELLED')),
  payment_status text NOT NULL DEFAULT 'UNPAID' CHECK (payment_status IN
    ('UNPAID', 'CARD_SAVED', 'AUTHORIZED', 'REQUIRES_ACTION', 'CAPTURED', 'PARTIALLY_REFUNDED', 'REFUNDED', 'CANCELED', 'FAILED')),
  authorized_minor bigint NOT NULL DEFAULT 0 CHECK (authorized_minor >= 0),
  captured_minor bigint NOT NULL DEFAULT 0 CHECK (captured_minor >= 0),
  refunded_minor bigint NOT NULL DEFAULT 0 CHECK (refunded_minor >= 0),
  hold_expires_at timestamptz,
  authorization_expires_at timestamptz,
  rendered_at timestamptz,
  rejection_reason text CHECK (char_length(rejection_reason) <= 1000),
  cancelled_by text CHECK (cancelled_by IN ('CLIENT', 'PROVIDER', 'ADMIN', 'SYSTEM')),
  cancellation_reason text CHECK (char_length(cancellation_reason) <= 1000),
  -- The gateway's references of the current payment (see payment_operations for the history).
  checkout_session_id text,
  payment_intent_id text,
  gateway_customer_id text,
  gateway_payment_method_id text,
  -- Bumped by every stored transition (optimistic check of concurrent writers).
  version integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (end_time > start_time),
  -- The money invariants hold in the database too.
  CHECK (captured_minor <= authorized_minor),
  CHECK (refunded_minor <= captured_minor),
  CHECK (captured_minor = 0 OR status IN ('COMPLETED', 'VALIDATED')),
  -- No provider is booked twice for overlapping times while a booking holds its slot.
  CONSTRAINT bookings_no_overlap EXCLUDE USING gist (provider_id WITH =, tstzrange(start_time, end_time, '[)') WITH &&)
    WHERE (status NOT IN ('REJECTED', 'CANCELLED'))
);

CREATE INDEX bookings_client_idx ON bookings (client_id, start_time DESC, id DESC);
CREATE INDEX bookings_provider_idx ON bookings (provider_id, start_time DESC, id DESC);
CREATE INDEX bookings_service_idx ON bookings (service_id, client_id);
CREATE INDEX bookings_payment_intent_idx ON bookings (payment_intent_id) WHERE payment_intent_id IS NOT NULL;
CREATE INDEX bookings_checkout_session_idx ON bookings (checkout_session_id) WHERE checkout_session_id IS NOT NULL;
-- What the timer sweep looks at: bookings that are not over (a small set however many bookings exist).
CREATE INDEX bookings_open_idx ON bookings (start_time) WHERE status IN ('PENDING', 'CONFIRMED', 'IN_PROGRESS', 'SERVICE_RENDERED');
-- Bookings whose captured money may still need work (capture retries).
CREATE INDEX bookings_capture_due_idx ON bookings (updated_at) WHERE status IN ('COMPLETED', 'VALIDATED') AND payment_status = 'AUTHORIZED';

CREATE TABLE reviews (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- One review per booking.
  booking_id uuid NOT NULL UNIQUE REFERENCES bookings(id),
  service_id uuid NOT NULL REFERENCES services(id),
  client_id uuid NOT NULL REFERENCES users(id),
  provider_id uuid NOT NULL REFERENCES users(id),
  rating smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
  comment text NOT NULL CHECK (char_length(comment) BETWEEN 1 AND 2000),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reviews_service_idx ON reviews (service_id, created_at DESC);
CREATE INDEX reviews_provider_idx ON reviews (provider_id, created_at DESC);

-- Every money movement of a booking as the gateway reported it: authorisations, captures,
-- cancellations (releases) and refunds; the admin booking detail and finance pages read it.
CREATE TABLE payment_operations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  booking_id uuid NOT NULL REFERENCES bookings(id),
  gateway text NOT NULL CHECK (gateway IN ('stripe', 'sandbox')),
  kind text NOT NULL CHECK (kind IN ('AUTHORIZATION', 'CARD_SAVED', 'CAPTURE', 'CANCELLATION', 'REFUND', 'FAILURE')),
  amount_minor bigint NOT NULL DEFAULT 0 CHECK (amount_minor >= 0),
  currency char(3) NOT NULL,
  -- The platform's commission on this operation (captures and refunds of the fee).
  fee_minor bigint NOT NULL DEFAULT 0 CHECK (fee_minor >= 0),
  payment_intent_id text,
  -- The gateway's id of this operation (refund id, event id...): an operation is recorded once.
  reference text NOT NULL,
  payment_method text,
  detail text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (kind, reference)
);
CREATE INDEX payment_operations_booking_idx ON payment_operations (booking_id, created_at);
CREATE INDEX payment_operations_created_idx ON payment_operations (created_at DESC);
