import { type Dec, ratio, toMoney, ZERO } from './decimal';
import type { DiotDocFacts, Region8 } from './diot-facts';
import {
  type DiotProporcion,
  diotIvaSplit,
  diotProporcion,
  IVA_SPLIT_COLUMNS,
  type IvaSplit,
  ivaSplit,
  noRequisitosWarning,
} from './diot-iva';
import {
  type OperacionFacts,
  RFC_EXTRANJERO,
  type TipoOperacion,
  type TipoTercero,
  tipoOperacionOf,
  tipoTercero,
} from './diot-tipo';
import type { CashMove } from './doc-taxes';
import type { MotivoNoAcreditable } from './iva-creditable';
import { creditOf, proporcionOf } from './iva-month';
import { monthKey, type Period } from './monthly';
import { collectMovements } from './movements';
import type { ReportRows } from './rows';

export { RFC_EXTRANJERO, tipoTercero } from './diot-tipo';

// The DIOT (Declaración Informativa de Operaciones con Terceros, DIOT version 2): what was paid in
// the month (cash basis) per supplier and tipo de operación, in SAT's columns kept apart (docs/diot.md):
// value of acts by rate and region with their returns beside them, IVA creditable and not, IVA withheld.

/** Where a base or an IVA goes: the 8 % of either border region, 16 %, or an import (tangible goods or not). */
export type Zona = 'norte' | 'sur' | 'tasa16' | 'importacion_tangibles' | 'importacion_intangibles';
export const ZONAS: readonly Zona[] = [
  'norte',
  'sur',
  'tasa16',
  'importacion_tangibles',
  'importacion_intangibles',
];

/** The user's word on a supplier (keyed by RFC, a foreign one by its tax id). */
export interface DiotOverride {
  tipoOperacion: TipoOperacion | null;
  region8: Region8 | null;
}

export interface DiotInput {
  /** The month's expense sources, and its income ones for the proportion (LIVA 5-V). */
  rows: ReportRows;
  facts: Map<string, DiotDocFacts>;
  overrides: Map<string, DiotOverride>;
  /** The year's fixed proportion (LIVA 5-B), else null. */
  proporcion5b: Dec | null;
}

interface Actos {
  pagado: Dec;
  devoluciones: Dec;
}

interface Row {
  tercero: TipoTercero;
  tipo: TipoOperacion;
  derivado: boolean;
  /** RFC, or the foreign supplier's tax id. */
  key: string;
  rfc: string;
  nombre: string;
  extranjero: DiotDocFacts['extranjero'];
  actos: Record<Zona, Actos>;
  tasa0: Actos;
  exento: Actos;
  importacionExenta: Actos;
  /** Acts not subject to IVA paid in Mexico (field 52). */
  noObjeto: Actos;
  iva: Record<Zona, IvaSplit>;
  ivaRetenido: Dec;
  /** Only manual expenses (no CFDI): nothing the taxpayer gave tax effects to by its CFDI. */
  conCfdi: boolean;
  /** Documents paid, by document (a group row of the query stands for several). */
  docs: Map<string, number>;
  legacy: { base16: Dec; iva16: Dec; base8: Dec; iva8: Dec; base0: Dec; baseExenta: Dec };
}

const NO_FACTS: OperacionFacts = {
  regimenEmisor: null,
  personaFisica: false,
  renta: null,
  servicios: null,
  soloProductos: null,
  tasasIsrRetenido: [],
};

const actos = (): Actos => ({ pagado: ZERO, devoluciones: ZERO });
const byZona = <T>(make: () => T) => Object.fromEntries(ZONAS.map((z) => [z, make()])) as Record<Zona, T>;

/** Adds a base to the paid column, or (a credit note received: negative) to its returns column. */
function addActos(a: Actos, base: Dec, note: boolean) {
  if (note) a.devoluciones -= base;
  else a.pagado += base;
}

function addSplit(into: IvaSplit, s: IvaSplit) {
  for (const k of IVA_SPLIT_COLUMNS) into[k] += s[k];
}

export function diotReport(input: DiotInput, period: Period) {
  const { cash, warnings } = collectMovements(input.rows);
  const key = monthKey(period);
  const advertencias = [...(warnings.get(key) ?? [])];
  const month = cash.get(key) ?? [];
  const paid = month.filter((m) => m.side === 'expense');
  // The monthly report's proportion, from the same income collected (iva-month.ts).
  const proporcion = diotProporcion(
    proporcionOf(
      month.filter((m) => m.side === 'income'),
      input.proporcion5b,
    ),
    input.proporcion5b !== null,
  );
  const rows = new Map<string, Row>();
  const sinRegion = new Set<string>();
  const ivaMotivos = new Set<MotivoNoAcreditable>();
  for (const move of paid) {
    const facts = input.facts.get(move.doc);
    const extranjero = facts?.extranjero ?? null;
    const tercero = extranjero ? '05' : tipoTercero(move.party.rfc);
    const supplierKey = extranjero ? extranjero.idFiscal : move.party.rfc;
    const override = input.overrides.get(supplierKey);
    const op = tipoOperacionOf(tercero, facts ?? NO_FACTS, override?.tipoOperacion ?? undefined);
    const rowKey = `${tercero}|${supplierKey}|${op.tipo}`;
    let row = rows.get(rowKey);
    if (!row) {
      row = emptyRow(tercero, op.tipo, op.derivado, supplierKey, move, extranjero);
      rows.set(rowKey, row);
    }
    const note = move.total < ZERO;
    const t = move.porTasa;
    // Foreign suppliers' IVA is the import's (LIVA 24): goods (02, 07) tangible, services (03) not.
    const zona16: Zona =
      tercero === '05' ? (op.tipo === '03' ? 'importacion_intangibles' : 'importacion_tangibles') : 'tasa16';
    const region = override?.region8 ?? facts?.region8 ?? null;
    if (t.base8 !== ZERO && !region) sinRegion.add(supplierKey);
    const zona8: Zona = region ?? 'norte';
    addActos(row.actos[zona16], t.base16, note);
    addActos(row.actos[zona8], t.base8, note);
    addActos(row.tasa0, t.base0, note);
    addActos(tercero === '05' ? row.importacionExenta : row.exento, t.baseExenta, note);
    // move.total is in pesos already: base × (paid pesos ÷ Total) is the paid base in pesos.
    if (facts?.noObjeto)
      addActos(row.noObjeto, ratio(facts.noObjeto.base, move.total, facts.noObjeto.total), note);
    for (const [zona, iva] of [
      [zona16, t.iva16],
      [zona8, t.iva8],
    ] as const) {
      if (iva === ZERO) continue;
      const { split, motivo } = diotIvaSplit(iva, creditOf(move), proporcion);
      addSplit(row.iva[zona], split);
      if (motivo) ivaMotivos.add(motivo);
    }
    row.ivaRetenido += move.retIva;
    if (!facts?.sinCfdi) row.conCfdi = true;
    const l = row.legacy;
    l.base16 += t.base16;
    l.iva16 += t.iva16;
    l.base8 += t.base8;
    l.iva8 += t.iva8;
    l.base0 += t.base0;
    l.baseExenta += t.baseExenta;
    // A credit note lowers the amounts; it is not a document paid.
    if (!note) row.docs.set(move.doc, move.documentos);
  }
  const proveedores = [...rows.values()]
    .sort(
      (a, b) =>
        a.tercero.localeCompare(b.tercero) || a.key.localeCompare(b.key) || a.tipo.localeCompare(b.tipo),
    )
    .map(shape);
  advertencias.push(
    ...derivedWarnings(proveedores),
    ...[...ivaMotivos].map(noRequisitosWarning),
    ...proporcionWarning(proporcion, input.proporcion5b !== null),
    ...negativeWarnings(proveedores),
  );
  if (sinRegion.size > 0) {
    advertencias.push(
      `IVA al 8 % de ${[...sinRegion].join(', ')} sin región conocida (código postal de LugarExpedicion): ` +
        'se declara en la región fronteriza norte; indíquela en PUT /api/profiles/{id}/diot/proveedores/{rfc}',
    );
  }
  return { proveedores, advertencias };
}

function emptyRow(
  tercero: TipoTercero,
  tipo: TipoOperacion,
  derivado: boolean,
  key: string,
  move: CashMove,
  extranjero: DiotDocFacts['extranjero'],
): Row {
  return {
    tercero,
    tipo,
    derivado,
    key,
    rfc: extranjero ? RFC_EXTRANJERO : move.party.rfc,
    nombre: extranjero?.nombre ?? move.party.nombre,
    extranjero,
    actos: byZona(actos),
    tasa0: actos(),
    exento: actos(),
    importacionExenta: actos(),
    noObjeto: actos(),
    iva: byZona(() => ivaSplit({})),
    ivaRetenido: ZERO,
    conCfdi: false,
    docs: new Map(),
    legacy: { base16: ZERO, iva16: ZERO, base8: ZERO, iva8: ZERO, base0: ZERO, baseExenta: ZERO },
  };
}

const money = (a: Actos) => ({ pagado: toMoney(a.pagado), devoluciones: toMoney(a.devoluciones) });
const mapZonas = <T, U>(r: Record<Zona, T>, f: (v: T) => U) =>
  Object.fromEntries(ZONAS.map((z) => [z, f(r[z])])) as Record<Zona, U>;

function shape(r: Row) {
  return {
    rfc: r.rfc,
    nombre: r.nombre,
    tipo_tercero: r.tercero,
    tipo_operacion: r.tipo,
    tipo_operacion_derivado: r.derivado,
    id_fiscal: r.extranjero?.idFiscal ?? null,
    pais: r.extranjero?.pais ?? null,
    // Net by rate, as before (plan-features §3): the columns below keep paid and returned apart.
    base_16: toMoney(r.legacy.base16),
    iva_16: toMoney(r.legacy.iva16),
    base_8: toMoney(r.legacy.base8),
    iva_8: toMoney(r.legacy.iva8),
    base_0: toMoney(r.legacy.base0),
    base_exenta: toMoney(r.legacy.baseExenta),
    iva_retenido: toMoney(r.ivaRetenido),
    documentos: [...r.docs.values()].reduce((n, d) => n + d, 0),
    actos: {
      ...mapZonas(r.actos, money),
      tasa_0: money(r.tasa0),
      exento: money(r.exento),
      importacion_exenta: money(r.importacionExenta),
      no_objeto: money(r.noObjeto),
    },
    iva_acreditable: mapZonas(r.iva, (s) => ({
      exclusivamente_gravadas: toMoney(s.exclusivas),
      con_proporcion: toMoney(s.proporcion),
    })),
    iva_no_acreditable: mapZonas(r.iva, (s) => ({
      por_proporcion: toMoney(s.noProporcion),
      no_cumple_requisitos: toMoney(s.noRequisitos),
      exentas: toMoney(s.noExentas),
      no_objeto: toMoney(s.noObjeto),
    })),
    efectos_fiscales: r.conCfdi,
  };
}

export type DiotProveedor = ReturnType<typeof shape>;

/** The proportion behind the "con proporción" and "proporción" columns, as the monthly report states it. */
function proporcionWarning(p: DiotProporcion, fija: boolean): string[] {
  if (!p.aplica) return [];
  const pct = toMoney(p.valor).toFixed(2);
  return [
    fija
      ? `IVA "con proporción" a la proporción fija del año, ${pct} % (LIVA art. 5-B)`
      : `IVA "con proporción" al ${pct} % del mes (LIVA arts. 5-V y 4-A), a todo gasto sin uso_iva: una estimación, como en el reporte mensual`,
  ];
}

function derivedWarnings(rows: DiotProveedor[]): string[] {
  const derived = rows.filter((r) => r.tipo_operacion_derivado);
  if (derived.length === 0) return [];
  const list = derived.map((r) => `${r.id_fiscal ?? r.rfc} ${r.tipo_operacion}`).join(', ');
  return [
    `Tipo de operación derivado de los CFDI (revíselo; se corrige por proveedor en ` +
      `PUT /api/profiles/{id}/diot/proveedores/{rfc}): ${list}`,
  ];
}

/** Credit notes received above what was paid leave a column negative, which the TXT cannot hold. */
function negativeWarnings(rows: DiotProveedor[]): string[] {
  const negative = rows.filter((r) => {
    const net = [r.actos.tasa_0, r.actos.exento, r.actos.importacion_exenta, r.actos.no_objeto].map(
      (a) => a.pagado - a.devoluciones,
    );
    const iva = ZONAS.flatMap((z) => [
      ...Object.values(r.iva_acreditable[z]),
      ...Object.values(r.iva_no_acreditable[z]),
    ]);
    return [...net, ...iva, r.iva_retenido].some((v) => v < 0);
  });
  if (negative.length === 0) return [];
  const list = negative.map((r) => `${r.id_fiscal ?? r.rfc} ${r.tipo_operacion}`).join(', ');
  return [
    `Notas de crédito mayores que lo pagado en el mes (${list}): el archivo TXT deja vacías las cifras negativas`,
  ];
}
