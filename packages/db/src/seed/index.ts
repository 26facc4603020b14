import { sql } from 'drizzle-orm';
import type { Db } from '../db-types';
import { fiscalRegimes } from '../schema';
import { FISCAL_REGIMES } from './fiscal-regimes';

const REGIMES_VALID_FROM = '2022-01-01';

/** Idempotent: brings the fixed reference lists up to date on every start. */
export async function seedReferenceData(db: Db): Promise<void> {
  await db
    .insert(fiscalRegimes)
    .values(
      FISCAL_REGIMES.map(([clave, descripcion, fisica, moral]) => ({
        clave,
        descripcion,
        aplicaPersonaFisica: fisica,
        aplicaPersonaMoral: moral,
        fechaInicioVigencia: REGIMES_VALID_FROM,
      })),
    )
    .onConflictDoUpdate({
      target: fiscalRegimes.clave,
      set: {
        descripcion: sql`excluded.descripcion`,
        aplicaPersonaFisica: sql`excluded.aplica_persona_fisica`,
        aplicaPersonaMoral: sql`excluded.aplica_persona_moral`,
      },
    });
}
