import { type AllocationNote, type AllocationPayment, allocateCredits, allocationKey } from '@folio/cfdi';
import { centsDec, type Dec, dec, max0, mul, sum, toMoney, ZERO } from './decimal';
import {
  type AccrualMove,
  type CashMove,
  type Movements,
  monthOf,
  mxnRate,
  type Party,
  partyOf,
} from './doc-taxes';
// tax-rules §4, §5 (creditable IVA, totals by rate, year to date, nómina): iva-month.ts, year.ts.
import { addPorTasa, type IvaMonth, ivaMonth, shapePorTasa } from './iva-month';
import { collectingMovements } from './movements';
import { type NominaTotals, shapeNomina } from './nomina';
// tax-rules §4, §5 (creditable IVA, totals by rate, year to date, nómina): iva-month.ts, year.ts.
import { platformWarning } from './platforms';
import { REGIMEN_RESICO, type ResicoFigures, resicoOf } from './resico';
import type { PendingDoc, ReportRows, Side } from './rows';
import { CHUNK, finish, type Steps } from './steps';
import {
  leftWarning,
  limitWarning,
  NO_SETTINGS,
  nextMonth,
  nominaOf,
  type ReportSettings,
  resicoDelAño,
  START_OF_YEAR,
  shapeResicoAnual,
  type YearToDate,
} from './year';

// One month's report from its movements, exact until `shape*` rounds each figure once.

export type Nivel = 'basic' | 'complete' | 'advanced';
const NIVELES: Nivel[] = ['basic', 'complete', 'advanced'];
export const includes = (served: Nivel, needed: Nivel) => NIVELES.indexOf(served) >= NIVELES.indexOf(needed);

export interface ReportProfile {
  id: string;
  rfc: string;
  nombre: string;
  tipoPersona: 'FISICA' | 'MORAL';
  regimenesFiscales: string[];
}

export interface Period {
  año: number;
  mes: number;
}

export const monthKey = ({ año, mes }: Period) => `${año}-${String(mes).padStart(2, '0')}`;

interface AccrualSum {
  documentos: number;
  subtotal: Dec;
  descuento: Dec;
  iva: Dec;
  retIva: Dec;
  retIsr: Dec;
  total: Dec;
  notas: Dec;
}

interface CashSum {
  base: Dec;
  iva: Dec;
  retIva: Dec;
  retIsr: Dec;
  total: Dec;
}

interface PartyRow {
  party: Party;
  documentos: number;
  total: Dec;
  movido: Dec;
  saldo: Dec;
}

interface PendingSum {
  documentos: number;
  saldo: Dec;
}

/** A month's figures, exact. */
export interface MonthFigures {
  ingresos: AccrualSum;
  egresos: AccrualSum;
  cobrado: CashSum;
  pagado: CashSum;
  clientes: PartyRow[];
  proveedores: PartyRow[];
  porCobrar: PendingSum;
  porPagar: PendingSum;
  resico: (ResicoFigures & { excedido: boolean }) | null;
  advertencias: string[];
  /** tax-rules §4: totals by rate, proportion, creditable IVA. */
  iva: IvaMonth;
  /** Σ earlier a_favor of the year not absorbed (LIVA 6, informative). */
  saldosAFavorAnteriores: Dec;
  /** Nómina issued (employer) and received (salary), by FechaPago. */
  nomina: { emitida: NominaTotals | null; recibida: NominaTotals | null };
  /** The year-to-date state after this month. */
  ytd: YearToDate;
}

function accrualSum(moves: AccrualMove[]): AccrualSum {
  const a: AccrualSum = {
    documentos: 0,
    subtotal: ZERO,
    descuento: ZERO,
    iva: ZERO,
    retIva: ZERO,
    retIsr: ZERO,
    total: ZERO,
    notas: ZERO,
  };
  for (const m of moves) {
    if (m.note) a.notas -= m.total;
    a.documentos += m.documentos;
    a.subtotal += m.subtotal;
    a.descuento += m.descuento;
    a.iva += m.iva;
    a.retIva += m.retIva;
    a.retIsr += m.retIsr;
    a.total += m.total;
  }
  return a;
}

function cashSum(moves: CashMove[]): CashSum {
  const c: CashSum = { base: ZERO, iva: ZERO, retIva: ZERO, retIsr: ZERO, total: ZERO };
  for (const m of moves) {
    c.base += m.base;
    c.iva += m.iva;
    c.retIva += m.retIva;
    c.retIsr += m.retIsr;
    c.total += m.total;
  }
  return c;
}

/** A PPD document ready for `balancesAt`: parsed once, its credits as running totals by date. */
export interface OpenDoc {
  side: Side;
  uuid: string;
  month: string;
  party: Party;
  total: Dec;
  rate: Dec | null;
  moneda: string;
  /** Month key and Σ of the credits up to it, in date order. */
  credits: Array<{ month: string; upTo: Dec }>;
}

export function openDocs(pending: PendingDoc[]): OpenDoc[] {
  const parts = noteParts(pending);
  return pending
    .filter(({ doc }) => doc.valido)
    .map(({ doc, abonos }) => {
      let upTo = ZERO;
      const credits = [...abonos]
        .sort((a, b) => (a.fecha < b.fecha ? -1 : a.fecha > b.fecha ? 1 : 0))
        .map((a) => {
          upTo += a.nota ? dec(parts.get(allocationKey(a.nota.uuid, doc.uuid)) ?? 0) : dec(a.importe);
          return { month: monthOf(a.fecha), upTo };
        });
      return {
        side: doc.side,
        uuid: doc.uuid,
        month: monthOf(doc.fecha),
        party: partyOf(doc),
        total: dec(doc.total),
        rate: mxnRate(doc.moneda, doc.tipoCambio),
        moneda: doc.moneda,
        credits,
      };
    });
}

/**
 * The part of each credit note that lowers each open invoice: in the order of its CfdiRelacionado
 * list, each up to the invoice's balance at the note's date (tax-rules §2, §3).
 */
function noteParts(pending: PendingDoc[]) {
  const notes = new Map<string, AllocationNote>();
  const payments: AllocationPayment[] = [];
  for (const { doc, abonos } of pending) {
    for (const a of abonos) {
      if (!a.nota) {
        payments.push({ uuid: doc.uuid, fecha: a.fecha, amount: Number(a.importe) });
        continue;
      }
      const known = notes.get(a.nota.uuid);
      // Before the back-fill a note's list is unknown: the invoices found, in no particular order.
      if (known && !a.nota.relacionados) known.related.push(doc.uuid);
      else if (!known) {
        notes.set(a.nota.uuid, {
          uuid: a.nota.uuid,
          fecha: a.fecha,
          total: Number(a.importe),
          moneda: doc.moneda,
          related: a.nota.relacionados ?? [doc.uuid],
        });
      }
    }
  }
  const invoices = pending.map(({ doc }) => ({
    uuid: doc.uuid,
    total: Number(doc.total),
    moneda: doc.moneda,
    ppd: true,
  }));
  return allocateCredits(invoices, payments, [...notes.values()]);
}

const CENT = dec('0.01');

/** One side's open balances at a month's end, and the documents it could not count. */
interface Balances {
  sum: PendingSum;
  byParty: Map<string, { party: Party; saldo: Dec }>;
  advertencias: string[];
}

/**
 * Each PPD document's balance as of each month's last day (`keys`, in order; the answer in their
 * order): Total − payments and credit notes dated up to then. One pass over the documents, each
 * walking its credits once.
 */
function* balancesAt(open: OpenDoc[], keys: string[]): Steps<Array<Record<Side, Balances>>> {
  const empty = (): Balances => ({
    sum: { documentos: 0, saldo: ZERO },
    byParty: new Map(),
    advertencias: [],
  });
  const out = keys.map(() => ({ income: empty(), expense: empty() }));
  let n = 0;
  for (const doc of open) {
    if (++n % CHUNK === 0) yield;
    let next = 0;
    let credited = ZERO;
    for (const [i, key] of keys.entries()) {
      if (doc.month > key) continue;
      while (next < doc.credits.length && doc.credits[next]!.month <= key)
        credited = doc.credits[next++]!.upTo;
      const saldo = doc.total - credited;
      if (saldo <= CENT) continue;
      const b = out[i]![doc.side];
      if (!doc.rate) {
        b.advertencias.push(
          `saldo de ${doc.uuid} en ${doc.moneda} sin tipo de cambio: no se cuenta en pendientes`,
        );
        continue;
      }
      const mxn = mul(saldo, doc.rate);
      b.sum.documentos += 1;
      b.sum.saldo += mxn;
      const row = b.byParty.get(doc.party.rfc) ?? { party: doc.party, saldo: ZERO };
      row.saldo += mxn;
      b.byParty.set(doc.party.rfc, row);
    }
  }
  return out;
}

/** por_cliente / por_proveedor: every party with documents, cash or a balance this month, largest total first. */
function partyRows(
  accrual: AccrualMove[],
  cash: CashMove[],
  balances: Map<string, { party: Party; saldo: Dec }>,
): PartyRow[] {
  const rows = new Map<string, PartyRow>();
  const row = (party: Party) => {
    let r = rows.get(party.rfc);
    if (!r) {
      r = { party, documentos: 0, total: ZERO, movido: ZERO, saldo: ZERO };
      rows.set(party.rfc, r);
    }
    return r;
  };
  for (const m of accrual) {
    const r = row(m.party);
    r.documentos += m.documentos;
    r.total += m.total;
  }
  for (const m of cash) row(m.party).movido += m.total;
  for (const b of balances.values()) row(b.party).saldo += b.saldo;
  return [...rows.values()].sort((a, b) =>
    a.total === b.total ? a.party.rfc.localeCompare(b.party.rfc) : a.total > b.total ? -1 : 1,
  );
}

export function isResico(profile: ReportProfile): boolean {
  return profile.tipoPersona === 'FISICA' && profile.regimenesFiscales.includes(REGIMEN_RESICO);
}

function bySide<T extends { side: Side }>(list: T[]): Record<Side, T[]> {
  const out: Record<Side, T[]> = { income: [], expense: [] };
  for (const m of list) out[m.side].push(m);
  return out;
}

/** The figures of one month from movements collected once (yearFigures runs it month after month). */
function monthFigures(
  profile: ReportProfile,
  movements: Movements,
  balances: Record<Side, Balances>,
  period: Period,
  now: Date,
  /** What the earlier months of the year left, and what the profile stated for it (year.ts). */
  year: { before: YearToDate; settings: ReportSettings; nomina: ReportRows['nomina'] },
): MonthFigures {
  const key = monthKey(period);
  const cash = movements.cash.get(key) ?? [];
  // Each side's movements, split once (a busy month has thousands, and every sum reads a side).
  const accrualOf = bySide(movements.accrual.get(key) ?? []);
  const cashOf = bySide(cash);
  const advertencias = [...(movements.warnings.get(key) ?? [])];
  const cobrar = balances.income;
  const pagar = balances.expense;
  advertencias.push(...cobrar.advertencias, ...pagar.advertencias);
  const cobrado = cashSum(cashOf.income);
  const iva = ivaMonth(cash, year.settings.proporcion5b, advertencias);
  advertencias.push(
    ...platformWarning(
      profile.regimenesFiscales,
      [...accrualOf.income, ...cashOf.income].map((m) => m.party),
    ),
  );
  const ivaSaldo = cobrado.iva - cobrado.retIva - iva.acreditablePagado;
  const nomina = nominaOf(year.nomina, key);
  const salarios = nomina.income
    ? nomina.income.percepcionesGravadas + nomina.income.percepcionesExentas
    : ZERO;
  const ytd = nextMonth(year.before, key, ivaSaldo, cobrado.base + salarios);
  let resico: MonthFigures['resico'] = null;
  if (isResico(profile) && year.before.salioDeResico) {
    advertencias.push(leftWarning(year.before.salioDeResico));
  } else if (isResico(profile)) {
    resico = resicoOf(cobrado.base, centsDec(cobrado.base), cobrado.retIsr);
    if (ytd.salioDeResico === key) advertencias.push(limitWarning(ytd.ingresosResico));
  }
  if (isOpen(period, now)) advertencias.push(`el periodo ${key} sigue abierto: las cifras pueden cambiar`);
  return {
    ingresos: accrualSum(accrualOf.income),
    egresos: accrualSum(accrualOf.expense),
    cobrado,
    pagado: cashSum(cashOf.expense),
    clientes: partyRows(accrualOf.income, cashOf.income, cobrar.byParty),
    proveedores: partyRows(accrualOf.expense, cashOf.expense, pagar.byParty),
    porCobrar: cobrar.sum,
    porPagar: pagar.sum,
    resico,
    advertencias,
    iva,
    saldosAFavorAnteriores: year.before.saldosAFavor,
    nomina: { emitida: nomina.expense, recibida: nomina.income },
    ytd,
  };
}

/** Months 1..`hasta` of a year, each carrying what the earlier ones left (year.ts); a pause before each. */
function* yearSteps(
  profile: ReportProfile,
  rows: ReportRows,
  año: number,
  hasta: number,
  now: Date,
  settings: ReportSettings,
): Steps<MonthFigures[]> {
  const movements = yield* collectingMovements(rows);
  const keys = Array.from({ length: hasta }, (_, i) => monthKey({ año, mes: i + 1 }));
  const balances = yield* balancesAt(openDocs(rows.pending), keys);
  const figures: MonthFigures[] = [];
  let before = START_OF_YEAR;
  for (let mes = 1; mes <= hasta; mes++) {
    yield;
    const f = monthFigures(profile, movements, balances[mes - 1]!, { año, mes }, now, {
      before,
      settings,
      nomina: rows.nomina,
    });
    figures.push(f);
    before = f.ytd;
  }
  return figures;
}

/** Whether the month has not ended yet in Mexico City (documents of it may still arrive). */
export function isOpen(period: Period, now: Date): boolean {
  const today = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Mexico_City',
    year: 'numeric',
    month: '2-digit',
  }).format(now);
  return monthKey(period) >= today.slice(0, 7);
}

// Shaping: each figure rounded once, here.

const m = toMoney;

function shapeAccrual(a: AccrualSum) {
  return {
    documentos: a.documentos,
    subtotal: m(a.subtotal),
    descuento: m(a.descuento),
    iva_trasladado: m(a.iva),
    retencion_iva: m(a.retIva),
    retencion_isr: m(a.retIsr),
    total: m(a.total),
    notas_credito: m(a.notas),
  };
}

function shapeCash(c: CashSum) {
  return {
    base: m(c.base),
    iva_trasladado: m(c.iva),
    retencion_iva: m(c.retIva),
    retencion_isr: m(c.retIsr),
    total: m(c.total),
  };
}

function shapeIva(f: Pick<MonthFigures, 'cobrado' | 'pagado' | 'iva' | 'saldosAFavorAnteriores'>) {
  const saldo = f.cobrado.iva - f.cobrado.retIva - f.iva.acreditablePagado;
  return {
    trasladado_cobrado: m(f.cobrado.iva),
    retenido_por_clientes: m(f.cobrado.retIva),
    acreditable_pagado: m(f.iva.acreditablePagado),
    retenido_a_proveedores: m(f.pagado.retIva),
    saldo: m(saldo),
    a_cargo: m(max0(saldo)),
    a_favor: m(max0(-saldo)),
    proporcion: m(f.iva.proporcion),
    no_acreditable: m(f.iva.noAcreditable),
    saldos_a_favor_anteriores: m(f.saldosAFavorAnteriores),
  };
}

function shapeResico(r: ResicoFigures) {
  return {
    ingresos_cobrados: m(r.ingresosCobrados),
    tasa: m(r.tasa),
    isr_causado: m(r.isrCausado),
    isr_retenido: m(r.isrRetenido),
    isr_a_pagar: m(r.isrAPagar),
  };
}

const shapeParties = (rows: PartyRow[], moved: 'cobrado' | 'pagado') =>
  rows.map((r) => ({
    rfc: r.party.rfc,
    nombre: r.party.nombre,
    documentos: r.documentos,
    total: m(r.total),
    [moved]: m(r.movido),
    saldo_pendiente: m(r.saldo),
  }));

const shapePending = (p: PendingSum) => ({ documentos: p.documentos, saldo: m(p.saldo) });

/** The MonthlyReport of plan-features §3: the sections of the served level, nothing above it. */
export function shapeMonth(profile: ReportProfile, period: Period, nivel: Nivel, f: MonthFigures) {
  return {
    profile: { id: profile.id, rfc: profile.rfc, nombre: profile.nombre },
    periodo: { año: period.año, mes: period.mes },
    nivel,
    ingresos: shapeAccrual(f.ingresos),
    egresos: shapeAccrual(f.egresos),
    ...(includes(nivel, 'complete') && {
      flujo: {
        cobrado: { ...shapeCash(f.cobrado), por_tasa: shapePorTasa(f.iva.cobradoPorTasa) },
        pagado: { ...shapeCash(f.pagado), por_tasa: shapePorTasa(f.iva.pagadoPorTasa) },
      },
      iva: shapeIva(f),
      isr: { retenido_por_clientes: m(f.cobrado.retIsr), retenido_a_proveedores: m(f.pagado.retIsr) },
      por_cliente: shapeParties(f.clientes, 'cobrado') as PartyShape<'cobrado'>[],
      por_proveedor: shapeParties(f.proveedores, 'pagado') as PartyShape<'pagado'>[],
      pendientes: { por_cobrar: shapePending(f.porCobrar), por_pagar: shapePending(f.porPagar) },
      ...(f.nomina.emitida && { nomina: shapeNomina(f.nomina.emitida) }),
      ...(f.nomina.recibida && { nomina_recibida: shapeNomina(f.nomina.recibida) }),
    }),
    ...(includes(nivel, 'advanced') && f.resico && { resico: shapeResico(f.resico) }),
    advertencias: f.advertencias,
  };
}

type PartyShape<K extends string> = {
  rfc: string;
  nombre: string;
  documentos: number;
  total: number;
  saldo_pendiente: number;
} & Record<K, number>;

export type MonthlyReport = ReturnType<typeof shapeMonth>;

/** GET /api/reports/monthly: one month from its rows, in steps (steps.ts). */
export function* monthlyReportSteps(
  profile: ReportProfile,
  rows: ReportRows,
  period: Period,
  nivel: Nivel,
  now: Date,
  settings: ReportSettings = NO_SETTINGS,
): Steps<MonthlyReport> {
  // The months before it in the rows (from January) give what it carries over (year.ts).
  const figures = (yield* yearSteps(profile, rows, period.año, period.mes, now, settings)).at(-1)!;
  return shapeMonth(profile, period, nivel, figures);
}

/** `monthlyReportSteps` straight through. */
export const monthlyReport = (...args: Parameters<typeof monthlyReportSteps>): MonthlyReport =>
  finish(monthlyReportSteps(...args));

/** GET /api/reports/annual: the twelve months from one set of rows, and the year's totals, in steps. */
export function* annualReportSteps(
  profile: ReportProfile,
  rows: ReportRows,
  año: number,
  nivel: Nivel,
  now: Date,
  settings: ReportSettings = NO_SETTINGS,
) {
  const figures = yield* yearSteps(profile, rows, año, 12, now, settings);
  // LISR 113-F: not for a year in which the profile left RESICO (year.ts).
  const anual = isResico(profile) ? resicoDelAño(figures, settings, figures.at(-1)!.ytd.salioDeResico) : null;
  const meses: MonthlyReport[] = [];
  for (const [i, f] of figures.entries()) {
    yield;
    meses.push(shapeMonth(profile, { año, mes: i + 1 }, nivel, f));
  }
  return {
    profile: { id: profile.id, rfc: profile.rfc, nombre: profile.nombre },
    año,
    nivel,
    meses,
    totales: shapeTotals(figures, nivel, isResico(profile)),
    ...(includes(nivel, 'advanced') && anual && { resico_anual: shapeResicoAnual(anual) }),
  };
}

/** `annualReportSteps` straight through. */
export const annualReport = (...args: Parameters<typeof annualReportSteps>) =>
  finish(annualReportSteps(...args));

const addAccrual = (list: AccrualSum[]): AccrualSum => ({
  documentos: list.reduce((n, a) => n + a.documentos, 0),
  subtotal: sum(list.map((a) => a.subtotal)),
  descuento: sum(list.map((a) => a.descuento)),
  iva: sum(list.map((a) => a.iva)),
  retIva: sum(list.map((a) => a.retIva)),
  retIsr: sum(list.map((a) => a.retIsr)),
  total: sum(list.map((a) => a.total)),
  notas: sum(list.map((a) => a.notas)),
});

const addCash = (list: CashSum[]): CashSum => ({
  base: sum(list.map((c) => c.base)),
  iva: sum(list.map((c) => c.iva)),
  retIva: sum(list.map((c) => c.retIva)),
  retIsr: sum(list.map((c) => c.retIsr)),
  total: sum(list.map((c) => c.total)),
});

/**
 * The year: sums of the months' exact figures (rounded once here). IVA and RESICO are monthly
 * returns, so their year figures add each month's result (a month a favor does not offset another's
 * a cargo here).
 */
function shapeTotals(months: MonthFigures[], nivel: Nivel, resico: boolean) {
  const cobrado = addCash(months.map((f) => f.cobrado));
  const pagado = addCash(months.map((f) => f.pagado));
  const saldos = months.map((f) => f.cobrado.iva - f.cobrado.retIva - f.iva.acreditablePagado);
  const monthly = months.map((f) => f.resico).filter((r) => r !== null);
  return {
    ingresos: shapeAccrual(addAccrual(months.map((f) => f.ingresos))),
    egresos: shapeAccrual(addAccrual(months.map((f) => f.egresos))),
    ...(includes(nivel, 'complete') && {
      flujo: {
        cobrado: {
          ...shapeCash(cobrado),
          por_tasa: shapePorTasa(addPorTasa(months.map((f) => f.iva.cobradoPorTasa))),
        },
        pagado: {
          ...shapeCash(pagado),
          por_tasa: shapePorTasa(addPorTasa(months.map((f) => f.iva.pagadoPorTasa))),
        },
      },
      iva: {
        trasladado_cobrado: m(cobrado.iva),
        retenido_por_clientes: m(cobrado.retIva),
        acreditable_pagado: m(sum(months.map((f) => f.iva.acreditablePagado))),
        no_acreditable: m(sum(months.map((f) => f.iva.noAcreditable))),
        retenido_a_proveedores: m(pagado.retIva),
        saldo: m(sum(saldos)),
        a_cargo: m(sum(saldos.map(max0))),
        a_favor: m(sum(saldos.map((s) => max0(-s)))),
      },
      isr: { retenido_por_clientes: m(cobrado.retIsr), retenido_a_proveedores: m(pagado.retIsr) },
    }),
    ...(includes(nivel, 'advanced') &&
      resico && {
        resico: {
          ingresos_cobrados: m(sum(monthly.map((r) => r.ingresosCobrados))),
          isr_causado: m(sum(monthly.map((r) => r.isrCausado))),
          isr_retenido: m(sum(monthly.map((r) => r.isrRetenido))),
          isr_a_pagar: m(sum(monthly.map((r) => r.isrAPagar))),
        },
      }),
  };
}
