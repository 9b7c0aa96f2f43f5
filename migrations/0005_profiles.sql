-- Profiles (identity module, src/modules/identity/PROFILE.md): the profile fields of an account,
-- its avatar and identity photo (storage keys, never user file names), and favorites.

ALTER TABLE users
  ADD COLUMN bio text NOT NULL DEFAULT '' CHECK (char_length(bio) <= 500),
  ADD COLUMN description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 2000),
  ADD COLUMN specialities text[] NOT NULL DEFAULT '{}',
  ADD COLUMN experience_years integer CHECK (experience_years BETWEEN 0 AND 50),
  ADD COLUMN languages text[] NOT NULL DEFAULT '{}',
  ADD COLUMN certifications text[] NOT NULL DEFAULT '{}',
  ADD COLUMN social_links jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(social_links) = 'object'),
  ADD COLUMN availability text NOT NULL DEFAULT '' CHECK (char_length(availability) <= 500),
  ADD COLUMN profile_visibility text NOT NULL DEFAULT 'PUBLIC' CHECK (profile_visibility IN ('PUBLIC', 'FRIENDS_ONLY', 'PRIVATE')),
  ADD COLUMN location text NOT NULL DEFAULT '' CHECK (char_length(location) <= 200),
  ADD COLUMN address text NOT NULL DEFAULT '' CHECK (char_length(address) <= 200),
  ADD COLUMN city text NOT NULL DEFAULT '' CHECK (char_length(city) <= 100),
  ADD COLUMN postal_code text NOT NULL DEFAULT '' CHECK (char_length(postal_code) <= 20),
  ADD COLUMN country text NOT NULL DEFAULT '' CHECK (char_length(country) <= 100),
  ADD COLUMN hourly_rate numeric(12, 2) CHECK (hourly_rate > 0),
  ADD COLUMN currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
  -- Declared by the user (profile or application form); checked against the identity document by
  -- the admin who reviews a provider application.
  ADD COLUMN date_of_birth date,
  ADD COLUMN avatar_key text,
  ADD COLUMN avatar_content_type text,
  ADD COLUMN avatar_size integer,
  ADD COLUMN avatar_updated_at timestamptz,
  -- The profile picture of the user's approved provider application (a copy, owned by the profile).
  ADD COLUMN identity_photo_key text,
  ADD COLUMN identity_photo_content_type text,
  ADD COLUMN identity_photo_size integer,
  ADD COLUMN identity_photo_updated_at timestamptz;

CREATE TABLE favorites (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  favorited_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, favorited_id),
  CHECK (user_id <> favorited_id)
);
CREATE INDEX favorites_user_created_idx ON favorites (user_id, created_at DESC);
CREATE INDEX favorites_favorited_idx ON favorites (favorited_id);
