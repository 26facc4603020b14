DROP INDEX "cfdis_taxes_pending_idx";--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "lugar_expedicion" text;--> statement-breakpoint
ALTER TABLE "cfdis" ADD COLUMN "facts" jsonb;--> statement-breakpoint
CREATE INDEX "cfdis_taxes_pending_idx" ON "cfdis" USING btree ("id") WHERE ("cfdis"."taxes_version" is null or ("cfdis"."taxes_version" > 0 and "cfdis"."taxes_version" < 2));