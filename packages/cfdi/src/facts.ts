// What the tax reports need to know of a CFDI beyond its totals and taxes by rate, summarised once
// at import (and by the back-fill from the stored XML): docs/cfdi.md#facts.

import { round6 } from './money';
import { personaOfRfc } from './rfc';
import type { Cfdi, NominaTotals, RetencionPorTasa } from './types';

/** c_ObjetoImp codes. A CFDI 3.3 concept has none: `02` when it carries IVA, else `01`. */
export type ObjetoImp = '01' | '02' | '03' | '04' | '05';

/** Concepts of one kind: same ClaveProdServ, ObjetoImp and interest reading, summed. */
export interface ConceptoResumen {
  claveProdServ: string;
  objetoImp: string;
  /** LIVA 5-C: interest, by ClaveProdServ 841017xx / 841215xx or a description saying "interés"/"intereses". */
  interes: boolean;
  /** Σ Importe − Descuento: the concepts' base. */
  base: number;
  /** Σ transferred IVA. */
  iva: number;
}

export interface CfdiFacts {
  /** The issuer is a persona física (13-character RFC). */
  emisorPersonaFisica: boolean;
  /** CfdiRelacionados in document order: each group's TipoRelacion and UUIDs in list order. */
  relacionados: Array<{ tipoRelacion: string; uuids: string[] }>;
  /** Base (Σ Importe − Descuento of the concepts) by ObjetoImp; codes without concepts left out. */
  basePorObjetoImp: Partial<Record<ObjetoImp, number>>;
  /** The concepts grouped by ClaveProdServ, ObjetoImp and interest, in order of first appearance. */
  conceptos: ConceptoResumen[];
  /** Withholdings by tax and rate (LISR 106/116 10 %, 113-J 1.25 %, LIVA 1-A). */
  retenciones: RetencionPorTasa[];
  /** Nómina 1.2 totals, when the CFDI carries the complement. */
  nomina?: NominaTotals;
}

const OBJETOS: ReadonlySet<string> = new Set(['01', '02', '03', '04', '05']);
/** ClaveProdServ of interest (LIVA 5-C): 841017xx (interés de inversiones…), 841215xx (préstamos). */
const INTEREST_CLASSES = ['841017', '841215'];
const INTEREST_WORDS = /\binter[eé]s(es)?\b/i;

export function cfdiFacts(cfdi: Cfdi): CfdiFacts {
  const basePorObjetoImp: Partial<Record<ObjetoImp, number>> = {};
  const conceptos: ConceptoResumen[] = [];
  const byKey = new Map<string, ConceptoResumen>();
  for (const c of cfdi.conceptos) {
    const objetoImp = c.objetoImp ?? (c.trasladaIva ? '02' : '01');
    const base = c.importe - (c.descuento ?? 0);
    if (OBJETOS.has(objetoImp)) {
      const code = objetoImp as ObjetoImp;
      basePorObjetoImp[code] = round6((basePorObjetoImp[code] ?? 0) + base);
    }
    const interes = isInterest(c.claveProdServ, c.descripcion);
    const key = `${c.claveProdServ}|${objetoImp}|${interes}`;
    const known = byKey.get(key);
    if (known) {
      known.base = round6(known.base + base);
      known.iva = round6(known.iva + c.ivaTrasladado);
    } else {
      const resumen = {
        claveProdServ: c.claveProdServ,
        objetoImp,
        interes,
        base: round6(base),
        iva: c.ivaTrasladado,
      };
      byKey.set(key, resumen);
      conceptos.push(resumen);
    }
  }
  const facts: CfdiFacts = {
    emisorPersonaFisica: personaOfRfc(cfdi.emisor.rfc) === 'FISICA',
    relacionados: cfdi.relacionados,
    basePorObjetoImp,
    conceptos,
    retenciones: cfdi.impuestos.retencionesPorTasa,
  };
  if (cfdi.nomina) facts.nomina = cfdi.nomina;
  return facts;
}

export function isInterest(claveProdServ: string, descripcion: string): boolean {
  return INTEREST_CLASSES.some((c) => claveProdServ.startsWith(c)) || INTEREST_WORDS.test(descripcion);
}

// Classification helpers over the stored summary, shared by the reports and the DIOT.

/** ClaveProdServ 84111506: "servicios de facturación", the concept SAT prescribes for an advance's CFDI. */
export const ANTICIPO_CLAVE = '84111506';

/** An advance's own CFDI: an I whose concepts are all ClaveProdServ 84111506 (LIVA 1-B; Anexo 20 guide, apéndice on advances). */
export const isAnticipo = (facts: Pick<CfdiFacts, 'conceptos'>) =>
  facts.conceptos.length > 0 && facts.conceptos.every((c) => c.claveProdServ === ANTICIPO_CLAVE);

/** Vehicle fuel: ClaveProdServ class 151015 (LISR 27-III: never deductible/creditable in cash). */
export const isFuel = (claveProdServ: string) => claveProdServ.startsWith('151015');

/** Real-estate rental: class 801315. */
export const isRent = (claveProdServ: string) => claveProdServ.startsWith('801315');

/** Segment (first two digits) of a ClaveProdServ: 10–60 products, 70–94 services. */
const segment = (claveProdServ: string) => Number(claveProdServ.slice(0, 2));
export const isProduct = (claveProdServ: string) =>
  segment(claveProdServ) >= 10 && segment(claveProdServ) <= 60;
export const isService = (claveProdServ: string) =>
  segment(claveProdServ) >= 70 && segment(claveProdServ) <= 94;
