CREATE SEQUENCE "public"."support_request_folio_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "request_failures" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "request_failures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text NOT NULL,
	"request_id" text NOT NULL,
	"status" integer NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"folio" text NOT NULL,
	"user_id" text NOT NULL,
	"profile_id" text,
	"asunto" text NOT NULL,
	"mensaje" text NOT NULL,
	"prioridad" text NOT NULL,
	"plan" text NOT NULL,
	"respuesta_esperada_antes_de" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "support_requests_folio_unique" UNIQUE("folio"),
	CONSTRAINT "support_requests_prioridad" CHECK ("support_requests"."prioridad" in ('normal', 'alta'))
);
--> statement-breakpoint
ALTER TABLE "request_failures" ADD CONSTRAINT "request_failures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_failures_user_idx" ON "request_failures" USING btree ("user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "support_requests_user_idx" ON "support_requests" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);