-- A data-export link dies with the password it was made under (issue 23, item 10): each export keeps a
-- fingerprint of the account's password hash when it was prepared, and a download needs it to match
-- (and the account active). Exports prepared before this have none and no longer open: ask again.
ALTER TABLE data_exports ADD COLUMN password_fingerprint bytea;
