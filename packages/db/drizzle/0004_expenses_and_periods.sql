CREATE TABLE "accounting_periods" (
	"id" text PRIMARY KEY NOT NULL,
	"profile_id" text NOT NULL,
	"anio" smallint NOT NULL,
	"mes" smallint NOT NULL,
	"estado" text DEFAULT 'ABIERTO' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "manual_expenses" (
	"id" text PRIMARY KEY NOT NULL,
	"profile_id" text NOT NULL,
	"user_id" text NOT NULL,
	"period_id" text NOT NULL,
	"fecha" text NOT NULL,
	"mes" smallint NOT NULL,
	"anio" smallint NOT NULL,
	"subtotal" numeric(20, 6) NOT NULL,
	"iva_amount" numeric(20, 6) NOT NULL,
	"total" numeric(20, 6) NOT NULL,
	"iva" numeric(9, 2) NOT NULL,
	"concepto" text NOT NULL,
	"categoria" text,
	"search_text" text GENERATED ALWAYS AS (f_unaccent(lower(concepto))) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounting_periods" ADD CONSTRAINT "accounting_periods_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manual_expenses" ADD CONSTRAINT "manual_expenses_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manual_expenses" ADD CONSTRAINT "manual_expenses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manual_expenses" ADD CONSTRAINT "manual_expenses_period_id_accounting_periods_id_fk" FOREIGN KEY ("period_id") REFERENCES "public"."accounting_periods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounting_periods_profile_month_uq" ON "accounting_periods" USING btree ("profile_id","anio","mes");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "manual_expenses_profile_list_idx" ON "manual_expenses" USING btree ("profile_id","fecha" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "manual_expenses_user_list_idx" ON "manual_expenses" USING btree ("user_id","fecha" DESC NULLS LAST,"id" DESC NULLS LAST);