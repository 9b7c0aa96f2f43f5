-- A service an admin disabled stays disabled (issue 13): its provider cannot publish it again (nor a copy
-- of it) until an admin enables it. NULL: not held by an admin.
ALTER TABLE services ADD COLUMN disabled_by_admin_at timestamptz;
