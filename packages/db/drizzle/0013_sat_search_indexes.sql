CREATE TABLE "sat_lexicon" (
	"lexeme" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
DROP INDEX "sat_products_search_text_trgm";--> statement-breakpoint
DROP INDEX "sat_products_search_doc_idx";--> statement-breakpoint
CREATE INDEX "sat_lexicon_lexeme_trgm" ON "sat_lexicon" USING gist ("lexeme" gist_trgm_ops);--> statement-breakpoint
CREATE INDEX "sat_products_search_doc_idx" ON "sat_products" USING gin ("search_doc") WITH (fastupdate=false);--> statement-breakpoint
ALTER TABLE "sat_products" DROP COLUMN "search_text";