CREATE TABLE "sat_metadata" (
	"profile_id" text NOT NULL,
	"uuid" text NOT NULL,
	"rfc_emisor" text,
	"nombre_emisor" text,
	"rfc_receptor" text,
	"nombre_receptor" text,
	"fecha_emision" text,
	"monto" numeric(20, 6),
	"efecto" text,
	"estatus" text NOT NULL,
	"fecha_cancelacion" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sat_metadata_profile_id_uuid_pk" PRIMARY KEY("profile_id","uuid")
);
--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "estatus_sat" text DEFAULT 'desconocido' NOT NULL;--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "fecha_cancelacion" text;--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "estatus_fuente" text;--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "estatus_fecha" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sat_metadata" ADD CONSTRAINT "sat_metadata_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sat_metadata_profile_fecha_idx" ON "sat_metadata" USING btree ("profile_id","fecha_emision");