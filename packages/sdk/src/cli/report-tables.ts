import type { AnnualReport, DiotReport, MonthlyReport } from '../rest';
import { type Column, formatCount, formatMoney, renderTable } from './format';

// The tax reports as text for a terminal: one small table per section the server sent (a section
// above the caller's plan is absent from the JSON and so simply not shown).

const NIVEL = { basic: 'básico', complete: 'completo', advanced: 'avanzado' } as const;
/** Parties shown per list; the JSON has them all. */
const TOP = 10;

const right = (header: string): Column => ({ header, align: 'right' });
/** A section's first column: its title over the row labels, cut before an amount would be. */
const label = (header: string): Column => ({ header, shrink: true });
const mm = (mes: number) => String(mes).padStart(2, '0');
const profileLine = (p: { rfc: string; nombre: string }) => `${p.rfc} (${p.nombre})`;

function section(title: string, table: string) {
  return `${title}\n${table}`;
}

function warnings(lines: string[]) {
  return lines.length ? section('Advertencias', lines.map((l) => `- ${l}`).join('\n')) : undefined;
}

function accrual(r: Pick<MonthlyReport, 'ingresos' | 'egresos'>, width: number | undefined) {
  const { ingresos: i, egresos: e } = r;
  const row = (name: string, a: number, b: number, money: (n: number) => string = formatMoney) => [
    name,
    money(a),
    money(b),
  ];
  return renderTable(
    [label('devengado (fecha del CFDI)'), right('ingresos'), right('egresos')],
    [
      row('documentos', i.documentos, e.documentos, formatCount),
      row('subtotal', i.subtotal, e.subtotal),
      row('descuento', i.descuento, e.descuento),
      row('IVA trasladado', i.iva_trasladado, e.iva_trasladado),
      row('retención IVA', i.retencion_iva, e.retencion_iva),
      row('retención ISR', i.retencion_isr, e.retencion_isr),
      row('notas de crédito (restadas)', i.notas_credito, e.notas_credito),
      row('total', i.total, e.total),
    ],
    width,
  );
}

function cash(flujo: NonNullable<MonthlyReport['flujo']>, width: number | undefined) {
  const { cobrado: c, pagado: p } = flujo;
  const row = (name: string, a: number, b: number) => [name, formatMoney(a), formatMoney(b)];
  return renderTable(
    [label('flujo (cobrado y pagado)'), right('cobrado'), right('pagado')],
    [
      row('base', c.base, p.base),
      row('IVA trasladado', c.iva_trasladado, p.iva_trasladado),
      row('retención IVA', c.retencion_iva, p.retencion_iva),
      row('retención ISR', c.retencion_isr, p.retencion_isr),
      row('total', c.total, p.total),
    ],
    width,
  );
}

const pairs = (header: string, rows: [string, string][], width: number | undefined) =>
  renderTable([label(header), right('importe')], rows, width);

function iva(v: NonNullable<MonthlyReport['iva']>, width: number | undefined) {
  return pairs(
    'IVA',
    [
      ['trasladado cobrado', formatMoney(v.trasladado_cobrado)],
      ['retenido por clientes', formatMoney(v.retenido_por_clientes)],
      ['acreditable pagado', formatMoney(v.acreditable_pagado)],
      ['no acreditable (LIVA 5)', formatMoney(v.no_acreditable)],
      ...(v.proporcion === undefined
        ? []
        : ([['proporción %', v.proporcion.toFixed(2)]] as [string, string][])),
      ['saldo', formatMoney(v.saldo)],
      ['a cargo', formatMoney(v.a_cargo)],
      ['a favor', formatMoney(v.a_favor)],
      ['retenido a proveedores (se entera aparte)', formatMoney(v.retenido_a_proveedores)],
    ],
    width,
  );
}

function isr(v: NonNullable<MonthlyReport['isr']>, width: number | undefined) {
  return pairs(
    'ISR retenido',
    [
      ['por clientes', formatMoney(v.retenido_por_clientes)],
      ['a proveedores', formatMoney(v.retenido_a_proveedores)],
    ],
    width,
  );
}

function pending(v: NonNullable<MonthlyReport['pendientes']>, width: number | undefined) {
  return renderTable(
    [label('pendientes (PPD al cierre del mes)'), right('documentos'), right('saldo')],
    [
      ['por cobrar', formatCount(v.por_cobrar.documentos), formatMoney(v.por_cobrar.saldo)],
      ['por pagar', formatCount(v.por_pagar.documentos), formatMoney(v.por_pagar.saldo)],
    ],
    width,
  );
}

function resico(v: NonNullable<MonthlyReport['resico']>, width: number | undefined) {
  return pairs(
    'RESICO (LISR art. 113-E)',
    [
      ['ingresos cobrados sin IVA', formatMoney(v.ingresos_cobrados)],
      ['tasa', `${v.tasa.toFixed(2)} %`],
      ['ISR causado', formatMoney(v.isr_causado)],
      ['ISR retenido', formatMoney(v.isr_retenido)],
      ['ISR a pagar', formatMoney(v.isr_a_pagar)],
    ],
    width,
  );
}

type PartyRow = { rfc: string; nombre: string; documentos: number; total: number; saldo_pendiente: number };

function parties<R extends PartyRow>(
  title: string,
  moved: 'cobrado' | 'pagado',
  rows: R[],
  value: (r: R) => number,
  width: number | undefined,
) {
  if (!rows.length) return undefined;
  const table = renderTable(
    [
      { header: 'rfc' },
      { header: 'nombre', max: 40, shrink: true },
      right('docs'),
      right('total'),
      right(moved),
      right('saldo pendiente'),
    ],
    rows
      .slice(0, TOP)
      .map((r) => [
        r.rfc,
        r.nombre,
        formatCount(r.documentos),
        formatMoney(r.total),
        formatMoney(value(r)),
        formatMoney(r.saldo_pendiente),
      ]),
    width,
  );
  const more =
    rows.length > TOP ? `\n… y ${formatCount(rows.length - TOP)} más (--json los lista todos)` : '';
  return section(title, table + more);
}

/** The monthly report, section by section, in the order of plan-features §3. */
export function monthlyText(r: MonthlyReport, width: number | undefined): string {
  const parts = [
    `Reporte mensual ${mm(r.periodo.mes)}/${r.periodo.año} · ${profileLine(r.profile)} · nivel ${NIVEL[r.nivel]}`,
    accrual(r, width),
    r.flujo && cash(r.flujo, width),
    r.iva && iva(r.iva, width),
    r.isr && isr(r.isr, width),
    r.por_cliente && parties('Por cliente', 'cobrado', r.por_cliente, (p) => p.cobrado, width),
    r.por_proveedor && parties('Por proveedor', 'pagado', r.por_proveedor, (p) => p.pagado, width),
    r.pendientes && pending(r.pendientes, width),
    r.resico && resico(r.resico, width),
    warnings(r.advertencias),
  ];
  return `${parts.filter(Boolean).join('\n\n')}\n`;
}

/** What a row of the annual tables reads: a month, or the year's totals. */
type YearRow = Pick<MonthlyReport, 'ingresos' | 'egresos' | 'flujo' | 'iva'> & { isr?: number | undefined };
type YearColumn = [header: string, value: (m: YearRow) => number | undefined];

/**
 * The year: one row per month and the totals, in two tables narrow enough for a terminal (amounts,
 * then taxes); only the columns of the sections the served level has.
 */
export function annualText(r: AnnualReport, width: number | undefined): string {
  const rows: [string, YearRow][] = [
    ...r.meses.map((m): [string, YearRow] => [mm(m.periodo.mes), { ...m, isr: m.resico?.isr_a_pagar }]),
    ['total', { ...r.totales, isr: r.totales.resico?.isr_a_pagar }],
  ];
  const table = (title: string, columns: (YearColumn | false | undefined)[]) => {
    const shown = columns.filter((c): c is YearColumn => !!c);
    if (!shown.length) return undefined;
    return section(
      title,
      renderTable(
        [{ header: 'mes' }, ...shown.map(([header]) => right(header))],
        rows.map(([label, m]) => [label, ...shown.map(([, value]) => formatMoney(value(m)))]),
        width,
      ),
    );
  };
  const amounts = table('Ingresos y egresos (devengado; cobrado y pagado en flujo)', [
    ['ingresos', (m) => m.ingresos.total],
    ['egresos', (m) => m.egresos.total],
    !!r.totales.flujo && ['cobrado', (m) => m.flujo?.cobrado.total],
    !!r.totales.flujo && ['pagado', (m) => m.flujo?.pagado.total],
  ]);
  const taxes = table('Impuestos', [
    !!r.totales.iva && ['IVA a cargo', (m) => m.iva?.a_cargo],
    !!r.totales.iva && ['IVA a favor', (m) => m.iva?.a_favor],
    !!r.totales.resico && ['ISR RESICO a pagar', (m) => m.isr],
  ]);
  const advertencias = r.meses.flatMap((m) => m.advertencias.map((a) => `${mm(m.periodo.mes)}: ${a}`));
  const parts = [
    `Reporte anual ${r.año} · ${profileLine(r.profile)} · nivel ${NIVEL[r.nivel]}`,
    amounts,
    taxes,
    warnings(advertencias),
  ];
  return `${parts.filter(Boolean).join('\n\n')}\n`;
}

const DIOT_AMOUNTS = [
  ['base_16', 'base 16 %'],
  ['iva_16', 'IVA 16 %'],
  ['base_8', 'base 8 %'],
  ['iva_8', 'IVA 8 %'],
  ['base_0', 'base 0 %'],
  ['base_exenta', 'exenta'],
  ['iva_retenido', 'IVA retenido'],
] as const;

/** The DIOT: one row per supplier; amount columns that are zero for every supplier are left out. */
export function diotText(r: DiotReport, width: number | undefined): string {
  const title = `DIOT ${mm(r.periodo.mes)}/${r.periodo.año} · ${profileLine(r.profile)}`;
  const p = r.proveedores;
  if (!p.length) {
    return `${[title, 'Ningún proveedor pagado en el mes.', warnings(r.advertencias)].filter(Boolean).join('\n\n')}\n`;
  }
  const amounts = DIOT_AMOUNTS.filter(([key]) => p.some((s) => s[key] !== 0));
  const sum = (key: (typeof DIOT_AMOUNTS)[number][0]) =>
    Math.round(p.reduce((a, s) => a + s[key], 0) * 100) / 100;
  const table = renderTable(
    [
      { header: 'rfc', shrink: true },
      { header: 'nombre', max: 40, shrink: true },
      { header: 'tipo' },
      ...amounts.map(([, header]) => right(header)),
      right('docs'),
    ],
    [
      ...p.map((s) => [
        s.rfc,
        s.nombre,
        s.tipo_tercero,
        ...amounts.map(([key]) => formatMoney(s[key])),
        formatCount(s.documentos),
      ]),
      [
        'total',
        '',
        '',
        ...amounts.map(([key]) => formatMoney(sum(key))),
        formatCount(p.reduce((a, s) => a + s.documentos, 0)),
      ],
    ],
    width,
  );
  return `${[title, table, warnings(r.advertencias)].filter(Boolean).join('\n\n')}\n`;
}
