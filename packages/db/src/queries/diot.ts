import { and, eq, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../client';
import { diotProveedores, manualExpenses as manualExpensesTable } from '../schema';
import { countsIn } from './counts-in-reports';
import { inList } from './in-list';
import type { ReportRows } from './report-rows';
import {
  type DocRecord,
  docColumns,
  manualExpenses,
  notes,
  payments,
  type ReportRange,
  toDoc,
} from './reports';

// The DIOT's rows: one month's CFDI one by one (not summed by supplier as the other reports read
// them: each document's operation is derived on its own), the payments and manual expenses the
// other reports read, and what the DIOT needs beyond them: the facts of each paid document and the
// user's word per supplier. The income side is read too: its collections make the month's IVA
// proportion (LIVA 5-V), as in the monthly report.

/** The month's CFDI of type I and E, issued and received, each alone. */
async function monthDocuments(db: Executor, r: ReportRange) {
  const rows = rowsOf<DocRecord>(
    await db.execute(
      sql`select ${docColumns('c')}
          from cfdis c
          where c.profile_id = ${r.profileId} and c.side in ('income', 'expense') and c.tipo_comprobante in ('I', 'E')
            and c.fecha >= ${r.from} and c.fecha < ${r.to} and ${sql.raw(countsIn('c'))}`,
    ),
  );
  return rows.map(toDoc);
}

/** What the DIOT reads for a month: the cash movements' sources, CFDI one by one. */
export async function diotReportRows(db: Executor, r: ReportRange): Promise<ReportRows> {
  const [docs, pays, manual, notas] = await Promise.all([
    monthDocuments(db, r),
    payments(db, r),
    manualExpenses(db, r),
    notes(db, r),
  ]);
  return {
    docs,
    payments: pays,
    manualExpenses: manual,
    pending: [],
    notes: notas,
  };
}

export interface DiotCfdiFactsRow {
  id: string;
  rfc_emisor: string;
  lugar_expedicion: string | null;
  /**
   * The operation's own issuer régimen and CFDI facts (`CfdiFacts` of packages/cfdi; null before the
   * back-fill): a credit note's come from the invoice it relates (TipoRelacion 01), since a note's
   * concept is SAT's 84111506 whatever was sold.
   */
  regimen_emisor: string | null;
  facts: object | null;
  /** The document's own facts and Total (its own base not subject to IVA, ObjetoImp 01). */
  own_facts: object | null;
  total: string;
  /** Subtotal − Descuento and the ISR withheld: the withholding's rate while the facts are missing. */
  base: string;
  retencion_isr: string | null;
}

/** The facts of the paid CFDI (by id) the DIOT derives a tipo de operación from. */
export async function diotCfdiFacts(
  db: Executor,
  profileId: string,
  ids: string[],
): Promise<DiotCfdiFactsRow[]> {
  if (ids.length === 0) return [];
  return rowsOf<DiotCfdiFactsRow>(
    await db.execute(
      sql`select c.id, c.rfc_emisor, c.lugar_expedicion,
            coalesce(inv.regimen_fiscal_emisor, c.regimen_fiscal_emisor) as regimen_emisor,
            coalesce(inv.facts, c.facts) as facts, c.facts as own_facts, c.total::text as total,
            coalesce(inv.subtotal - coalesce(inv.descuento, 0), c.subtotal - coalesce(c.descuento, 0))::text as base,
            coalesce(inv.retencion_isr_amount, c.retencion_isr_amount)::text as retencion_isr
          from cfdis c
          left join lateral (
            select i.regimen_fiscal_emisor, i.facts, i.subtotal, i.descuento, i.retencion_isr_amount
            from cfdi_relations cr join cfdis i on i.profile_id = cr.profile_id and i.uuid = cr.related_uuid
            where c.tipo_comprobante = 'E' and cr.cfdi_id = c.id and cr.tipo_relacion = '01'
            order by i.fecha limit 1
          ) inv on true
          where c.profile_id = ${profileId}
            and c.id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`,
    ),
  );
}

/** A manual expense's supplier as the DIOT needs it (foreign: 05 with tax id and country). */
export async function diotManualFacts(db: Executor, profileId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: manualExpensesTable.id,
      tipoTercero: manualExpensesTable.tipoTercero,
      idFiscal: manualExpensesTable.idFiscal,
      pais: manualExpensesTable.pais,
      nombre: manualExpensesTable.nombreEmisor,
    })
    .from(manualExpensesTable)
    .where(and(eq(manualExpensesTable.profileId, profileId), inList(manualExpensesTable.id, ids)));
}

export type DiotProveedorRow = typeof diotProveedores.$inferSelect;

export function listDiotOverrides(db: Executor, profileId: string): Promise<DiotProveedorRow[]> {
  return db.select().from(diotProveedores).where(eq(diotProveedores.profileId, profileId));
}

/** The user's word on one supplier: set (both fields replaced), answered as stored. */
export async function upsertDiotOverride(
  db: Executor,
  v: Pick<DiotProveedorRow, 'profileId' | 'clave' | 'tipoOperacion' | 'region8'>,
): Promise<DiotProveedorRow> {
  const [row] = await db
    .insert(diotProveedores)
    .values(v)
    .onConflictDoUpdate({
      target: [diotProveedores.profileId, diotProveedores.clave],
      set: { tipoOperacion: v.tipoOperacion, region8: v.region8, updatedAt: new Date() },
    })
    .returning();
  if (!row) throw new Error('diot override upsert returned nothing');
  return row;
}
