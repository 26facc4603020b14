DROP INDEX "cfdis_search_trgm";--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "search_words" "tsvector" GENERATED ALWAYS AS (to_tsvector('es_unaccent'::regconfig, rfc_emisor || ' ' || nombre_emisor || ' ' || rfc_receptor || ' ' || nombre_receptor || ' ' || coalesce(concepto, ''))) STORED;--> statement-breakpoint
CREATE INDEX "cfdis_search_words_idx" ON "cfdis" USING gin ("user_id","profile_id","search_words");--> statement-breakpoint
CREATE INDEX "cfdis_search_trgm" ON "cfdis" USING gin ("user_id","profile_id","search_text" gin_trgm_ops);