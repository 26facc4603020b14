-- A tax report's few rows of a profile (schema/cfdi.ts): its PPD invoices, its nómina and its
-- SAT-status notices read by index instead of every row of the profile. Built in the migration's
-- lock: on a million CFDI about a second each (docs/benchmarks.md).
CREATE INDEX "cfdis_profile_ppd_idx" ON "cfdis" USING btree ("profile_id","fecha") WHERE "cfdis"."tipo" = 'PPD' and "cfdis"."tipo_comprobante" = 'I';--> statement-breakpoint
CREATE INDEX "cfdis_profile_nomina_idx" ON "cfdis" USING btree ("profile_id",("facts"->'nomina'->>'fechaPago')) WHERE "cfdis"."tipo_comprobante" = 'N';--> statement-breakpoint
CREATE INDEX "cfdis_profile_status_idx" ON "cfdis" USING btree ("profile_id","fecha","estatus_sat") WHERE "cfdis"."estatus_sat" <> 'vigente';