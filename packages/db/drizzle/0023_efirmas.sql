CREATE TABLE "efirmas" (
	"id" text PRIMARY KEY NOT NULL,
	"profile_id" text NOT NULL,
	"rfc" text NOT NULL,
	"numero_certificado" text NOT NULL,
	"valido_desde" timestamp with time zone NOT NULL,
	"valido_hasta" timestamp with time zone NOT NULL,
	"key_version" integer NOT NULL,
	"wrapped_key" text NOT NULL,
	"payload" text NOT NULL,
	"consent_version" text NOT NULL,
	"consent_at" timestamp with time zone NOT NULL,
	"consent_ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "efirmas_profile_id_unique" UNIQUE("profile_id")
);
--> statement-breakpoint
ALTER TABLE "efirmas" ADD CONSTRAINT "efirmas_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;