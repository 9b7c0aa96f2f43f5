-- Every user has an IANA time zone (issue 12): set from the browser at registration, or on the first
-- login when missing; NULL until then (the platform's default zone, Europe/Paris, is used meanwhile).
-- Times stay stored in UTC (timestamptz); the zone only says how to show them and where a provider's
-- weekly plan lies.
ALTER TABLE users ADD COLUMN time_zone text CHECK (time_zone IS NULL OR length(time_zone) BETWEEN 1 AND 64);
