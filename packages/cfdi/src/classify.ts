// Which side of the profile's books a CFDI belongs to (docs/cfdi.md#classification) and the contract's `tipo`.

import { normalizeRfc } from './rfc';
import type { Cfdi } from './types';

export type Side = 'income' | 'expense';
export type Party = 'emisor' | 'receptor';
export type ClassifyResult = { side: Side; warnings: string[] } | { error: string };
/** The contract's Invoice/Expense `tipo`. */
export type CfdiTipo = 'PUE' | 'PPD' | 'COMPLEMENTO_PAGO';

/**
 * Emisor = profile → income, receptor = profile → expense. Nómina is the other way round
 * (decided): the employer (emisor) books payroll as an expense, the employee (receptor) books
 * salary as income.
 */
export function classifyCfdi(
  cfdi: Pick<Cfdi, 'emisor' | 'receptor' | 'tipoDeComprobante'>,
  profileRfc: string,
): ClassifyResult {
  const profile = normalizeRfc(profileRfc);
  const isEmisor = cfdi.emisor.rfc === profile;
  const isReceptor = cfdi.receptor.rfc === profile;
  if (isEmisor && isReceptor) {
    // A traslado moves the issuer's own goods: issuer and receiver are the same by design.
    const warnings =
      cfdi.tipoDeComprobante === 'T'
        ? []
        : [`autofactura: el RFC del perfil (${profile}) es emisor y receptor`];
    return { side: 'income', warnings };
  }
  if (!isEmisor && !isReceptor) {
    return {
      error: `El RFC del perfil (${profile}) no es emisor (${cfdi.emisor.rfc}) ni receptor (${cfdi.receptor.rfc})`,
    };
  }
  const nomina = cfdi.tipoDeComprobante === 'N';
  return { side: isEmisor !== nomina ? 'income' : 'expense', warnings: [] };
}

/** The party whose RFC and regime must be the profile's when the CFDI is filed on `side`. */
export function profileParty(cfdi: Pick<Cfdi, 'tipoDeComprobante'>, side: Side): Party {
  const nomina = cfdi.tipoDeComprobante === 'N';
  return (side === 'income') !== nomina ? 'emisor' : 'receptor';
}

/**
 * P → COMPLEMENTO_PAGO; otherwise MetodoPago. A CFDI without MetodoPago (nómina, traslado, some
 * egresos) declares no deferred payment, so it is PUE: paid when issued.
 */
export function tipoOf(cfdi: Pick<Cfdi, 'tipoDeComprobante' | 'metodoPago'>): CfdiTipo {
  if (cfdi.tipoDeComprobante === 'P') return 'COMPLEMENTO_PAGO';
  return cfdi.metodoPago === 'PPD' ? 'PPD' : 'PUE';
}

/** TipoRelacion of an E that lowers an invoice's balance: 01 nota de crédito, 03 devolución, 07 aplicación de anticipo. */
export const CREDITING_RELATIONS: readonly string[] = ['01', '03', '07'];

/** The invoices a credit note (E) reduces: those it relates to by TipoRelacion 01, 03 or 07 (tax-rules §3). */
export function creditedUuids(cfdi: Pick<Cfdi, 'tipoDeComprobante' | 'relacionados'>): string[] {
  if (cfdi.tipoDeComprobante !== 'E') return [];
  return cfdi.relacionados
    .filter((r) => CREDITING_RELATIONS.includes(r.tipoRelacion))
    .flatMap((r) => r.uuids);
}
