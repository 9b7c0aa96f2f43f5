-- Words around a place from one index (issue 14): the text index also holds each service's grid
-- cells (src/modules/catalogue/geography.ts: a 0.1° cell numbered from 0 and a 1° cell numbered
-- from -1 downwards), so that "ménage within 25 km of Montréal" is one GIN scan of these words in
-- the cells covering the circle, instead of every service of the city read through the GiST box.
-- Queries without a place use the first column alone, as before. The expression must stay the one
-- the search writes (CELLS in src/modules/catalogue/adapters/postgres.ts).
DROP INDEX services_search_idx;
CREATE INDEX services_search_idx ON services USING gin (
  search_vector,
  (ARRAY[(floor(lat * 10)::int + 900) * 3601 + (floor(lng * 10)::int + 1800),
         -1 - ((floor(lat)::int + 90) * 361 + (floor(lng)::int + 180))])
) WHERE status = 'ACTIVE' AND archived_at IS NULL;
