// What a report says about the SAT status of its period's CFDI (docs/sat-status.md, tax-rules §1):
// the figures leave cancelled CFDI out (the report queries' countsIn), these advertencias say what
// that means for the return and what the report cannot know.
import type { StatusNotice } from '@folio/db/queries/sat-status';

const text = (n: StatusNotice): string => {
  switch (n.kind) {
    case 'desconocido':
      return `${n.n} CFDI del periodo con estatus ante el SAT desconocido: suba los metadatos del SAT (POST /api/profiles/{id}/sat-metadata) para saber si alguno está cancelado`;
    case 'sin_xml':
      return `${n.n} CFDI vigentes del periodo según los metadatos del SAT no tienen su XML en Folio y no se cuentan (GET /api/profiles/{id}/sat-metadata/missing)`;
    case 'sustituido':
      return `CFDI ${n.uuid} se presume cancelado: lo sustituye ${n.other} (TipoRelacion 04); no se cuenta`;
    case 'sustituido_vigente':
      return `CFDI ${n.uuid} sigue vigente aunque ${n.other} lo sustituye (TipoRelacion 04): ambos se cuentan; cancele ${n.uuid} con motivo 01`;
    case 'cancelado_con_abonos':
      return n.other === 'manual'
        ? `CFDI ${n.uuid} está cancelado y tiene pagos manuales: no se cuentan`
        : `CFDI ${n.uuid} está cancelado y ${n.other} (pago o nota de crédito) sigue vigente: no se cuenta; cancélelo o emítalo de nuevo contra el CFDI que lo sustituye`;
    case 'complementaria':
      return `CFDI ${n.uuid} se canceló el ${n.fechaCancelacion?.slice(0, 10)}, después de cerrado el periodo: si ya presentó la declaración, presente una complementaria`;
  }
};

/** The advertencias of the month `key` ('YYYY-MM'), in a stable order. */
export function statusAdvertencias(notices: StatusNotice[], key: string): string[] {
  return notices
    .filter((n) => n.month === key)
    .map(text)
    .sort();
}
