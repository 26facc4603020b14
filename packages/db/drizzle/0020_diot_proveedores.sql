CREATE TABLE "diot_proveedores" (
	"profile_id" text NOT NULL,
	"clave" text NOT NULL,
	"tipo_operacion" text,
	"region_8" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "diot_proveedores_profile_id_clave_pk" PRIMARY KEY("profile_id","clave")
);
--> statement-breakpoint
ALTER TABLE "manual_expenses" ADD COLUMN "tipo_tercero" text;--> statement-breakpoint
ALTER TABLE "manual_expenses" ADD COLUMN "id_fiscal" text;--> statement-breakpoint
ALTER TABLE "manual_expenses" ADD COLUMN "pais" text;--> statement-breakpoint
ALTER TABLE "diot_proveedores" ADD CONSTRAINT "diot_proveedores_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;