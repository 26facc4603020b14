CREATE TABLE "sat_sync_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"profile_id" text NOT NULL,
	"user_id" text NOT NULL,
	"desde" text NOT NULL,
	"hasta" text NOT NULL,
	"tipo" text NOT NULL,
	"contenido" text NOT NULL,
	"origen" text DEFAULT 'usuario' NOT NULL,
	"estado" text DEFAULT 'pendiente' NOT NULL,
	"cfdi_importados" integer DEFAULT 0 NOT NULL,
	"cfdi_duplicados" integer DEFAULT 0 NOT NULL,
	"cfdi_rechazados" integer DEFAULT 0 NOT NULL,
	"cfdi_fuera_de_cuota" integer DEFAULT 0 NOT NULL,
	"metadata_vigentes" integer DEFAULT 0 NOT NULL,
	"metadata_cancelados" integer DEFAULT 0 NOT NULL,
	"metadata_faltantes" integer DEFAULT 0 NOT NULL,
	"status_checked_at" timestamp with time zone,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sat_sync_packages" (
	"request_id" text NOT NULL,
	"package_id" text NOT NULL,
	"zip" text,
	"imported" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sat_sync_packages_request_id_package_id_pk" PRIMARY KEY("request_id","package_id")
);
--> statement-breakpoint
CREATE TABLE "sat_sync_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"job_id" text NOT NULL,
	"direction" text NOT NULL,
	"content" text NOT NULL,
	"desde" text NOT NULL,
	"hasta" text NOT NULL,
	"shift_seconds" integer DEFAULT 0 NOT NULL,
	"sat_request_id" text,
	"requested_at" timestamp with time zone,
	"estado" text DEFAULT 'pendiente' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"polls" integer DEFAULT 0 NOT NULL,
	"codigo" integer,
	"mensaje" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sat_sync_requests_period_uq" UNIQUE("job_id","direction","content","desde","hasta")
);
--> statement-breakpoint
ALTER TABLE "efirmas" ADD COLUMN "refused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sat_sync_jobs" ADD CONSTRAINT "sat_sync_jobs_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sat_sync_jobs" ADD CONSTRAINT "sat_sync_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sat_sync_packages" ADD CONSTRAINT "sat_sync_packages_request_id_sat_sync_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."sat_sync_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sat_sync_requests" ADD CONSTRAINT "sat_sync_requests_job_id_sat_sync_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."sat_sync_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sat_sync_jobs_profile_idx" ON "sat_sync_jobs" USING btree ("profile_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);