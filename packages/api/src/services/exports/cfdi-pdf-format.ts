import { IMPUESTO, type PrintedTax } from '@folio/cfdi';

// How the printed CFDI writes amounts, quantities, rates and tax lines (cfdi-pdf.ts and its parts).

export const money = (n: number | undefined) =>
  n === undefined ? '' : n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 });
export const quantity = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 6 });
export const percent = (rate: number) =>
  `${(rate * 100).toLocaleString('en-US', { maximumFractionDigits: 4 })}%`;

/** One tax as a line of the concept table or the totals: "IVA 16% 160.00", "IVA Exento". */
export function taxLine(t: PrintedTax, withholding = false): string {
  const name = `${withholding ? 'Ret. ' : ''}${IMPUESTO[t.impuesto] ?? t.impuesto}`;
  if (t.tipoFactor === 'Exento') return `${name} Exento`;
  const rate =
    t.tasaOCuota === undefined
      ? ''
      : t.tipoFactor === 'Cuota'
        ? ` cuota ${t.tasaOCuota}`
        : ` ${percent(t.tasaOCuota)}`;
  return `${name}${rate} ${money(t.importe)}`.trim();
}
