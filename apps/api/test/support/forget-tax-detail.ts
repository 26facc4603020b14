import type { Db } from '@folio/db';
import { sql } from 'drizzle-orm';

/**
 * Puts CFDI rows back as if imported before the tax-detail migration: `taxes_version` (or `version`,
 * an older derivation) and every derived column NULL, on the CFDIs and on the payment applications
 * of those that are REPs.
 */
export async function forgetTaxDetail(db: Db, ids: string[], version: number | null = null) {
  await db.execute(sql`update cfdis set base_16 = null, iva_16 = null, base_8 = null, iva_8 = null,
    base_0 = null, base_exenta = null, ieps = null, lugar_expedicion = null, facts = null,
    taxes_version = ${version} where id in ${ids}`);
  await db.execute(sql`update payment_applications set tipo_cambio_p = null, equivalencia_dr = null,
    metodo_pago_dr = null, dr_taxes = null, base_16 = null, iva_16 = null, base_8 = null, iva_8 = null,
    base_0 = null, base_exenta = null, ieps = null, retencion_iva = null, retencion_isr = null
    where rep_cfdi_id in ${ids}`);
}
