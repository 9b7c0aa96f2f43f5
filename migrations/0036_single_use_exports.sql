-- A data-export link serves once (issue 23, item 10): the download records when it happened and drops
-- the archive (the personal data it copies is not kept a week longer than needed). A link already used
-- answers as an unknown one.
ALTER TABLE data_exports ADD COLUMN downloaded_at timestamptz;
