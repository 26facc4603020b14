// What a CFDI's SAT status makes Folio say on the CFDI itself (docs/sat-status.md).

/**
 * A cancelled invoice whose payments or credit notes still stand: they pay or credit nothing that
 * counts, and should be cancelled too, or issued again against the CFDI that substitutes it.
 */
export function cancelledWithPayments(
  invoice: { estatusSat?: string | null },
  payments: number,
  notes: number,
): string[] {
  if (invoice.estatusSat !== 'cancelado' || payments + notes === 0) return [];
  return [
    `CFDI cancelado con ${payments} pago(s) y ${notes} nota(s) de crédito vigentes: no cuentan en los reportes; cancélelos o emítalos de nuevo relacionados con el CFDI que lo sustituye`,
  ];
}
