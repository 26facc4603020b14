ALTER TABLE "payment_applications" ALTER COLUMN "equivalencia_dr" SET DATA TYPE numeric(22, 10);--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "base_16" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "iva_16" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "base_8" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "iva_8" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "base_0" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "base_exenta" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "ieps" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "taxes_version" smallint;--> statement-breakpoint
ALTER TABLE "payment_applications" ADD COLUMN "tipo_cambio_p" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "payment_applications" ADD COLUMN "dr_taxes" boolean;--> statement-breakpoint
ALTER TABLE "payment_applications" ADD COLUMN "base_16" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "payment_applications" ADD COLUMN "iva_16" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "payment_applications" ADD COLUMN "base_8" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "payment_applications" ADD COLUMN "iva_8" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "payment_applications" ADD COLUMN "base_0" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "payment_applications" ADD COLUMN "base_exenta" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "payment_applications" ADD COLUMN "ieps" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "payment_applications" ADD COLUMN "retencion_iva" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "payment_applications" ADD COLUMN "retencion_isr" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "manual_expenses" ADD COLUMN "is_paid" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "manual_expenses" ADD COLUMN "payment_date" text;--> statement-breakpoint
ALTER TABLE "manual_expenses" ADD COLUMN "rfc_emisor" text;--> statement-breakpoint
ALTER TABLE "manual_expenses" ADD COLUMN "nombre_emisor" text;--> statement-breakpoint
CREATE INDEX "cfdis_taxes_pending_idx" ON "cfdis" USING btree ("id") WHERE "cfdis"."taxes_version" is null;--> statement-breakpoint
CREATE INDEX "payment_applications_rep_idx" ON "payment_applications" USING btree ("rep_cfdi_id");--> statement-breakpoint
ALTER TABLE "manual_expenses" ADD CONSTRAINT "manual_expenses_paid_has_date" CHECK (not "manual_expenses"."is_paid" or "manual_expenses"."payment_date" is not null);