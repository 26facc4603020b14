-- A word search's index by account: each lexeme with its owner in front ('<user id>:<lexeme>'), and
-- the query's lexemes prefixed alike (the query's text form quotes every lexeme, '' inside).
CREATE OR REPLACE FUNCTION f_owned_words(owner text, words tsvector) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ select array_to_tsvector(array(select owner || ':' || lexeme from unnest(words))) $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION f_owned_query(owner text, query tsquery) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ select regexp_replace(query::text, '''((?:[^'']|'''')*)''', '''' || owner || ':\1''', 'g')::tsquery $$;
