-- sat_lexicon follows sat_products: every stem a product brings in (the catalog import upserts, so
-- both inserts and updates). Statement triggers with a transition table: one INSERT per statement,
-- not per row. A trigger with transition tables takes one event, hence two.
CREATE FUNCTION sat_lexicon_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sat_lexicon (lexeme)
    SELECT DISTINCT unnest(tsvector_to_array(search_doc)) FROM new_rows
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER sat_products_lexicon_insert AFTER INSERT ON sat_products
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sat_lexicon_add();--> statement-breakpoint
CREATE TRIGGER sat_products_lexicon_update AFTER UPDATE ON sat_products
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sat_lexicon_add();--> statement-breakpoint
-- Back-fill from the catalog already loaded.
INSERT INTO sat_lexicon (lexeme)
  SELECT DISTINCT unnest(tsvector_to_array(search_doc)) FROM sat_products
  ON CONFLICT DO NOTHING;
