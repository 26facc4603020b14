CREATE TABLE "cfdi_xml" (
	"cfdi_id" text PRIMARY KEY NOT NULL,
	"xml" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cfdis" (
	"id" text PRIMARY KEY NOT NULL,
	"profile_id" text NOT NULL,
	"user_id" text NOT NULL,
	"side" text NOT NULL,
	"uuid" text NOT NULL,
	"version" text NOT NULL,
	"tipo_comprobante" text NOT NULL,
	"tipo" text NOT NULL,
	"fecha" text NOT NULL,
	"mes" smallint NOT NULL,
	"anio" smallint NOT NULL,
	"moneda" text NOT NULL,
	"tipo_cambio" numeric(20, 6),
	"metodo_pago" text,
	"forma_pago" text,
	"subtotal" numeric(20, 6) NOT NULL,
	"descuento" numeric(20, 6),
	"total" numeric(20, 6) NOT NULL,
	"iva" numeric(7, 2) NOT NULL,
	"iva_amount" numeric(20, 6),
	"retencion_iva_amount" numeric(20, 6),
	"retencion_isr_amount" numeric(20, 6),
	"rfc_emisor" text NOT NULL,
	"nombre_emisor" text NOT NULL,
	"regimen_fiscal_emisor" text,
	"rfc_receptor" text NOT NULL,
	"nombre_receptor" text NOT NULL,
	"regimen_fiscal_receptor" text,
	"concepto" text,
	"complemento_pago" jsonb,
	"validacion" jsonb NOT NULL,
	"estado_pago" jsonb,
	"payment_warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"pagos" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_paid" boolean,
	"payment_date" text,
	"search_text" text GENERATED ALWAYS AS (f_unaccent(lower(uuid || ' ' || rfc_emisor || ' ' || nombre_emisor || ' ' || rfc_receptor || ' ' || nombre_receptor || ' ' || coalesce(concepto, '')))) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "manual_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"cfdi_id" text NOT NULL,
	"fecha_pago" text NOT NULL,
	"forma_pago" text NOT NULL,
	"moneda_pago" text NOT NULL,
	"monto" numeric(20, 6) NOT NULL,
	"num_operacion" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_applications" (
	"id" text PRIMARY KEY NOT NULL,
	"profile_id" text NOT NULL,
	"rep_cfdi_id" text NOT NULL,
	"rep_uuid" text NOT NULL,
	"related_uuid" text NOT NULL,
	"num_parcialidad" integer NOT NULL,
	"fecha_pago" text NOT NULL,
	"forma_pago" text NOT NULL,
	"moneda_p" text NOT NULL,
	"monto" numeric(20, 6),
	"num_operacion" text,
	"moneda_dr" text NOT NULL,
	"equivalencia_dr" numeric(20, 6),
	"metodo_pago_dr" text,
	"imp_saldo_ant" numeric(20, 6) NOT NULL,
	"imp_pagado" numeric(20, 6) NOT NULL,
	"imp_saldo_insoluto" numeric(20, 6) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cfdi_xml" ADD CONSTRAINT "cfdi_xml_cfdi_id_cfdis_id_fk" FOREIGN KEY ("cfdi_id") REFERENCES "public"."cfdis"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cfdis" ADD CONSTRAINT "cfdis_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cfdis" ADD CONSTRAINT "cfdis_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manual_payments" ADD CONSTRAINT "manual_payments_cfdi_id_cfdis_id_fk" FOREIGN KEY ("cfdi_id") REFERENCES "public"."cfdis"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_applications" ADD CONSTRAINT "payment_applications_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_applications" ADD CONSTRAINT "payment_applications_rep_cfdi_id_cfdis_id_fk" FOREIGN KEY ("rep_cfdi_id") REFERENCES "public"."cfdis"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cfdis_profile_uuid_uq" ON "cfdis" USING btree ("profile_id","uuid");--> statement-breakpoint
CREATE INDEX "cfdis_profile_list_idx" ON "cfdis" USING btree ("profile_id","side","fecha" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "cfdis_profile_month_idx" ON "cfdis" USING btree ("profile_id","side","anio","mes","fecha" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "cfdis_user_list_idx" ON "cfdis" USING btree ("user_id","side","fecha" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "cfdis_search_trgm" ON "cfdis" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "manual_payments_cfdi_idx" ON "manual_payments" USING btree ("cfdi_id");--> statement-breakpoint
CREATE INDEX "payment_applications_related_idx" ON "payment_applications" USING btree ("profile_id","related_uuid");