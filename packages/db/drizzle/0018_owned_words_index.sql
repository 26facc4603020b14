DROP INDEX "cfdis_search_words_idx";--> statement-breakpoint
CREATE INDEX "cfdis_owned_words_idx" ON "cfdis" USING gin (f_owned_words("user_id", "search_words"));