DROP INDEX "cfdis_owned_words_idx";--> statement-breakpoint
DROP INDEX "cfdis_search_trgm";--> statement-breakpoint
ALTER TABLE "cfdis" drop column "search_words";--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "search_words" "tsvector" GENERATED ALWAYS AS (to_tsvector('es_plain'::regconfig, rfc_emisor || ' ' || nombre_emisor || ' ' || rfc_receptor || ' ' || nombre_receptor || ' ' || coalesce(concepto, ''))) STORED;--> statement-breakpoint
CREATE INDEX "cfdis_search_keys_idx" ON "cfdis" USING gin (f_search_keys("user_id", "search_words", "uuid"));--> statement-breakpoint
ALTER TABLE "cfdis" DROP COLUMN "search_text";--> statement-breakpoint
ALTER TABLE "manual_expenses" DROP COLUMN "search_text";