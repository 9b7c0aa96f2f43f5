-- Trust (issue 15, items 4 and 5): verified providers, documents asked again, two-step login.

-- When an admin last verified the identity document of the user's provider application (null: not
-- verified, or verified no more: rejected, asked again or replaced). Set by onboarding through the
-- profile repository; read by the public profile and the catalogue's cards ("verified identity").
ALTER TABLE users ADD COLUMN identity_verified_at timestamptz;

-- A document an admin found unreadable and asked to be sent again (the application stays PENDING);
-- the applicant's new file replaces the row, so the request goes with it.
ALTER TABLE application_documents
  ADD COLUMN replacement_requested_at timestamptz,
  ADD COLUMN replacement_reason text CHECK (char_length(replacement_reason) BETWEEN 1 AND 1000),
  ADD CONSTRAINT application_documents_replacement_check CHECK ((replacement_requested_at IS NULL) = (replacement_reason IS NULL));

-- Two-step login (TOTP, RFC 6238). The secret is stored encrypted (AES-256-GCM under a key derived
-- from JWT_SECRET) and never answered after enrolment; enabled_at is null while enrolment waits for
-- its first code. last_step is the last time step a code was accepted for (a code is used once).
CREATE TABLE two_factor_secrets (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  secret_encrypted text NOT NULL,
  enabled_at timestamptz,
  last_step bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Recovery codes, stored as SHA-256 digests; each works once.
CREATE TABLE two_factor_recovery_codes (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, code_hash)
);

-- The step between a correct password and a correct code: a login challenge, stored hashed, valid 5
-- minutes, used once (its own table: one_time_tokens' purposes belong to the account mails).
CREATE TABLE two_factor_challenges (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  time_zone text,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX two_factor_challenges_user_idx ON two_factor_challenges (user_id);
