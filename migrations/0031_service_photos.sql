-- Service photos (issue 14): up to 8 per service, in order (position 0 is the cover on cards). Each
-- photo is stored as WebP renditions (`files`: [{ size, width, height, key, bytes }], smallest first;
-- `key` names the file under DATA_DIR/uploads). A changed photo is a new row, so its id (in its URL)
-- names its content for good: the files are served with immutable cache headers.
CREATE TABLE service_photos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  service_id uuid NOT NULL REFERENCES services(id) ON DELETE CASCADE,
  position integer NOT NULL CHECK (position >= 0),
  files jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX service_photos_service_idx ON service_photos (service_id, position);
