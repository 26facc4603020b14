// c_RegimenFiscal as CFDI 4.0 defines it (19 codes) with the person types each applies to,
// plus the codes only older catalogs had (docs/cfdi.md#fiscal-regimes). The database holds the full
// catalog with descriptions; this copy lets the pure parser flag unknown or misapplied codes.

import { isGenericRfc, personaOfRfc, type TipoPersona } from './rfc';

const F: TipoPersona[] = ['FISICA'];
const M: TipoPersona[] = ['MORAL'];
const FM: TipoPersona[] = ['FISICA', 'MORAL'];

// A Map: looked up twice per party of every document, and a code such as '601' is an array index
// to an object, parsed as a number at every lookup.
const REGIMENES: ReadonlyMap<string, readonly TipoPersona[]> = new Map(
  Object.entries({
    '601': M,
    '603': M,
    '605': F,
    '606': F,
    '607': F,
    '608': F,
    '610': FM,
    '611': F,
    '612': F,
    '614': F,
    '615': F,
    '616': F,
    '620': M,
    '621': F,
    '622': M,
    '623': M,
    '624': M,
    '625': F,
    '626': FM,
  }),
);

/** 609 ended in 2019; 628-630 appear in the 3.3 tables. Accepted on import, no person-type rule. */
const LEGACY = new Set(['609', '628', '629', '630']);

export function isKnownRegimen(code: string): boolean {
  return REGIMENES.has(code) || LEGACY.has(code);
}

/**
 * False only when the code is a current one that the RFC's person type (by length) cannot hold,
 * e.g. 601 on a 13-character RFC. Generic RFCs are skipped: their length says nothing.
 */
export function regimenAppliesTo(code: string, rfc: string): boolean {
  const tipos = REGIMENES.get(code);
  const persona = personaOfRfc(rfc);
  if (!tipos || !persona || isGenericRfc(rfc)) return true;
  return tipos.includes(persona);
}
