-- f_search_dictionary_note (0033) without a lock on entries it leaves as they are. An INSERT … ON
-- CONFLICT DO UPDATE locks the row it meets before its WHERE decides to leave it, until commit, so
-- every import of a known counterparty held that entry to the end of its transaction and imports of
-- one supplier's CFDI ran one at a time, each waiting on a pool connection (bench:load: 13 of them
-- at once, docs/benchmarks.md). Entries that need no change, as the statement's snapshot has them,
-- are now left out before the upsert. Safe because an entry only grows (words added, varied set):
-- one that already holds what a row brings still does after any concurrent change.
CREATE OR REPLACE FUNCTION f_search_dictionary_note(owners text[], sides text[], rfcs_emisor text[], nombres_emisor text[],
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
  ), changing as (
    -- The upsert's own test below, asked first of the entry as it stands, without locking it.
    select e.* from entries e
    left join search_counterparties d using (user_id, side, rfc)
    where d.user_id is null
      or ((d.words <> e.words or e.varied) and not (d.varied and d.words @> e.words))
  )
  insert into search_counterparties as d (user_id, side, rfc, words, varied)
  select user_id, side, rfc, words, varied from changing order by user_id, side, rfc
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
end $$;
