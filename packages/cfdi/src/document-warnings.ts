// Parse-level findings about the document itself, independent of any profile (docs/cfdi.md
// #document-warnings). The file is signed and SAT accepted it, so none of these rejects it.

import type { TaxTotals } from './impuestos';
import { round2, sameAmount } from './money';
import { isKnownRegimen, regimenAppliesTo } from './regimenes';
import { hasValidCheckDigit, isGenericRfc, isValidRfc, rfcCheckDigit } from './rfc';
import type { Cfdi } from './types';

export function documentWarnings(
  cfdi: Omit<Cfdi, 'warnings'>,
  taxes: Omit<TaxTotals, 'impuestos'>,
): string[] {
  const warnings: string[] = [];
  const expected = round2(
    cfdi.subTotal - (cfdi.descuento ?? 0) + taxes.trasladados - taxes.retenidos + taxes.locales,
  );
  if (!sameAmount(expected, cfdi.total)) {
    warnings.push(
      `Total inconsistente: Total ${cfdi.total.toFixed(2)} ≠ SubTotal − Descuento + Trasladados − Retenidos = ${expected.toFixed(2)}`,
    );
  }
  rfcWarnings('emisor', cfdi.emisor.rfc, warnings);
  rfcWarnings('receptor', cfdi.receptor.rfc, warnings);
  regimenWarnings('emisor', cfdi.emisor.regimenFiscal, cfdi.emisor.rfc, warnings);
  if (cfdi.receptor.regimenFiscal !== undefined) {
    regimenWarnings('receptor', cfdi.receptor.regimenFiscal, cfdi.receptor.rfc, warnings);
  }
  if (cfdi.tipoDeComprobante === 'T') warnings.push('CFDI de traslado (T): informativo, sin importes');
  return warnings;
}

function rfcWarnings(party: string, rfc: string, warnings: string[]): void {
  if (!isValidRfc(rfc)) warnings.push(`RFC del ${party} con formato inválido: "${rfc}"`);
  // Some RFCs SAT issued fail the check digit, and the generic ones always do: informational.
  else if (!isGenericRfc(rfc) && !hasValidCheckDigit(rfc)) {
    warnings.push(
      `RFC del ${party} ${rfc}: el dígito verificador no coincide (se esperaba ${rfcCheckDigit(rfc)})`,
    );
  }
}

function regimenWarnings(party: string, code: string, rfc: string, warnings: string[]): void {
  if (!isKnownRegimen(code)) warnings.push(`régimen fiscal del ${party} desconocido: "${code}"`);
  else if (!regimenAppliesTo(code, rfc)) {
    const persona = rfc.length === 12 ? 'persona moral' : 'persona física';
    warnings.push(`régimen fiscal ${code} del ${party} no aplica a ${persona} (RFC ${rfc})`);
  }
}
