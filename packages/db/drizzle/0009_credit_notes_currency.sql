CREATE TABLE "cfdi_relations" (
	"cfdi_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"tipo_relacion" text NOT NULL,
	"related_uuid" text NOT NULL,
	CONSTRAINT "cfdi_relations_cfdi_id_tipo_relacion_related_uuid_pk" PRIMARY KEY("cfdi_id","tipo_relacion","related_uuid")
);
--> statement-breakpoint
ALTER TABLE "cfdi_relations" ADD CONSTRAINT "cfdi_relations_cfdi_id_cfdis_id_fk" FOREIGN KEY ("cfdi_id") REFERENCES "public"."cfdis"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cfdi_relations" ADD CONSTRAINT "cfdi_relations_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cfdi_relations_related_idx" ON "cfdi_relations" USING btree ("profile_id","related_uuid");
--> statement-breakpoint
-- Back-fill (hand-written): the CfdiRelacionados of the CFDI already stored, read from their original
-- XML. Each block's children are self-closing CfdiRelacionado elements, so a block ends at the first
-- closing tag that is not a child's; the namespace prefix is whatever the file declared.
INSERT INTO "cfdi_relations" ("cfdi_id", "profile_id", "tipo_relacion", "related_uuid")
SELECT DISTINCT c."id", c."profile_id", (regexp_match(b.m[2], 'TipoRelacion\s*=\s*["'']([0-9]{2})["'']'))[1], upper(u.m[1])
FROM "cfdis" c
JOIN "cfdi_xml" x ON x."cfdi_id" = c."id"
CROSS JOIN LATERAL regexp_matches(x."xml", '<([A-Za-z_][-.A-Za-z0-9_]*:)?CfdiRelacionados(\s[^>]*)>((?:[^<]|<[^/]|</[^>]*CfdiRelacionado>)*)', 'g') AS b(m)
CROSS JOIN LATERAL regexp_matches(b.m[3], 'UUID\s*=\s*["'']([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})["'']', 'g') AS u(m)
WHERE x."xml" LIKE '%CfdiRelacionados%'
  AND regexp_match(b.m[2], 'TipoRelacion\s*=\s*["'']([0-9]{2})["'']') IS NOT NULL;
--> statement-breakpoint
-- A credit note (E) has no payment status of its own: it was stored as a paid PUE.
UPDATE "cfdis" SET "estado_pago" = NULL, "is_paid" = NULL, "payment_date" = NULL, "pagos" = '[]'::jsonb, "payment_warnings" = '[]'::jsonb
WHERE "tipo_comprobante" = 'E';
