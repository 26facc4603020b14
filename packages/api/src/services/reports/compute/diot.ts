import { sum, toMoney, ZERO } from './decimal';
import { monthKey, type Period } from './monthly';
import { type CashMove, collectMovements, mapTasas, type PorTasa } from './movements';
import type { ReportRows } from './rows';

// The DIOT (Declaración Informativa de Operaciones con Terceros): per supplier, what was paid in the
// month (cash basis) by IVA rate, and the IVA withheld from it.

export const RFC_EXTRANJERO = 'XEXX010101000';
const RFC_GLOBAL = 'XAXX010101000';

/** 04 national supplier, 05 foreign (XEXX010101000), 15 global (XAXX010101000 and RFC-less expenses). */
export function tipoTercero(rfc: string): '04' | '05' | '15' {
  if (rfc === RFC_EXTRANJERO) return '05';
  if (rfc === RFC_GLOBAL) return '15';
  return '04';
}

interface Row {
  rfc: string;
  nombre: string;
  tasas: PorTasa;
  ivaRetenido: bigint;
  /** Documents paid, by document (a group row of the query stands for several). */
  docs: Map<string, number>;
}

export function diotReport(rows: ReportRows, period: Period) {
  const { cash, warnings } = collectMovements(rows);
  const key = monthKey(period);
  const paid = (cash.get(key) ?? []).filter((m) => m.side === 'expense');
  const bySupplier = new Map<string, Row>();
  for (const move of paid) {
    const row = bySupplier.get(move.party.rfc) ?? emptyRow(move);
    bySupplier.set(move.party.rfc, row);
    row.tasas = addTasas(row.tasas, move.porTasa);
    row.ivaRetenido += move.retIva;
    // A credit note lowers the amounts; it is not a document paid.
    if (move.total > ZERO) row.docs.set(move.doc, move.documentos);
  }
  const proveedores = [...bySupplier.values()]
    .map((r) => ({
      rfc: r.rfc,
      nombre: r.nombre,
      tipo_tercero: tipoTercero(r.rfc),
      base_16: toMoney(r.tasas.base16),
      iva_16: toMoney(r.tasas.iva16),
      base_8: toMoney(r.tasas.base8),
      iva_8: toMoney(r.tasas.iva8),
      base_0: toMoney(r.tasas.base0),
      base_exenta: toMoney(r.tasas.baseExenta),
      iva_retenido: toMoney(r.ivaRetenido),
      documentos: [...r.docs.values()].reduce((n, d) => n + d, 0),
    }))
    .sort((a, b) => a.rfc.localeCompare(b.rfc));
  return { proveedores, advertencias: warnings.get(key) ?? [] };
}

function emptyRow(move: CashMove): Row {
  return {
    rfc: move.party.rfc,
    nombre: move.party.nombre,
    tasas: mapTasas(move.porTasa, () => ZERO),
    ivaRetenido: ZERO,
    docs: new Map(),
  };
}

function addTasas(a: PorTasa, b: PorTasa): PorTasa {
  return {
    base16: sum([a.base16, b.base16]),
    iva16: sum([a.iva16, b.iva16]),
    base8: sum([a.base8, b.base8]),
    iva8: sum([a.iva8, b.iva8]),
    base0: sum([a.base0, b.base0]),
    baseExenta: sum([a.baseExenta, b.baseExenta]),
  };
}
