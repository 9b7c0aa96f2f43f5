-- Finding services by place (issue 14): a service's location is searched with its title and
-- description ("ménage Paris" finds the services located in Paris). Weight C: a word of the title
-- (A) or the description (B) still ranks first. Its words join the vocabulary typo tolerance uses.
ALTER TABLE services DROP COLUMN search_vector;
ALTER TABLE services ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('pg_catalog.simple'::regconfig, public.f_unaccent(lower(title))), 'A') ||
  setweight(to_tsvector('pg_catalog.simple'::regconfig, public.f_unaccent(lower(description))), 'B') ||
  setweight(to_tsvector('pg_catalog.simple'::regconfig, public.f_unaccent(lower(location))), 'C')
) STORED;
CREATE INDEX services_search_idx ON services USING gin (search_vector)
  WHERE status = 'ACTIVE' AND archived_at IS NULL;

INSERT INTO search_terms (term)
SELECT DISTINCT w FROM services s,
  unnest(tsvector_to_array(to_tsvector('pg_catalog.simple'::regconfig, public.f_unaccent(lower(s.location))))) AS w
WHERE length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
ON CONFLICT DO NOTHING;
