import { checkProfileRfc, type TipoPersona } from '@folio/cfdi';
import type { Db } from '@folio/db';
import { listFiscalRegimes } from '@folio/db/queries/catalogs';
import { invalidField, unprocessable } from '../../errors';

/** RFC rules from packages/cfdi; any failure is a 400 naming the rule. */
export function validRfc(rfc: string, tipoPersona: TipoPersona): string {
  const result = checkProfileRfc(rfc, tipoPersona);
  if ('problem' in result) throw invalidField('rfc', result.problem.message, 'rfc_invalid');
  return result.rfc;
}

/** Regime codes must exist in c_RegimenFiscal and apply to the person type; duplicates collapse. */
export async function validRegimes(db: Db, codes: string[], tipoPersona: TipoPersona): Promise<string[]> {
  const applicable = new Set((await listFiscalRegimes(db, tipoPersona)).map((r) => r.clave));
  const unique = [...new Set(codes)];
  const wrong = unique.find((c) => !applicable.has(c));
  if (wrong) {
    const all = new Set((await listFiscalRegimes(db)).map((r) => r.clave));
    throw unprocessable(
      all.has(wrong)
        ? `regimenes_fiscales: regime ${wrong} does not apply to tipo_persona ${tipoPersona}`
        : `regimenes_fiscales: ${wrong} is not a c_RegimenFiscal code`,
      'regimen_invalid',
    );
  }
  return unique;
}
