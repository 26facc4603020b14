import { and, asc, count, desc, eq, getTableColumns, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../client';
import { cfdis, cfdiXml, manualPayments, paymentApplications, profiles } from '../schema';

/** What listings read: every column but the generated search text. */
const { searchText: _searchText, ...LISTED } = getTableColumns(cfdis);

export type CfdiRow = Omit<typeof cfdis.$inferSelect, 'searchText'>;
export type NewCfdi = typeof cfdis.$inferInsert;
export type ApplicationRow = typeof paymentApplications.$inferSelect;
export type ManualPaymentRow = typeof manualPayments.$inferSelect;
type Conn = Db | Tx;

export async function cfdiIdByUuid(db: Conn, profileId: string, uuid: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: cfdis.id })
    .from(cfdis)
    .where(and(eq(cfdis.profileId, profileId), eq(cfdis.uuid, uuid)));
  return row?.id;
}

/** Whether another profile of the same user already holds this UUID. */
export async function uuidInOtherProfile(
  db: Conn,
  userId: string,
  profileId: string,
  uuid: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: cfdis.id })
    .from(cfdis)
    .where(and(eq(cfdis.userId, userId), eq(cfdis.uuid, uuid), ne(cfdis.profileId, profileId)))
    .limit(1);
  return !!row;
}

/** Stores the CFDI with its original XML; `null` when the profile already has the UUID. */
export async function insertCfdi(tx: Tx, row: NewCfdi, xml: string): Promise<CfdiRow | null> {
  const [stored] = await tx.insert(cfdis).values(row).onConflictDoNothing().returning();
  if (!stored) return null;
  await tx.insert(cfdiXml).values({ cfdiId: stored.id, xml });
  return stored;
}

export async function insertApplications(
  tx: Tx,
  rows: (typeof paymentApplications.$inferInsert)[],
): Promise<void> {
  if (rows.length) await tx.insert(paymentApplications).values(rows);
}

export function applicationsFor(
  db: Conn,
  profileId: string,
  relatedUuids: string[],
): Promise<ApplicationRow[]> {
  return db
    .select()
    .from(paymentApplications)
    .where(
      and(
        eq(paymentApplications.profileId, profileId),
        inArray(paymentApplications.relatedUuid, relatedUuids),
      ),
    )
    .orderBy(asc(paymentApplications.numParcialidad), asc(paymentApplications.fechaPago));
}

export function manualPaymentsFor(db: Conn, cfdiIds: string[]): Promise<ManualPaymentRow[]> {
  return db
    .select()
    .from(manualPayments)
    .where(inArray(manualPayments.cfdiId, cfdiIds))
    .orderBy(asc(manualPayments.fechaPago), asc(manualPayments.createdAt));
}

export async function insertManualPayment(tx: Tx, row: typeof manualPayments.$inferInsert): Promise<void> {
  await tx.insert(manualPayments).values(row);
}

/** The profile's CFDI with these UUIDs that can be paid (not payment complements themselves). */
export function payableByUuids(db: Conn, profileId: string, uuids: string[]): Promise<CfdiRow[]> {
  if (!uuids.length) return Promise.resolve([]);
  return db
    .select()
    .from(cfdis)
    .where(
      and(eq(cfdis.profileId, profileId), inArray(cfdis.uuid, uuids), ne(cfdis.tipo, 'COMPLEMENTO_PAGO')),
    );
}

export async function savePaymentState(
  tx: Conn,
  id: string,
  state: Pick<NewCfdi, 'estadoPago' | 'pagos' | 'isPaid' | 'paymentDate' | 'paymentWarnings'>,
): Promise<void> {
  await tx
    .update(cfdis)
    .set({ ...state, updatedAt: new Date() })
    .where(eq(cfdis.id, id));
}

export async function findCfdi(db: Conn, id: string) {
  const [row] = await db
    .select({ cfdi: cfdis, profile: { id: profiles.id, nombre: profiles.nombre, rfc: profiles.rfc } })
    .from(cfdis)
    .innerJoin(profiles, eq(profiles.id, cfdis.profileId))
    .where(eq(cfdis.id, id));
  return row;
}

export async function findCfdiXml(db: Conn, id: string): Promise<string | undefined> {
  const [row] = await db.select({ xml: cfdiXml.xml }).from(cfdiXml).where(eq(cfdiXml.cfdiId, id));
  return row?.xml;
}

export interface CfdiListFilter {
  userId: string;
  side: 'income' | 'expense';
  profileId?: string;
  mes?: number;
  anio?: number;
  regimenFiscal?: string;
  tipo?: 'PUE' | 'PPD' | 'COMPLEMENTO_PAGO';
  /** Case- and accent-insensitive substring of UUID, RFCs, names and concept. */
  search?: string;
}

/** `%text%` for LIKE over the lower-cased, unaccented search columns, with LIKE's wildcards escaped. */
export function containsPattern(text: string): SQL {
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql`'%' || f_unaccent(lower(${escaped})) || '%'`;
}

/** The WHERE of a CFDI listing; exported so the expense listing can union it with manual expenses. */
export function cfdiListWhere(f: CfdiListFilter): SQL {
  const conds: (SQL | undefined)[] = [
    f.profileId ? eq(cfdis.profileId, f.profileId) : eq(cfdis.userId, f.userId),
    eq(cfdis.side, f.side),
    f.anio !== undefined ? eq(cfdis.anio, f.anio) : undefined,
    f.mes !== undefined ? eq(cfdis.mes, f.mes) : undefined,
    f.tipo ? eq(cfdis.tipo, f.tipo) : undefined,
    f.regimenFiscal
      ? or(eq(cfdis.regimenFiscalEmisor, f.regimenFiscal), eq(cfdis.regimenFiscalReceptor, f.regimenFiscal))
      : undefined,
    f.search ? sql`${cfdis.searchText} like ${containsPattern(f.search)}` : undefined,
  ];
  return and(...conds)!;
}

/** Newest `fecha` first, id as the tie-break, with the total over the whole filtered set. */
export async function listCfdis(db: Db, f: CfdiListFilter, page: { limit: number; offset: number }) {
  const where = cfdiListWhere(f);
  const [rows, totals] = await Promise.all([
    db
      .select({ cfdi: LISTED, profile: { id: profiles.id, nombre: profiles.nombre, rfc: profiles.rfc } })
      .from(cfdis)
      .innerJoin(profiles, eq(profiles.id, cfdis.profileId))
      .where(where)
      .orderBy(desc(cfdis.fecha), desc(cfdis.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(cfdis).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/**
 * Serialises payment-status work on these invoices across concurrent transactions (an invoice and
 * its complement arriving at once): each waits for the other's commit, then reads it. Sorted, so two
 * transactions never wait on each other in opposite orders.
 */
export async function lockPaymentKeys(tx: Tx, profileId: string, uuids: string[]): Promise<void> {
  for (const uuid of [...new Set(uuids)].sort()) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${profileId}:${uuid}`}, 0))`);
  }
}
