-- Calendar-feed tokens hashed like every other token (issue 23, item 10). A feed's URL token is now
-- derived, an HMAC of the provider and a random nonce under a key derived from the app secret
-- (booking/adapters/feed-tokens.ts), so the provider's screen shows the URL again while the table keeps
-- only the token's SHA-256: a copy of the database opens nobody's calendar. A feed made before this
-- keeps its URL working through legacy_token_hash until the provider asks for a new address; their
-- screen shows the derived URL from their next visit, which works too.
ALTER TABLE calendar_feeds
  ADD COLUMN nonce text CHECK (nonce IS NULL OR length(nonce) >= 16),
  ADD COLUMN token_hash text UNIQUE CHECK (token_hash IS NULL OR token_hash ~ '^[0-9a-f]{64}$'),
  ADD COLUMN legacy_token_hash text UNIQUE;
UPDATE calendar_feeds SET legacy_token_hash = encode(sha256(convert_to(token, 'UTF8')), 'hex');
ALTER TABLE calendar_feeds DROP COLUMN token;
