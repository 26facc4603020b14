CREATE TABLE "iva_proporcion_5b" (
	"profile_id" text NOT NULL,
	"anio" smallint NOT NULL,
	"proporcion" numeric(5, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "iva_proporcion_5b_profile_id_anio_pk" PRIMARY KEY("profile_id","anio")
);
--> statement-breakpoint
CREATE TABLE "pagos_provisionales" (
	"profile_id" text NOT NULL,
	"anio" smallint NOT NULL,
	"mes" smallint NOT NULL,
	"isr_pagado" numeric(20, 6) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pagos_provisionales_profile_id_anio_mes_pk" PRIMARY KEY("profile_id","anio","mes")
);
--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "uso_iva" text;--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "acto_5c" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "manual_expenses" ADD COLUMN "uuid_cfdi" text;--> statement-breakpoint
ALTER TABLE "manual_expenses" ADD COLUMN "pedimento" text;--> statement-breakpoint
ALTER TABLE "manual_expenses" ADD COLUMN "proveedor_extranjero_digital" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "manual_expenses" ADD COLUMN "forma_pago" text;--> statement-breakpoint
ALTER TABLE "manual_expenses" ADD COLUMN "uso_iva" text;--> statement-breakpoint
ALTER TABLE "iva_proporcion_5b" ADD CONSTRAINT "iva_proporcion_5b_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pagos_provisionales" ADD CONSTRAINT "pagos_provisionales_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;