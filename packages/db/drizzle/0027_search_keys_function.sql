-- A listing's search (docs/contract.md#search) matches whole words or word starts, so its words are
-- kept as written, lower-cased and unaccented (no Spanish stems: a stem's prefix reached other words,
-- 'comida' → 'com' found 'cómputo'; no stopwords: 'con' must find 'Constructora').
CREATE TEXT SEARCH CONFIGURATION es_plain (COPY = simple);--> statement-breakpoint
-- Words with digits too (an RFC with Ñ typed with N).
ALTER TEXT SEARCH CONFIGURATION es_plain ALTER MAPPING FOR word, numword, hword, numhword, hword_part, hword_numpart WITH unaccent, simple;--> statement-breakpoint
-- Its keys by account: each word with its owner in front ('<user id>:<word>'), and the UUID and its
-- last block lower-cased and marked '#' ('<user id>:#<uuid>'), which no word starts with (the parser
-- never puts '#' in a token). f_owned_query owns the query's lexemes alike; a prefix (':*') then
-- reads one account's keys. Self-contained: index expressions may run with a bare search_path.
CREATE OR REPLACE FUNCTION f_search_keys(owner text, words tsvector, uuid text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ select array_to_tsvector(array(
    select owner || ':' || lexeme from unnest(words)
    union select owner || ':#' || lower(uuid)
    union select owner || ':#' || lower(split_part(uuid, '-', 5)))) $$;
