CREATE TABLE "sat_alerts" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"clave" text NOT NULL,
	"cambio" text NOT NULL,
	"antes" text,
	"despues" text,
	"detected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"notified_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sat_catalog_imports" (
	"id" text PRIMARY KEY NOT NULL,
	"sha256" text NOT NULL,
	"rows" integer NOT NULL,
	"removed" integer NOT NULL,
	"alerts" integer NOT NULL,
	"finished_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sat_favorites" (
	"user_id" text NOT NULL,
	"clave" text NOT NULL,
	"nota" text,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sat_favorites_user_id_clave_pk" PRIMARY KEY("user_id","clave")
);
--> statement-breakpoint
CREATE TABLE "sat_search_history" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"tipo" text NOT NULL,
	"query" text NOT NULL,
	"filtros" jsonb NOT NULL,
	"total" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sat_search_history_tipo" CHECK ("sat_search_history"."tipo" in ('basic', 'ai'))
);
--> statement-breakpoint
ALTER TABLE "sat_products" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sat_alerts" ADD CONSTRAINT "sat_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sat_favorites" ADD CONSTRAINT "sat_favorites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sat_favorites" ADD CONSTRAINT "sat_favorites_clave_sat_products_id_fk" FOREIGN KEY ("clave") REFERENCES "public"."sat_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sat_search_history" ADD CONSTRAINT "sat_search_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sat_alerts_user_idx" ON "sat_alerts" USING btree ("user_id","detected_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "sat_alerts_unnotified_idx" ON "sat_alerts" USING btree ("user_id") WHERE "sat_alerts"."notified_at" is null;--> statement-breakpoint
CREATE INDEX "sat_favorites_clave_idx" ON "sat_favorites" USING btree ("clave");--> statement-breakpoint
CREATE INDEX "sat_search_history_user_idx" ON "sat_search_history" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);