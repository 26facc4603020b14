-- The words of a search dictionary's counterparty (schema/search.ts) as GIN keys with their owner
-- in front ('<user id>/<side>:<word>'), as f_search_keys does for cfdis: f_owned_query owns a
-- search's lexemes alike, so a prefix reads one account's side alone.
CREATE FUNCTION f_owned_words(owner text, words text[]) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ select array_to_tsvector(array(select owner || ':' || w from unnest(words) w)) $$;
