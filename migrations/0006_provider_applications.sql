-- Provider onboarding (src/modules/onboarding/README.md): applications to become a provider and
-- their documents. Files live in the storage (DATA_DIR/uploads/applications/<uuid>); rows hold
-- their generated keys, never a path built from a user's file name.

CREATE TABLE provider_applications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
  skills text NOT NULL CHECK (char_length(skills) BETWEEN 1 AND 2000),
  experience text NOT NULL CHECK (char_length(experience) BETWEEN 1 AND 5000),
  motivation text NOT NULL CHECK (char_length(motivation) BETWEEN 1 AND 5000),
  date_of_birth date,
  rejection_reason text CHECK (char_length(rejection_reason) <= 1000),
  rejection_count integer NOT NULL DEFAULT 0 CHECK (rejection_count >= 0),
  max_attempts integer NOT NULL DEFAULT 3 CHECK (max_attempts >= 1),
  next_submission_date timestamptz,
  submitted_at timestamptz NOT NULL DEFAULT now(),
  reviewed_at timestamptz,
  reviewed_by uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- A finally refused application stays refused: no more rejections than attempts.
  CHECK (rejection_count <= max_attempts)
);
-- One open application per user, whatever the application code does.
CREATE UNIQUE INDEX provider_applications_one_pending_idx ON provider_applications (user_id) WHERE status = 'PENDING';
CREATE INDEX provider_applications_user_idx ON provider_applications (user_id, created_at DESC);
CREATE INDEX provider_applications_status_idx ON provider_applications (status, submitted_at DESC);
CREATE INDEX provider_applications_submitted_idx ON provider_applications (submitted_at DESC, id DESC);

CREATE TABLE application_documents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  application_id uuid NOT NULL REFERENCES provider_applications(id) ON DELETE CASCADE,
  slot text NOT NULL CHECK (slot IN ('identityDocument', 'addressDocument', 'bankDocument', 'profilePicture')),
  type text NOT NULL CHECK (type IN ('IDENTITY_CARD', 'PASSPORT', 'DRIVERS_LICENSE', 'UTILITY_BILL', 'RENTAL_AGREEMENT',
    'BANK_STATEMENT', 'PROFILE_PICTURE', 'BANK_CHECK_SAMPLE', 'BANK_RIB', 'BANK_ACCOUNT_INFO')),
  file_name text NOT NULL CHECK (char_length(file_name) BETWEEN 1 AND 255),
  storage_key text NOT NULL UNIQUE,
  content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'image/webp', 'application/pdf')),
  size_bytes integer NOT NULL CHECK (size_bytes > 0),
  -- null: pending; true: verified; false: rejected. Changeable later.
  is_verified boolean,
  verification_notes text CHECK (char_length(verification_notes) <= 1000),
  verified_at timestamptz,
  verified_by uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (application_id, slot)
);
