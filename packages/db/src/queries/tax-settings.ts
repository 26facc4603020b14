import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { cfdis, ivaProporcion5b, pagosProvisionales } from '../schema';

// A profile's own statements about its returns: the LIVA 5-B proportion of a year and the RESICO
// provisional payments actually made.

export async function setIvaProporcion5b(db: Executor, profileId: string, anio: number, proporcion: number) {
  const [row] = await db
    .insert(ivaProporcion5b)
    .values({ profileId, anio, proporcion })
    .onConflictDoUpdate({
      target: [ivaProporcion5b.profileId, ivaProporcion5b.anio],
      set: { proporcion, updatedAt: sql`now()` },
    })
    .returning();
  return row!;
}

export async function setPagoProvisional(
  db: Executor,
  profileId: string,
  anio: number,
  mes: number,
  isrPagado: number,
) {
  const [row] = await db
    .insert(pagosProvisionales)
    .values({ profileId, anio, mes, isrPagado })
    .onConflictDoUpdate({
      target: [pagosProvisionales.profileId, pagosProvisionales.anio, pagosProvisionales.mes],
      set: { isrPagado, updatedAt: sql`now()` },
    })
    .returning();
  return row!;
}

/** What a report of the year needs: the fixed proportion (if any) and the payments made, by month. */
export async function taxSettingsOf(db: Executor, profileId: string, anio: number) {
  const [proporcion, pagos] = await Promise.all([
    db
      .select({ proporcion: sql<string>`${ivaProporcion5b.proporcion}::text` })
      .from(ivaProporcion5b)
      .where(and(eq(ivaProporcion5b.profileId, profileId), eq(ivaProporcion5b.anio, anio))),
    db
      .select({ mes: pagosProvisionales.mes, isrPagado: sql<string>`${pagosProvisionales.isrPagado}::text` })
      .from(pagosProvisionales)
      .where(and(eq(pagosProvisionales.profileId, profileId), eq(pagosProvisionales.anio, anio))),
  ]);
  return {
    proporcion5b: proporcion[0]?.proporcion ?? null,
    pagosProvisionales: new Map(pagos.map((p) => [p.mes, p.isrPagado])),
  };
}
export type TaxSettings = Awaited<ReturnType<typeof taxSettingsOf>>;

/** The user's IVA tags on a CFDI: `uso_iva` of a received one, `acto_5c` of an issued one. */
export async function setCfdiIvaTags(
  db: Executor,
  id: string,
  tags: { usoIva?: 'gravado' | 'exento' | null; acto5c?: boolean },
) {
  const [row] = await db
    .update(cfdis)
    .set({ ...tags, updatedAt: sql`now()` })
    .where(eq(cfdis.id, id))
    .returning({ id: cfdis.id, usoIva: cfdis.usoIva, acto5c: cfdis.acto5c });
  return row;
}
