-- The outbox is read newest first. Rows written in the same instant (the embedded database's clock
-- is coarse) are told apart by the order they were inserted in.
ALTER TABLE mail_outbox ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
