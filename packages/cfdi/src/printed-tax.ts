/** One tax line as printed: a concept's, the document's or a payment's (printable.ts, printable-pagos.ts). */
export interface PrintedTax {
  /** c_Impuesto: 001 ISR, 002 IVA, 003 IEPS. */
  impuesto: string;
  tipoFactor?: string;
  /** As a fraction (0.160000), as written. */
  tasaOCuota?: number;
  base?: number;
  /** Absent for an Exento traslado. */
  importe?: number;
}
