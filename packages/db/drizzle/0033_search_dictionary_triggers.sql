-- A listing search's dictionary (docs/design.md#search, schema/search.ts), kept by every insert and
-- update of cfdis whatever path wrote them, and filled for older rows by backfillSearchDictionary.
-- Lexemes as search_words has them ('es_plain'; the parser never joins words across the spaces
-- search_words puts between the parts). Columns of rows as arrays, one element a row. PL/pgSQL, as
-- its statements' plans are kept for the session (a SQL function's were made again on every call).
CREATE FUNCTION f_search_dictionary_note(owners text[], sides text[], rfcs_emisor text[], nombres_emisor text[],
    rfcs_receptor text[], nombres_receptor text[], conceptos text[]) RETURNS void
  LANGUAGE plpgsql
  AS $$
begin
  -- Each counterparty's words (RFC and name; the counterparty as cfdis.counterparty_rfc has it):
  -- their union over its rows, varied when the rows differ or differ from what the entry held.
  -- Sorted, so concurrent imports lock entries in one order.
  with r as (
    select * from unnest(owners, sides, rfcs_emisor, nombres_emisor, rfcs_receptor, nombres_receptor, conceptos)
      as r(user_id, side, rfc_emisor, nombre_emisor, rfc_receptor, nombre_receptor, concepto)
  ), parties as (
    select user_id, side, case when side = 'income' then rfc_receptor else rfc_emisor end as rfc,
      tsvector_to_array(to_tsvector('es_plain', case when side = 'income'
        then rfc_receptor || ' ' || nombre_receptor else rfc_emisor || ' ' || nombre_emisor end)) as words
    from r
  ), entries as (
    select user_id, side, rfc, g.varied, coalesce(u.words, '{}') as words
    from (select user_id, side, rfc, count(distinct words) > 1 as varied from parties group by 1, 2, 3) g
    left join (select user_id, side, rfc, array_agg(distinct w order by w) as words
      from parties, unnest(parties.words) w group by 1, 2, 3) u using (user_id, side, rfc)
  )
  insert into search_counterparties as d (user_id, side, rfc, words, varied)
  select user_id, side, rfc, words, varied from entries order by user_id, side, rfc
  on conflict (user_id, side, rfc) do update
    set words = array(select distinct w from unnest(d.words || excluded.words) w order by w),
      varied = d.varied or excluded.varied or d.words <> excluded.words
    -- Only what changes something: most imports bring counterparties already known as they are.
    where (d.words <> excluded.words or excluded.varied) and not (d.varied and d.words @> excluded.words);
  -- Words anywhere else in a row: the concept, the own side's RFC and name.
  insert into search_other_words (user_id, lexeme)
  select distinct owner, w collate "C"
  from unnest(owners, sides, rfcs_emisor, nombres_emisor, rfcs_receptor, nombres_receptor, conceptos)
      as r(owner, side, rfc_emisor, nombre_emisor, rfc_receptor, nombre_receptor, concepto),
    unnest(tsvector_to_array(to_tsvector('es_plain', case when side = 'income'
      then rfc_emisor || ' ' || nombre_emisor else rfc_receptor || ' ' || nombre_receptor end
      || ' ' || coalesce(concepto, '')))) w
  order by 1, 2
  on conflict do nothing;
end $$;--> statement-breakpoint
-- Every insert statement, its rows at once.
CREATE FUNCTION f_search_dictionary_add() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
begin
  perform f_search_dictionary_note(array_agg(user_id), array_agg(side), array_agg(rfc_emisor),
    array_agg(nombre_emisor), array_agg(rfc_receptor), array_agg(nombre_receptor), array_agg(concepto))
  from added;
  return null;
end $$;--> statement-breakpoint
CREATE TRIGGER cfdis_search_dictionary_insert AFTER INSERT ON cfdis
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION f_search_dictionary_add();--> statement-breakpoint
-- An update only when it changes a searched text (payment and status updates, the common ones, do not).
CREATE FUNCTION f_search_dictionary_change() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
begin
  perform f_search_dictionary_note(array[new.user_id], array[new.side], array[new.rfc_emisor],
    array[new.nombre_emisor], array[new.rfc_receptor], array[new.nombre_receptor], array[new.concepto]);
  return null;
end $$;--> statement-breakpoint
CREATE TRIGGER cfdis_search_dictionary_update AFTER UPDATE ON cfdis FOR EACH ROW
  WHEN ((old.user_id, old.side, old.rfc_emisor, old.nombre_emisor, old.rfc_receptor, old.nombre_receptor, old.concepto)
    IS DISTINCT FROM (new.user_id, new.side, new.rfc_emisor, new.nombre_emisor, new.rfc_receptor, new.nombre_receptor, new.concepto))
  EXECUTE FUNCTION f_search_dictionary_change();--> statement-breakpoint
-- Accounts holding CFDI from before: not in the dictionary until backfillSearchDictionary adds them.
INSERT INTO search_dictionary_pending (user_id) SELECT DISTINCT user_id FROM cfdis;
