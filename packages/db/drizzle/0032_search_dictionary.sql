CREATE TABLE "search_counterparties" (
	"user_id" text NOT NULL,
	"side" text NOT NULL,
	"rfc" text NOT NULL,
	"words" text[] NOT NULL,
	"varied" boolean DEFAULT false NOT NULL,
	CONSTRAINT "search_counterparties_user_id_side_rfc_pk" PRIMARY KEY("user_id","side","rfc")
);
--> statement-breakpoint
CREATE TABLE "search_dictionary_pending" (
	"user_id" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_other_words" (
	"user_id" text NOT NULL,
	"lexeme" text collate "C" NOT NULL,
	CONSTRAINT "search_other_words_user_id_lexeme_pk" PRIMARY KEY("user_id","lexeme")
);
--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "counterparty_rfc" text GENERATED ALWAYS AS (case when side = 'income' then rfc_receptor else rfc_emisor end) STORED;--> statement-breakpoint
ALTER TABLE "search_counterparties" ADD CONSTRAINT "search_counterparties_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_dictionary_pending" ADD CONSTRAINT "search_dictionary_pending_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_other_words" ADD CONSTRAINT "search_other_words_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_counterparties_words_idx" ON "search_counterparties" USING gin (f_owned_words("user_id" || '/' || "side", "words")) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "cfdis_counterparty_idx" ON "cfdis" USING btree ("user_id","side","counterparty_rfc","fecha" DESC NULLS LAST,"id" DESC NULLS LAST);