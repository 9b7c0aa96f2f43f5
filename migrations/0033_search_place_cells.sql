-- Words around a place from one index (issue 14): the text index also holds each service's grid
-- cells (src/modules/catalogue/geography.ts: its ¼°, 1° and 4° cells, numbered from 0, 2,000,000
-- and 3,000,000), so that "ménage within 25 km of Montréal" is one GIN scan of these words in the
-- cells covering the circle, instead of every service of the city read through the GiST box.
-- Queries without a place use the first column alone, as before. The expression must stay the one
-- the search writes (CELLS in src/modules/catalogue/adapters/postgres.ts).
DROP INDEX services_search_idx;
CREATE INDEX services_search_idx ON services USING gin (
  search_vector,
  (ARRAY[(floor(lat * 4)::int + 360) * 1441 + (floor(lng * 4)::int + 720),
         2000000 + (floor(lat)::int + 90) * 361 + (floor(lng)::int + 180),
         3000000 + (floor(lat * 0.25)::int + 23) * 91 + (floor(lng * 0.25)::int + 45)])
) WHERE status = 'ACTIVE' AND archived_at IS NULL;
