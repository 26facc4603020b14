// The DIOT's two codes (SAT, DIOT version 2 instructivo, 2025; docs/diot.md): who the supplier is
// (tipo de tercero) and what was bought (tipo de operación), derived from the CFDI's facts unless
// the user said otherwise for the supplier.

export const RFC_EXTRANJERO = 'XEXX010101000';
export const RFC_GLOBAL = 'XAXX010101000';

export type TipoTercero = '04' | '05' | '15';
export type TipoOperacion = '02' | '03' | '06' | '07' | '08' | '85' | '87';

/** The tipos de operación the instructivo allows for each tipo de tercero. */
export const OPERACIONES_PERMITIDAS: Record<TipoTercero, readonly TipoOperacion[]> = {
  '04': ['02', '03', '06', '08', '85'],
  '05': ['02', '03', '07'],
  '15': ['87'],
};

/** 04 national supplier, 05 foreign (XEXX010101000), 15 global (XAXX010101000 and RFC-less expenses). */
export function tipoTercero(rfc: string): TipoTercero {
  if (rfc === RFC_EXTRANJERO) return '05';
  if (rfc === RFC_GLOBAL) return '15';
  return '04';
}

/**
 * What a paid document says about the operation. Null where Folio does not know (a CFDI stored
 * before its concepts were summarised, a manual expense): the derivation then falls through.
 */
export interface OperacionFacts {
  /** The issuer's RegimenFiscal. */
  regimenEmisor: string | null;
  /** Persona física issuer (a 13-character RFC). */
  personaFisica: boolean;
  /** Some concept's ClaveProdServ is in class 801315 (real-estate rental). */
  renta: boolean | null;
  /** Some concept is a service (ClaveProdServ segments 70–94). */
  servicios: boolean | null;
  /** Every concept is a product (segments 10–60). */
  soloProductos: boolean | null;
  /** Rates of the ISR withheld, as fractions (0.1, 0.0125). */
  tasasIsrRetenido: number[];
}

const PF_SERVICIOS = new Set(['612', '626']);
const ISR_SERVICIOS = [0.1, 0.0125];
const near = (a: number, b: number) => Math.abs(a - b) < 0.0005;

/**
 * A national supplier's tipo de operación, first match wins (tax-rules §6): rent before
 * withholdings, since rent paid to a persona física also bears 10 % ISR withheld (LISR 116);
 * then professional services (LISR 106: 10 %; 113-J: 1.25 % from RESICO); then goods; else 85.
 * 08 (importación por transferencia virtual) needs a pedimento: never derived.
 */
export function deriveTipoOperacion(f: OperacionFacts): TipoOperacion {
  if (f.renta || f.regimenEmisor === '606') return '06';
  const pfServicios = f.personaFisica && PF_SERVICIOS.has(f.regimenEmisor ?? '') && f.servicios === true;
  if (pfServicios || f.tasasIsrRetenido.some((t) => ISR_SERVICIOS.some((s) => near(t, s)))) return '03';
  if (f.soloProductos) return '02';
  return '85';
}

/**
 * The code a supplier's row carries: the user's choice when the instructivo allows it for the
 * tercero, else the derived one (global: 87; foreign: 07, the import of what it sold).
 */
export function tipoOperacionOf(
  tercero: TipoTercero,
  facts: OperacionFacts,
  override: TipoOperacion | undefined,
): { tipo: TipoOperacion; derivado: boolean } {
  if (override && OPERACIONES_PERMITIDAS[tercero].includes(override))
    return { tipo: override, derivado: false };
  if (tercero === '15') return { tipo: '87', derivado: true };
  if (tercero === '05') return { tipo: '07', derivado: true };
  return { tipo: deriveTipoOperacion(facts), derivado: true };
}

/** Which tercero an override's key stands for: the global RFC, a Mexican RFC, else a foreign tax id. */
export function terceroOfKey(key: string, isRfc: (s: string) => boolean): TipoTercero {
  if (key === RFC_GLOBAL) return '15';
  return isRfc(key) && key !== RFC_EXTRANJERO ? '04' : '05';
}
